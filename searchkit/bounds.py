"""Upper bounds from outside the search: a known solution's cost caps the cost worth seeking.

A plugin registers an :class:`UpperBound` provider for its game: a cheap
procedure (a greedy play-out, say) that returns a valid solution.  The Solver
checks it by replay and uses its cost U as the upper bound of an optimal
search, which then looks only for solutions cheaper than U (``--upper-bound
auto``), and seeds the ``anytime`` driver with it.  ``--seed-solution`` gives
such a solution by hand; :func:`check_moves` checks either kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from searchkit.errors import SearchkitError


@attrs.frozen
class UpperBound:
    """A registered provider of a solution for one game's cases.

    Attributes:
        game: the game it applies to.
        name: short lowercase name.
        factory: ``factory(puzzle) -> moves`` (a sequence of the puzzle's
            moves from the initial state to a goal), or ``None`` when it
            found no solution (the case then has no upper bound: it is
            searched as without one); or a ``"module:attr"`` string naming it.
        summary: one line for listings.
        native: ``(algorithm, heuristic)``: the search ``factory`` runs first, named for the native engine
            (e.g. ``("beam(width=4)", "puchert")``), or ``None``.  On the native engine, when the game's
            native module has both components, the Solver runs that search there instead of ``factory``
            and replays its solution with the Python game before using it; when it finds none, ``factory``
            runs on the Python puzzle.  The claim a provider makes by naming it: ``factory`` returns that
            search's solution whenever it has one, so both engines start from the same seed (a test should
            compare them, as flood's does).
    """

    game: str
    name: str
    factory: Callable[[Any], Sequence[Any]] | str
    summary: str = ""
    native: tuple[str, str | None] | None = None

    def solve(self, puzzle) -> tuple | None:
        """The provider's moves for ``puzzle`` (not yet checked: see :func:`check_moves`), or ``None``: none found."""
        from searchkit._refs import resolve

        moves = resolve(self.factory)(puzzle)
        return None if moves is None else tuple(moves)


class SeedError(SearchkitError):
    """A seed solution that is not a solution of its case."""


def check_moves(puzzle, moves: Sequence[Any], render: Callable[[Any], Any] | None = None) -> tuple[tuple, int]:
    """Replay ``moves`` from the initial state with the puzzle's ``successors``; return ``(moves, cost)``.

    Args:
        puzzle: the puzzle, built with every pruning rule off (a rule may
            drop moves that some valid solution uses).
        moves: the puzzle's own moves, or their printed forms when ``render``
            is given.
        render: ``render(move) -> printed form``; each given move is matched
            against the rendered successors (so a seed can be written as the
            game prints moves).

    Returns:
        The puzzle's moves and the total step cost.

    Raises:
        SeedError: a move not among the successors of its state (naming its
            position), or the last state is not a goal.
    """
    state = puzzle.initial_state()
    out = []
    cost = 0
    for i, move in enumerate(moves, 1):
        for m, child, step in puzzle.successors(state):
            if (m if render is None else render(m)) == move:
                state, cost = child, cost + step
                out.append(m)
                break
        else:
            raise SeedError(f"seed solution: move {i} ({move}) is not legal in its state")
    if not puzzle.is_goal(state):
        raise SeedError(f"seed solution: the {len(out)} moves do not reach a goal")
    return tuple(out), cost
