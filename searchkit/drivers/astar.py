"""A*: best-first search on f = g + h (Hart, Nilsson and Raphael 1968, "A Formal
Basis for the Heuristic Determination of Minimum Cost Paths", IEEE SSC 4(2)).

Ties on f are broken toward larger g (deeper nodes first), then by the
puzzle's optional ``tie_break(state)`` key (smaller first), then first in,
first out.  A closed table keeps each reached state's best g; a state popped
with a worse g than recorded is skipped (lazy deletion), so with an
admissible heuristic the first goal popped has least cost (re-opening keeps
this true for inconsistent heuristics).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

from searchkit.drivers._common import BestFirstExpansion, best_first_setup, path_to, run_guarded
from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import EXHAUSTED, SOLVED, IterationRecord, SearchResult


def astar(puzzle, heuristic: Callable[[Any], int], *, pruners: Sequence[Pruner] = (),
          limits: Limits | Limiter | None = None, max_cost: int | None = None) -> SearchResult:
    """Search ``puzzle`` best-first on f = g + h and return a least-cost solution.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``; admissible for an optimal answer.
        pruners: bound rules; ``cut(state, g, None)`` is asked when a state is
            popped for expansion (e.g. dominance checks), ``filter`` on each
            expanded state's successors.
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
    setup = best_first_setup(puzzle, pruners, limits)
    limiter, is_goal, start = setup[0], setup[2], setup[7]
    h0 = heuristic(start)
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    heap = [(h0, 0, 0, 0, start)]
    pop = heapq.heappop
    expansion = BestFirstExpansion(setup, best_g, parent, heuristic, heap, max_cost)
    expand = expansion.step
    goal = cost = None
    layers: list[IterationRecord] = []
    layer_f = limiter.bound = h0
    mark = (0, 0, 0, 0.0)  # expanded, generated, evaluated, seconds at the layer's start

    def close_layer() -> None:
        (e0, g0, v0, t0), (e1, g1, v1) = mark, expansion.figures()
        layers.append(IterationRecord(layer_f, e1 - e0, g1 - g0, limiter.elapsed() - t0, v1 - v0))

    def search() -> str:
        nonlocal goal, cost, layer_f, mark
        while heap:
            f, neg_g, _, _, state = pop(heap)
            if f > layer_f:  # the popped f rose: a new f-layer (Fast Downward's f progress)
                close_layer()
                layer_f, mark = f, (*expansion.figures(), limiter.elapsed())
                limiter.bound = f
            g = -neg_g
            if best_g.get(state, g) < g:
                continue
            if is_goal(state):
                goal, cost = state, g
                return SOLVED
            expand(state, g)
        return EXHAUSTED

    status = run_guarded(search)
    close_layer()
    # Lower bound (admissible h): until a goal is popped the heap holds an
    # entry on an optimal path with its optimal g (re-opening keeps this with
    # an inconsistent h; dominance's own proof keeps it under that rule), whose
    # f <= C*; each pop takes the least f in the heap, so every f popped, and
    # their maximum layer_f, is <= C*.  Pruned children (f > max_cost) only
    # add the cap max_cost + 1.
    if status == SOLVED:
        lower = cost
    elif status == EXHAUSTED:
        lower = None if max_cost is None else max_cost + 1
    else:
        lower = layer_f if max_cost is None else min(layer_f, max_cost + 1)
    stats = expansion.stats(iterations=tuple(layers))
    if status != SOLVED:
        return SearchResult(status=status, stats=stats, lower_bound=lower)
    moves = path_to(parent, goal)
    return SearchResult(status=SOLVED, moves=moves, cost=cost, stats=stats, lower_bound=lower)
