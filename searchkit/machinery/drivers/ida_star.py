"""IDA*: iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening:
an optimal admissible tree search", Artificial Intelligence 27).

Depth-first search bounded by f = g + h; each iteration raises the f-bound to
the smallest f that exceeded the previous one.  With an admissible heuristic
the first solution found has least cost, and it is the first least-cost
solution in the puzzle's move order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import GUARANTEE_OPTIMAL, HEURISTIC_REQUIRED, PRUNES_ON_F, Algorithm
from searchkit.machinery.drivers._common import DEPTH_FIRST_HOOKS, expander, run_guarded, split_pruners
from searchkit.limits import Limiter, Limits
from searchkit.result import EXHAUSTED, F_BOUND, SOLVED, IterationRecord, SearchResult, SearchStats

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest

INF = float("inf")


class _Plain:
    """A puzzle seen through its plain ``successors`` only."""

    def __init__(self, puzzle):
        self.successors = puzzle.successors


def ida_star(
    puzzle,
    heuristic: Callable[[Any], int],
    *,
    pruners: Sequence[Pruner] = (),
    limits: Limits | Limiter | None = None,
    transposition: bool = False,
    max_cost: int | None = None,
) -> SearchResult:
    """Search ``puzzle`` with IDA* and return a least-cost solution.

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.  Its
            ``successors_within(state, remaining)`` is used when present, with
            ``remaining = bound - g``.  Such a puzzle may omit successors that
            cannot reach a goal within the bound, so the smallest f above the
            bound is not known from the successors kept; the next bound is
            then ``bound + 1``, a lower bound on any cost above ``bound`` since
            costs and estimates are integers.  It is used only with a
            ``max_cost`` (otherwise an unsolvable case would never stop).
        heuristic: ``estimate(state) -> int``; admissible for an optimal answer.
        pruners: bound pruning rules (``cut`` gets ``remaining = bound - g``).
        limits: node (expanded states) and time (seconds) limits, or the
            case's started :class:`~searchkit.limits.Limiter`.
        transposition: keep a table state -> smallest g seen in the current
            iteration and skip a state reached again with a g no smaller.
        max_cost: give up (status ``exhausted``) once the f-bound exceeds it.

    Returns:
        A :class:`~searchkit.result.SearchResult`; ``stats.iterations`` has one
        record per f-bound (the one a limit stopped included).  Status
        ``exhausted`` means no solution exists within ``max_cost`` (or, with
        no bound, the reachable space holds no goal).  ``lower_bound``: the
        cost when solved, else the f-bound of the last iteration begun --
        all earlier ones were exhausted, so no solution costs less (with an
        admissible h) -- and ``None`` when no goal is reachable at all.
    """
    limiter = Limiter.of(limits)
    expand, within = expander(puzzle)
    if within and max_cost is None:  # without a bound, bound + 1 steps could go on for ever
        expand, within = expander(_Plain(puzzle))
    is_goal = puzzle.is_goal
    cut, on_fail, cuts = split_pruners(pruners)
    start = puzzle.initial_state()

    expanded = generated = 0
    path: list = []
    iterations: list[IterationRecord] = []
    table: dict | None = None
    checkpoint = limiter.first_checkpoint()
    peak = 0

    def dfs(state, g, bound):
        # Returns the solution's cost, or the smallest f above bound (INF if none).
        nonlocal checkpoint, expanded, generated
        if is_goal(state):
            return g
        if cut is not None and cut(state, g, bound - g):
            return INF
        if expanded >= checkpoint:
            checkpoint = limiter.checkpoint(expanded)
        expanded += 1
        succs = expand(state, bound - g)
        nxt = INF
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
                return r
            path.pop()
            if r < nxt:
                nxt = r
        if on_fail is not None:
            on_fail(state, g, bound - g)
        return nxt

    cost = None
    bound = heuristic(start)

    def search() -> str:
        nonlocal bound, cost, table, peak
        while True:
            if max_cost is not None and bound > max_cost:
                return EXHAUSTED
            t0, e0, g0 = limiter.elapsed(), expanded, generated
            limiter.bound = bound
            if transposition:
                table = {start: 0}
            try:
                r = dfs(start, 0, bound)
            finally:  # a limit or Ctrl-C keeps the partial iteration's record too
                if table is not None:
                    peak = max(peak, len(table))
                iterations.append(IterationRecord(bound, expanded - e0, generated - g0, limiter.elapsed() - t0,
                                                  generated - g0, kind=F_BOUND))
            if r <= bound:
                cost = r
                return SOLVED
            if r == INF and not within:
                return EXHAUSTED
            bound = bound + 1 if within else r

    status = run_guarded(search)
    stats = SearchStats(
        expanded=expanded,
        generated=generated,
        evaluated=generated + 1,
        elapsed=limiter.elapsed(),
        iterations=tuple(iterations),
        peak_stored=peak,
        rule_cuts=tuple(cuts.items()),
    )
    moves = tuple(path) if status == SOLVED else ()
    # Every iteration before the current one ended without a solution, and
    # the current bound is the least f that exceeded the last (or h(start),
    # or last + 1 with successors_within): no solution costs less than it
    # (admissible h).  Solved: the cost itself; exhausted without a goal
    # anywhere: none.
    if status == SOLVED:
        lower = cost
    elif status == EXHAUSTED and (max_cost is None or bound <= max_cost):
        lower = None
    else:
        lower = bound
    return SearchResult(status=status, moves=moves, cost=cost, stats=stats, lower_bound=lower)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`ida_star` on a :class:`~searchkit.algorithm.SearchRequest`."""
    return ida_star(puzzle, request.needed_heuristic(), pruners=request.pruners, limits=request.limits,
                    max_cost=request.max_cost)


def run_tt(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`ida_star` with ``transposition=True`` on a :class:`~searchkit.algorithm.SearchRequest`."""
    return ida_star(puzzle, request.needed_heuristic(), pruners=request.pruners, limits=request.limits,
                    max_cost=request.max_cost, transposition=True)


ALGORITHMS = (
    Algorithm("ida_star", run, GUARANTEE_OPTIMAL, PRUNES_ON_F, HEURISTIC_REQUIRED, rule_hooks=DEPTH_FIRST_HOOKS,
              keeps_order=True,
              summary="IDA*: iterative deepening on f = g + h (Korf 1985)"),
    Algorithm("ida_star_tt", run_tt, GUARANTEE_OPTIMAL, PRUNES_ON_F, HEURISTIC_REQUIRED,
              rule_hooks=DEPTH_FIRST_HOOKS, keeps_order=True, detects_duplicates=True,
              summary="IDA* with a per-iteration transposition table (state -> least g)"),
)
