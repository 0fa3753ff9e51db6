"""IDA*: iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening:
an optimal admissible tree search", Artificial Intelligence 27).

Depth-first search bounded by f = g + h; each iteration raises the f-bound to
the smallest f that exceeded the previous one.  With an admissible heuristic
the first solution found has least cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from searchkit.drivers._common import split_pruners
from searchkit.limits import Budget, Limits, LimitReached
from searchkit.pruning import Pruner
from searchkit.result import (
    CANCELLED,
    EXHAUSTED,
    SOLVED,
    IterationRecord,
    SearchResult,
    SearchStats,
)

INF = float("inf")


def ida_star(
    puzzle,
    heuristic: Callable[[Any], int],
    *,
    pruners: Sequence[Pruner] = (),
    limits: Limits | None = None,
    transposition: bool = False,
    max_cost: int | None = None,
) -> SearchResult:
    """Search ``puzzle`` with IDA* and return a least-cost solution.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``; admissible for an optimal answer.
        pruners: bound pruning rules (``cut`` gets ``budget = bound - g``;
            ``filter`` gets each expanded state's successor list).
        limits: node (expanded states) and time (seconds) limits.
        transposition: keep a table state -> smallest g seen in the current
            iteration and skip a state reached again with a g no smaller.
        max_cost: give up (status ``exhausted``) once the f-bound exceeds it.

    Returns:
        A :class:`~searchkit.result.SearchResult`; ``stats.iterations`` has one
        record per f-bound.  Status ``exhausted`` means no solution exists within
        ``max_cost`` (or, with no bound, the reachable space holds no goal).
    """
    budget = Budget(limits)
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    cut, filt, on_fail = split_pruners(pruners)
    start = puzzle.initial_state()

    counters = [0, 0]  # expanded, generated
    path: list = []
    iterations: list[IterationRecord] = []
    table: dict | None = None
    checkpoint = budget.first_checkpoint()
    peak = 0

    def dfs(state, g, bound):
        # Returns the solution's cost, or the smallest f above bound (INF if none).
        nonlocal checkpoint
        if is_goal(state):
            return g
        if cut is not None and cut(state, g, bound - g):
            return INF
        if counters[0] >= checkpoint:
            checkpoint = budget.checkpoint(counters[0])
        counters[0] += 1
        succs = successors(state)
        if filt is not None:
            succs = filt(state, list(succs))
        nxt = INF
        generated = 0
        for move, child, cost in succs:
            generated += 1
            g2 = g + cost
            f = g2 + heuristic(child)
            if f > bound:
                if f < nxt:
                    nxt = f
                continue
            if table is not None:
                seen = table.get(child)
                if seen is not None and seen <= g2:
                    continue
                table[child] = g2
            path.append(move)
            r = dfs(child, g2, bound)
            if r <= bound:
                counters[1] += generated
                return r
            path.pop()
            if r < nxt:
                nxt = r
        counters[1] += generated
        if on_fail is not None:
            on_fail(state, g, bound - g)
        return nxt

    status = EXHAUSTED
    cost = None
    bound = heuristic(start)
    it_start, e0, g0 = 0.0, 0, 0
    try:
        while True:
            if max_cost is not None and bound > max_cost:
                break
            it_start = budget.elapsed()
            e0, g0 = counters
            if transposition:
                table = {start: 0}
            r = dfs(start, 0, bound)
            if table is not None:
                peak = max(peak, len(table))
            iterations.append(
                IterationRecord(bound, counters[0] - e0, counters[1] - g0, budget.elapsed() - it_start)
            )
            if r <= bound:
                status, cost = SOLVED, r
                break
            if r == INF:
                break
            bound = r
    except LimitReached as stop:
        status = stop.status
        iterations.append(IterationRecord(bound, counters[0] - e0, counters[1] - g0, budget.elapsed() - it_start))
    except KeyboardInterrupt:
        status = CANCELLED
    stats = SearchStats(
        expanded=counters[0],
        generated=counters[1],
        elapsed=budget.elapsed(),
        iterations=tuple(iterations),
        peak_stored=peak,
    )
    moves = tuple(path) if status == SOLVED else ()
    return SearchResult(status=status, moves=moves, cost=cost, stats=stats)
