"""Anytime weighted A* with a proven lower bound (Hansen and Zhou 2007, "Anytime Heuristic
Search", Journal of Artificial Intelligence Research 28, 267-297), with the
decreasing weight schedule of ARA* (Likhachev, Gordon and Thrun 2003, "ARA*:
Anytime A* with Provable Bounds on Sub-Optimality", NIPS 16).

The search orders the open list by f_w = g + w h and keeps the incumbent, the
cheapest solution found so far (cost U; a seed solution may give the first).
It goes on after a solution: it prunes every state with f = g + h >= U
(admissible h: such a state cannot lead to a solution cheaper than U), takes
a goal as soon as it is generated, and re-opens a state reached again with a
smaller g.  After each improvement, and whenever the least key g + w h in
the open list reaches U (ARA*'s end of an iteration: the incumbent is then
within w of optimal, so U / w is a bound too), the weight drops by ``step``
(not below 1) and the open list is re-ordered under the new weight, as ARA*
does; ``step = 0`` keeps the weight fixed (Hansen and Zhou's AWA*).  The
second trigger (``ara=True``; off by default, see the ``ara`` argument for
the measurements) matters with a good seed, which the first weighted search
may never beat: it buys better bounds at a fixed budget for worse solutions.  It stops
``solved`` when the open list runs dry -- every entry left had f >= U and was
skipped when popped, so the least f reached U: the incumbent is then optimal.

**Lower bound.**  Let C* be the optimal cost and call a heap entry (s, g)
*good* when g + opt(s) = C*.  Claim: while U > C*, some good entry is in the
heap or is the state being expanded.  The start is good.  Take the good entry
pushed with the largest g; when it was popped it was (a) skipped as stale,
impossible as a smaller recorded g would give a cost below C*; (b) pruned for
f >= U, impossible as f = g + h(s) <= g + opt(s) = C* < U; (c) cut by a rule
sound for optimal search (Flood-It's ``dominance``: a dominating region
expanded at the same g is good too, proof in ``searchkit_flood.dominance``);
or (d) expanded, generating an optimal child with g + 1 step: a goal (then
U = C*) or a good entry pushed with a larger g (or one recorded with a g no
larger before, also good) -- contradicting the choice.  The pop order is never
used, so the claim survives the weights and their changes.  Hence

    lower_bound = min(U, least f over the heap and the state being expanded) <= C*

and every such value is a valid bound, including with an admissible but
inconsistent h such as Flood-It's ``puchert``: the argument needs h(s) <=
opt(s) only, because states are re-opened when a smaller g is found.  The
least f over the open list can fall as the search goes on (an inconsistent h
gives children a smaller f than their parent), so the driver reports the
largest value it computed: after every improvement, every ``max(1024, open
size / 4)`` expansions (one pass over the open list each time) and at the end.

It starts from the best-first loop's set-up
(:func:`searchkit.machinery.drivers.best_first.best_first_setup`) but keeps its own
expansion step: the shared one stops at the first goal, tests the bound on
g + h <= a fixed cap before the stale test, and counts a goal child as not
evaluated only when goals are taken on generation; this one prunes on the
incumbent (g >= U before the stale test, f >= U after the estimate), records
a goal child and goes on, and re-weights the open list in the middle of an
expansion.  Sharing the step would change its counts, which the golden
record (``tests/golden/drivers.json``) and the native engine hold fixed.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import (GUARANTEE_ANYTIME, HEURISTIC_REQUIRED, PRUNES_ON_F, WEIGHT_DECIMALS, WEIGHT_MAX,
                                 Algorithm, Param)
from searchkit.machinery.drivers._common import (BEST_FIRST_HOOKS, conclude, counted_stats, exact_weight, path_to,
                                      run_guarded)
from searchkit.limits import Limiter, Limits
from searchkit.result import EXHAUSTED, SOLVED, SearchResult

if TYPE_CHECKING:  # annotations only: fractions is imported when a search runs; a native search creates
    # neither class
    from fractions import Fraction

    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest


def anytime(
    puzzle,
    heuristic: Callable[[Any], int],
    *,
    weight: float = 2.0,
    step: float = 0.5,
    pruners: Sequence[Pruner] = (),
    limits: Limits | Limiter | None = None,
    max_cost: int | None = None,
    incumbent: tuple | None = None,
    on_improve: Callable[[int, int | None], None] | None = None,
    ara: bool = False,
) -> SearchResult:
    """Anytime weighted A* (module docstring: the algorithm and the proof of its bound).

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: an admissible ``estimate(state) -> int`` (the bound needs it).
        weight: the first weight w >= 1.
        step: the weight falls by this after each improvement, down to 1 (>= 0).
        pruners: ``cut(state, g, None)`` when a state is popped.
        limits: node (expanded states) and time (seconds) limits.
        max_cost: only solutions of cost <= ``max_cost`` are sought (U starts
            at ``max_cost + 1`` without an incumbent).
        incumbent: ``(moves, cost)`` of a known solution to improve on.
        on_improve: ``on_improve(cost, lower_bound)`` after each cheaper solution found.
        ara: also lower the weight when the least key reaches U (ARA*'s
            iterations); ``False``: only after an improvement.  On the first
            100 PC19 boards at 2000 expanded states a board: 7 moves over
            the optimum in all, summed gap 19 and 87 proven optimal with it;
            5, 76 and 77 without.  At 500 states: 54, 117, 43 with it and 19,
            202, 29 without -- better bounds, worse solutions.  On the
            first 10 b24c6 boards at 10 s each: total 344, summed gap 53 with
            it, 319 and 37 without, hence off by default.

    Returns:
        A :class:`~searchkit.result.SearchResult`: ``solved`` (the incumbent is
        proven optimal), ``feasible`` (stopped at a limit holding a solution;
        ``lower_bound`` as proven), ``exhausted`` (no solution of cost <=
        ``max_cost``, or none at all), or a limit's status with the bound so far.

    Raises:
        ValueError: ``weight`` below 1 or a negative ``step``.
    """
    if not weight >= 1:
        raise ValueError(f"weight must be at least 1, got {weight}")
    if not step >= 0:
        raise ValueError(f"step must be at least 0, got {step}")
    from searchkit.machinery.drivers.best_first import best_first_setup  # here: registering needs none of it

    setup = best_first_setup(puzzle, pruners, limits)
    limiter, successors, is_goal, start = setup.limiter, setup.successors, setup.is_goal, setup.start
    cut, cuts, tie_break = setup.cut, setup.cuts, setup.tie_break
    h0 = heuristic(start)
    best_g: dict = {start: 0}
    parent: dict = {start: None}
    # Weights as exact fractions; a key is g + w h scaled by w's denominator q, an integer (``exact_weight``).
    from fractions import Fraction

    w0 = Fraction(*exact_weight(weight))
    dw = Fraction(*exact_weight(step))
    heap: list = [(w0.numerator * h0, 0, 0, 0, h0, start)]  # (q g + p h, -g, tie_break, tie, f, state)
    push, pop = heapq.heappush, heapq.heappop
    # The incumbent: its cost U, and either its goal state (path via parent) or given moves.
    inc = _Incumbent()
    weight_now = _Weight(w0)
    if incumbent is not None:
        inc.moves, inc.cost = tuple(incumbent[0]), incumbent[1]
    if max_cost is not None and max_cost + 1 < inc.cost:
        # A bound below the incumbent: the incumbent is out of range, seek only cheaper solutions.
        inc.cost, inc.moves = max_cost + 1, None
    info: dict[str, float] = {"expanded": 0, "generated": 0, "evaluated": 1, "peak": 2, "bound": h0, "current": h0}

    def lower() -> float:
        """min(U, least f over the heap and the state being expanded): a proven bound (module docstring)."""
        least = min((e[4] for e in heap), default=math.inf)
        value = min(inc.cost, least, info["current"])
        if value > info["bound"]:
            info["bound"] = value
        return info["bound"]

    def reweight() -> None:
        """Lower the weight by ``step`` (not below 1) and re-order the open list, dropping f >= U."""
        w = weight_now.value = max(Fraction(1), weight_now.value - dw)
        p, q = w.numerator, w.denominator
        cost = inc.cost
        heap[:] = [(-q * e[1] + p * (e[4] + e[1]), *e[1:]) for e in heap if e[4] < cost]
        heapq.heapify(heap)

    def improved(goal, cost) -> None:
        # The moves are read now: a later, cheaper path to a state on the way
        # rewrites its parent link, and the path would no longer cost ``cost``.
        inc.cost, inc.moves = cost, path_to(parent, goal)
        reweight()
        if on_improve is not None:
            on_improve(cost, _int(lower()))

    def search() -> str:
        if is_goal(start):
            improved(start, 0)
            return SOLVED
        tie = 0
        expanded = generated = evaluated = 0
        peak = 2
        checkpoint = limiter.first_checkpoint()
        rescan = max(1024, len(heap) // 4)
        try:
            while heap:
                entry = pop(heap)
                key, neg_g, _, _, f, state = entry
                g = -neg_g
                if f >= inc.cost or best_g.get(state, g) < g:
                    continue
                if key >= weight_now.value.denominator * inc.cost and weight_now.value > 1:
                    # The least key reached U, so U <= w C* (the good entry's key is <= w C*).
                    bound = -(-inc.cost * weight_now.value.denominator // weight_now.value.numerator)  # ceil(U / w)
                    if bound > info["bound"]:
                        info["bound"] = bound
                    if ara and step > 0:  # ARA*'s end of an iteration: go on with a smaller weight
                        push(heap, entry)
                        reweight()
                        continue
                info["current"] = f
                if cut is not None and cut(state, g, None):
                    continue
                if expanded >= checkpoint:
                    checkpoint = limiter.checkpoint(expanded)
                if expanded >= rescan:  # the least f over the heap may fall (inconsistent h): keep the best seen
                    rescan = expanded + max(1024, len(heap) // 4)
                    lower()
                expanded += 1
                succs = successors(state)
                p, q = weight_now.value.numerator, weight_now.value.denominator
                for move, child, c in succs:
                    generated += 1
                    g2 = g + c
                    if g2 >= inc.cost:
                        continue
                    old = best_g.get(child)
                    if old is not None and old <= g2:
                        continue
                    best_g[child] = g2
                    parent[child] = (state, move)
                    if is_goal(child):
                        improved(child, g2)
                        p, q = weight_now.value.numerator, weight_now.value.denominator
                        continue
                    evaluated += 1
                    h = heuristic(child)
                    f2 = g2 + h
                    if f2 >= inc.cost:
                        continue
                    tie += 1
                    push(heap, (q * g2 + p * h, -g2, tie_break(child) if tie_break is not None else 0, tie, f2, child))
                info["current"] = math.inf
                peak = max(peak, len(best_g) + len(heap))
            return SOLVED
        finally:
            info.update(expanded=expanded, generated=generated, evaluated=evaluated + 1, peak=peak)

    status = run_guarded(search)
    stats = counted_stats(info, limiter, cuts)
    if status == SOLVED:  # the open list ran dry or its least f reached U: nothing cheaper than U exists
        status, bound = EXHAUSTED, inc.cost
    else:
        bound = lower()
    cost = None if inc.moves is None else int(inc.cost)
    return conclude(status, stats, moves=inc.moves, cost=cost, bound=bound, max_cost=max_cost)


class _Weight:
    """The weight in force, an exact fraction (lowered by ``step`` at each improvement)."""

    __slots__ = ("value",)

    def __init__(self, value: Fraction) -> None:
        self.value = value


class _Incumbent:
    """The best solution so far: its cost U (``inf``: none yet, or ``max_cost + 1`` under a bound) and its moves."""

    __slots__ = ("cost", "moves")

    def __init__(self) -> None:
        self.cost: float = math.inf
        self.moves: tuple | None = None


def _int(value: float) -> int | None:
    return None if value == math.inf else int(value)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`anytime` on a :class:`~searchkit.algorithm.SearchRequest` (options ``weight``, ``step``, ``ara``;
    the request's ``incumbent`` and ``on_improve``)."""
    return anytime(puzzle, request.needed_heuristic(), weight=request.params["weight"], step=request.params["step"],
                   ara=bool(request.params["ara"]), pruners=request.pruners, limits=request.limits,
                   max_cost=request.max_cost, incumbent=request.incumbent, on_improve=request.on_improve)


ALGORITHMS = (
    Algorithm("anytime", run, GUARANTEE_ANYTIME, PRUNES_ON_F, HEURISTIC_REQUIRED, rule_hooks=BEST_FIRST_HOOKS,
              seeded=True,
              params=(Param("weight", float, 2.0, "first weight w of g + w*h", min=1, max=WEIGHT_MAX,
                            decimals=WEIGHT_DECIMALS),
                      Param("step", float, 0.5, "the weight falls by this after each improvement, down to 1 "
                                                "(0: fixed, AWA*)", min=0, max=WEIGHT_MAX, decimals=WEIGHT_DECIMALS),
                      Param("ara", int, 0, "1: the weight also falls when the least key reaches the best cost "
                                           "(ARA*'s iterations: better bounds at a fixed budget, worse "
                                           "solutions); 0: only after an improvement", min=0, max=1)),
              detects_duplicates=True,
              summary="anytime weighted A*: improving solutions, each with a proven lower bound; solved when "
                      "they meet (Hansen and Zhou 2007, ARA* weight schedule)"),
)
