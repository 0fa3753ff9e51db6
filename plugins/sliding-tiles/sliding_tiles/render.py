"""Pictures of sliding-tile boards for searchkit's render hook (plain values; the core draws them)."""

from __future__ import annotations

from searchkit.render.grid import Frame

#: Where the tile that slid sits after the blank moved U/D/L/R: the blank's old cell, as an offset from its new one.
_BACK = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


def render(case, puzzle, state, move) -> Frame:
    """The board of ``state``: tile numbers (the blank empty), the tile that just slid marked.

    ``move`` is the direction the blank moved (``U``/``D``/``L``/``R``) or
    ``None`` for the start; the tile that slid is now where the blank was.  A board read under ``--goal
    blank-first`` is drawn as given (its search runs on it turned: see
    :class:`~sliding_tiles.game.TurnedBoard`), with the move as seen on it.
    """
    from sliding_tiles.game import _TURNED, TurnedBoard, to_blank_last

    n = puzzle.n
    board = state[:puzzle.cells]
    if isinstance(case.data, TurnedBoard):
        board = to_blank_last(board)
        move = None if move is None else _TURNED[move]
    rows = [[board[r * n + c] or None for c in range(n)] for r in range(n)]
    marks = []
    if move is not None:
        br, bc = divmod(board.index(0), n)
        dr, dc = _BACK[move]
        marks.append((br + dr, bc + dc))
    return Frame(rows, marks=marks, mark="the tile that slid", values=range(1, puzzle.cells), labels=True)
