"""Test helper: a packed Mayan board solved with chosen rules, through ``searchkit.run``.

:func:`solve` answers NOIP 2011 day 1 problem 3 (Luogu P1312) for a packed
board: the lexicographically smallest sequence of exactly n moves that
empties it, or None.  It builds a :class:`~searchkit_mayan.puzzle.MayanPuzzle`
with the chosen pruning rules switched on or off one by one and runs
``bounded_dfs`` by name (``searchkit.run``), as ``searchkit solve mayan``
does, so the rule tests need no registry.  It lived in the plugin as
``searchkit_mayan.search``, a second solve path with its own rule flags
(issue 20 item 8): the plugin's generator now calls ``searchkit.run``.
"""

from __future__ import annotations

from searchkit import run
from searchkit.plugin import failure_memo

from searchkit_mayan.board import STANDARD, Shape, from_columns
from searchkit_mayan.puzzle import RULE_BOUND, RULE_FEW, RULE_LEFT, MayanPuzzle

__all__ = ["solve", "solve_columns", "format_moves"]


def format_moves(moves) -> str:
    """The judge's output: one ``x y g`` line per move, or ``-1`` for None."""
    if moves is None:
        return "-1"
    return "\n".join(f"{x} {y} {g}" for x, y, g in moves)


def solve(board: int, n: int, shape: Shape = STANDARD, *, mode: str = "exact", same_colour_swaps: bool = False,
          skip_left_swaps: bool = True, colour_cut: bool = True, transposition: bool = True,
          lower_bound: bool = True):
    """The smallest solution of exactly n moves (``mode="shortest"``: fewest moves <= n).

    Args:
        board: a packed board (a run on it is settled first).
        n: the number of moves (>= 0).
        shape: the board geometry.
        mode: ``"exact"`` or ``"shortest"``.
        same_colour_swaps: the AcWing rule (a same-colour swap is a move that changes nothing).
        skip_left_swaps, colour_cut, transposition, lower_bound: the pruning
            rules ``left-swap``, ``few-blocks``, ``transposition``, ``lower-bound``.

    Returns:
        An :class:`Answer`: ``moves``, a list of ``(x, y, g)`` tuples or None
        when there is no solution, and ``result``, the driver's
        :class:`~searchkit.result.SearchResult` (status and statistics).

    Raises:
        ValueError: an unknown mode or a negative n.
    """
    if mode not in ("exact", "shortest"):
        raise ValueError(f"mode must be 'exact' or 'shortest', got {mode!r}")
    disabled = frozenset(name for name, on in ((RULE_LEFT, skip_left_swaps), (RULE_FEW, colour_cut),
                                               (RULE_BOUND, lower_bound)) if not on)
    puzzle = MayanPuzzle(board, shape, same_colour_swaps=same_colour_swaps, disabled=disabled)
    result = run(puzzle, "bounded_dfs", max_cost=n, mode=mode, pruners=[failure_memo()] if transposition else [])
    return Answer(list(result.moves) if result.solved else None, result)


class Answer:
    """``moves`` (a list of ``(x, y, g)`` or None) and the driver's ``result``."""

    __slots__ = ("moves", "result")

    def __init__(self, moves, result) -> None:
        self.moves = moves
        self.result = result


def solve_columns(columns, n: int, *, width: int = 5, height: int = 7, run: int = 3, **options):
    """:func:`solve` for a board given as column lists (bottom-up, any positive colours).

    Colours are renumbered 1..K in order of value (moves do not depend on them).

    Raises:
        ValueError: as :func:`~searchkit_mayan.board.from_columns`.
    """
    palette = sorted({c for col in columns for c in col})
    index = {c: i for i, c in enumerate(palette, 1)}
    shape = Shape(width, height, run, max(4, len(palette).bit_length()))
    board = from_columns([[index[c] for c in col] for col in columns], shape)
    return solve(board, n, shape, **options)
