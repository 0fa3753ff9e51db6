"""Partial-expansion A* (Yoshizumi, Miura and Ishida 2000, "A* with Partial Expansion for
Large Branching Factor Problems", AAAI): A* that stores only the children it may need next.

When A* expands a state n popped with key F(n) (first its f), most children
of a large branching factor have f above F(n) and many are never popped.
PEA* generates every child but stores only those with f <= F(n); if some
were left out, n goes back on the open list with F(n) = the least f among
them, and is expanded again when that key comes up, storing the next slice.
The heap and the table of best g then hold far fewer entries (memory is
what limits A* on large boards), at the price of generating and evaluating
the left-out children again.

Ties as in :mod:`searchkit.machinery.drivers.astar` (larger g, then the puzzle's
``tie_break``, then first in, first out), and the same f-layer records.

**Optimality** (admissible h, re-opening on a smaller g as A* does).  Call a
heap entry (s, g) *good* when g + opt(s) = C*.  Until a goal is popped some
good entry is in the heap with key <= C*: the start is; take the good entry
pushed with the largest g and follow it.  Popped as stale or cut by a rule
sound for optimal search, it is replaced as in A* (the rules' own proofs; a
state popped again for its next slice is never cut, so the rule sees every
state once).  Expanded, it generates an optimal child c with f(c) = g + 1 +
h(c) <= C*: either f(c) <= F and c is pushed (good, larger g), or c is left
out and the state goes back with F' = least left-out f <= f(c) <= C* -- a
good entry again, with key <= C*.  So every popped key, and the largest
(``layer_f``), is a lower bound, and the first goal popped is optimal.

A configuration of the best-first loop (:mod:`searchkit.machinery.drivers.best_first`).
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


def peastar(puzzle, heuristic: Callable[[Any], int], *, pruners: Sequence[Pruner] = (),
            limits: Limits | Limiter | None = None, max_cost: int | None = None) -> SearchResult:
    """Partial-expansion A* (module docstring): a least-cost solution, storing fewer states than A*.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``; admissible for an optimal answer.
        pruners: ``cut(state, g, None)`` when a state is popped the first
            time.
        limits: node (expansions, a state's further slices included) and time limits.
        max_cost: children with f above it are never stored; ``exhausted``
            then means no solution of cost <= ``max_cost``.

    Returns:
        A :class:`~searchkit.result.SearchResult` as
        :func:`searchkit.machinery.drivers.astar.astar` returns; ``stats.expanded``
        counts every expansion (a state expanded in three slices counts
        three), ``stats.peak_stored`` the most entries held at once in the
        table of best g and the heap.
    """
    from searchkit.machinery.drivers.best_first import PEASTAR, search  # here: registering needs none of it

    return search(puzzle, heuristic, PEASTAR, pruners=pruners, limits=limits, max_cost=max_cost)

def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`peastar` on a :class:`~searchkit.algorithm.SearchRequest`."""
    return peastar(puzzle, request.needed_heuristic(), pruners=request.pruners, limits=request.limits,
                   max_cost=request.max_cost)


ALGORITHMS = (
    Algorithm("peastar", run, GUARANTEE_OPTIMAL, PRUNES_ON_F, HEURISTIC_REQUIRED, rule_hooks=BEST_FIRST_HOOKS,
              detects_duplicates=True,
              summary="partial-expansion A*: stores only children with f <= the parent's key, fewer states "
                      "held (Yoshizumi, Miura, Ishida 2000)"),
)
