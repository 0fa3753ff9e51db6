"""Solving cases: a game with the user's choices, resolved once, and the outcome of each case.

:class:`Solver` is built once per command: it resolves the game, the
algorithm and heuristic the user fixed, the pruning rules and the complete
option mapping (the game's defaults merged with the user's values).  Solving
a case asks the game for its plan once and returns an :class:`Outcome` that
says which algorithm and heuristic actually ran; output, statistics,
``compare`` and the contract suite read that value and never ask the game
again.  Shared by the CLI and usable from Python::

    from searchkit.plugin.manager import load_registry
    from searchkit.solver import Solver

    solver = Solver(load_registry(), "flood", options={"moves": True})
    for case in solver.game.parse(text, "boards.txt", solver.options):
        outcome = solver.solve(case)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from searchkit.algorithm import SearchRequest
from searchkit.errors import PlanError, UnknownNameError
from searchkit.game import Case, SearchPlan, option_defaults
from searchkit.limits import Limiter, LimitReached, Limits, active
from searchkit.result import SearchResult, SearchStats


@attrs.frozen
class Outcome:
    """What solving one case did.

    Attributes:
        case: the case.
        result: the driver's :class:`~searchkit.result.SearchResult` (or the
            plan's verdict, or the limit that stopped the set-up).
        algorithm: the algorithm that ran (``None`` for a verdict without search).
        heuristic: the heuristic that ran, or ``None``.
        seconds: wall-clock seconds of the whole case, set-up included.
        plan: the game's :class:`~searchkit.game.SearchPlan` for the case.
    """

    case: Case
    result: SearchResult
    algorithm: str | None
    heuristic: str | None
    seconds: float = 0.0
    plan: SearchPlan | None = None


class Solver:
    """A game with the user's choices, ready to solve its cases.

    Args:
        registry: the loaded :class:`~searchkit.plugin.manager.Registry`.
        game: the game's name.
        algorithm: algorithm name, or ``None`` for each case's plan.
        heuristic: heuristic name, or ``None`` for each case's plan.
        disabled: pruning-rule names switched off.
        limits: node and time limits per case (the time counts from the
            case's start, set-up included).
        options: the game's option values by ``GameOption.key``; missing
            keys (or ``None`` values) get the game's defaults.

    Attributes:
        game: the :class:`~searchkit.game.Game` object.
        options: the complete option mapping handed to the game.

    Raises:
        UnknownNameError: an unknown game, algorithm, heuristic, rule or option.
        PlanError: a fixed algorithm that a switched-off rule does not act
            under, or that cannot use the fixed heuristic.
    """

    def __init__(self, registry, game: str, *, algorithm: str | None = None, heuristic: str | None = None,
                 disabled=frozenset(), limits: Limits | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self.registry = registry
        self.game_name = game
        self.game = registry.game(game)
        self.options = _complete_options(self.game, options or {})
        self.limits = limits or Limits()
        self.rules = tuple(registry.rules_for(game))
        self.disabled = frozenset(disabled)
        known = {rule.name for rule in self.rules}
        for name in sorted(self.disabled - known):
            raise UnknownNameError(
                f"unknown pruning rule {name!r} for {game} (known: {', '.join(sorted(known)) or 'none'})")
        self.algorithm = None if algorithm is None else registry.algorithm(algorithm)
        self.heuristic = None if heuristic is None else registry.heuristic(game, heuristic)
        alg = self.algorithm
        if alg is not None:
            for rule in self.rules:
                if rule.name in self.disabled and not rule.acts_under(alg):
                    raise PlanError(f"pruning rule {rule.name!r} does not act under {alg.name} "
                                    f"({where_text(rule, registry)}), so --no-prune {rule.name} changes nothing")
            if self.heuristic is not None and not alg.takes_heuristic:
                raise PlanError(f"algorithm {alg.name!r} uses no heuristic, so -H {self.heuristic.name} "
                                f"would change nothing")

    def resolve(self, plan: SearchPlan):
        """``(algorithm, heuristic)`` objects for ``plan``: the user's choices over the plan's.

        Raises:
            UnknownNameError: the plan names something nothing registered.
            PlanError: the algorithm cannot search the plan as it asks.
        """
        algorithm = self.algorithm or self.registry.algorithm(plan.algorithm)
        heuristic = self.heuristic
        if heuristic is None and algorithm.uses_heuristic and plan.heuristic is not None:
            heuristic = self.registry.heuristic(self.game_name, plan.heuristic)
        if not algorithm.takes_heuristic:
            heuristic = None
        name = self.game_name
        if plan.mode not in algorithm.modes:
            raise PlanError(f"algorithm {algorithm.name!r} cannot search in {plan.mode!r} mode, which {name} asks "
                            f"for (it searches: {', '.join(algorithm.modes)})")
        if plan.first_in_order and not algorithm.keeps_order:
            fits = ", ".join(a.name for a in self.registry.algorithms.values()
                             if a.keeps_order and plan.mode in a.modes)
            raise PlanError(f"algorithm {algorithm.name!r} does not return the first solution in move order, "
                            f"which {name} asks for (the smallest answer); use one of: {fits}")
        if plan.depth is None and algorithm.needs_depth:
            raise PlanError(f"algorithm {algorithm.name!r} needs a depth bound, and {name} gives none")
        if algorithm.uses_heuristic and heuristic is None:
            raise PlanError(f"algorithm {algorithm.name!r} needs a heuristic (--heuristic)")
        return algorithm, heuristic

    def solve(self, case: Case, *, started: float | None = None) -> Outcome:
        """Search one case.

        Args:
            case: the case.
            started: ``time.perf_counter()`` when reading the case began, so
                the time limit counts its parsing too (default: now).

        Raises:
            UnknownNameError, PlanError: as :meth:`resolve`.
        """
        limiter = Limiter(self.limits)
        if started is not None:
            limiter.start = started
            if limiter.deadline is not None:
                limiter.deadline = started + self.limits.time_limit
        plan = self.game.plan(case, self.options)
        if plan.verdict is not None:
            return Outcome(case, SearchResult(status=plan.verdict, stats=SearchStats(elapsed=limiter.elapsed())),
                           None, None, limiter.elapsed(), plan)
        algorithm, heuristic = self.resolve(plan)
        off = self.disabled | {rule.name for rule in self.rules if not rule.acts_under(algorithm)}
        names = (algorithm.name, None if heuristic is None else heuristic.name)
        with active(limiter):
            try:
                limiter.check_time()
                puzzle = self.game.puzzle(case, self.options, off)
                estimate = None if heuristic is None else heuristic.bind(puzzle)
                pruners = [rule.bind(puzzle) for rule in self.rules if rule.factory is not None
                           and rule.name not in off]
            except LimitReached as stop:
                stats = SearchStats(elapsed=limiter.elapsed())
                return Outcome(case, SearchResult(status=stop.status, stats=stats), *names, limiter.elapsed(), plan)
            request = SearchRequest(heuristic=estimate, pruners=pruners, limits=limiter, depth=plan.depth,
                                    mode=plan.mode)
            result = algorithm.run(puzzle, request)
        fused = getattr(puzzle, "rule_cuts", None)
        if fused:
            counts = dict(result.stats.rule_cuts)
            counts.update((k, v) for k, v in fused.items() if k not in off)
            result = attrs.evolve(result, stats=attrs.evolve(result.stats, rule_cuts=tuple(counts.items())))
        return Outcome(case, result, *names, limiter.elapsed(), plan)


def _complete_options(game, given: Mapping[str, Any]) -> dict[str, Any]:
    options = option_defaults(game.options)
    for key, value in given.items():
        if key not in options:
            names = ", ".join(o.name for o in game.options) or "none"
            raise UnknownNameError(f"unknown option {key!r} for {game.name} (known: {names})")
        if value is not None:
            options[key] = value
    return options


def where_text(rule, registry) -> str:
    """Where ``rule`` acts and under which registered algorithms, e.g. ``"in successors_within: bounded_dfs, ida_star"``."""
    under = [a.name for a in registry.algorithms.values() if rule.acts_under(a)]
    return f"in {rule.where}: {', '.join(under) or 'no registered algorithm'}"
