"""Greedy best-first search: expand the state of least h (Doran and Michie 1966,
"Experiments with the Graph Traverser program", Proc. Royal Society A 294; the
"greedy best-first search" of Russell and Norvig, "Artificial Intelligence: A
Modern Approach", 3.5.1).

Ties on h go to larger g, then to the puzzle's ``tie_break``, then first in,
first out.  A goal is taken as soon as it is generated.  No bound on its cost
follows from the order; with an admissible h the result still carries the
least g + h over the states left in the heap as ``lower_bound`` (the
good-entry invariant of :mod:`searchkit.machinery.drivers.wastar` holds for any key).
A configuration of the best-first loop (:mod:`searchkit.machinery.drivers.best_first`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import GUARANTEE_NONE, HEURISTIC_REQUIRED, PRUNES_ON_F_IF_ADMISSIBLE, Algorithm
from searchkit.machinery.drivers._common import BEST_FIRST_HOOKS
from searchkit.limits import Limiter, Limits
from searchkit.result import SearchResult

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest


def gbfs(puzzle, heuristic: Callable[[Any], int], *, pruners: Sequence[Pruner] = (),
         limits: Limits | Limiter | None = None, max_cost: int | None = None,
         admissible: bool = True) -> SearchResult:
    """Greedy best-first search on h; arguments and result as :func:`searchkit.machinery.drivers.best_first.search`
    (``admissible``: its ``prune_on_f``).

    A state reached again with a smaller g is re-opened, so ``max_cost``
    prunes soundly and ``exhausted`` is a proof (the search is complete on a
    finite space).
    """

    def key(g, h):
        return h

    from searchkit.machinery.drivers.best_first import BestFirst, search  # here: registering needs none of it

    return search(puzzle, heuristic, BestFirst(key, goal_on_generate=True, prune_on_f=admissible),
                  pruners=pruners, limits=limits, max_cost=max_cost)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`gbfs` on a :class:`~searchkit.algorithm.SearchRequest`."""
    return gbfs(puzzle, request.needed_heuristic(), pruners=request.pruners, limits=request.limits,
                max_cost=request.max_cost, admissible=request.admissible)


ALGORITHMS = (
    Algorithm("gbfs", run, GUARANTEE_NONE, PRUNES_ON_F_IF_ADMISSIBLE, HEURISTIC_REQUIRED,
              rule_hooks=BEST_FIRST_HOOKS, detects_duplicates=True,
              summary="greedy best-first search on h, goal taken when generated (Doran and Michie 1966)"),
)
