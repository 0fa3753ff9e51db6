"""``--show``: the board before and after each move, coloured with rich on a terminal."""

from __future__ import annotations

import sys

from searchkit_mayan.board import apply_move, to_columns
from searchkit_mayan.instance import MayanInstance

_STYLES = ("red", "green", "yellow", "blue", "magenta", "cyan", "bright_red", "bright_green",
           "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "white", "bright_white", "grey50")


def _render(columns, height, palette):
    from rich.text import Text

    text = Text()
    top = max((len(c) for c in columns), default=0)
    width = max((len(str(v)) for v in palette), default=1)
    if top == 0:
        text.append("(empty)\n")
        return text
    for y in range(min(top, height) - 1, -1, -1):
        for x, col in enumerate(columns):
            if x:
                text.append(" ")
            if y < len(col):
                value = palette[col[y] - 1]
                text.append(str(value).rjust(width), style=_STYLES[(col[y] - 1) % len(_STYLES)])
            else:
                text.append(".".rjust(width), style="dim")
        text.append("\n")
    return text


def show_solution(instance: MayanInstance, moves, *, same_colour_swaps: bool = False) -> str:
    """The start board, then each move and the settled board after it, as text.

    Uses colours (ANSI escapes) only when standard output is a terminal.
    """
    from rich.console import Console
    from rich.text import Text

    board, shape = instance.packed()
    board = shape.clear_runs(board)
    palette = instance.palette
    console = Console(force_terminal=sys.stdout.isatty(), no_color=not sys.stdout.isatty(), width=200)
    out = Text("start:\n")
    out.append(_render(to_columns(board, shape), shape.height, palette))
    for i, (x, y, g) in enumerate(moves, 1):
        board = apply_move(board, x, y, g, shape, same_colour_swaps=same_colour_swaps)
        out.append(f"move {i}: {x} {y} {g}\n")
        out.append(_render(to_columns(board, shape), shape.height, palette))
    with console.capture() as cap:
        console.print(out, end="")
    return cap.get().rstrip("\n")
