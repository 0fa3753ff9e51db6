"""Weighted A*: best-first search on f_w = g + w * h, w >= 1 (Pohl 1970, "Heuristic search
viewed as path finding in a graph", Artificial Intelligence 1(3)), and the best-first
core that :mod:`searchkit.drivers.gbfs` shares.

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

import heapq
import math
from collections.abc import Callable, Sequence
from typing import Any

from searchkit.algorithm import HEURISTIC_REQUIRED, PRUNES_ON_F_IF_ADMISSIBLE, Algorithm, Param, SearchRequest, bounded
from searchkit.drivers._common import (BEST_FIRST_HOOKS, BestFirstExpansion, best_first_setup, conclude, exact_weight,
                                      path_to, run_guarded)
from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import EXHAUSTED, SOLVED, SearchResult


def best_first(
    puzzle,
    heuristic: Callable[[Any], int],
    key: Callable[[int, int], float],
    *,
    pruners: Sequence[Pruner] = (),
    limits: Limits | Limiter | None = None,
    max_cost: int | None = None,
    admissible: bool = True,
    goal_on_generate: bool = False,
    weight: float | None = None,
) -> SearchResult:
    """Best-first search on ``key(g, h)`` (smaller first; ties to larger g, the puzzle's ``tie_break``, FIFO).

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``.
        key: the priority of a state reached with cost ``g`` and estimate ``h``.
        pruners: ``cut(state, g, None)`` when a state is popped, ``filter`` on successors.
        limits: node (expanded states) and time (seconds) limits.
        max_cost: only solutions of cost <= ``max_cost`` are sought: a child
            with g + h (admissible h) or g (otherwise) above it is not stored.
        admissible: ``heuristic`` never overestimates (prune on g + h, derive
            ``lower_bound``).
        goal_on_generate: take a goal as soon as it is generated (greedy
            search; no bound on its cost) instead of when popped.
        weight: the w of f_w = g + w h when ``key`` is one, for the
            ``ceil(C / w)`` bound (``None``: no such bound).

    Returns:
        A :class:`~searchkit.result.SearchResult`: ``solved`` when the proven
        ``lower_bound`` meets the cost, ``feasible`` with a solution otherwise,
        ``exhausted`` when no solution of cost <= ``max_cost`` exists (then
        ``lower_bound = max_cost + 1``), or the limit's status with the bound
        proven so far (admissible h only).
    """
    setup = best_first_setup(puzzle, pruners, limits)
    _, _, is_goal, _, _, _, _, start = setup
    h0 = heuristic(start)
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    heap = [(key(0, h0), 0, 0, 0, h0, start)]
    pop = heapq.heappop
    expansion = BestFirstExpansion(setup, best_g, parent, heuristic, heap, max_cost, key,
                                   prune_on_f=admissible, goal_test=is_goal if goal_on_generate else None)
    expand = expansion.step
    found: list = []  # [goal, cost]
    # g + h of the state popped last: a limit (raised before its expansion)
    # or a goal generated among its children leaves it out of the heap.
    current = [h0]

    def search() -> str:
        if is_goal(start):
            found[:] = [start, 0]
            return SOLVED
        while heap:
            _, neg_g, _, _, f, state = pop(heap)
            g = -neg_g
            if best_g.get(state, g) < g:
                continue
            current[0] = f
            if not goal_on_generate and is_goal(state):
                found[:] = [state, g]
                return SOLVED
            goal = expand(state, g)
            if goal is not None:
                found[:] = [goal, best_g[goal]]
                return SOLVED
        return EXHAUSTED

    status = run_guarded(search)
    stats = expansion.stats()
    bound = None
    if admissible:
        # g + h of every entry left and of the state popped last (module docstring).
        bound = min(min((e[4] for e in heap), default=math.inf), current[0])
        if max_cost is not None:
            bound = min(bound, max_cost + 1)
    if not found:  # exhausted, a limit or Ctrl-C
        return conclude(status, stats, bound=bound, max_cost=max_cost)
    goal, cost = found
    if bound is not None and weight is not None and not goal_on_generate:
        p, q = exact_weight(weight)
        bound = max(min(bound, cost), -(-cost * q // p))  # ceil(cost / w), exactly
    return conclude(status, stats, moves=path_to(parent, goal), cost=cost, bound=bound)


def wastar(puzzle, heuristic: Callable[[Any], int], *, weight: float = 2.0, pruners: Sequence[Pruner] = (),
           limits: Limits | Limiter | None = None, max_cost: int | None = None,
           admissible: bool = True) -> SearchResult:
    """Weighted A*: best-first on g + ``weight`` * h; with an admissible h the cost is at most ``weight`` x optimal.

    Args:
        weight: w >= 1 (1 is A*).

    The other arguments are those of :func:`best_first`.

    Returns:
        As :func:`best_first`; ``lower_bound`` >= ceil(cost / w) by
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

    return best_first(puzzle, heuristic, key, pruners=pruners, limits=limits, max_cost=max_cost,
                      admissible=admissible, weight=weight)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`wastar` on a :class:`~searchkit.algorithm.SearchRequest` (option ``weight``)."""
    return wastar(puzzle, request.heuristic, weight=request.params["weight"], pruners=request.pruners,
                  limits=request.limits, max_cost=request.max_cost, admissible=request.admissible)


ALGORITHMS = (
    Algorithm("wastar", run, bounded("weight"), PRUNES_ON_F_IF_ADMISSIBLE, HEURISTIC_REQUIRED,
              rule_hooks=BEST_FIRST_HOOKS,
              params=(Param("weight", float, 2.0, "w in f = g + w*h; cost <= w * optimal with an admissible h",
                            min=1),),
              native="wastar",
              summary="weighted A* on g + w*h, cost at most w x optimal (Pohl 1970)"),
)
