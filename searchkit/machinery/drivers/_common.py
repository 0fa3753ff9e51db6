"""Helpers shared by the drivers (not public)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from searchkit.limits import LimitReached
from searchkit.pruning import HOOK_CUT, HOOK_CUT_ON_POP, HOOK_ON_FAIL, HOOK_SUCCESSORS, HOOK_SUCCESSORS_WITHIN
from searchkit.result import CANCELLED, EXHAUSTED, FEASIBLE, SOLVED, SearchResult, SearchStats

if TYPE_CHECKING:  # annotations only: a native search never creates the class
    from searchkit.pruner import Pruner


#: The rule hooks of the depth-first drivers (IDA*, bounded DFS).
DEPTH_FIRST_HOOKS = frozenset({HOOK_SUCCESSORS, HOOK_SUCCESSORS_WITHIN, HOOK_CUT, HOOK_ON_FAIL})
#: The rule hooks of the best-first drivers (A*, PEA*, weighted A*, GBFS, anytime): ``cut`` once per state, when
#: it is popped.
BEST_FIRST_HOOKS = frozenset({HOOK_SUCCESSORS, HOOK_CUT, HOOK_CUT_ON_POP})


def split_pruners(pruners: Sequence[Pruner]):
    """Return ``(cut, on_fail, cuts)``: plain callables or ``None`` each, and the cut counts.

    Several rules of a kind are folded into one callable, so a driver makes at
    most one call per kind per node.  ``cuts`` is a dict rule name -> number
    of states its ``cut`` skipped, updated as the search runs (one increment per cut, nothing per kept node).
    """
    cuts: dict[str, int] = {}
    cut_fns = [(p.name or f"rule{i}", p.cut) for i, p in enumerate(pruners) if p.cut is not None]
    fails = [p.on_fail for p in pruners if p.on_fail is not None]
    for name, _ in cut_fns:
        cuts[name] = 0

    cut = None
    if cut_fns:
        def cut(state, g, remaining, _cuts=tuple(cut_fns)):
            for name, c in _cuts:
                if c(state, g, remaining):
                    cuts[name] += 1
                    return True
            return False

    on_fail = None
    if len(fails) == 1:
        on_fail = fails[0]
    elif fails:
        def on_fail(state, g, remaining, _fails=tuple(fails)):
            for f in _fails:
                f(state, g, remaining)

    return cut, on_fail, cuts


def exact_weight(weight) -> tuple[int, int]:
    """``weight`` as the exact ratio ``(p, q)`` of its shortest decimal spelling: ``1.2`` is ``(6, 5)``.

    The weighted drivers order their open lists on the integer ``q g + p h``
    (which orders as g + w h does exactly), not on the float ``g + w * h``:
    float rounding could split or merge ties (``1.1 * 10 != 11``), and the
    native engine, which uses the same ratio, must pop in the same order.
    For weights exact in binary (2, 1.5, 1.25) the two orders are the same.
    """
    from fractions import Fraction

    w = Fraction(repr(weight)) if isinstance(weight, float) else Fraction(weight)
    return w.numerator, w.denominator


def run_guarded(search: Callable[[], str]) -> str:
    """Run ``search`` (which returns a status) and map a limit or Ctrl-C to its status."""
    try:
        return search()
    except LimitReached as stop:
        return stop.status
    except KeyboardInterrupt:
        return CANCELLED


def path_to(parent: dict, goal) -> tuple:
    """Moves from the root to ``goal`` through ``parent`` (state -> ``(parent_state, move)``, root -> ``None``)."""
    moves = []
    node = goal
    while parent[node] is not None:
        node, move = parent[node]
        moves.append(move)
    moves.reverse()
    return tuple(moves)


def expander(puzzle):
    """``(expand, within)``: ``expand(state, remaining)`` for a depth-bounded driver.

    ``within`` is true when the puzzle has ``successors_within(state,
    remaining)`` (a bound fused into move generation, which may omit a
    successor that cannot reach a goal within ``remaining``); otherwise
    ``expand`` ignores ``remaining`` and calls ``successors``.

    Raises:
        TypeError: the puzzle has only ``bounded_successors``, the hook's old
            name (:data:`searchkit.hooks.REMOVED_HOOKS`): run without it, its
            bound would be silently unused.
    """
    within = getattr(puzzle, "successors_within", None)
    if within is None and hasattr(puzzle, "bounded_successors"):
        raise TypeError(f"{type(puzzle).__name__}.bounded_successors is the old name of successors_within "
                        f"(searchkit.hooks.REMOVED_HOOKS): rename it")
    if within is not None:
        return within, True
    plain = puzzle.successors

    def expand(state, _remaining):
        return plain(state)

    return expand, False


def counted_stats(counts: dict, limiter, cuts: dict) -> SearchStats:
    """The :class:`~searchkit.result.SearchStats` of a driver that kept its counters in ``counts``
    (keys ``expanded``, ``generated``, ``evaluated``, ``peak``)."""
    return SearchStats(expanded=counts["expanded"], generated=counts["generated"], evaluated=counts["evaluated"],
                       elapsed=limiter.elapsed(), peak_stored=counts["peak"], rule_cuts=tuple(cuts.items()))


def conclude(status: str, stats: SearchStats, *, moves: tuple | None = None, cost: int | None = None,
             bound: float | None = None, max_cost: int | None = None) -> SearchResult:
    """The result of a driver that may end holding a solution it has not proven optimal.

    Args:
        status: the search's own ending (``exhausted``, a limit's status, ...);
            ignored when ``moves`` is given.
        stats: the search's statistics.
        moves, cost: the best solution found, if any.
        bound: the proven lower bound (``None`` or ``inf``: none known).
        max_cost: the cost cap the search ran under, if any.

    Returns:
        With a solution: ``solved`` when ``bound`` meets ``cost``, otherwise
        ``feasible``, the bound capped at the cost.  Without one: ``exhausted``
        with ``max_cost + 1`` as its bound (no solution within the cap), or
        ``status`` with ``bound``.
    """
    if bound is not None and bound == math.inf:
        bound = None
    if moves is not None:
        if cost is None:
            raise ValueError("conclude: a solution needs its cost")
        bound = None if bound is None else int(min(bound, cost))
        return SearchResult(status=SOLVED if bound is not None and bound >= cost else FEASIBLE, moves=moves,
                            cost=cost, stats=stats, lower_bound=bound)
    if status == EXHAUSTED:
        return SearchResult(status=EXHAUSTED, stats=stats, lower_bound=None if max_cost is None else max_cost + 1)
    return SearchResult(status=status, stats=stats, lower_bound=None if bound is None else int(bound))
