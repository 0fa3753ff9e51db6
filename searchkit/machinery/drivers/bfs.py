"""Breadth-first search: the optimal reference for unit-cost puzzles.

Meant for tests on small instances (it stores every reached state).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from searchkit.algorithm import GUARANTEE_OPTIMAL, HEURISTIC_NONE, PRUNES_ON_G, Algorithm
from searchkit.machinery.drivers._common import path_to, run_guarded
from searchkit.limits import Limiter, Limits
from searchkit.result import EXHAUSTED, SOLVED, SearchResult, SearchStats

if TYPE_CHECKING:  # annotations only: a native search never creates the class
    from searchkit.request import SearchRequest


def bfs(puzzle, *, limits: Limits | Limiter | None = None, max_cost: int | None = None) -> SearchResult:
    """Breadth-first search for a fewest-moves solution.

    Successors are taken in the puzzle's move order, so the solution is the
    first fewest-moves one in that order (a parent is recorded when a state
    is first reached, and the frontier stays in move order).  Registered as
    a *plain* algorithm: the Solver builds its puzzle with every pruning rule
    off, so the result is the optimum of the plain rules (the test reference).

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
    limiter = Limiter.of(limits)
    successors = puzzle.successors
    is_goal = puzzle.is_goal
    start = puzzle.initial_state()
    parent: dict = {start: None}
    frontier = deque([(start, 0)])
    expanded = generated = 0
    checkpoint = limiter.first_checkpoint()
    goal = None

    def search() -> str:
        nonlocal expanded, generated, checkpoint, goal
        if is_goal(start):
            goal = start
            return SOLVED
        while frontier:
            state, g = frontier.popleft()
            if max_cost is not None and g >= max_cost:
                continue
            if expanded >= checkpoint:
                checkpoint = limiter.checkpoint(expanded)
            expanded += 1
            for move, child, cost in successors(state):
                generated += 1
                if cost != 1:
                    raise ValueError(f"bfs needs unit step costs, got {cost} for move {move!r}")
                if child in parent:
                    continue
                parent[child] = (state, move)
                if is_goal(child):
                    goal = child
                    return SOLVED
                frontier.append((child, g + 1))
        return EXHAUSTED

    status = run_guarded(search)
    stats = SearchStats(expanded=expanded, generated=generated, elapsed=limiter.elapsed(), peak_stored=len(parent))
    if status != SOLVED:
        # Exhausted under max_cost: every state within max_cost moves was expanded, none a goal.
        lower = max_cost + 1 if status == EXHAUSTED and max_cost is not None else None
        return SearchResult(status=status, stats=stats, lower_bound=lower)
    moves = path_to(parent, goal)
    return SearchResult(status=SOLVED, moves=moves, cost=len(moves), stats=stats, lower_bound=len(moves))


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`bfs` on a :class:`~searchkit.algorithm.SearchRequest` (no heuristic, no pruning rule)."""
    return bfs(puzzle, limits=request.limits, max_cost=request.max_cost)


ALGORITHMS = (
    Algorithm("bfs", run, GUARANTEE_OPTIMAL, PRUNES_ON_G, HEURISTIC_NONE, rule_hooks=(), keeps_order=True,
              summary="breadth-first search, unit costs, every pruning rule off (the test reference)"),
)
