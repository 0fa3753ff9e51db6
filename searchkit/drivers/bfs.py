"""Breadth-first search: the optimal reference for unit-cost puzzles.

Meant for tests on small instances (it stores every reached state).
"""

from __future__ import annotations

from collections import deque

from searchkit.drivers._common import path_to
from searchkit.limits import Budget, Limits, LimitReached
from searchkit.result import CANCELLED, EXHAUSTED, SOLVED, SearchResult, SearchStats


def bfs(puzzle, *, limits: Limits | None = None, max_cost: int | None = None) -> SearchResult:
    """Breadth-first search for a fewest-moves solution.

    Successors are taken in the puzzle's move order and without any pruning
    rule, so the result is the optimum of the plain rules.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle` whose step costs are all 1.
        limits: node (expanded states) and time (seconds) limits.
        max_cost: do not look deeper than this many moves.

    Returns:
        A :class:`~searchkit.result.SearchResult` with a fewest-moves solution;
        ``stats.peak_stored`` is the number of states reached.

    Raises:
        ValueError: if a step cost is not 1 (use ``astar`` for weighted puzzles).
    """
    budget = Budget(limits)
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    start = puzzle.initial_state()
    parent: dict = {start: None}
    frontier = deque([(start, 0)])
    expanded = generated = 0
    checkpoint = budget.first_checkpoint()
    status = EXHAUSTED
    goal = None
    try:
        if is_goal(start):
            status, goal = SOLVED, start
        while frontier and goal is None:
            state, g = frontier.popleft()
            if max_cost is not None and g >= max_cost:
                continue
            if expanded >= checkpoint:
                checkpoint = budget.checkpoint(expanded)
            expanded += 1
            for move, child, cost in successors(state):
                generated += 1
                if cost != 1:
                    raise ValueError(f"bfs needs unit step costs, got {cost} for move {move!r}")
                if child in parent:
                    continue
                parent[child] = (state, move)
                if is_goal(child):
                    status, goal = SOLVED, child
                    break
                frontier.append((child, g + 1))
    except LimitReached as stop:
        status = stop.status
    except KeyboardInterrupt:
        status = CANCELLED
    stats = SearchStats(expanded=expanded, generated=generated, elapsed=budget.elapsed(), peak_stored=len(parent))
    if status != SOLVED:
        return SearchResult(status=status, stats=stats)
    moves = path_to(parent, goal)
    return SearchResult(status=SOLVED, moves=moves, cost=len(moves), stats=stats)
