"""The native engine: a game's native module (Rust, built with the kit crate ``searchkit-pyo3``) and the
bridge to it.

**A game's native module.**  A game that has a native domain names its module in the attribute
``native_module`` (e.g. ``"GAME_native"``: the plugin's optional native package, built by maturin from
the plugin's ``native/`` folder).  The module exposes ``solve(problem, request) -> result`` and
``manifest()``: the protocol it speaks (:data:`searchkit.protocol.PROTOCOL`), its game, and every component
it implements -- the core's algorithms, the game's heuristics, driver-level pruners and fused rules -- each
with its typed parameters.  **A Python component has a native twin exactly when the manifest lists it**
(under its own name, or the name in its ``native`` field; ``native=False`` says it has none, e.g. for some
options): nothing is copied by hand.  A module speaking another protocol is not used.

**The game's hook.**  ``native_problem(case, options, disabled) -> object | None``: an object with
``solve(request) -> dict`` (usually a call of the module's ``solve`` with the case's data), built for the
case, or ``None`` for a case it cannot take (then ``auto`` uses Python and ``native`` is a plan error);
instead of ``None`` it may raise a :class:`~searchkit.errors.PlanError` saying why, which the plan error
under ``native`` quotes.  The request (:func:`request`) carries the rules switched off (``disabled``).

**Trust.**  Every native solution is replayed on the game's plain Python puzzle (every rule off) before it
is reported (:func:`check_solution`, :meth:`NativeEngine.check`): a move that is not legal, an end that is
not a goal, or a cost that is not the moves' is a :class:`NativeEngineError`, which the command line
reports as that case's error (never a wrong answer); a panic inside the native engine is one too.
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from searchkit.errors import PlanError
from searchkit.limits import Limiter, LimitReached, Limits, active, live_tracked, memory_allowance
from searchkit.machinery.engine.seam import Declined, Prepared, Task
from searchkit.result import ERROR, IterationRecord, SearchResult, SearchStats  # per native result: once

_modules: dict[str, "NativeModule | None"] = {}

#: Seconds a native solution's replay may run past the case's time limit (:meth:`NativeEngine.check`): a
#: replay takes microseconds on a judge or benchmark board, and seconds only on boards of millions of cells.
REPLAY_GRACE = 1.0


class NativeEngineError(Exception):
    """The native engine failed on a case (a panic, or a solution that does not replay): that case's error."""


class NativeModule:
    """A game's native module, imported, and what its manifest says.

    Attributes:
        name: the module's import name.
        module: the module (``solve``, ``manifest``, and the game's own functions).
        manifest: its manifest dict (:data:`searchkit.protocol.MANIFEST_KEYS`).
        refusal: why it is not used (a protocol mismatch), or ``None``.
        components: ``(kind, name) -> list of parameter dicts`` for every component of the manifest.
    """

    __slots__ = ("name", "module", "manifest", "refusal", "components")

    def __init__(self, name: str, module, manifest: dict) -> None:
        from searchkit.protocol import PROTOCOL

        self.name, self.module, self.manifest = name, module, manifest
        self.components = {(c["kind"], c["name"]): list(c["params"]) for c in manifest.get("components", ())}
        spoken = manifest.get("protocol")
        self.refusal = None if spoken == PROTOCOL else (
            f"the native module {name} speaks protocol {spoken}, and this searchkit speaks {PROTOCOL}: rebuild "
            f"it against this searchkit's kit (pip install its native package again)")

    def has(self, kind: str, name: str) -> bool:
        """Whether the manifest lists the component ``name`` of ``kind`` (``searchkit.protocol.COMPONENT_KINDS``)."""
        return (kind, name) in self.components

    @property
    def version(self) -> str:
        return str(self.manifest.get("version", "?"))


def load_module(name: str) -> NativeModule | None:
    """The native module ``name`` with its manifest, or ``None`` when it is not installed (looked up once).

    A module whose ``manifest()`` is missing or fails is reported as speaking no protocol (its ``refusal``).
    """
    if name not in _modules:
        import importlib

        try:
            mod = importlib.import_module(name)
        except ImportError:
            _modules[name] = None
            return None
        try:
            manifest = dict(mod.manifest())
        except Exception:  # an old or foreign module: not used, and said why
            manifest = {}
        _modules[name] = NativeModule(name, mod, manifest)
    return _modules[name]


def game_module(game) -> NativeModule | None:
    """The native module the game names (its ``native_module`` attribute), or ``None``: none named or installed."""
    name = getattr(game, "native_module", None)
    return None if name is None else load_module(name)


def describe(games) -> str:
    """One line naming each game's native module and whether it is installed, e.g.
    ``native engine: GAME 0.1.0 (GAME_native), OTHER not installed (OTHER_native)``.

    Args:
        games: the registered games (:class:`~searchkit.game.Game` or :class:`~searchkit.game.LazyGame`
            objects: both carry ``native_module``, so no game is imported to say it).
    """
    parts = []
    for game in games:
        name = getattr(game, "native_module", None)
        if name is None:
            continue
        mod = load_module(name)
        if mod is None:
            parts.append(f"{game.name} not installed ({name})")
        elif mod.refusal is not None:
            parts.append(f"{game.name} {mod.version} ({name}; protocol {mod.manifest.get('protocol')}: not used)")
        else:
            parts.append(f"{game.name} {mod.version} ({name})")
    if not parts:
        return "native engine: no game names a native module"
    return "native engine: " + ", ".join(parts)


def native_name(component) -> str | None:
    """The name under which a native module would list ``component`` (its ``native`` field, else its name), or
    ``None`` when the component says it has no twin (``native=False``)."""
    native = getattr(component, "native", None)
    if component is None or native is False:
        return None
    return component.name if native is None else native


def rule_kind(rule) -> str:
    """A pruning rule's kind in a manifest: ``pruner`` (a driver-level rule, with a factory) or ``rule`` (fused
    into the successors)."""
    return "pruner" if getattr(rule, "factory", None) is not None else "rule"


def missing_component(game, algorithm, heuristic, rules) -> str | None:
    """What keeps a plan off the native engine, in words, or ``None`` when every component has a twin in the
    game's native module's manifest.

    Args:
        game: the game object (it needs ``native_module`` and ``native_problem``).
        algorithm, heuristic: the resolved components (``heuristic`` may be ``None``).
        rules: the pruning rules that act in this search (switched-off ones left out).
    """
    name = getattr(game, "native_module", None)
    if name is None or getattr(game, "native_problem", None) is None:
        return f"game {game.name!r} has no native module"
    mod = load_module(name)
    if mod is None:
        hint = getattr(game, "native_install", None)
        return f"game {game.name!r}: its native module {name} is not installed" + (f" ({hint})" if hint else "")
    if mod.refusal is not None:
        return mod.refusal
    for kind, component in (("algorithm", algorithm), ("heuristic", heuristic)):
        if component is not None and not mod.has(kind, native_name(component) or ""):
            return f"{kind} {component.name!r} has no native twin in {name}"
    for rule in rules:
        if not mod.has(rule_kind(rule), native_name(rule) or ""):
            return f"pruning rule {rule.name!r} has no native twin in {name} (--no-prune {rule.name} to leave it out)"
    return None


def _exact(value):
    if isinstance(value, float):
        from searchkit.machinery.drivers._common import exact_weight

        return exact_weight(value)
    return value


def request(algorithm, heuristic, rules, params, *, admissible: bool, max_cost: int | None, limiter,
            incumbent=None, on_improve=None, mode: str | None = None, disabled=(), module=None,
            threads: int = 1) -> dict[str, Any]:
    """The request dict (:data:`searchkit.protocol.REQUEST_KEYS`) for one native search.

    The heuristic crosses as its twin's name and its options, typed (``heuristic_params``: the bound
    options of ``-H 'NAME(KEY=VALUE)'``, as its :class:`~searchkit.algorithm.Param` parsed them).
    ``disabled`` are the rules switched off; those the ``module``'s manifest lists (as a rule or a pruner)
    are sent, the others do not exist natively and so cannot act there.

    ``limiter`` is the case's started :class:`~searchkit.limits.Limiter`: ``elapsed`` is the time since the
    case's first byte and ``remaining`` what is left of its time limit, so the native clock counts from
    the same instant.  Float options (weights) are sent as exact ``(p, q)`` ratios of their decimal
    spelling, the ratios the Python drivers order on.  ``memory_budget`` is three quarters of the case's
    ``--memory-limit`` allowance, if any (the native tables stop there with ``memory_limit``; the rest of
    the address space is for Python and the native engine's small allocations).  ``mode`` is the plan's
    (``bounded_dfs``'s ``exact``, ``at_most`` or ``shortest``).  ``threads`` is what the search may use
    (``--threads``): a driver that cannot split its work runs on one, and the result's stats say so.

    When live figures are kept (:func:`searchkit.limits.track_live`, the progress display), ``progress``
    is a callable the native engine calls about every half second with ``(expanded, bound)``: it writes
    them into ``limiter``, where :func:`searchkit.limits.live_figures` reads them as for a Python search.
    """
    now = time.perf_counter()
    allowance = memory_allowance()
    return {
        "algorithm": native_name(algorithm),
        "params": {k: _exact(v) for k, v in params.items()} if params else {},
        "heuristic": None if heuristic is None else native_name(heuristic),
        "heuristic_params": {} if heuristic is None else dict(getattr(heuristic, "options", None) or {}),
        "pruners": [native_name(r) for r in rules if r.factory is not None],
        "disabled": sorted(d for d in disabled if module is None or module.has("rule", d) or module.has("pruner", d)),
        "admissible": admissible,
        "max_cost": max_cost,
        "max_nodes": limiter.max_nodes,
        "elapsed": now - limiter.start,
        "remaining": None if limiter.deadline is None else limiter.deadline - now,
        "memory_budget": None if allowance is None else int(allowance * 3 // 4),
        "incumbent": None if incumbent is None else (list(incumbent[0]), incumbent[1]),
        "on_improve": on_improve,
        "mode": mode,
        "progress": _progress(limiter) if live_tracked() else None,
        "threads": threads,
    }


def _progress(limiter):
    """The ``progress(expanded, bound)`` callable of a request: the native search's live figures into ``limiter``."""
    def progress(expanded: int, bound: int | None) -> None:
        limiter.done = expanded
        if bound is not None:
            limiter.bound = bound

    return progress


def result_of(d: dict):
    """The :class:`~searchkit.result.SearchResult` of a native result dict.

    Raises:
        NativeEngineError: the native search failed (status ``error``: a panic, with its message).
    """
    if d["status"] == ERROR:
        raise NativeEngineError(d.get("message") or "the native engine failed")
    s = d["stats"]
    stats = SearchStats(expanded=s["expanded"], generated=s["generated"], evaluated=s["evaluated"],
                        elapsed=s["elapsed"], iterations=tuple([IterationRecord(*it) for it in s["iterations"]]),
                        per_depth=tuple(s["per_depth"]), per_depth_seconds=tuple(s["per_depth_seconds"]),
                        peak_stored=s["peak_stored"], rule_cuts=tuple([(k, v) for k, v in s["rule_cuts"]]),
                        threads=s.get("threads", 1))  # written only above 1 (searchkit.protocol.STATS_KEYS)
    return SearchResult(status=d["status"], moves=tuple(d["moves"]), cost=d["cost"], stats=stats,
                        lower_bound=d["lower_bound"])


def check_solution(puzzle, result) -> None:
    """Replay a native result's moves on the game's plain ``puzzle`` (every rule off).

    Each move must be one of the puzzle's successors of its state: the child comes from the puzzle's optional
    ``successor(state, move)`` when it has one (the replay puzzle's own answer for that move, ``None`` for an
    illegal one; :data:`searchkit.hooks.OPTIONAL_HOOKS`), else from a scan of ``successors(state)``.

    Raises:
        NativeEngineError: a move is not legal, the end is not a goal, or the cost is not the moves' cost.
    """
    if not result.has_solution:
        return
    state = puzzle.initial_state()
    cost = 0
    successor = getattr(puzzle, "successor", None)
    for i, move in enumerate(result.moves, 1):
        step = successor(state, move) if successor is not None else _scan(puzzle, state, move)
        if step is None:
            raise NativeEngineError(f"the native engine's solution does not replay: move {i} ({move!r}) is not "
                                    f"legal in its state (a defect of the native engine; no answer is given)")
        state, cost = step[0], cost + step[1]
    if not puzzle.is_goal(state):
        raise NativeEngineError("the native engine's solution does not reach a goal (a defect of the native "
                                "engine; no answer is given)")
    if cost != result.cost:
        raise NativeEngineError(f"the native engine's solution costs {cost}, not the {result.cost} it reported "
                                f"(a defect of the native engine; no answer is given)")


def _scan(puzzle, state, move) -> tuple | None:
    """``(child, step cost)`` of ``move`` among ``puzzle.successors(state)``, or ``None``."""
    for m, child, step in puzzle.successors(state):
        if m == move:
            return child, step
    return None


class NativeEngine:
    """The native engine behind the seam (:mod:`searchkit.machinery.engine.seam`)."""

    name = "native"

    def prepare(self, solver, case, heuristic, off: frozenset, acting: tuple) -> Prepared:
        """The game's native problem for ``case`` (its ``native_problem`` hook, module docstring).

        Raises:
            Declined: the game builds none for this case (saying why when the game did).
        """
        game, options = solver.game, solver.options
        try:
            problem = game.native_problem(case, options, off)
        except PlanError as refusal:  # a case the native engine does not take, and why
            raise Declined(str(refusal)) from None
        if problem is None:
            raise Declined("")

        def build():
            return game.puzzle(case, options, off)

        def plain():
            replay = getattr(game, "replay_puzzle", None)
            return replay(case, options) if replay is not None else \
                game.puzzle(case, options, frozenset(rule.name for rule in solver.rules))

        return Prepared(self, case, off, acting, heuristic, build, plain, problem=problem,
                        module=game_module(game))

    def run(self, prepared: Prepared, task: Task, limiter) -> SearchResult:
        """The native search's result (its moves not yet replayed: :meth:`check`)."""
        req = request(task.algorithm, task.heuristic, prepared.acting if task.rules else (), task.params,
                      admissible=task.admissible, max_cost=task.max_cost, limiter=limiter,
                      incumbent=task.incumbent, on_improve=task.on_improve, mode=task.mode,
                      disabled=prepared.off, module=prepared.module, threads=task.threads)
        if not task.node_limit:
            req["max_nodes"] = None
        try:
            return result_of(prepared.problem.solve(req))
        except LimitReached as stop:  # the native problem's own set-up (e.g. building a pattern database)
            return SearchResult(status=stop.status, stats=SearchStats(elapsed=limiter.elapsed()))

    def check(self, prepared: Prepared, result: SearchResult, limiter) -> SearchResult:
        """``result`` with its moves replayed on the game's replay puzzle, else its plain puzzle (every rule off).

        Trust nothing: a solution is reported only once the Python game has replayed it.  Nothing to replay
        without a solution: a search stopped at a limit builds no puzzle (on a 1600 x 1600 Flood-It board the
        replay puzzle alone took 38 s after --time-limit 0.5 had stopped the search).  The replay checks the
        clock (a huge board's puzzle takes seconds to build), but a search that ran to its time limit
        (anytime always does) must still have its solution checked: the replay gets :data:`REPLAY_GRACE`
        seconds past the deadline.  A solution it cannot check by then is not reported (the result keeps its
        proven bound and counts, with the limit's status).

        Raises:
            NativeEngineError: the solution does not replay.
        """
        if not result.has_solution:
            return result
        try:
            if limiter.deadline is None:  # the case's own limiter, already active (solve's)
                check_solution(prepared.plain_puzzle(), result)
            else:
                left = max(limiter.deadline - limiter.clock(), REPLAY_GRACE)
                with active(Limiter(Limits(time_limit=left, memory_mb=None if limiter.memory is None
                                           else limiter.memory / 2**20), threads=limiter.threads)):
                    check_solution(prepared.plain_puzzle(), result)
        except LimitReached as stop:
            return attrs.evolve(result, status=stop.status, moves=(), cost=None)
        return result
