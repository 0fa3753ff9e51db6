"""Depth-bounded depth-first search returning the first solution in move order.

The driver for puzzles whose answer is "the first (e.g. lexicographically
smallest) move sequence of a given length", such as the NOIP 2011 Mayan
puzzle: successors are tried in the puzzle's own order, so the first solution
found is the smallest in that order.
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

MODES = ("exact", "at_most", "shortest")


def bounded_dfs(
    puzzle,
    depth: int,
    *,
    mode: str = "exact",
    heuristic: Callable[[Any], int] | None = None,
    pruners: Sequence[Pruner] = (),
    limits: Limits | None = None,
) -> SearchResult:
    """Depth-first search to cost ``depth``; return the first solution found.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.  Its
            ``bounded_successors(state, budget)`` is used when present.
        depth: the cost bound (number of moves for unit costs), >= 0.
        mode: ``"exact"``: a goal counts only at cost exactly ``depth``;
            ``"at_most"``: the first goal met at cost <= ``depth`` in depth-first
            order; ``"shortest"``: exact search at 0, 1, ..., ``depth`` in turn,
            so the answer has least cost and is the first in move order among
            those (iterative deepening).
        heuristic: optional admissible ``estimate(state) -> int``; a child with
            ``g + h > depth`` is not entered.
        pruners: bound pruning rules (``cut``/``on_fail`` get ``budget = depth - g``).
        limits: node (expanded states) and time (seconds) limits.

    Returns:
        A :class:`~searchkit.result.SearchResult`; ``exhausted`` means no solution
        within the bound.  ``stats.per_depth[g]`` counts states expanded at depth g
        and ``stats.per_depth_seconds[g]`` the time spent expanding them (their
        own work, children excluded);
        in ``shortest`` mode ``stats.iterations`` has one record per depth tried.

    Raises:
        ValueError: for an unknown ``mode`` or a negative ``depth``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if depth is None or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    budget = Budget(limits)
    expand = getattr(puzzle, "bounded_successors", None)
    if expand is None:
        plain = puzzle.successors

        def expand(state, _budget):
            return plain(state)

    is_goal = puzzle.is_goal
    cut, filt, on_fail = split_pruners(pruners)
    h = heuristic
    per_depth = [0] * (depth + 1)
    inclusive = [0.0] * (depth + 2)  # seconds in subtrees rooted at each depth
    clock = budget.clock
    counters = [0, 0]
    path: list = []
    solution_cost = [None]
    checkpoint = budget.first_checkpoint()

    def dfs(state, g, limit, exact):
        nonlocal checkpoint
        left = limit - g
        if is_goal(state) and (left == 0 or not exact):
            solution_cost[0] = g
            return True
        if left <= 0:
            return False
        if cut is not None and cut(state, g, left):
            return False
        if counters[0] >= checkpoint:
            checkpoint = budget.checkpoint(counters[0])
        counters[0] += 1
        per_depth[g] += 1
        t0 = clock()
        succs = expand(state, left)
        if filt is not None:
            succs = filt(state, list(succs))
        for move, child, cost in succs:
            counters[1] += 1
            if cost > left or (h is not None and cost + h(child) > left):
                continue
            path.append(move)
            if dfs(child, g + cost, limit, exact):
                inclusive[g] += clock() - t0
                return True
            path.pop()
        if on_fail is not None:
            on_fail(state, g, left)
        inclusive[g] += clock() - t0
        return False

    start = puzzle.initial_state()
    status = EXHAUSTED
    iterations: list[IterationRecord] = []
    limits_tried = range(depth + 1) if mode == "shortest" else (depth,)
    exact = mode != "at_most"
    bound, e0, g0, t0 = depth, 0, 0, 0.0
    try:
        for bound in limits_tried:
            e0, g0, t0 = counters[0], counters[1], budget.elapsed()
            found = dfs(start, 0, bound, exact)
            iterations.append(IterationRecord(bound, counters[0] - e0, counters[1] - g0, budget.elapsed() - t0))
            if found:
                status = SOLVED
                break
    except LimitReached as stop:
        status = stop.status
        iterations.append(IterationRecord(bound, counters[0] - e0, counters[1] - g0, budget.elapsed() - t0))
    except KeyboardInterrupt:
        status = CANCELLED
    stats = SearchStats(
        expanded=counters[0],
        generated=counters[1],
        elapsed=budget.elapsed(),
        iterations=tuple(iterations) if mode == "shortest" else (),
        per_depth=tuple(per_depth),  # summed over the depths tried in "shortest" mode
        per_depth_seconds=tuple(max(0.0, inclusive[g] - inclusive[g + 1]) for g in range(depth + 1)),
    )
    if status != SOLVED:
        return SearchResult(status=status, stats=stats)
    return SearchResult(status=SOLVED, moves=tuple(path), cost=solution_cost[0], stats=stats)
