"""Depth-bounded depth-first search returning the first solution in move order.

The driver for puzzles whose answer is "the first (e.g. lexicographically
smallest) move sequence of a given length", such as the NOIP 2011 Mayan
puzzle: successors are tried in the puzzle's own order, so the first solution
found is the smallest in that order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import GUARANTEE_NONE, HEURISTIC_OPTIONAL, PRUNES_ON_F, Algorithm
from searchkit.machinery.drivers._common import DEPTH_FIRST_HOOKS, expander, run_guarded, split_pruners
from searchkit.limits import Limiter, Limits
from searchkit.result import DEPTH, EXHAUSTED, SOLVED, IterationRecord, SearchResult, SearchStats

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest

MODES = ("exact", "at_most", "shortest")


def bounded_dfs(
    puzzle,
    depth: int,
    *,
    mode: str = "exact",
    heuristic: Callable[[Any], int] | None = None,
    pruners: Sequence[Pruner] = (),
    limits: Limits | Limiter | None = None,
) -> SearchResult:
    """Depth-first search to cost ``depth``; return the first solution found.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.  Its
            ``successors_within(state, remaining)`` is used when present.
        depth: the cost bound (number of moves for unit costs), >= 0.
        mode: ``"exact"``: a goal counts only at cost exactly ``depth``;
            ``"at_most"``: the first goal met at cost <= ``depth`` in depth-first
            order; ``"shortest"``: exact search at 0, 1, ..., ``depth`` in turn,
            so the answer has least cost and is the first in move order among
            those (iterative deepening).
        heuristic: optional admissible ``estimate(state) -> int``; a child with
            ``g + h > depth`` is not entered.
        pruners: bound pruning rules (``cut``/``on_fail`` get ``remaining = depth - g``).
        limits: node (expanded states) and time (seconds) limits, or the
            case's started :class:`~searchkit.limits.Limiter`.

    Returns:
        A :class:`~searchkit.result.SearchResult`; ``exhausted`` means no solution
        within the bound.  ``stats.per_depth[g]`` counts states expanded at depth g
        and ``stats.per_depth_seconds[g]`` the time spent expanding them (their
        own work, children excluded), for g from 0 to the deepest depth the
        search entered (nothing is allocated for depths never reached, so a
        huge ``depth`` costs nothing until the search gets there);
        in ``shortest`` mode ``stats.iterations`` has one record per depth tried.

    Raises:
        ValueError: for an unknown ``mode`` or a negative ``depth``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if depth is None or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    limiter = Limiter.of(limits)
    expand, _ = expander(puzzle)
    is_goal = puzzle.is_goal
    cut, on_fail, cuts = split_pruners(pruners)
    h = heuristic
    # Grown as the search goes deeper: ``depth`` may be far beyond what a case
    # explores (an input's n of 2**31 - 1 would otherwise allocate 16 GiB before
    # the first expansion, past every limit).
    per_depth = [0]
    inclusive = [0.0, 0.0]  # seconds in subtrees rooted at each depth
    clock = limiter.clock
    expanded = generated = evaluated = 0
    path: list = []
    solution_cost = None
    checkpoint = limiter.first_checkpoint()

    def dfs(state, g, limit, exact):
        nonlocal checkpoint, expanded, generated, evaluated, solution_cost
        if g == len(per_depth):
            per_depth.append(0)
            inclusive.append(0.0)
        left = limit - g
        if is_goal(state) and (left == 0 or not exact):
            solution_cost = g
            return True
        if left <= 0:
            return False
        if cut is not None and cut(state, g, left):
            return False
        if expanded >= checkpoint:
            checkpoint = limiter.checkpoint(expanded)
        expanded += 1
        per_depth[g] += 1
        t0 = clock()
        succs = expand(state, left)
        for move, child, cost in succs:
            generated += 1
            if cost > left:
                continue
            if h is not None:
                evaluated += 1
                if cost + h(child) > left:
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
    iterations: list[IterationRecord] = []
    limits_tried = range(depth + 1) if mode == "shortest" else (depth,)
    exact = mode != "at_most"

    def search() -> str:
        for bound in limits_tried:
            e0, g0, v0, t0 = expanded, generated, evaluated, limiter.elapsed()
            limiter.bound = bound
            try:
                found = dfs(start, 0, bound, exact)
            finally:  # a limit or Ctrl-C keeps the partial iteration's record too
                iterations.append(IterationRecord(bound, expanded - e0, generated - g0, limiter.elapsed() - t0,
                                                  evaluated - v0, kind=DEPTH))
            if found:
                return SOLVED
        return EXHAUSTED

    # One Python frame per move: a bound of n moves needs n frames (Python-to-Python
    # calls use no C stack since 3.11), so lift the interpreter's limit for this
    # search; the time, node and memory limits are what stop a deep search.
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, min(old_limit + depth + 100, 2 ** 31 - 1)))
    try:
        status = run_guarded(search)
    finally:
        sys.setrecursionlimit(old_limit)
    stats = SearchStats(
        expanded=expanded,
        generated=generated,
        evaluated=evaluated,
        elapsed=limiter.elapsed(),
        iterations=tuple(iterations) if mode == "shortest" else (),
        per_depth=tuple(per_depth),  # summed over the depths tried in "shortest" mode
        per_depth_seconds=tuple(max(0.0, inclusive[g] - inclusive[g + 1]) for g in range(len(per_depth))),
        rule_cuts=tuple(cuts.items()),
    )
    if status != SOLVED:
        return SearchResult(status=status, stats=stats)
    return SearchResult(status=SOLVED, moves=tuple(path), cost=solution_cost, stats=stats)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`bounded_dfs` to ``request.max_cost`` (the depth) in ``request.mode``."""
    return bounded_dfs(puzzle, request.needed_max_cost(), mode=request.mode, heuristic=request.heuristic,
                       pruners=request.pruners, limits=request.limits)


ALGORITHMS = (
    Algorithm("bounded_dfs", run, GUARANTEE_NONE, PRUNES_ON_F, HEURISTIC_OPTIONAL, rule_hooks=DEPTH_FIRST_HOOKS,
              keeps_order=True, modes=MODES, needs_depth=True,
              summary="depth-bounded DFS, first solution in move order (exact, at_most, shortest)"),
)
