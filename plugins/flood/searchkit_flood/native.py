"""Flood-It on the native engine: the problem object the Solver hands a native request to.

The native domain is the crate ``searchkit-flood`` of ``native/`` (Rust), compiled into the optional package
``searchkit_native``.  It is the twin of :class:`~searchkit_flood.areas.FloodPuzzle`: the same area numbering,
successors in the same order with the same rules fused in (``frontier-colours``, ``no-growth``,
``completion``, ``exposure``), the same heuristics with the same values (``colours``, ``eccentricity``,
``layered``, ``puchert``, ``greedy``, ``two-best``), the ``dominance`` rule cutting the same states, and the
same tie-break; the differential tests (``tests/native/test_flood_differential.py``) hold it to that.
Moves are colour indices, as in the Python puzzle.
"""

from __future__ import annotations

#: Colour indices are 16-bit in the native engine: a board with more colours stays on the Python engine.
NATIVE_MAX_COLOURS = 1 << 16


class NativeFlood:
    """One board as a native problem: ``solve(request) -> result`` (the dicts of ``searchkit_native``).

    Attributes:
        board: the :class:`~searchkit_flood.board.Board` (its pivot set from ``--start``).
        disabled: names of the rules switched off (as the Python puzzle receives them).
    """

    __slots__ = ("_module", "board", "disabled")

    def __init__(self, module, board, disabled) -> None:
        self._module = module
        self.board = board
        self.disabled = sorted(disabled)

    def solve(self, request: dict) -> dict:
        """Search the board as ``request`` asks; the result dict's moves are colour indices.

        Raises:
            ValueError: a request the native engine refuses (an unknown heuristic or rule name).
        """
        b = self.board
        return self._module.flood_solve(b.width, b.height, list(b.cells), b.pivot, self.disabled, request)


def native_problem(board, disabled) -> NativeFlood | None:
    """The native problem of ``board`` with the rules ``disabled`` off, or ``None`` without the native package
    or for a board of more than :data:`NATIVE_MAX_COLOURS` colours."""
    try:
        import searchkit_native._native as module
    except ImportError:
        return None
    if board.colours > NATIVE_MAX_COLOURS:
        return None
    return NativeFlood(module, board, disabled)
