"""Solving cases: a game with the user's choices, resolved once, and the outcome of each case.

:class:`Solver` is built once per command: it resolves the game, the
algorithm and heuristic the user fixed, the pruning rules and the complete
option mapping (the game's defaults merged with the user's values).  Solving
a case asks the game for its plan once and returns an :class:`Outcome` that
says which algorithm and heuristic actually ran; output, statistics,
``compare`` and the contract suite read that value and never ask the game
again.  Shared by the CLI and usable from Python::

    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    solver = Solver(load_registry(), "flood", options={"moves": True})
    for case in solver.game.parse(text, "boards.txt", solver.options):
        outcome = solver.solve(case)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from searchkit.machinery import engine as engines
from searchkit.algorithm import ANYTIME, OPTIMAL, PRUNES_ON_F, PRUNES_ON_F_IF_ADMISSIBLE, bind_params, parse_spec
from searchkit.errors import PlanError, UnknownNameError
from searchkit.game import Case, SearchPlan, option_defaults
from searchkit.limits import Limiter, LimitReached, Limits, active
from searchkit.result import (CANCELLED, EXHAUSTED, FEASIBLE, INCOMPLETE, MEMORY_LIMIT, SOLVED, TIME_LIMIT,
                              SearchResult, SearchStats)


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
        engine: ``"python"`` or ``"native"``: the engine that searched (:mod:`searchkit.machinery.engine`);
            ``None`` for a verdict without search.
    """

    case: Case
    result: SearchResult
    algorithm: str | None
    heuristic: str | None
    seconds: float = 0.0
    plan: SearchPlan | None = None
    engine: str | None = None

    @classmethod
    def cancelled(cls, case: Case, seconds: float, algorithm: str | None = None, heuristic: str | None = None,
                  plan: SearchPlan | None = None, engine: str | None = None) -> Outcome:
        """A case stopped by Ctrl-C (or SIGTERM) where its driver could not say so itself (a table build, the
        replay, a worker's case the parent reports): status ``cancelled``, no solution and no bound, as when
        the driver is stopped, so the case keeps its line; ``seconds`` since its first byte."""
        return cls(case, SearchResult(status=CANCELLED, stats=SearchStats(elapsed=seconds)), algorithm, heuristic,
                   seconds, plan, engine)


def _engine_of(prepared) -> str | None:
    """The engine of a prepared case (``None``: Ctrl-C came before it was prepared)."""
    return None if prepared is None else prepared.engine.name


def _options_tuple(value: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> tuple[tuple[str, Any], ...]:
    items = value.items() if isinstance(value, Mapping) else (value or ())
    return tuple(sorted((str(k), v) for k, v in items))


#: The engines a :class:`SolverConfig` may ask for.
ENGINES = ("auto", "python", "native")


@attrs.frozen
class SolverConfig:
    """Everything a :class:`Solver` is built from: plain, frozen, picklable data.

    The CLI builds one from its options; a worker process (local or Dask)
    receives it and builds the same Solver from it, so a new choice is one new
    field here and nowhere else.

    Attributes:
        game: the game's name.
        algorithm: the algorithm as the user spelt it, options included
            (``"wastar(weight=2)"``, :func:`searchkit.algorithm.parse_spec`),
            or ``None`` for each case's plan (which runs with its defaults).
        heuristic: heuristic name, or ``None`` for each case's plan.
        disabled: pruning-rule names switched off (``--no-prune``).
        limits: node, time and memory limits per case (the time counts from
            the case's start, set-up included; the memory limit is enforced by
            the batch executors, around the process).
        options: the game's option values by ``GameOption.key``, as sorted
            ``(key, value)`` pairs (a mapping is accepted and converted);
            missing keys (or ``None`` values) get the game's defaults.
        upper_bound: ``N`` (an int): seek only solutions cheaper than N --
            the bound handed to the driver is N - 1, so an optimal driver
            prunes every state with g + h >= N, and a case with no solution
            below N is ``exhausted`` with ``lower_bound`` N (N itself is not
            kept: a solution of cost N is not sought).  ``"auto"``: the
            game's first :class:`~searchkit.bounds.UpperBound` provider
            gives a solution, used as a seed (below).  ``None``: none.
        seeds: known solutions (``--seed-solution``), a
            :class:`~searchkit.seeds.Seeds`: each is checked by replay, its
            cost C is the upper bound (only cheaper solutions are sought), and
            it is returned -- ``solved`` with ``lower_bound`` C, proven since
            nothing cheaper exists -- when the search proves there is none
            cheaper, or ``feasible`` when it stops at a limit first.
        engine: ``"auto"``, ``"python"`` or ``"native"``: which engine runs
            the search (:mod:`searchkit.machinery.engine`); by default the
            ``SEARCHKIT_ENGINE`` environment variable's, else ``"auto"``
            (read when the config is made, so a worker gets the same).
        threads: the threads one search may use (``--threads``; 1 to
            :data:`searchkit.limits.MAX_THREADS`, default 1).  Each case's
            search gets them (under ``--jobs J``, J x threads in all); only a
            native search that can split its work uses more than one, and its
            :attr:`~searchkit.result.SearchStats.threads` says how many it ran
            on.  The Python engine always runs on one.  ``auto`` is resolved
            before the config is made (:func:`searchkit.machinery.batch.executors.resolve_threads`).
            A pattern database the case's heuristic has to build is built on
            them too (the case's :class:`~searchkit.limits.Limiter` carries
            them, :func:`searchkit.limits.threads`): a native table builder
            that splits its work uses them, on either engine, giving the same
            bytes; searchkit's Python builder runs on one.
    """

    game: str
    algorithm: str | None = None
    heuristic: str | None = None
    disabled: frozenset[str] = attrs.field(default=frozenset(), converter=frozenset)
    limits: Limits = attrs.field(factory=Limits, converter=lambda v: Limits() if v is None else v)
    options: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_options_tuple)
    upper_bound: int | str | None = None
    seeds: Any = None
    engine: str = attrs.field(factory=lambda: _default_engine(),
                              converter=lambda v: _default_engine() if v is None else v,
                              validator=attrs.validators.in_(ENGINES))
    threads: int = attrs.field(default=1)

    @threads.validator
    def _check_threads(self, _attr, value):
        from searchkit.limits import MAX_THREADS

        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_THREADS:
            raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, got {value!r}")


def _default_engine() -> str:
    from searchkit.machinery.engine import default_engine

    return default_engine()


# The step value below is private, never compared nor printed: without attrs' generated ``__eq__``,
# ``__hash__`` and ``__repr__`` (eq=False, repr=False) it costs half as much to create, which every
# command's start-up pays.
@attrs.frozen(eq=False, repr=False)
class _Bound:
    """The bound step's answer: the cost bound handed to the driver, and the seed when it is an answer to it."""

    max_cost: int | None
    seed: tuple | None


class Solver:
    """A game with the user's choices (a :class:`SolverConfig`), ready to solve its cases.

    Args:
        registry: the loaded :class:`~searchkit.plugin.manager.Registry`.
        config: the :class:`SolverConfig`, or the game's name with the
            config's other fields as keywords (``Solver(registry, "flood",
            algorithm="astar")`` is ``Solver(registry, SolverConfig("flood",
            algorithm="astar"))``).
        on_improve: ``on_improve(record)`` for each improving solution of a
            case (the seed, then each one an anytime driver finds); ``record``
            is the dict ``{"event": "improvement", "source", "case", "cost",
            "lower_bound", "gap", "seconds", "origin"}``.  Settable later as
            the attribute of the same name (any output format can use it).
            Not part of the config: a callback stays in its process.

    Attributes:
        config: the :class:`SolverConfig`.
        game: the :class:`~searchkit.game.Game` object.
        options: the complete option mapping handed to the game (its
            defaults merged with the config's values).
        algorithm, heuristic: the fixed :class:`~searchkit.algorithm.Algorithm`
            and :class:`~searchkit.heuristic.Heuristic`, or ``None`` (each
            case's plan decides).
        params: the fixed algorithm's bound options.
        rules: the game's pruning rules.

    Raises:
        UnknownNameError: an unknown game, algorithm, heuristic, rule or option.
        PlanError: a fixed algorithm that a switched-off rule does not act
            under, or that cannot use the fixed heuristic; a bad upper bound.
    """

    def __init__(self, registry, config: SolverConfig | str | None = None, *, on_improve=None,
                 **choices) -> None:
        if config is None:
            raise TypeError("Solver: give a SolverConfig, or the game's name and the config's other fields")
        if isinstance(config, str):
            config = SolverConfig(config, **choices)
        elif choices:
            raise TypeError(f"Solver: give either a SolverConfig or the game's name with keywords, not both "
                            f"({', '.join(sorted(choices))})")
        self.config: SolverConfig = config
        self.registry = registry
        self._engines: dict = {}  # (algorithm, heuristic) names -> _engine_for's answer
        self.on_improve = on_improve
        game = config.game
        self.game = registry.game(game)
        self.options = _complete_options(self.game, dict(config.options))
        self.rules = tuple(registry.rules_for(game))
        known = {rule.name for rule in self.rules}
        for name in sorted(config.disabled - known):
            raise UnknownNameError(
                f"unknown pruning rule {name!r} for {game} (known: {', '.join(sorted(known)) or 'none'})")
        self.params: dict[str, Any] = {}
        self.algorithm = None
        if config.algorithm is not None:
            try:
                alg_name, raw = parse_spec(config.algorithm)
            except ValueError as exc:
                raise PlanError(str(exc)) from None
            self.algorithm = registry.algorithm(alg_name)
            try:
                self.params = bind_params(self.algorithm, raw)
            except ValueError as exc:
                raise PlanError(str(exc)) from None
        upper_bound = config.upper_bound
        if upper_bound is not None and upper_bound != "auto" and (not isinstance(upper_bound, int)
                                                                  or isinstance(upper_bound, bool)
                                                                  or upper_bound < 0):
            raise PlanError(f"--upper-bound must be a cost >= 0 or auto, got {upper_bound!r}")
        if upper_bound == "auto" and not registry.upper_bounds_for(game):
            raise PlanError(f"--upper-bound auto: {game} registers no upper-bound provider")
        self.heuristic = None if config.heuristic is None else registry.heuristic(game, config.heuristic)
        alg = self.algorithm
        if alg is not None:
            for rule in self.rules:
                if rule.name in config.disabled and not rule.acts_under(alg):
                    raise PlanError(f"pruning rule {rule.name!r} does not act under {alg.name} "
                                    f"({where_text(rule, registry)}), so --no-prune {rule.name} changes nothing")
            if self.heuristic is not None and not alg.takes_heuristic:
                raise PlanError(f"algorithm {alg.name!r} uses no heuristic, so -H {self.heuristic.name} "
                                f"would change nothing")

    @property
    def seeks_optimum(self) -> bool:
        """Whether this solver's answers can be proven optima: each case's plan (no algorithm named), or an
        optimal or anytime algorithm, with no heuristic named or an admissible one (an inadmissible one
        proves nothing, so every answer it gives is ``feasible``: :meth:`_settle`)."""
        alg, h = self.algorithm, self.heuristic
        return (alg is None or alg.guarantee.kind in (OPTIMAL, ANYTIME)) and (h is None or h.admissible)

    def resolve(self, plan: SearchPlan):
        """``(algorithm, heuristic)`` objects for ``plan``: the user's choices over the plan's.

        Raises:
            UnknownNameError: the plan names something nothing registered.
            PlanError: the algorithm cannot search the plan as it asks.
        """
        algorithm = self.algorithm or self.registry.algorithm(plan.algorithm)
        heuristic = self.heuristic
        if heuristic is None and algorithm.uses_heuristic and plan.heuristic is not None:
            heuristic = self.registry.heuristic(self.config.game, plan.heuristic)
        if not algorithm.takes_heuristic:
            heuristic = None
        name = self.config.game
        if plan.mode not in algorithm.modes:
            why = ""
            if plan.mode == "exact" and algorithm.guarantee.kind != OPTIMAL:  # it trades the optimum for speed
                why = "; exact mode is a decision (a solution of exactly the given cost), not a cost to optimise"
            raise PlanError(f"algorithm {algorithm.name!r} cannot search in {plan.mode!r} mode, which {name} asks "
                            f"for (it searches: {', '.join(algorithm.modes)}){why}")
        if plan.mode == "exact" and (self.config.upper_bound is not None or self.config.seeds is not None):
            raise PlanError(f"{name} asks for a solution of exactly {plan.depth} moves: a decision, not a cost to "
                            f"optimise, so --upper-bound and --seed-solution do not apply")
        if plan.first_in_order and not algorithm.keeps_order:
            fits = ", ".join(a.name for a in self.registry.algorithms.values()
                             if a.keeps_order and plan.mode in a.modes)
            raise PlanError(f"algorithm {algorithm.name!r} does not return the first solution in move order, "
                            f"which {name} asks for (the smallest answer); use one of: {fits}")
        config = self.config
        if plan.depth is None and algorithm.needs_depth and config.upper_bound is None and config.seeds is None:
            # --upper-bound N (or a seed's cost) is a depth bound too: N - 1, as for every driver
            raise PlanError(f"algorithm {algorithm.name!r} needs a depth bound, and {name} gives none: "
                            f"give one with --upper-bound N (solutions cheaper than N)")
        if algorithm.uses_heuristic and heuristic is None:
            raise PlanError(f"algorithm {algorithm.name!r} needs a heuristic (--heuristic)")
        return algorithm, heuristic

    def solve(self, case: Case, *, started: float | None = None) -> Outcome:
        """Search one case: plan, resolve, prepare (the engine), bound (the seed), run and check, settle.

        Args:
            case: the case.
            started: ``time.perf_counter()`` when reading the case began, so
                the time limit counts its parsing too (default: now).

        Raises:
            UnknownNameError, PlanError: as :meth:`resolve`.
            SeedError: a given seed that is not a solution of its case.
        """
        limiter = Limiter(self.config.limits, start=started, threads=self.config.threads)  # a table build's too
        if case.stopped is not None:  # a limit stopped its reading (Case.unread): nothing to search
            return Outcome(case, SearchResult(status=case.stopped, stats=SearchStats(elapsed=limiter.elapsed())),
                           None, None, limiter.elapsed())
        plan = self.game.plan(case, self.options)
        if plan.verdict is not None:
            return Outcome(case, SearchResult(status=plan.verdict, stats=SearchStats(elapsed=limiter.elapsed())),
                           None, None, limiter.elapsed(), plan)
        algorithm, heuristic = self.resolve(plan)
        names = (algorithm.name, None if heuristic is None else heuristic.name)
        proof = heuristic is None or heuristic.admissible
        with active(limiter):
            prepared = None
            try:  # the set-up counts against the case's time limit
                prepared = self._prepare(case, algorithm, heuristic, limiter)
                seed = self._seed(prepared, algorithm, limiter)
            except LimitReached as stop:
                stats = SearchStats(elapsed=limiter.elapsed())
                engine = stop.engine if prepared is None else prepared.engine.name
                return Outcome(case, SearchResult(status=stop.status, stats=stats), *names, limiter.elapsed(), plan,
                               engine)
            except KeyboardInterrupt:
                return Outcome.cancelled(case, limiter.elapsed(), *names, plan, _engine_of(prepared))
            try:
                result = self._search(case, plan, algorithm, prepared, seed, limiter, proof)
            except KeyboardInterrupt:  # Ctrl-C outside the driver's loop (a table built for it, the replay)
                return Outcome.cancelled(case, limiter.elapsed(), *names, plan, _engine_of(prepared))
        return Outcome(case, result, *names, limiter.elapsed(), plan, prepared.engine.name)

    def _search(self, case: Case, plan, algorithm, prepared, seed, limiter: Limiter, proof: bool) -> SearchResult:
        """:meth:`solve`'s bound, run, check and settle, for a prepared case."""
        bound = self._bound(plan, seed)
        emit = self._emitter(case, limiter, proof)
        if bound.seed is not None and emit is not None:
            emit(bound.seed[1], None, bound.seed[2])  # the seed is the first solution of the run: an event
        if bound.max_cost is None and algorithm.needs_depth:  # --upper-bound auto or a seed, none found
            raise PlanError(f"algorithm {algorithm.name!r} needs a depth bound: {self.config.game} gives none "
                            f"for this case, and no upper bound was found")
        greedy = _greedy_under_bound(algorithm, plan, bound, proof)
        result = self._run(algorithm, plan, prepared, _Bound(None, None) if greedy else bound, limiter, proof,
                           emit)
        if (greedy and result.has_solution and result.cost is not None and bound.max_cost is not None
                and result.cost > bound.max_cost):  # its first solution is above
            result = attrs.evolve(result, status=INCOMPLETE, moves=(), cost=None, lower_bound=None)
        result = self._settle(result, algorithm, proof, bound.seed, bounded=bound.max_cost is not None)
        if (plan.depth is None and not algorithm.guarantee.solved_is_optimal and result.status == SOLVED
                and result.cost != 0 and result.lower_bound != result.cost):
            # bounded_dfs under --upper-bound: the first solution within the bound, not a least-cost one
            result = attrs.evolve(result, status=FEASIBLE, lower_bound=None)
        return result

    # -- the steps of solve ----------------------------------------------------
    def _prepare(self, case: Case, algorithm, heuristic, limiter: Limiter) -> engines.Prepared:
        """The case made ready by its engine (:meth:`~searchkit.machinery.engine.seam.Engine.prepare`): the
        native engine when chosen and it takes the case, else the Python engine.

        Raises:
            PlanError: ``engine`` is ``native`` and the game builds no native problem for the case.
            LimitReached: the case's time ran out in the set-up (its ``engine`` attribute names the engine).
        """
        off, acting, name = self._engine_for(algorithm, heuristic)
        try:
            limiter.check_time()
            if name == engines.NATIVE:
                try:
                    return engines.engine_named(name).prepare(self, case, heuristic, off, acting)
                except engines.Declined as refusal:  # a case the native engine does not take
                    if self.config.engine == engines.NATIVE:
                        why = f": {refusal}" if str(refusal) else ""
                        raise PlanError(f"engine native: game {self.config.game!r} builds no native problem for "
                                        f"this case{why}") from None
                    name = engines.PYTHON
            return engines.engine_named(name).prepare(self, case, heuristic, off, acting)
        except LimitReached as stop:
            stop.engine = name
            raise

    def _engine_for(self, algorithm, heuristic) -> tuple[frozenset, tuple, str]:
        """``(off, acting, engine)`` for a search with ``algorithm`` and ``heuristic``: the rules switched off
        (by the user, or not acting under the algorithm), the acting rules, and the engine
        (:func:`searchkit.machinery.engine.choose`).  The same for every case of this solver with those two, so worked
        out once (on 1000 small boards it was a tenth of a native search's cost on the Python side).

        Raises:
            PlanError: ``engine`` is ``native`` and a component has no native counterpart.
        """
        key = (algorithm.name, None if heuristic is None else heuristic.name)
        known = self._engines.get(key)
        if known is None:
            off = self.config.disabled | {rule.name for rule in self.rules if not rule.acts_under(algorithm)}
            acting = tuple(rule for rule in self.rules if rule.name not in off)
            known = self._engines[key] = (off, acting, engines.choose(self.config.engine, self.game, algorithm,
                                                                      heuristic, acting))
        return known

    def _bound(self, plan: SearchPlan, seed: tuple | None) -> _Bound:
        """The cost bound: the plan's depth, lowered below ``--upper-bound`` and below the seed's cost.

        The seed is kept only when it answers the bound the driver gets (its
        cost is the bound + 1, and no numeric upper bound at or below it).
        """
        max_cost = plan.depth
        below = None  # seek only solutions cheaper than this
        if seed is not None:
            below = seed[1]
        given = self.config.upper_bound
        numeric = given if isinstance(given, int) and not isinstance(given, bool) else None
        if numeric is not None:
            below = numeric if below is None else min(below, numeric)
        if below is not None:
            max_cost = below - 1 if max_cost is None else min(max_cost, below - 1)
        if seed is not None and (max_cost != seed[1] - 1 or numeric is not None and seed[1] >= numeric):
            seed = None  # a tighter bound than the seed's cost: the seed is not an answer to it
        return _Bound(max_cost, seed)

    def _run(self, algorithm, plan: SearchPlan, prepared: engines.Prepared, bound: _Bound, limiter: Limiter,
             proof: bool, emit) -> SearchResult:
        """The engine's checked result for the case's search under the bound (a negative bound: ``exhausted``
        at once).

        Raises:
            NativeEngineError: the native search failed, or its solution does not replay.
        """
        if bound.max_cost is not None and bound.max_cost < 0:  # nothing costs less than 0
            return SearchResult(status=EXHAUSTED, lower_bound=0, stats=SearchStats(elapsed=limiter.elapsed()))
        params = self.params if self.algorithm is not None else bind_params(algorithm, {})
        task = engines.Task(algorithm, params, prepared.heuristic, admissible=proof, max_cost=bound.max_cost,
                            mode=plan.mode, incumbent=None if bound.seed is None else bound.seed[:2],
                            on_improve=None if emit is None else (lambda c, lb: emit(c, lb, "search")),
                            threads=self.config.threads)
        engine = prepared.engine
        return engine.check(prepared, engine.run(prepared, task, limiter), limiter)

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

    def _seed(self, prepared: engines.Prepared, algorithm, limiter: Limiter):
        """``(moves, cost, origin)`` of the known solution to start from, or ``None``.

        From ``seeds`` when given (checked by replay), else from the game's
        first upper-bound provider under ``upper_bound="auto"`` or a seeded
        algorithm (``anytime``).  On the native engine a provider that names
        its search (:attr:`~searchkit.bounds.UpperBound.native`) runs it there
        (:meth:`_native_seed`); otherwise the provider runs on the Python
        puzzle, built for it.

        Raises:
            SeedError: a given seed that is not a solution of its case.
            LimitReached: the case's time ran out while the provider searched.
        """
        case = prepared.case
        given = None if self.config.seeds is None else self.config.seeds.for_case(case)
        wanted = self.config.upper_bound == "auto" or algorithm.seeded
        if given is None and not wanted:  # most cases: nothing to import or build
            return None
        from searchkit.bounds import SeedError, check_moves

        from searchkit.game import moves_to_json

        def checked(moves, render, origin):
            try:
                return (*check_moves(prepared.python_puzzle(), moves, render), origin)
            except SeedError:  # a rule of the searched puzzle may drop a move the solution uses
                pass
            # The caller names the file and case of the error (as for every Solver refusal).
            plain = self.game.puzzle(case, self.options, frozenset(r.name for r in self.rules))
            return (*check_moves(plain, moves, render), origin)

        found = None
        if given is not None and case.index in self.config.seeds.hashes and self.config.seeds.every is None:
            from searchkit.machinery.records import data_hash

            if data_hash(case) != self.config.seeds.hashes[case.index]:  # another file's, or an edited board's, record
                raise SeedError(f"seed solution: the record of case {case.index} is of another board "
                                "(its data_hash differs)")
        if given is not None:
            def render(m):
                return _canon(moves_to_json(self.game, case, [m])[0])

            found = checked([_canon(t) for t in given], render, "seed")
        if found is None and wanted:
            providers = self.registry.upper_bounds_for(self.config.game)
            if providers:
                provider = providers[0]
                found = self._native_seed(prepared, provider, limiter)
                if found is None:
                    moves = provider.solve(prepared.python_puzzle())
                    if moves is not None:  # None: the provider found nothing, so the case has no upper bound
                        found = checked(moves, None, f"upper-bound:{provider.name}")
        return found

    def _native_seed(self, prepared: engines.Prepared, provider, limiter: Limiter):
        """``(moves, cost, origin)`` of the provider's own search run by the native engine, or ``None``: not
        the native engine, no native search named, a component of it without a twin, or no solution found
        (the provider then runs on the Python puzzle, which finds the same when the two engines agree).

        The search runs without the case's driver-level rules and without ``--max-nodes``, as the
        provider's Python search does, under the case's clock; its solution is replayed by the Python game
        (:meth:`~searchkit.machinery.engine.seam.Engine.check`) before it is a seed.

        Raises:
            LimitReached: the case's time (or memory) ran out in that search.
        """
        if prepared.engine.name != engines.NATIVE or provider.native is None:
            return None
        spec, heuristic_name = provider.native
        name, raw = parse_spec(spec)
        algorithm = self.registry.algorithm(name)
        heuristic = None if heuristic_name is None else self.registry.heuristic(self.config.game, heuristic_name)
        if engines.missing_component(self.game, algorithm, heuristic, ()) is not None:
            return None
        task = engines.Task(algorithm, bind_params(algorithm, raw), heuristic,
                            admissible=heuristic is None or heuristic.admissible, rules=False, node_limit=False,
                            threads=self.config.threads)
        engine = prepared.engine
        result = engine.check(prepared, engine.run(prepared, task, limiter), limiter)
        if result.status in _STOPS:
            raise LimitReached(result.status)
        if not result.has_solution:
            return None
        return tuple(result.moves), result.cost, f"upper-bound:{provider.name}"

    @staticmethod
    def _settle(result, algorithm, proof, seed, bounded=False):
        """The result with the claims that hold: lower bounds only from admissible heuristics, the seed kept.

        Read from the algorithm's declared fields: its :attr:`~searchkit.algorithm.Algorithm.guarantee`
        and what it compares with the cost bound (:attr:`~searchkit.algorithm.Algorithm.prunes_on`).
        ``bounded``: the search had a cost bound (the plan's depth, ``--upper-bound`` or a seed's cost).
        """
        if not proof:
            if result.status == SOLVED and algorithm.uses_heuristic and result.cost != 0:
                result = attrs.evolve(result, status=FEASIBLE)  # an inadmissible h proves nothing
            elif result.status == EXHAUSTED and bounded and algorithm.prunes_on == PRUNES_ON_F:
                # Under a bound, a driver that cuts on g + h whatever h is may have cut every solution below
                # it with an overestimate.  One that cuts on g alone with such an h (prunes_on
                # "f_if_admissible") proves its exhaustion still, and without a bound nothing is cut on h.
                result = attrs.evolve(result, status=INCOMPLETE)
            result = attrs.evolve(result, lower_bound=0 if result.cost == 0 else None)  # costs are >= 0
        if result.has_solution and result.cost == 0:  # nothing is cheaper than nothing
            result = attrs.evolve(result, status=SOLVED, lower_bound=0)
        elif result.status == SOLVED and result.lower_bound is None and algorithm.guarantee.kind == OPTIMAL:
            result = attrs.evolve(result, lower_bound=result.cost)
        if seed is None or result.has_solution or result.status == CANCELLED:
            return result
        moves, cost, _ = seed
        if result.status == EXHAUSTED:
            # Nothing cheaper than the seed exists: a proof with an admissible h, and without one for a driver
            # that then cuts on g alone (one that cuts on g + h was made incomplete above).
            return attrs.evolve(result, status=SOLVED, moves=moves, cost=cost, lower_bound=cost)
        lb = result.lower_bound if proof else None
        return attrs.evolve(result, status=FEASIBLE, moves=moves, cost=cost,
                            lower_bound=None if lb is None else min(lb, cost))


#: The statuses of a limit reached (a native seed search that stopped on one stops the case's set-up).
_STOPS = frozenset({TIME_LIMIT, MEMORY_LIMIT, CANCELLED})


def _greedy_under_bound(algorithm, plan: SearchPlan, bound: _Bound, proof: bool) -> bool:
    """Whether the search runs unbounded and keeps its first solution only when it is under the bound.

    A driver that cuts on g + h only with an admissible h (``prunes_on`` is
    ``f_if_admissible``: wastar, gbfs, beam) cuts on g alone when h proves
    nothing, so under a cost bound it would search every state cheaper than
    the bound (PC19: 20 s a board instead of 0.1 s).  It runs as without the
    bound instead, stops at its first solution, and that solution is kept
    only when it is under the bound (else the seed, or nothing).  Improving
    further is the anytime driver's job.
    """
    return (bound.max_cost is not None and plan.depth is None and not proof
            and algorithm.prunes_on == PRUNES_ON_F_IF_ADMISSIBLE)


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
