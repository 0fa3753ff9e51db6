"""``--show``: the board before and after each move, drawn by searchkit's terminal renderer.

On a terminal the blocks are coloured cells (the palette of ``searchkit
show``, the value written in each); otherwise plain text, one value per cell
and ``.`` for an empty one, with no escape codes.
"""

from __future__ import annotations

import sys

from searchkit_mayan.board import apply_move
from searchkit_mayan.instance import MayanInstance


def show_solution(instance: MayanInstance, moves, *, same_colour_swaps: bool = False) -> str:
    """The start board, then each move and the settled board after it, as text.

    Uses colours (ANSI escapes) only when standard output is a terminal.
    Rows above the tallest column are left out; an empty board is ``(empty)``.
    """
    from rich.console import Console
    from rich.text import Text

    from searchkit.render import palette as pal
    from searchkit.render.terminal import frame_text

    from searchkit_mayan.render import board_frame

    board, shape = instance.packed()
    board = shape.clear_runs(board)
    palette = instance.palette
    colours = pal.assign(palette)
    tty = sys.stdout.isatty()
    console = Console(force_terminal=tty, no_color=not tty, width=200)
    width = max((len(str(v)) for v in palette), default=1)

    def draw(b: int):
        return frame_text(board_frame(b, shape, palette), colours, labels=True, colour=tty, trim=True,
                          width=width + 1 if tty else width)

    out = Text("start:\n")
    out.append(draw(board))
    out.append("\n")
    for i, (x, y, g) in enumerate(moves, 1):
        board = apply_move(board, x, y, g, shape, same_colour_swaps=same_colour_swaps)
        out.append(f"move {i}: {x} {y} {g}\n")
        out.append(draw(board))
        out.append("\n")
    with console.capture() as cap:
        console.print(out, end="")
    return cap.get().rstrip("\n")
