"""The Python engine: the reference drivers (:mod:`searchkit.machinery.drivers`) on the game's Python puzzle."""

from __future__ import annotations

import attrs

from searchkit.heuristic import DEAD, DEAD_CUTS, counting_dead
from searchkit.limits import LimitReached
from searchkit.machinery.engine.seam import Prepared, Task
from searchkit.result import EXHAUSTED, SearchResult, SearchStats


class PythonEngine:
    """The Python engine behind the seam (:mod:`searchkit.machinery.engine.seam`)."""

    name = "python"

    def prepare(self, solver, case, heuristic, off: frozenset, acting: tuple) -> Prepared:
        """The game's puzzle with the rules in ``off`` switched off, the heuristic bound to it (dead states
        counted when it declares them) and the acting driver-level rules bound."""
        def build():
            return solver.game.puzzle(case, solver.options, off)

        puzzle = build()
        estimate = None if heuristic is None else heuristic.bind(puzzle)
        dead = [0]
        if estimate is not None and heuristic.dead_states:
            # the one place dead states are counted (searchkit.DEAD); a heuristic that never returns it pays nothing
            estimate, dead = counting_dead(estimate)
        pruners = [rule.bind(puzzle) for rule in acting if rule.factory is not None]
        return Prepared(self, case, off, acting, heuristic, build, build, puzzle=puzzle, estimate=estimate,
                        pruners=pruners, dead=dead)

    def run(self, prepared: Prepared, task: Task, limiter) -> SearchResult:
        """The driver's result, with the cuts the rules fused into the game's successors made during it.

        The puzzle counts those cuts in its optional ``rule_cuts`` (a mapping rule name -> cuts so far, see
        :data:`searchkit.hooks.OPTIONAL_HOOKS`): the counts before the run (an upper-bound provider's search
        included) are subtracted, and rules switched off are left out.  The states the estimate called
        :data:`searchkit.DEAD` are counted as :data:`searchkit.heuristic.DEAD_CUTS` (when there were any).
        """
        from searchkit.request import SearchRequest  # the Python engine's: a native search never loads it

        puzzle = prepared.puzzle
        before = _fused_cuts(puzzle)
        request = SearchRequest(heuristic=prepared.estimate, pruners=prepared.pruners if task.rules else [],
                                limits=limiter, max_cost=task.max_cost, mode=task.mode, params=task.params,
                                admissible=task.admissible, incumbent=task.incumbent, on_improve=task.on_improve)
        try:
            if prepared.estimate is not None and prepared.estimate(puzzle.initial_state()) == DEAD:
                # no goal is reachable from the start (a driver would store it with f = inf)
                result = SearchResult(status=EXHAUSTED, stats=SearchStats(elapsed=limiter.elapsed(), evaluated=1))
            else:
                result = task.algorithm.run(puzzle, request)
        except LimitReached as stop:  # raised where a driver does not guard, e.g. the start's estimate
            result = SearchResult(status=stop.status, stats=SearchStats(elapsed=limiter.elapsed()))
        after = _fused_cuts(puzzle)
        if not after and not prepared.dead[0]:
            return result
        counts = dict(result.stats.rule_cuts)
        counts.update((k, v - before.get(k, 0)) for k, v in after.items() if k not in prepared.off)
        if prepared.dead[0]:
            counts[DEAD_CUTS] = prepared.dead[0]
        return attrs.evolve(result, stats=attrs.evolve(result.stats, rule_cuts=tuple(counts.items())))

    def check(self, prepared: Prepared, result: SearchResult, limiter) -> SearchResult:
        """``result`` as it is: the Python drivers are the reference, their moves the puzzle's own successors."""
        return result


def _fused_cuts(puzzle) -> dict:
    """A copy of the puzzle's ``rule_cuts`` counts (``{}`` when it keeps none)."""
    return dict(getattr(puzzle, "rule_cuts", None) or {})
