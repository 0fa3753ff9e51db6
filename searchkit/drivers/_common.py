"""Helpers shared by the drivers (not public)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from searchkit.limits import Limiter, LimitReached
from searchkit.pruning import (HOOK_CUT, HOOK_CUT_ON_POP, HOOK_FILTER, HOOK_ON_FAIL, HOOK_SUCCESSORS,
                               HOOK_SUCCESSORS_WITHIN, Pruner)
from searchkit.result import (CANCELLED, EXHAUSTED, F_LAYER, FEASIBLE, SOLVED, IterationRecord, SearchResult,
                              SearchStats)


#: The rule hooks of the depth-first drivers (IDA*, bounded DFS).
DEPTH_FIRST_HOOKS = frozenset({HOOK_SUCCESSORS, HOOK_SUCCESSORS_WITHIN, HOOK_CUT, HOOK_FILTER, HOOK_ON_FAIL})
#: The rule hooks of the best-first drivers (A*, PEA*, weighted A*, GBFS, anytime): ``cut`` once per state, when
#: it is popped.
BEST_FIRST_HOOKS = frozenset({HOOK_SUCCESSORS, HOOK_CUT, HOOK_CUT_ON_POP, HOOK_FILTER})


def split_pruners(pruners: Sequence[Pruner]):
    """Return ``(cut, filter, on_fail, cuts)``: plain callables or ``None`` each, and the cut counts.

    Several rules of a kind are folded into one callable, so a driver makes at
    most one call per kind per node.  ``cuts`` is a dict rule name -> number
    of states its ``cut`` skipped plus successors its ``filter`` dropped,
    updated as the search runs (one increment per cut, nothing per kept node).
    """
    cuts: dict[str, int] = {}
    cut_fns = [(p.name or f"rule{i}", p.cut) for i, p in enumerate(pruners) if p.cut is not None]
    filters = [(p.name or f"rule{i}", p.filter) for i, p in enumerate(pruners) if p.filter is not None]
    fails = [p.on_fail for p in pruners if p.on_fail is not None]
    for name, _ in cut_fns + filters:
        cuts[name] = 0

    cut = None
    if cut_fns:
        def cut(state, g, remaining, _cuts=tuple(cut_fns)):
            for name, c in _cuts:
                if c(state, g, remaining):
                    cuts[name] += 1
                    return True
            return False

    filt = None
    if filters:
        def filt(state, succs, _filters=tuple(filters)):
            for name, f in _filters:
                before = len(succs)
                succs = list(f(state, succs))
                cuts[name] += before - len(succs)
            return succs

    on_fail = None
    if len(fails) == 1:
        on_fail = fails[0]
    elif fails:
        def on_fail(state, g, remaining, _fails=tuple(fails)):
            for f in _fails:
                f(state, g, remaining)

    return cut, filt, on_fail, cuts


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
    """
    within = getattr(puzzle, "successors_within", None) or getattr(puzzle, "bounded_successors", None)
    if within is not None:
        return within, True
    plain = puzzle.successors

    def expand(state, _remaining):
        return plain(state)

    return expand, False


def best_first_setup(puzzle, pruners: Sequence[Pruner], limits):
    """What every best-first driver starts from.

    Returns:
        ``(limiter, successors, is_goal, cut, filt, cuts, tie_break, start)``:
        the started :class:`~searchkit.limits.Limiter`, the puzzle's plain
        callables, the folded pruners of :func:`split_pruners` (without
        ``on_fail``, which best-first drivers never call), the puzzle's
        optional ``tie_break`` (or ``None``) and the initial state.
    """
    limiter = Limiter.of(limits)
    cut, filt, _, cuts = split_pruners(pruners)
    return (limiter, puzzle.successors, puzzle.is_goal, cut, filt, cuts, getattr(puzzle, "tie_break", None),
            puzzle.initial_state())


def counted_stats(counts: dict, limiter, cuts: dict) -> SearchStats:
    """The :class:`~searchkit.result.SearchStats` of a driver that kept its counters in ``counts``
    (keys ``expanded``, ``generated``, ``evaluated``, ``peak``)."""
    return SearchStats(expanded=counts["expanded"], generated=counts["generated"], evaluated=counts["evaluated"],
                       elapsed=limiter.elapsed(), peak_stored=counts["peak"], rule_cuts=tuple(cuts.items()))


class BestFirstExpansion:
    """The expansion step every best-first driver shares, with its counters.

    ``expansion.step(state, g)`` expands ``state`` (popped with cost ``g``, already
    known not to be stale): a pruning ``cut`` may skip it; otherwise the
    limits are checked (``limiter.checkpoint``, before the expansion, so a
    node limit of N expands N states), ``expanded`` rises, ``successors``
    pass through ``filt``, and each ``(move, child, step)``:

    * reached before with a cost no larger: skipped;
    * a goal, when ``goal_test`` is given (greedy search takes goals when
      generated): recorded in ``best_g``/``parent`` and returned at once,
      unless its cost exceeds ``max_cost``;
    * otherwise h is evaluated; a child whose g + h (``prune_on_f``, an
      admissible h) or g exceeds ``max_cost`` is not stored; the rest are
      recorded and pushed on ``heap`` as ``(f, -g2, tie_key, tie, child)``
      with f = g2 + h (A*, ``key=None``) or as ``(key(g2, h), -g2, tie_key,
      tie, g2 + h, child)`` (``tie_key`` the puzzle's ``tie_break(child)`` or
      0, ``tie`` rising by one per push, so equal keys pop first in, first out).

    Partial expansion (:mod:`searchkit.drivers.peastar`): ``step(state, g,
    ceiling)`` stores only the children with f <= ``ceiling`` and
    ``least_deferred()`` then gives the least f of those left out (``inf``:
    none); ``again=True`` marks a further expansion of a state already
    expanded, which pruning's ``cut`` (asked once per state) does not see.

    Returns the goal child taken on generation, or ``None``.  ``peak`` is the
    largest ``len(best_g) + len(heap)`` after an expansion; as both only grow
    while pushing, that is the exact peak of stored entries.
    """

    def __init__(self, setup: tuple, best_g: dict, parent: dict, heuristic, heap: list, max_cost: int | None,
                 key=None, *, prune_on_f: bool = True, goal_test=None):
        limiter, successors, _, cut, filt, self.cuts, tie_break, _ = setup
        self.limiter = limiter
        from heapq import heappush as push  # here: IDA* imports this module, and start-up stays lean

        cap = math.inf if max_cost is None else max_cost
        # The counters live in the closure: the step runs once per expansion,
        # and local names are cheaper there than attributes.
        expanded = generated = tie = 0
        evaluated = 1  # the start's estimate
        peak = 2
        checkpoint = limiter.first_checkpoint()

        deferred = math.inf  # least f of the children the last step left unstored (above its ceiling)

        def step(state, g, ceiling=math.inf, again=False):
            nonlocal expanded, generated, evaluated, peak, tie, checkpoint, deferred
            deferred = math.inf
            if not again and cut is not None and cut(state, g, None):
                return None
            if expanded >= checkpoint:
                checkpoint = limiter.checkpoint(expanded)
            expanded += 1
            succs = successors(state)
            if filt is not None:
                succs = filt(state, list(succs))
            try:
                for move, child, cost in succs:
                    generated += 1
                    g2 = g + cost
                    old = best_g.get(child)
                    if old is not None and old <= g2:
                        continue
                    if goal_test is not None and goal_test(child):
                        if g2 > cap:
                            continue
                        best_g[child] = g2
                        parent[child] = (state, move)
                        return child
                    evaluated += 1
                    h = heuristic(child)
                    f2 = g2 + h
                    if (f2 if prune_on_f else g2) > cap:
                        continue
                    if f2 > ceiling:  # partial expansion: left for a later expansion of ``state``
                        if f2 < deferred:
                            deferred = f2
                        continue
                    best_g[child] = g2
                    parent[child] = (state, move)
                    tie += 1
                    if key is None:
                        push(heap, (f2, -g2, tie_break(child) if tie_break is not None else 0, tie, child))
                    else:
                        push(heap, (key(g2, h), -g2, tie_break(child) if tie_break is not None else 0, tie, f2,
                                    child))
                return None
            finally:
                size = len(best_g) + len(heap)
                if size > peak:
                    peak = size

        def figures() -> tuple[int, int, int, int]:
            return expanded, generated, evaluated, peak

        def least_deferred() -> float:
            return deferred

        self.step = step
        self._figures = figures
        self.least_deferred = least_deferred

    def figures(self) -> tuple[int, int, int]:
        """``(expanded, generated, evaluated)`` so far."""
        return self._figures()[:3]

    def stats(self, **extra) -> SearchStats:
        """The :class:`~searchkit.result.SearchStats` of the search so far (``extra``: further fields)."""
        expanded, generated, evaluated, peak = self._figures()
        return SearchStats(expanded=expanded, generated=generated, evaluated=evaluated,
                           elapsed=self.limiter.elapsed(), peak_stored=peak, rule_cuts=tuple(self.cuts.items()),
                           **extra)


def astar_start(puzzle, heuristic, pruners: Sequence[Pruner], limits, max_cost: int | None):
    """What A* and PEA* start from: ``(setup, best_g, parent, heap, expansion)``.

    ``setup`` is :func:`best_first_setup`'s tuple; the tables of best g and of
    parent links hold the start, the heap its entry ``(h0, 0, 0, 0, start)``
    (f, -g, tie-break key, tie, state), and ``expansion`` is the
    :class:`BestFirstExpansion` over them (its f-keyed, A* form).
    """
    setup = best_first_setup(puzzle, pruners, limits)
    start = setup[7]
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    heap = [(heuristic(start), 0, 0, 0, start)]
    return setup, best_g, parent, heap, BestFirstExpansion(setup, best_g, parent, heuristic, heap, max_cost)


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
        bound = None if bound is None else int(min(bound, cost))
        return SearchResult(status=SOLVED if bound is not None and bound >= cost else FEASIBLE, moves=moves,
                            cost=cost, stats=stats, lower_bound=bound)
    if status == EXHAUSTED:
        return SearchResult(status=EXHAUSTED, stats=stats, lower_bound=None if max_cost is None else max_cost + 1)
    return SearchResult(status=status, stats=stats, lower_bound=None if bound is None else int(bound))


class FLayers:
    """A* f-layer records (Fast Downward's f progress): one per value of the popped f.

    ``f`` is the current layer's f (the largest popped so far, set on the
    limiter as its ``bound`` for live figures); :meth:`rise` closes the layer
    when a larger f is popped, :meth:`close` the last one at the end.  Each
    record holds the layer's expanded, generated and evaluated counts and
    seconds, read from a :class:`BestFirstExpansion`.
    """

    def __init__(self, limiter, expansion: BestFirstExpansion, f0: int) -> None:
        self.limiter, self.expansion = limiter, expansion
        self.f = limiter.bound = f0
        self.records: list[IterationRecord] = []
        self._mark = (0, 0, 0, 0.0)

    def _close(self) -> None:
        (e0, g0, v0, t0), (e1, g1, v1) = self._mark, self.expansion.figures()
        self.records.append(IterationRecord(self.f, e1 - e0, g1 - g0, self.limiter.elapsed() - t0, v1 - v0,
                                            kind=F_LAYER))

    def rise(self, f: int) -> None:
        """A state with f above the current layer's was popped: close the layer, open f's."""
        self._close()
        self.f = self.limiter.bound = f
        self._mark = (*self.expansion.figures(), self.limiter.elapsed())

    def close(self) -> tuple[IterationRecord, ...]:
        """Close the last layer; all records, in order."""
        self._close()
        return tuple(self.records)


def optimal_result(status: str, stats: SearchStats, *, parent: dict, goal, cost, layer_f: int,
                   max_cost: int | None) -> SearchResult:
    """The result of an A*-family driver (admissible h): the solution, or the status and the bound proven.

    Lower bound: until a goal is popped the heap holds an entry on an
    optimal path with its optimal g (re-opening keeps this with an
    inconsistent h; pruning rules and partial expansion keep it by their own
    proofs), whose key is <= C*; each pop takes the least key, so every key
    popped, and their maximum ``layer_f``, is <= C*.  Children pruned at f >
    ``max_cost`` only add the cap ``max_cost + 1``.
    """
    if status == SOLVED:
        return SearchResult(status=SOLVED, moves=path_to(parent, goal), cost=cost, stats=stats, lower_bound=cost)
    if status == EXHAUSTED:
        lower = None if max_cost is None else max_cost + 1
    else:
        lower = layer_f if max_cost is None else min(layer_f, max_cost + 1)
    return SearchResult(status=status, stats=stats, lower_bound=lower)
