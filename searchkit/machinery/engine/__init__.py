"""The two engines, Python and native, behind one seam, and which one searches a case.

An *engine* is one of two things here and nothing else: the **Python engine**
(:mod:`~searchkit.machinery.engine.python`: the reference drivers on the game's Python puzzle) or the
**native engine** (:mod:`~searchkit.machinery.engine.native`: the game's Rust module).  Both sit behind
the seam of :mod:`~searchkit.machinery.engine.seam` (``prepare``, ``run``, ``check``); the Solver keeps
plan, resolve, bound and settle.

**Choosing.**  ``--engine auto|python|native`` (or the ``SEARCHKIT_ENGINE`` environment variable; the
option wins) picks the engine of a :class:`~searchkit.machinery.solver.Solver`:

* ``python``: always the Python drivers.
* ``auto`` (the default): the native module when it is installed, speaks this protocol, the game builds
  native problems, and every component of the case's plan is in its manifest -- the algorithm, the heuristic
  and every pruning rule that acts; otherwise Python, silently (a protocol mismatch: with one warning line).
* ``native``: the native module, or a one-line plan error naming the first component without a twin (or
  the missing module, or the protocol mismatch).

A test that runs a Python-only game under ``SEARCHKIT_ENGINE=native`` gets that plan error: such
tests pass ``engine="python"`` (or ``--engine python``) themselves, so the variable only changes what it can
honestly change.
"""

from __future__ import annotations

import os

from searchkit.errors import PlanError
from searchkit.machinery.engine.native import (REPLAY_GRACE, NativeEngine, NativeEngineError, NativeModule,
                                               _modules as _modules, check_solution, describe, game_module, load_module,
                                               missing_component, native_name, request, result_of, rule_kind)
from searchkit.machinery.engine.python import PythonEngine
from searchkit.machinery.engine.seam import Declined, Engine, Prepared, Task

__all__ = ["AUTO", "ENGINES", "ENV_VAR", "NATIVE", "PYTHON", "REPLAY_GRACE", "Declined", "Engine",
           "NativeEngine", "NativeEngineError", "NativeModule", "Prepared", "PythonEngine", "Task",
           "check_engine", "check_solution", "choose", "default_engine", "describe", "engine_named",
           "game_module", "load_module", "missing_component", "native_name", "request", "result_of", "rule_kind"]

AUTO, PYTHON, NATIVE = "auto", "python", "native"
ENGINES = (AUTO, PYTHON, NATIVE)
#: The environment variable giving the default engine.
ENV_VAR = "SEARCHKIT_ENGINE"

_ENGINES: dict[str, Engine] = {PYTHON: PythonEngine(), NATIVE: NativeEngine()}


def engine_named(name: str) -> Engine:
    """The engine ``"python"`` or ``"native"`` (one instance each: they keep no state of their own)."""
    return _ENGINES[name]


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


_warned: set = set()


def choose(engine: str, game, algorithm, heuristic, rules) -> str:
    """``"python"`` or ``"native"`` for a plan (module docstring).  Under ``auto``, a module refused for its
    protocol is said once, in one warning line.

    Raises:
        PlanError: ``engine`` is ``native`` and a component has no native twin (or the module is missing or
            speaks another protocol).
    """
    if engine == PYTHON:
        return PYTHON
    missing = missing_component(game, algorithm, heuristic, rules)
    if missing is None:
        return NATIVE
    if engine == NATIVE:
        raise PlanError(f"engine native: {missing}")
    mod = game_module(game)
    if mod is not None and mod.refusal is not None and mod.name not in _warned:
        _warned.add(mod.name)
        from searchkit.machinery.output import warning

        warning(f"{mod.refusal}; using the Python engine")
    return PYTHON
