"""Pictures of Flood-It states for searchkit's render hook (plain values; the core draws them)."""

from __future__ import annotations

from searchkit.helpers.grid import cells_of, coords, rows_of
from searchkit.render.grid import Frame, natural_key


def render(case, puzzle, state, move) -> Frame:
    """The board of ``state``: the flooded region in the colour of ``move``, the rest as in the input.

    Cells hold the input's own values; the flooded region is marked.  With
    ``move`` ``None`` (the start) the region keeps the pivot's colour.

    Args:
        case: the case (``case.data`` is a :class:`~searchkit_flood.board.Board`).
        puzzle: its :class:`~searchkit_flood.areas.FloodPuzzle`.
        state: a state of ``puzzle``.
        move: the colour index that led to ``state``, or ``None``.
    """
    board = puzzle.board
    region = puzzle.region_cells(state)
    cells = list(board.cells)
    colour = board.cells[board.pivot] if move is None else move
    marks = []
    for i in cells_of(region):
        cells[i] = colour
        x, y = coords(i, board.width)
        marks.append((y, x))
    palette = board.palette
    rows = [[palette[c] for c in row] for row in rows_of(cells, board.width)]
    return Frame(rows, marks=marks, mark="flooded region", values=sorted(palette, key=natural_key))
