"""Which engine searches a case: the Python drivers (:mod:`searchkit.drivers`, the reference) or the native
engine (the optional ``searchkit_native`` package, Rust), and the bridge to the native one.

**Choosing.**  ``--engine auto|python|native`` (or the ``SEARCHKIT_ENGINE`` environment variable; the
option wins) picks the engine of a :class:`~searchkit.solver.Solver`:

* ``python``: always the Python drivers.
* ``auto`` (the default): the native engine when the package is installed, the game builds native
  problems, and every component of the case's plan has a native counterpart -- the algorithm, the
  heuristic and every pruning rule that acts (their ``native`` names); otherwise Python, silently.
* ``native``: the native engine, or a one-line plan error naming the first component without a
  counterpart (or the missing package).

A test that runs a Python-only game (Mayan, sliding tiles) under ``SEARCHKIT_ENGINE=native`` gets that
plan error: such tests pass ``engine="python"`` (or ``--engine python``) themselves, so the variable only
changes what it can honestly change.

**The game's hook.**  A game that can run natively has the optional method
``native_problem(case, options, disabled) -> object | None``: an object with ``solve(request) -> dict``
(the request and result dicts of ``searchkit_native``: :func:`request` and :func:`result_of`), built for
the case with the rules in ``disabled`` off, or ``None`` for a case it cannot take (then ``auto`` uses
Python and ``native`` is a plan error); instead of ``None`` it may raise a
:class:`~searchkit.errors.PlanError` saying why, which the plan error under ``native`` quotes.

**Trust.**  Every native solution is replayed on the game's plain Python puzzle (every rule off) before it
is reported (:func:`check_solution`): a move that is not legal, an end that is not a goal, or a cost that
is not the moves' is a :class:`NativeEngineError`, which the command line reports as that case's error
(never a wrong answer); a panic inside the native engine is one too.
"""

from __future__ import annotations

import os
import time
from typing import Any

from searchkit.errors import PlanError
from searchkit.limits import live_tracked, memory_allowance
from searchkit.result import ERROR, IterationRecord, SearchResult, SearchStats  # per native result: once

AUTO, PYTHON, NATIVE = "auto", "python", "native"
ENGINES = (AUTO, PYTHON, NATIVE)
#: The environment variable giving the default engine.
ENV_VAR = "SEARCHKIT_ENGINE"

_module: list = []


class NativeEngineError(Exception):
    """The native engine failed on a case (a panic, or a solution that does not replay): that case's error."""


def native_module():
    """The ``searchkit_native._native`` module, or ``None`` when the package is not installed (imported once)."""
    if not _module:
        try:
            import searchkit_native._native as mod
        except ImportError:
            mod = None
        _module.append(mod)
    return _module[0]


def native_version() -> str | None:
    """The installed native engine's version, or ``None``."""
    mod = native_module()
    return None if mod is None else mod.__version__


def describe() -> str:
    """One line saying whether the native engine is present, e.g. ``native engine 0.1.0 (searchkit_native)``."""
    version = native_version()
    if version is None:
        return "native engine: not installed (everything runs on the Python engine; pip install ./native/python)"
    return f"native engine {version} (searchkit_native)"


def default_engine() -> str:
    """The engine ``SEARCHKIT_ENGINE`` names (``auto`` when unset).

    Raises:
        PlanError: the variable holds something else.
    """
    value = os.environ.get(ENV_VAR, AUTO).strip().lower() or AUTO
    if value not in ENGINES:
        raise PlanError(f"{ENV_VAR}={value!r}: expected one of {', '.join(ENGINES)}")
    return value


def check_engine(engine: str | None) -> str:
    """``engine`` checked (``None``: :func:`default_engine`).

    Raises:
        PlanError: not one of :data:`ENGINES`.
    """
    if engine is None:
        return default_engine()
    if engine not in ENGINES:
        raise PlanError(f"engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return engine


def native_name(component) -> str | None:
    """The native counterpart's name of an algorithm, heuristic or pruning rule (its ``native`` field), or ``None``."""
    return getattr(component, "native", None)


def missing_component(game, algorithm, heuristic, rules) -> str | None:
    """What keeps a plan off the native engine, in words, or ``None`` when everything has a counterpart.

    Args:
        game: the game object (it needs ``native_problem``).
        algorithm, heuristic: the resolved components (``heuristic`` may be ``None``).
        rules: the pruning rules that act in this search (switched-off ones left out).
    """
    if native_module() is None:
        return "the native engine is not installed (pip install ./native/python)"
    if getattr(game, "native_problem", None) is None:
        return f"game {game.name!r} builds no native problem"
    if native_name(algorithm) is None:
        return f"algorithm {algorithm.name!r} has no native counterpart"
    if heuristic is not None and native_name(heuristic) is None:
        return f"heuristic {heuristic.name!r} has no native counterpart"
    for rule in rules:
        if native_name(rule) is None:
            return f"pruning rule {rule.name!r} has no native counterpart (--no-prune {rule.name} to leave it out)"
    return None


def choose(engine: str, game, algorithm, heuristic, rules) -> str:
    """``"python"`` or ``"native"`` for a plan (module docstring).

    Raises:
        PlanError: ``engine`` is ``native`` and a component has no native counterpart.
    """
    if engine == PYTHON:
        return PYTHON
    missing = missing_component(game, algorithm, heuristic, rules)
    if missing is None:
        return NATIVE
    if engine == NATIVE:
        raise PlanError(f"engine native: {missing}")
    return PYTHON


def _exact(value):
    if isinstance(value, float):
        from searchkit.drivers._common import exact_weight

        return exact_weight(value)
    return value


def request(algorithm, heuristic, rules, params, *, admissible: bool, max_cost: int | None, limiter,
            incumbent=None, on_improve=None, mode: str | None = None) -> dict[str, Any]:
    """The request dict of ``searchkit_native`` for one search.

    ``limiter`` is the case's started :class:`~searchkit.limits.Limiter`: ``elapsed`` is the time since the
    case's first byte and ``remaining`` what is left of its time limit, so the native clock counts from
    the same instant.  Float options (weights) are sent as exact ``(p, q)`` ratios of their decimal
    spelling, the ratios the Python drivers order on.  ``memory_budget`` is three quarters of the case's
    ``--memory-limit`` allowance, if any (the native tables stop there with ``memory_limit``; the rest of
    the address space is for Python and the native engine's small allocations).  ``mode`` is the plan's
    (``bounded_dfs``'s ``exact``, ``at_most`` or ``shortest``).

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
        "pruners": [native_name(r) for r in rules if r.factory is not None],
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
                        peak_stored=s["peak_stored"], rule_cuts=tuple([(k, v) for k, v in s["rule_cuts"]]))
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
