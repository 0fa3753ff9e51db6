"""Beam search: breadth-first by moves, keeping the ``width`` best states of each layer
(Lowerre 1976, "The HARPY speech recognition system", PhD thesis, Carnegie Mellon;
as breadth-first beam search in Zhou and Hansen 2005, "Beam-stack search", ICAPS).

**Order.**  Layer d holds states reached with d moves.  The children of a
layer's states that were not seen before are ranked by g + h (with unit
costs, h), ties by the puzzle's ``tie_break`` and then generation order, and
the first ``width`` form the next layer; the rest are *dropped*.  The search
stops after the first layer that generates a goal and returns the cheapest
goal generated there.  It is not complete: a dropped state may have been the
only way to a solution.

**Lower bound** (admissible h, unit step costs).  Let C* be the optimum and
follow an optimal path from the start: take its first state s that was never
expanded.  Its predecessor was expanded with its optimal g, so s was
generated with g*(s), and then it was dropped, kept in a layer not expanded
yet, or skipped as seen before -- with unit costs in an earlier or the same
layer, so with g <= g*(s), hence optimal g, and then that sighting was
dropped or kept unexpanded (s was never expanded).  Either way some state of
g + h <= g*(s) + opt(s) = C* is dropped or unexpanded, so ``lower_bound`` =
min(cost found, least g + h dropped, least g + h in the last layer kept)
<= C*.  Rules sound for optimal search keep some optimal path, so the
argument runs on that path.  With other step costs no bound is reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from searchkit.algorithm import GUARANTEE_NONE, HEURISTIC_REQUIRED, PRUNES_ON_F_IF_ADMISSIBLE, Algorithm, Param
from searchkit.machinery.drivers._common import conclude, counted_stats, path_to, run_guarded
from searchkit.heuristic import DEAD
from searchkit.limits import Limiter, Limits
from searchkit.result import EXHAUSTED, INCOMPLETE, SOLVED, SearchResult

if TYPE_CHECKING:  # annotations only: a native search creates neither class
    from searchkit.pruner import Pruner
    from searchkit.request import SearchRequest


def beam(puzzle, heuristic: Callable[[Any], int], *, width: int = 64, pruners: Sequence[Pruner] = (),
         limits: Limits | Limiter | None = None, max_cost: int | None = None,
         admissible: bool = True) -> SearchResult:
    """Beam search of ``width`` states per layer (module docstring: order and bound).

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        heuristic: ``estimate(state) -> int``.
        width: states kept per layer, >= 1.
        pruners: ``cut(state, g, None)`` before a kept state is expanded.
        limits: node (expanded states) and time (seconds) limits.
        max_cost: a child with g + h (admissible h) or g above it is not kept.
        admissible: ``heuristic`` never overestimates.

    Returns:
        A :class:`~searchkit.result.SearchResult`: ``solved`` when the bound
        meets the cost, ``feasible`` otherwise; with no goal found,
        ``exhausted`` if nothing was ever dropped (the search was then
        complete) and ``incomplete`` otherwise, or a limit's status.

    Raises:
        ValueError: ``width`` below 1.
    """
    if width < 1:
        raise ValueError(f"width must be at least 1, got {width}")
    from searchkit.machinery.drivers.best_first import best_first_setup  # here: registering needs none of it

    setup = best_first_setup(puzzle, pruners, limits)
    limiter, successors, is_goal, start = setup.limiter, setup.successors, setup.is_goal, setup.start
    cut, cuts, tie_break = setup.cut, setup.cuts, setup.tie_break
    parent: dict = {start: None}
    info = {"expanded": 0, "generated": 0, "evaluated": 1, "dropped": math.inf, "unit": True, "peak": 1}
    layer: list = [(heuristic(start), 0, start)]  # (f, g, state)
    found: list = []

    def search() -> str:
        nonlocal layer
        if is_goal(start):
            found[:] = [start, 0]
            return SOLVED
        checkpoint = limiter.first_checkpoint()
        tie = 0
        while layer:
            children = []
            goal = None
            for f, g, state in layer:
                if cut is not None and cut(state, g, None):
                    continue
                if info["expanded"] >= checkpoint:
                    checkpoint = limiter.checkpoint(int(info["expanded"]))
                info["expanded"] += 1
                succs = successors(state)
                for move, child, step in succs:
                    info["generated"] += 1
                    if step != 1:
                        info["unit"] = False
                    if child in parent:
                        continue
                    g2 = g + step
                    if is_goal(child):
                        if max_cost is not None and g2 > max_cost:
                            continue
                        parent[child] = (state, move)
                        if goal is None or g2 < goal[1]:
                            goal = (child, g2)
                        continue
                    h = heuristic(child)
                    info["evaluated"] += 1
                    if h == DEAD:  # no goal beyond the child
                        continue
                    if max_cost is not None and (g2 + h if admissible else g2) > max_cost:
                        continue
                    parent[child] = (state, move)
                    tie += 1
                    children.append((g2 + h, tie_break(child) if tie_break is not None else 0, tie, g2, child))
            if len(parent) > info["peak"]:
                info["peak"] = len(parent)
            children.sort()
            for entry in children[width:]:
                if entry[0] < info["dropped"]:
                    info["dropped"] = entry[0]
            layer = [(f, g, s) for f, _, _, g, s in children[:width]]
            if goal is not None:
                found[:] = list(goal)
                return SOLVED
        return EXHAUSTED if info["dropped"] == math.inf else INCOMPLETE

    status = run_guarded(search)
    stats = counted_stats(info, limiter, cuts)
    bound = None
    if admissible and info["unit"]:
        bound = min(info["dropped"], min((f for f, _, _ in layer), default=math.inf))
        if max_cost is not None:
            bound = min(bound, max_cost + 1)
    if found:
        goal, cost = found
        return conclude(status, stats, moves=path_to(parent, goal), cost=cost, bound=bound)
    return conclude(status, stats, bound=bound, max_cost=max_cost)


def run(puzzle, request: SearchRequest) -> SearchResult:
    """:func:`beam` on a :class:`~searchkit.algorithm.SearchRequest` (option ``width``)."""
    return beam(puzzle, request.needed_heuristic(), width=request.params["width"], pruners=request.pruners,
                limits=request.limits, max_cost=request.max_cost, admissible=request.admissible)


ALGORITHMS = (
    Algorithm("beam", run, GUARANTEE_NONE, PRUNES_ON_F_IF_ADMISSIBLE, HEURISTIC_REQUIRED,
              rule_hooks={"successors"},
              params=(Param("width", int, 64, "states kept per layer, ranked by g + h", min=1),),
              detects_duplicates=True,
              summary="beam search: breadth-first by moves, the best `width` states of each layer by g + h"),
)
