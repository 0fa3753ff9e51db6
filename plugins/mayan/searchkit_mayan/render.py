"""Pictures of Mayan boards for searchkit's render hook: the settled boards and every step of a move.

Frames hold the input's own colours (``None`` for an empty cell), top row
first; board cell ``(x, y)`` (``(0, 0)`` bottom-left) is frame cell ``(H - 1 - y, x)``.  The frames
carry the axes (x from 0 at the left, y from 0 at the bottom), so a move ``x y dir`` can be found on them.
"""

from __future__ import annotations

from searchkit.render.grid import Frame

from searchkit_mayan.board import raw_successors


def board_frame(board: int, shape, palette, *, marks=(), mark: str = "", caption: str = "") -> Frame:
    """A packed board as a frame: colours ``palette[c - 1]``, board cells ``marks`` ((x, y)) marked."""
    h = shape.height
    rows = [[None] * shape.width for _ in range(h)]
    for x in range(shape.width):
        for y in range(h):
            c = shape.cell(board, x, y)
            if c:
                rows[h - 1 - y][x] = palette[c - 1]
    cells = [(h - 1 - y, x) for x, y in marks]
    return Frame(rows, marks=cells, mark=mark, values=palette, caption=caption, x_labels=range(shape.width),
                 y_labels=range(h - 1, -1, -1))


def render(case, puzzle, state: int, move) -> Frame:
    """The settled board ``state`` (no marks: the move's own frames mark its cells)."""
    return board_frame(state, puzzle.shape, case.data.palette)


def render_move(case, puzzle, state: int, move, child: int) -> list[Frame]:
    """The pictures of one move from ``state`` to ``child``, without ``child`` itself.

    1. ``swap``: the moved block in its new cell (floating over an empty
       column, its source cell empty, the blocks above still in place), the
       two cells marked;
    2. for each round of the cascade: the fallen board with the blocks about
       to vanish marked (``vanish``), then the board with them gone
       (``eliminated``); the next round's board shows the fall.

    The rounds are the board engine's own (:attr:`Shape.run_mask`,
    :attr:`Shape.compact`), and the last board is checked against ``child``.

    Raises:
        ValueError: ``move`` is not a legal move of ``state``, or the
            cascade does not end at ``child`` (a bug).
    """
    shape = puzzle.shape
    palette = case.data.palette
    x, y, g = move
    for mx, my, mg, a, a2, moved in raw_successors(state, shape, same_colour_swaps=puzzle.same):
        if (mx, my, mg) == (x, y, g):
            break
    else:
        raise ValueError(f"move {x} {y} {g} is not legal on this board")
    src, dst = shape.offset(x, y), shape.offset(x + g, y)
    floating = (state & ~(shape.cell_mask << src) & ~(shape.cell_mask << dst)) | (a << dst) | (a2 << src)
    frames = [board_frame(floating, shape, palette, marks=((x, y), (x + g, y)), mark="the moved blocks",
                          caption="swap")]
    b = moved
    col_offsets = [i * shape.column_bits for i in range(shape.width)]
    while True:
        m = shape.run_mask(b)
        if not m:
            break
        cells = [(cx, cy) for cx in range(shape.width) for cy in range(shape.height)
                 if (m >> shape.offset(cx, cy)) & 1]
        frames.append(board_frame(b, shape, palette, marks=cells, mark="blocks about to vanish",
                             caption="vanish"))
        b &= ~m
        frames.append(board_frame(b, shape, palette, caption="eliminated"))
        for off in col_offsets:
            col = (b >> off) & shape.column_mask
            b ^= (col ^ shape.compact(col)) << off
    if b != child:
        raise ValueError(f"the cascade of move {x} {y} {g} does not end at the settled board (a bug)")
    return frames
