"""The best-first loop: one loop, of which A*, PEA*, weighted A* and greedy best-first search are
configurations (after Fast Downward's eager search, whose open list the configuration builds).

A configuration is a :class:`BestFirst` value: the priority ``key(g, h)``
(``None``: f = g + h), whether a goal is taken when generated, whether the
cost bound is tested on g + h, whether the loop keeps f-layers and proves
A*'s bound from them, and whether it expands partially (PEA*).  Every
driver starts from the same named :class:`BestFirstSetup` and expands with
the same :class:`BestFirstExpansion` step, so the four count expanded,
generated and evaluated states alike; the anytime driver shares the set-up
(its step prunes on the incumbent and goes on after a goal, see
:mod:`searchkit.machinery.drivers.anytime`).

The heap holds ``(key, -g, tie_key, tie, f, state)``: the least key first,
ties to larger g, then the puzzle's ``tie_break``, then first in, first
out (``tie`` rises by one per push and is never repeated).  The proofs of
each configuration's answer are in its driver's module:
:mod:`~searchkit.machinery.drivers.astar`, :mod:`~searchkit.machinery.drivers.peastar`,
:mod:`~searchkit.machinery.drivers.wastar` (w-admissibility and the lower bound, for
any key) and :mod:`~searchkit.machinery.drivers.gbfs`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from searchkit.machinery.drivers._common import conclude, exact_weight, path_to, run_guarded, split_pruners
from searchkit.heuristic import DEAD
from searchkit.limits import Limiter, Limits
from searchkit.result import EXHAUSTED, F_LAYER, SOLVED, IterationRecord, SearchResult, SearchStats

if TYPE_CHECKING:  # annotations only: a native search never creates the class
    from searchkit.pruner import Pruner


@attrs.frozen
class BestFirstSetup:
    """What every best-first driver starts from (:func:`best_first_setup`).

    Attributes:
        limiter: the started :class:`~searchkit.limits.Limiter`.
        successors: the puzzle's ``successors(state)``.
        is_goal: the puzzle's ``is_goal(state)``.
        cut: the folded ``cut(state, g, remaining)`` of the pruners, or ``None``.
        cuts: rule name -> cuts so far (updated by ``cut``).
        tie_break: the puzzle's optional ``tie_break(state)``, or ``None``.
        start: the initial state.
    """

    limiter: Limiter
    successors: Callable[[Any], Any]
    is_goal: Callable[[Any], bool]
    cut: Callable[[Any, int, int | None], bool] | None
    cuts: dict
    tie_break: Callable[[Any], Any] | None
    start: Any


def best_first_setup(puzzle, pruners: Sequence[Pruner], limits) -> BestFirstSetup:
    """The :class:`BestFirstSetup` of ``puzzle``: the pruners folded by
    :func:`~searchkit.machinery.drivers._common.split_pruners` (without ``on_fail``, which
    best-first drivers never call) and the limiter started (or passed through)."""
    cut, _, cuts = split_pruners(pruners)
    return BestFirstSetup(Limiter.of(limits), puzzle.successors, puzzle.is_goal, cut, cuts,
                          getattr(puzzle, "tie_break", None), puzzle.initial_state())


class BestFirstExpansion:
    """The expansion step every best-first driver shares, with its counters.

    ``expansion.step(state, g)`` expands ``state`` (popped with cost ``g``, already
    known not to be stale): a pruning ``cut`` may skip it; otherwise the
    limits are checked (``limiter.checkpoint``, before the expansion, so a
    node limit of N expands N states), ``expanded`` rises, and each
    ``(move, child, step)`` of ``successors``:

    * reached before with a cost no larger: skipped;
    * a goal, when ``goal_test`` is given (greedy search takes goals when
      generated): recorded in ``best_g``/``parent`` and returned at once,
      unless its cost exceeds ``max_cost``;
    * otherwise h is evaluated; a child whose g + h (``prune_on_f``, an
      admissible h) or g exceeds ``max_cost`` is not stored; the rest are
      recorded and pushed on ``heap`` as ``(key, -g2, tie_key, tie, f, child)``
      with f = g2 + h and key = f (A*, ``key=None``) or ``key(g2, h)``
      (``tie_key`` the puzzle's ``tie_break(child)`` or 0, ``tie`` rising by
      one per push, so equal keys pop first in, first out).

    Partial expansion (:mod:`searchkit.machinery.drivers.peastar`): ``step(state, g,
    ceiling)`` stores only the children with f <= ``ceiling`` and
    ``least_deferred()`` then gives the least f of those left out (``inf``:
    none); ``again=True`` marks a further expansion of a state already
    expanded, which pruning's ``cut`` (asked once per state) does not see.

    Returns the goal child taken on generation, or ``None``.  ``peak`` is the
    largest ``len(best_g) + len(heap)`` after an expansion; as both only grow
    while pushing, that is the exact peak of stored entries.
    """

    def __init__(self, setup: BestFirstSetup, best_g: dict, parent: dict, heuristic, heap: list,
                 max_cost: int | None, key=None, *, prune_on_f: bool = True, goal_test=None):
        limiter, successors, cut, tie_break = setup.limiter, setup.successors, setup.cut, setup.tie_break
        self.cuts = setup.cuts
        self.limiter = limiter
        push = heapq.heappush

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
                    if f2 == DEAD or (f2 if prune_on_f else g2) > cap:  # DEAD: no goal beyond the child
                        continue
                    if f2 > ceiling:  # partial expansion: left for a later expansion of ``state``
                        if f2 < deferred:
                            deferred = f2
                        continue
                    best_g[child] = g2
                    parent[child] = (state, move)
                    tie += 1
                    push(heap, (f2 if key is None else key(g2, h), -g2,
                                tie_break(child) if tie_break is not None else 0, tie, f2, child))
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



@attrs.frozen
class BestFirst:
    """A configuration of :func:`search` (the set-up value a best-first driver is).

    Attributes:
        key: the priority ``key(g, h)`` of a state reached with cost g and
            estimate h, smaller first (``None``: f = g + h, A*).
        goal_on_generate: take a goal when it is generated (greedy search;
            no bound on its cost follows) instead of when it is popped.
        prune_on_f: a child with g + h above the cost bound is not stored (an
            admissible h); ``False``: g alone is tested.
        weight: the w of a key g + w h, for the ``ceil(C / w)`` bound
            (``None``: no such bound).
        layers: keep A*'s f-layer records, and prove the bound A*'s way: the
            largest key popped (``False``: the least g + h left in the heap
            and of the state popped last, min'ed with the cost found).
        partial: partial expansion (PEA*): a state stores only the children
            with f up to its key and goes back on the heap for the rest.
    """

    key: Callable[[int, int], float] | None = None
    goal_on_generate: bool = False
    prune_on_f: bool = True
    weight: float | None = None
    layers: bool = False
    partial: bool = False


#: A* (:mod:`searchkit.machinery.drivers.astar`).
ASTAR = BestFirst(layers=True)
#: Partial-expansion A* (:mod:`searchkit.machinery.drivers.peastar`).
PEASTAR = BestFirst(layers=True, partial=True)


def search(puzzle, heuristic: Callable[[Any], int], config: BestFirst, *, pruners: Sequence[Pruner] = (),
           limits: Limits | Limiter | None = None, max_cost: int | None = None) -> SearchResult:
    """Best-first search of ``puzzle`` as ``config`` says (module docstring: the order).

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``.
        config: the :class:`BestFirst` configuration.
        pruners: ``cut(state, g, None)`` when a state is popped (the first
            time, under partial expansion).
        limits: node (expansions) and time (seconds) limits.
        max_cost: only solutions of cost <= ``max_cost`` are sought: a child
            with g + h (``config.prune_on_f``) or g above it is not stored.

    Returns:
        With ``config.layers``: as :func:`optimal_result` (``solved`` with the
        first goal popped, else the status and the largest f popped as the
        bound); ``stats.iterations`` holds the f-layers.  Otherwise as
        :func:`~searchkit.machinery.drivers._common.conclude`: ``solved`` when the proven
        bound meets the cost, else ``feasible``; ``exhausted`` with
        ``max_cost + 1``; or the limit's status with the bound (the bound
        only with ``prune_on_f``, an admissible h).
    """
    setup = best_first_setup(puzzle, pruners, limits)
    is_goal, tie_break, start = setup.is_goal, setup.tie_break, setup.start
    key, goal_on_generate = config.key, config.goal_on_generate
    h0 = heuristic(start)
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    heap: list[tuple] = [(h0 if key is None else key(0, h0), 0, 0, 0, h0, start)]
    pop, push = heapq.heappop, heapq.heappush
    expansion = BestFirstExpansion(setup, best_g, parent, heuristic, heap, max_cost, key,
                                   prune_on_f=config.prune_on_f, goal_test=is_goal if goal_on_generate else None)
    expand, least_deferred = expansion.step, expansion.least_deferred
    layers = FLayers(setup.limiter, expansion, h0) if config.layers else None
    partial = config.partial
    # Partial expansion: state -> (g, key) of its pending next slice.  Re-pushed states take negative tie
    # numbers: never equal to a child's (positive), so two entries never tie up to the state itself; among
    # equal keys a state's next slice goes first, the latest first.
    again: dict = {}
    order = 0
    goal = cost = None
    # g + h of the state popped last: a limit (raised before its expansion) or a goal generated among its
    # children leaves it out of the heap (the bound of the configurations without layers).
    current = h0

    def loop() -> str:
        nonlocal goal, cost, current, order
        if goal_on_generate and is_goal(start):  # popped states are not tested: test the start here
            goal, cost = start, 0
            return SOLVED
        while heap:
            popped, neg_g, _, _, f, state = pop(heap)
            if layers is not None and popped > layers.f:  # the popped f rose: a new f-layer
                layers.rise(popped)
            g = -neg_g
            if best_g.get(state, g) < g:
                if partial and state in again and again[state][0] == g:
                    del again[state]
                continue
            current = f
            if not goal_on_generate and is_goal(state):
                goal, cost = state, g
                return SOLVED
            if not partial:
                child = expand(state, g)
                if child is not None:
                    goal, cost = child, best_g[child]
                    return SOLVED
                continue
            slice_again = again.get(state) == (g, popped)
            if slice_again:
                del again[state]
            expand(state, g, popped, slice_again)
            nxt = least_deferred()
            if nxt != math.inf:  # some children were left out: come back for them at their least f
                again[state] = (g, nxt)
                order -= 1
                push(heap, (nxt, neg_g, tie_break(state) if tie_break is not None else 0, order, nxt, state))
        return EXHAUSTED

    status = run_guarded(loop)
    if layers is not None:
        stats = expansion.stats(iterations=layers.close())
        return optimal_result(status, stats, parent=parent, goal=goal, cost=cost, layer_f=layers.f,
                              max_cost=max_cost)
    stats = expansion.stats()
    bound = None
    if config.prune_on_f:
        # g + h of every entry left and of the state popped last (the wastar module's proof).
        bound = min(min((e[4] for e in heap), default=math.inf), current)
        if max_cost is not None:
            bound = min(bound, max_cost + 1)
    if goal is None or cost is None:  # exhausted, a limit or Ctrl-C
        return conclude(status, stats, bound=bound, max_cost=max_cost)
    if bound is not None and config.weight is not None and not goal_on_generate:
        p, q = exact_weight(config.weight)
        bound = max(min(bound, cost), -(-cost * q // p))  # ceil(cost / w), exactly
    return conclude(status, stats, moves=path_to(parent, goal), cost=cost, bound=bound)


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
