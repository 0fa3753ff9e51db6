"""A*: best-first search on f = g + h (Hart, Nilsson and Raphael 1968, "A Formal
Basis for the Heuristic Determination of Minimum Cost Paths", IEEE SSC 4(2)).

Ties on f are broken toward larger g (deeper nodes first), then by the
puzzle's optional ``tie_break(state)`` key (smaller first), then first in,
first out.  A closed table keeps each reached state's best g; a state popped
with a worse g than recorded is skipped (lazy deletion), so with an
admissible heuristic the first goal popped has least cost (re-opening keeps
this true for inconsistent heuristics).  A configuration of the best-first
loop (:mod:`searchkit.machinery.drivers.best_first`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import GUARANTEE_OPTIMAL, HEURISTIC_REQUIRED, PRUNES_ON_F, Algorithm
from searchkit.machinery.drivers._common import BEST_FIRST_HOOKS
from searchkit.limits import Limiter, Limits
from searchkit.result import SearchResult

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest


def astar(puzzle, heuristic: Callable[[Any], int], *, pruners: Sequence[Pruner] = (),
          limits: Limits | Limiter | None = None, max_cost: int | None = None) -> SearchResult:
    """Search ``puzzle`` best-first on f = g + h and return a least-cost solution.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``; admissible for an optimal answer.
        pruners: bound rules; ``cut(state, g, None)`` is asked when a state is
            popped for expansion (e.g. dominance checks).
        limits: node (expanded states) and time (seconds) limits.
        max_cost: successors with f above this are not stored; ``exhausted``
            then means no solution of cost <= ``max_cost``.

    If ``puzzle`` has a ``tie_break(state) -> int`` method, states with equal
    f and g are popped in increasing order of that key (Flood-It prefers
    larger regions); it never changes optimality.

    Returns:
        A :class:`~searchkit.result.SearchResult`; ``stats.peak_stored`` is the
        largest number of entries held at once: states in the table of best g
        (every state ever reached, each also keeping its parent link) plus
        entries in the open heap (stale entries included).  Measured after
        every expansion, so it is exact.  ``stats.iterations`` has one record
        per f-layer (each time the popped f rose), the last one being the
        layer where the search ended.
    """
    from searchkit.machinery.drivers.best_first import ASTAR, search  # here: registering needs none of it

    return search(puzzle, heuristic, ASTAR, pruners=pruners, limits=limits, max_cost=max_cost)

def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`astar` on a :class:`~searchkit.algorithm.SearchRequest`."""
    return astar(puzzle, request.needed_heuristic(), pruners=request.pruners, limits=request.limits,
                 max_cost=request.max_cost)


ALGORITHMS = (
    Algorithm("astar", run, GUARANTEE_OPTIMAL, PRUNES_ON_F, HEURISTIC_REQUIRED, rule_hooks=BEST_FIRST_HOOKS,
              detects_duplicates=True,
              summary="A*: best-first on f = g + h, ties to larger g (Hart, Nilsson, Raphael 1968)"),
)
