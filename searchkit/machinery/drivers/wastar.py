"""Weighted A*: best-first search on f_w = g + w * h, w >= 1 (Pohl 1970, "Heuristic search
viewed as path finding in a graph", Artificial Intelligence 1(3)): a configuration of
the best-first loop (:mod:`searchkit.machinery.drivers.best_first`), as greedy search is.

Bounds (h admissible, every step cost >= 0, integer costs):

* **w-admissibility.**  Call a heap entry (s, g) *good* when g + opt(s) = C*,
  the optimal cost.  Until an optimal goal is popped some good entry is in
  the heap: the start is good, and the good entry with the largest g was
  popped and then either skipped because a smaller g was recorded for s
  (impossible: that g plus opt(s) would be below C*), cut by a rule sound for
  optimal search (Flood-It's ``dominance``: a dominating state expanded at
  the same g is good too, proof in ``searchkit_flood.dominance``), or
  expanded, pushing a good child with a larger g (a rule sound for optimal
  search keeps some optimal move).  The argument does not use the pop order,
  so it holds for any key.  When a goal of cost C is popped, the good entry
  (s, g) still in the heap has key g + w h(s) <= g + w opt(s) <= w (g + opt(s))
  = w C*, and the goal was popped first: C <= w C*.
* **The lower bound.**  By the same invariant, min over the heap of
  g + h <= g + opt(s) = C* for the good entry, so ``lower_bound`` =
  max(ceil(C / w), min(C, least g + h over the heap and the state popped
  last)) at the end -- the state popped last counts because a limit (raised
  before its expansion) or a goal among its children (``gbfs`` takes goals
  when generated) may leave the only good entry outside the heap.  Stale heap
  entries only lower the minimum, so they do no harm.  The result is
  ``solved`` when this bound meets the cost, else ``feasible``.

With an inadmissible h neither bound holds; the Solver then drops
``lower_bound`` and reports ``feasible``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import (HEURISTIC_REQUIRED, PRUNES_ON_F_IF_ADMISSIBLE, WEIGHT_DECIMALS, WEIGHT_MAX, Algorithm,
                                 Param, bounded)
from searchkit.machinery.drivers._common import BEST_FIRST_HOOKS, exact_weight
from searchkit.limits import Limiter, Limits
from searchkit.result import SearchResult

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest


def wastar(puzzle, heuristic: Callable[[Any], int], *, weight: float = 2.0, pruners: Sequence[Pruner] = (),
           limits: Limits | Limiter | None = None, max_cost: int | None = None,
           admissible: bool = True) -> SearchResult:
    """Weighted A*: best-first on g + ``weight`` * h; with an admissible h the cost is at most ``weight`` x optimal.

    Args:
        weight: w >= 1 (1 is A*).

    The other arguments are those of :func:`searchkit.machinery.drivers.best_first.search` (``admissible``: its
    ``prune_on_f``; the lower bound needs it).

    Returns:
        As :func:`searchkit.machinery.drivers.best_first.search`; ``lower_bound`` >= ceil(cost / w) by
        w-admissibility (module docstring), raised to the least g + h left
        in the heap when that is larger.

    Raises:
        ValueError: ``weight`` below 1.
    """
    if not weight >= 1:
        raise ValueError(f"weight must be at least 1, got {weight}")

    p, q = exact_weight(weight)

    def key(g, h):  # g + w h scaled by q, an integer: the exact order (``exact_weight``)
        return q * g + p * h

    from searchkit.machinery.drivers.best_first import BestFirst, search  # here: registering needs none of it

    return search(puzzle, heuristic, BestFirst(key, prune_on_f=admissible, weight=weight), pruners=pruners,
                  limits=limits, max_cost=max_cost)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`wastar` on a :class:`~searchkit.algorithm.SearchRequest` (option ``weight``)."""
    return wastar(puzzle, request.needed_heuristic(), weight=request.params["weight"], pruners=request.pruners,
                  limits=request.limits, max_cost=request.max_cost, admissible=request.admissible)


ALGORITHMS = (
    Algorithm("wastar", run, bounded("weight"), PRUNES_ON_F_IF_ADMISSIBLE, HEURISTIC_REQUIRED,
              rule_hooks=BEST_FIRST_HOOKS,
              params=(Param("weight", float, 2.0, "w in f = g + w*h; cost <= w * optimal with an admissible h",
                            min=1, max=WEIGHT_MAX, decimals=WEIGHT_DECIMALS),), detects_duplicates=True,
              summary="weighted A* on g + w*h, cost at most w x optimal (Pohl 1970)"),
)


def __getattr__(name: str):
    """``best_first`` (its old home was here), ``BestFirst`` and ``search``: from
    :mod:`~searchkit.machinery.drivers.best_first`, imported on first use."""
    if name in ("best_first", "BestFirst", "search"):
        from searchkit.machinery.drivers import best_first

        return getattr(best_first, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
