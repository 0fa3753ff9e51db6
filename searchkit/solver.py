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

from searchkit.algorithm import SearchRequest, bind_params, parse_spec
from searchkit.errors import PlanError, UnknownNameError
from searchkit.game import Case, SearchPlan, option_defaults
from searchkit.limits import Limiter, LimitReached, Limits, active
from searchkit.result import CANCELLED, EXHAUSTED, FEASIBLE, INCOMPLETE, SOLVED, SearchResult, SearchStats


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
        engine: ``"python"`` or ``"native"``: the engine that searched (:mod:`searchkit.engine`);
            ``None`` for a verdict without search.
    """

    case: Case
    result: SearchResult
    algorithm: str | None
    heuristic: str | None
    seconds: float = 0.0
    plan: SearchPlan | None = None
    engine: str | None = None


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
        upper_bound: ``N`` (an int): seek only solutions cheaper than N --
            the bound handed to the driver is N - 1, so an optimal driver
            prunes every state with g + h >= N, and a case with no solution
            below N is ``exhausted`` with ``lower_bound`` N (N itself is not
            kept: a solution of cost N is not sought).  ``"auto"``: the
            game's first :class:`~searchkit.bounds.UpperBound` provider
            gives a solution, used as a seed (below).
        seeds: known solutions (``--seed-solution``), a
            :class:`~searchkit.seeds.Seeds`: each is checked by replay, its
            cost C is the upper bound (only cheaper solutions are sought), and
            it is returned -- ``solved`` with ``lower_bound`` C, proven since
            nothing cheaper exists -- when the search proves there is none
            cheaper, or ``feasible`` when it stops at a limit first.
        on_improve: ``on_improve(record)`` for each improving solution of a
            case (the seed, then each one an anytime driver finds); ``record``
            is the dict ``{"event": "improvement", "source", "case", "cost",
            "lower_bound", "gap", "seconds", "origin"}``.  Settable later as
            the attribute of the same name (any output format can use it).
        engine: ``"auto"``, ``"python"`` or ``"native"`` (:mod:`searchkit.engine`); ``None``: the
            ``SEARCHKIT_ENGINE`` environment variable, else ``"auto"``.

    ``algorithm`` may carry the algorithm's options, ``"wastar(weight=2)"``
    (:func:`searchkit.algorithm.parse_spec`); an algorithm taken from a case's
    plan runs with its defaults.

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
                 options: Mapping[str, Any] | None = None, upper_bound: int | str | None = None,
                 seeds=None, on_improve=None, engine: str | None = None) -> None:
        from searchkit.engine import check_engine

        self.engine = check_engine(engine)
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
        self.params: dict[str, Any] = {}
        self.algorithm = None
        self.algorithm_spec = algorithm  # as the user spelt it, options included (a worker rebuilds from it)
        if algorithm is not None:
            try:
                alg_name, raw = parse_spec(algorithm)
            except ValueError as exc:
                raise PlanError(str(exc)) from None
            self.algorithm = registry.algorithm(alg_name)
            try:
                self.params = bind_params(self.algorithm, raw)
            except ValueError as exc:
                raise PlanError(str(exc)) from None
        if upper_bound is not None and upper_bound != "auto" and (not isinstance(upper_bound, int)
                                                                  or upper_bound < 0):
            raise PlanError(f"--upper-bound must be a cost >= 0 or auto, got {upper_bound!r}")
        if upper_bound == "auto" and not registry.upper_bounds_for(game):
            raise PlanError(f"--upper-bound auto: {game} registers no upper-bound provider")
        self.upper_bound = upper_bound
        self.seeds = seeds
        self.on_improve = on_improve
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
            why = ""
            if plan.mode == "exact" and algorithm.suboptimal:
                why = "; exact mode is a decision (a solution of exactly the given cost), not a cost to optimise"
            raise PlanError(f"algorithm {algorithm.name!r} cannot search in {plan.mode!r} mode, which {name} asks "
                            f"for (it searches: {', '.join(algorithm.modes)}){why}")
        if plan.mode == "exact" and (self.upper_bound is not None or self.seeds is not None):
            raise PlanError(f"{name} asks for a solution of exactly {plan.depth} moves: a decision, not a cost to "
                            f"optimise, so --upper-bound and --seed-solution do not apply")
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
        acting = [rule for rule in self.rules if rule.name not in off]
        from searchkit import engine as engines

        engine = engines.choose(self.engine, self.game, algorithm, heuristic, acting)
        puzzle = problem = None
        with active(limiter):
            proof = heuristic is None or heuristic.admissible
            emit = self._emitter(case, limiter, proof)
            try:  # the set-up counts against the case's time limit
                limiter.check_time()
                if engine == engines.NATIVE:
                    problem = self.game.native_problem(case, self.options, off)
                    if problem is None:
                        if self.engine == engines.NATIVE:
                            raise PlanError(f"engine native: game {self.game_name!r} builds no native problem "
                                            f"for this case")
                        engine = engines.PYTHON
                estimate, pruners, seed = None, [], None
                if engine == engines.PYTHON or self.seeds is not None or self.upper_bound == "auto" \
                        or algorithm.seeded:
                    puzzle = self.game.puzzle(case, self.options, off)
                if engine == engines.PYTHON:
                    estimate = None if heuristic is None else heuristic.bind(puzzle)
                    pruners = [rule.bind(puzzle) for rule in acting if rule.factory is not None]
                if puzzle is not None:
                    seed = self._seed(case, puzzle, algorithm, off)
            except LimitReached as stop:
                stats = SearchStats(elapsed=limiter.elapsed())
                return Outcome(case, SearchResult(status=stop.status, stats=stats), *names, limiter.elapsed(), plan,
                               engine)
            depth = plan.depth
            below = None  # seek only solutions cheaper than this
            if seed is not None:
                below = seed[1]
            if isinstance(self.upper_bound, int) and not isinstance(self.upper_bound, bool):
                below = self.upper_bound if below is None else min(below, self.upper_bound)
            if below is not None:
                depth = below - 1 if depth is None else min(depth, below - 1)
            numeric = self.upper_bound if isinstance(self.upper_bound, int) else None
            if seed is not None and (depth != seed[1] - 1 or numeric is not None and seed[1] >= numeric):
                seed = None  # a tighter bound than the seed's cost: the seed is not an answer to it
            if seed is not None and emit is not None:
                emit(seed[1], None, seed[2])  # the seed is the first solution of the run: an improvement event
            params = self.params if self.algorithm is not None else bind_params(algorithm, {})
            on_improve = None if emit is None else (lambda c, lb: emit(c, lb, "search"))
            incumbent = None if seed is None else seed[:2]
            if depth is not None and depth < 0:  # nothing costs less than 0
                result = SearchResult(status=EXHAUSTED, lower_bound=0, stats=SearchStats(elapsed=limiter.elapsed()))
            elif engine == engines.NATIVE:
                req = engines.request(algorithm, heuristic, acting, params, admissible=proof, max_cost=depth,
                                      limiter=limiter, incumbent=incumbent, on_improve=on_improve)
                result = engines.result_of(problem.solve(req))
                # Trust nothing: replay the moves on the game's plain Python puzzle before they are reported.
                plain = self.game.puzzle(case, self.options, frozenset(rule.name for rule in self.rules))
                engines.check_solution(plain, result)
            else:
                request = SearchRequest(heuristic=estimate, pruners=pruners, limits=limiter, depth=depth,
                                        mode=plan.mode, params=params, admissible=proof, incumbent=incumbent,
                                        on_improve=on_improve)
                try:
                    result = algorithm.run(puzzle, request)
                except LimitReached as stop:  # raised where a driver does not guard, e.g. the start's estimate
                    result = SearchResult(status=stop.status, stats=SearchStats(elapsed=limiter.elapsed()))
            result = self._settle(result, algorithm, proof, seed, bounded=depth is not None)
        fused = getattr(puzzle, "rule_cuts", None) if engine == engines.PYTHON else None
        if fused:
            counts = dict(result.stats.rule_cuts)
            counts.update((k, v) for k, v in fused.items() if k not in off)
            result = attrs.evolve(result, stats=attrs.evolve(result.stats, rule_cuts=tuple(counts.items())))
        return Outcome(case, result, *names, limiter.elapsed(), plan, engine)


    # -- bounds and seeds ------------------------------------------------------
    def _emitter(self, case, limiter, proof):
        """``emit(cost, lower_bound, origin)`` forwarding improvement records to :attr:`on_improve`, or ``None``."""
        if self.on_improve is None:
            return None

        def emit(cost, lower_bound, origin):
            lb = lower_bound if proof else None
            self.on_improve({"event": "improvement", "source": case.source, "case": case.index, "cost": cost,
                             "lower_bound": lb, "gap": None if lb is None else max(0, cost - lb),
                             "seconds": round(limiter.elapsed(), 6), "origin": origin})

        return emit

    def _seed(self, case, puzzle, algorithm, off):
        """``(moves, cost, origin)`` of the known solution to start from, or ``None``.

        From ``seeds`` when given (checked by replay), else from the game's
        first upper-bound provider under ``upper_bound="auto"`` or a seeded
        algorithm (``anytime``).

        Raises:
            SeedError: a given seed that is not a solution of its case.
        """
        from searchkit.bounds import SeedError, check_moves

        from searchkit.game import moves_to_json

        def checked(moves, render, origin):
            try:
                return (*check_moves(puzzle, moves, render), origin)
            except SeedError:  # a rule of the searched puzzle may drop a move the solution uses
                pass
            # The caller names the file and case of the error (as for every Solver refusal).
            plain = self.game.puzzle(case, self.options, frozenset(r.name for r in self.rules))
            return (*check_moves(plain, moves, render), origin)

        found = None
        given = None if self.seeds is None else self.seeds.for_case(case)
        if given is not None:
            def render(m):
                return _canon(moves_to_json(self.game, case, [m])[0])

            found = checked([_canon(t) for t in given], render, "seed")
        if found is None and (self.upper_bound == "auto" or algorithm.seeded):
            providers = self.registry.upper_bounds_for(self.game_name)
            if providers:
                provider = providers[0]
                found = checked(provider.solve(puzzle), None, f"upper-bound:{provider.name}")
        return found

    @staticmethod
    def _settle(result, algorithm, proof, seed, bounded=False):
        """The result with the claims that hold: lower bounds only from admissible heuristics, the seed kept.

        ``bounded``: the search had a cost bound (the plan's depth, ``--upper-bound`` or a seed's cost).
        """
        if not proof:
            if result.status == SOLVED and algorithm.uses_heuristic and result.cost != 0:
                result = attrs.evolve(result, status=FEASIBLE)  # an inadmissible h proves nothing
            elif (result.status == EXHAUSTED and bounded and algorithm.takes_heuristic
                  and (algorithm.optimal or not algorithm.suboptimal)):
                # Under a bound, the optimal drivers (and bounded DFS) cut on g + h: an overestimate may have
                # cut every solution below it.  wastar, gbfs and beam cut on g alone with such an h.  Without
                # a bound nothing is cut on h, so exhaustion still proves that no solution exists.
                result = attrs.evolve(result, status=INCOMPLETE)
            result = attrs.evolve(result, lower_bound=0 if result.cost == 0 else None)  # costs are >= 0
        if result.has_solution and result.cost == 0:  # nothing is cheaper than nothing
            result = attrs.evolve(result, status=SOLVED, lower_bound=0)
        elif result.status == SOLVED and result.lower_bound is None and algorithm.optimal:
            result = attrs.evolve(result, lower_bound=result.cost)
        if seed is None or result.has_solution or result.status == CANCELLED:
            return result
        moves, cost, _ = seed
        if result.status == EXHAUSTED and (proof or algorithm.suboptimal):
            # Nothing cheaper than the seed exists (suboptimal drivers prune on g alone without proof).
            return attrs.evolve(result, status=SOLVED, moves=moves, cost=cost, lower_bound=cost)
        lb = result.lower_bound if proof else None
        return attrs.evolve(result, status=FEASIBLE, moves=moves, cost=cost,
                            lower_bound=None if lb is None else min(lb, cost))


def _canon(value) -> str:
    """One spelling of a move for matching a seed: strings as they are, anything else as JSON."""
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value)


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
    """Where ``rule`` acts and under which registered algorithms.

    E.g. ``"in successors_within: bounded_dfs, ida_star"``.
    """
    under = [a.name for a in registry.algorithms.values() if rule.acts_under(a)]
    return f"in {rule.where}: {', '.join(under) or 'no registered algorithm'}"
