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

from searchkit.drivers._common import path_to, run_guarded, split_pruners
from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import EXHAUSTED, SOLVED, IterationRecord, SearchResult, SearchStats


def astar(
    puzzle,
    heuristic: Callable[[Any], int],
    *,
    pruners: Sequence[Pruner] = (),
    limits: Limits | Limiter | None = None,
    max_cost: int | None = None,
) -> SearchResult:
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
    limiter = Limiter.of(limits)
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    cut, filt, _, cuts = split_pruners(pruners)
    start = puzzle.initial_state()
    h0 = heuristic(start)
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    tie = 0
    tie_break = getattr(puzzle, "tie_break", None)
    heap = [(h0, 0, 0, tie, start)]
    push, pop = heapq.heappush, heapq.heappop
    expanded = generated = 0
    evaluated = 1
    peak = 2
    checkpoint = limiter.first_checkpoint()
    goal = cost = None
    layers: list[IterationRecord] = []
    layer_f = limiter.bound = h0
    mark = (0, 0, 0, 0.0)  # expanded, generated, evaluated, seconds at the layer's start

    def close_layer() -> None:
        e0, g0, v0, t0 = mark
        now = limiter.elapsed()
        layers.append(IterationRecord(layer_f, expanded - e0, generated - g0, now - t0, evaluated - v0))

    def search() -> str:
        nonlocal expanded, generated, evaluated, peak, checkpoint, tie, goal, cost, layer_f, mark
        while heap:
            f, neg_g, _, _, state = pop(heap)
            if f > layer_f:  # the popped f rose: a new f-layer (Fast Downward's f progress)
                close_layer()
                layer_f, mark = f, (expanded, generated, evaluated, limiter.elapsed())
                limiter.bound = f
            g = -neg_g
            if best_g.get(state, g) < g:
                continue
            if is_goal(state):
                goal, cost = state, g
                return SOLVED
            if cut is not None and cut(state, g, None):
                continue
            if expanded >= checkpoint:
                checkpoint = limiter.checkpoint(expanded)
            expanded += 1
            succs = successors(state)
            if filt is not None:
                succs = filt(state, list(succs))
            for move, child, step in succs:
                generated += 1
                g2 = g + step
                old = best_g.get(child)
                if old is not None and old <= g2:
                    continue
                evaluated += 1
                f2 = g2 + heuristic(child)
                if max_cost is not None and f2 > max_cost:
                    continue
                best_g[child] = g2
                parent[child] = (state, move)
                tie += 1
                push(heap, (f2, -g2, tie_break(child) if tie_break is not None else 0, tie, child))
            # The table and the heap only grow while pushing, so the peak is
            # reached right after some expansion: checking here is exact.
            size = len(best_g) + len(heap)
            if size > peak:
                peak = size
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
    stats = SearchStats(expanded=expanded, generated=generated, evaluated=evaluated, elapsed=limiter.elapsed(),
                        peak_stored=peak, iterations=tuple(layers), rule_cuts=tuple(cuts.items()))
    if status != SOLVED:
        return SearchResult(status=status, stats=stats, lower_bound=lower)
    moves = path_to(parent, goal)
    return SearchResult(status=SOLVED, moves=moves, cost=cost, stats=stats, lower_bound=lower)
