"""The native protocol: the one source of what crosses between searchkit and a game's native module.

A game's native module (built with the kit crate ``searchkit-pyo3``, ``native/kit``) is called with
``solve(problem, request) -> result``: ``request`` and ``result`` are dicts whose keys are listed here, and
the module's ``manifest()`` says which protocol it speaks (:data:`PROTOCOL`) and which components it has.

This module is the source; the Rust side is generated from it: ``python -m searchkit.protocol`` prints
``native/core/src/protocol.rs`` (constants only; the core crate stays free of Python), and
``tests/native/test_protocol.py`` fails when the committed file differs from what this module prints.  Why
generated constants rather than typed ``#[pyclass]`` values: the request and result are plain dicts that the
Python engine, the records and the tests already read, a dict costs one conversion per case (the calls are
coarse: one a case), and a third party's module built against an older kit is detected by :data:`PROTOCOL`
rather than by a failing attribute lookup in the middle of a case.

Bump :data:`PROTOCOL` whenever a key is added, removed or changes meaning; a module speaking another protocol
is not used (``--engine auto`` falls back to Python with one warning line; ``--engine native`` is a plan
error): :func:`searchkit.machinery.engine.game_module`.
"""

from __future__ import annotations

from searchkit.result import ITERATION_KINDS, STATUSES

#: The protocol version a native module must report in its manifest (2: the request's and the stats'
#: ``threads``, issue 34; a module of protocol 1 would run every search on one thread without saying so).
PROTOCOL = 2

#: Request keys (a dict; every key optional but ``algorithm``), with what each holds.
REQUEST_KEYS: dict[str, str] = {
    "algorithm": "a registered algorithm name (str)",
    "params": "the algorithm's options: weight/step as a (num, den) pair or a float, width, ara (dict)",
    "admissible": "whether the heuristic is admissible (bool, default true)",
    "max_cost": "the plan's cost cap (int or None)",
    "max_nodes": "the node limit (int or None)",
    "elapsed": "seconds since the case's first byte (float, default 0)",
    "remaining": "seconds left before the time limit (float or None)",
    "memory_budget": "bytes the native tables may hold (int or None)",
    "heuristic": "a heuristic name of the manifest (str or None)",
    "heuristic_params": "the heuristic's options, typed as its manifest entry says (dict)",
    "pruners": "driver-level rules of the manifest, in order (list of str)",
    "disabled": "successor rules of the manifest switched off (list of str)",
    "incumbent": "(moves, cost) or None: anytime's known solution",
    "on_improve": "a callable (cost, lower_bound) or None",
    "mode": "bounded_dfs: exact, at_most or shortest",
    "progress": "a callable (expanded, bound) called about every half second, or None",
    "threads": "the threads the one search may use (int >= 1, default 1; a driver that runs on one uses one)",
}

#: Result keys (a dict).
RESULT_KEYS: dict[str, str] = {
    "engine": "always 'native'",
    "status": "one of STATUSES",
    "moves": "the solution's moves (list), as the game's Python moves",
    "cost": "the solution's cost (int or None)",
    "lower_bound": "the proven lower bound (int or None)",
    "message": "status error: what failed (str or None)",
    "stats": "a dict of STATS_KEYS",
}

#: Keys of a result's ``stats`` (``searchkit.result.SearchStats``' fields, then three measurements).
STATS_KEYS: dict[str, str] = {
    "expanded": "states expanded (int)",
    "generated": "successors generated (int)",
    "evaluated": "heuristic evaluations (int)",
    "elapsed": "seconds since the case's start (float)",
    "iterations": "a list of (bound, expanded, generated, elapsed, evaluated, kind), kind in ITERATION_KINDS",
    "per_depth": "expansions per depth (list of int)",
    "per_depth_seconds": "seconds per depth (list of float)",
    "peak_stored": "the most states stored at once (int)",
    "rule_cuts": "a list of (rule name, cuts)",
    "peak_bytes": "bytes the closed set and open list held at most (int; a measurement)",
    "pruner_bytes": "bytes the driver-level rules' tables held at most (int; a measurement)",
    "states_stored": "distinct states stored at the end (int; a measurement)",
    "threads": "the threads the search ran on (int > 1); absent when it ran on one (see OPTIONAL_STATS_KEYS)",
}

#: Stats keys a result holds only sometimes: ``threads`` only when the search ran on more than one thread, so
#: the stats (and the records) of a one-thread search are what they were before threads existed.
OPTIONAL_STATS_KEYS = ("threads",)

#: Manifest keys: ``manifest()`` returns a dict of these.
MANIFEST_KEYS: dict[str, str] = {
    "protocol": "the PROTOCOL the module speaks (int)",
    "game": "the game's registered name (str)",
    "version": "the module's version (str)",
    "profile": "release or debug",
    "components": "a list of {kind, name, params}: kind in COMPONENT_KINDS; params a list of "
                  "{name, type, default, min, max} (type in PARAM_TYPES; min and max None when unbounded)",
}

#: What a manifest's component is.
COMPONENT_KINDS = ("algorithm", "heuristic", "pruner", "rule")
#: The types a component's parameter can have (Python's ``int``, ``float``, ``str``).
PARAM_TYPES = ("int", "float", "str")


def _const(name: str) -> str:
    return name.upper().replace("-", "_")


def rust_source() -> str:
    """The text of ``native/core/src/protocol.rs``: this module's values as Rust constants."""
    lines = [
        "//! The native protocol's constants, generated by `python -m searchkit.protocol` from",
        "//! `searchkit/protocol.py` (the one source; its docstring says what each key holds). Do not edit:",
        "//! `tests/native/test_protocol.py` fails when this file differs from what the generator prints.",
        "",
        f"/// The protocol version a module reports in its manifest.\npub const PROTOCOL: u32 = {PROTOCOL};",
        "",
        "/// Statuses (`searchkit.result.STATUSES`).",
    ]
    lines += [f'pub const {_const(s)}: &str = "{s}";' for s in STATUSES]
    lines.append(f"pub const STATUSES: [&str; {len(STATUSES)}] = [{', '.join(_const(s) for s in STATUSES)}];")
    lines += ["", "/// Iteration kinds (`searchkit.result.ITERATION_KINDS`)."]
    lines += [f'pub const {_const(k)}: &str = "{k}";' for k in ITERATION_KINDS]
    lines.append(f"pub const ITERATION_KINDS: [&str; {len(ITERATION_KINDS)}] = "
                 f"[{', '.join(_const(k) for k in ITERATION_KINDS)}];")
    for mod, keys in (("request", REQUEST_KEYS), ("result", RESULT_KEYS), ("stats", STATS_KEYS),
                      ("manifest", MANIFEST_KEYS)):
        lines += ["", f"/// The keys of a {mod} dict.", f"pub mod {mod} {{"]
        lines += [f'    pub const {_const(k)}: &str = "{k}";' for k in keys]
        lines.append("}")
    lines += ["", "/// Component kinds of a manifest."]
    lines += [f'pub const {_const(k)}: &str = "{k}";' for k in COMPONENT_KINDS]
    lines += ["", "/// Parameter types of a manifest."]
    lines += [f'pub const TYPE_{_const(t)}: &str = "{t}";' for t in PARAM_TYPES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - the generator's face
    print(rust_source(), end="")
