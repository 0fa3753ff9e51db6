"""Differential tests of a game's native domain against its own Python puzzle: :func:`native_checks`.

A plugin that gives its game a native twin (a native problem, and heuristics, rules and algorithms with
``native`` names) calls this from its own tests, as a third party would::

    from searchkit.testing import native_checks

    test_native = native_checks("flood")                  # pytest collects test_native[differential], ...

Each check draws cases with hypothesis and solves each twice through the public
:class:`~searchkit.machinery.solver.Solver`, once with ``engine="python"`` (the reference) and once with
``engine="auto"`` (the native engine whenever the game's native twin takes the case), and asserts that the
two results are the same in everything the engines promise to share (:data:`COMPARED`).  Only the clock
differs between them: ``elapsed``, ``per_depth_seconds`` and each iteration's ``elapsed``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from searchkit.game import Case
from searchkit.limits import Limits

__all__ = ["COMPARED", "EXAMPLES_VAR", "Search", "native_checks", "summary"]

#: The environment variable that sets the number of hypothesis examples of every differential check
#: (as in the core suite's tests/native); when set, it wins over ``max_examples``.
EXAMPLES_VAR = "SEARCHKIT_DIFFERENTIAL_EXAMPLES"

#: What the two engines must give alike, by name (:func:`summary`): the result's status, cost, moves and
#: lower bound; the counts; one ``(bound, expanded, generated, evaluated, kind)`` per iteration; the states
#: per depth; and the cuts of every pruning rule (0 included).
COMPARED = ("status", "cost", "moves", "lower_bound", "expanded", "generated", "evaluated", "peak_stored",
            "iterations", "per_depth", "rule_cuts")


def summary(outcome) -> dict[str, Any]:
    """The fields of :data:`COMPARED` of a :class:`~searchkit.machinery.solver.Outcome`, as one plain dict."""
    r = outcome.result
    s = r.stats
    return dict(status=r.status, cost=r.cost if r.has_solution else None,
                moves=list(r.moves) if r.has_solution else [], lower_bound=r.lower_bound,
                expanded=s.expanded, generated=s.generated, evaluated=s.evaluated, peak_stored=s.peak_stored,
                iterations=[(i.bound, i.expanded, i.generated, i.evaluated, i.kind) for i in s.iterations],
                per_depth=list(s.per_depth), rule_cuts=dict(s.rule_cuts))


def why_not_native(game, algorithm, heuristic=None, rules: Iterable = ()) -> str | None:
    """Why the game's native twin cannot search with these components, in words, or ``None`` when it can.

    The one place :func:`native_checks` asks what a native twin supports:
    :func:`searchkit.machinery.engine.missing_component`, which reads the game's native module's manifest.

    Args:
        game: the game object.
        algorithm, heuristic: an :class:`~searchkit.algorithm.Algorithm` and a
            :class:`~searchkit.heuristic.Heuristic` (or ``None``).
        rules: the :class:`~searchkit.pruning.PruningRule` objects that act.
    """
    from searchkit.machinery.engine import missing_component

    return missing_component(game, algorithm, heuristic, list(rules))


@attrs.frozen
class Search:
    """One drawn way to search a case: what :func:`native_checks` hands both engines.

    Attributes:
        algorithm: the algorithm's name, options included (``"wastar(weight=2)"``).
        heuristic: the heuristic's name (options included), or ``None`` for an algorithm that takes none.
        disabled: the pruning rules switched off (each acts under ``algorithm``).
        max_nodes: the node limit, or ``None``.
        upper_bound: seek only solutions cheaper than this, or ``None``.
    """

    algorithm: str
    heuristic: str | None
    disabled: tuple[str, ...] = ()
    max_nodes: int | None = None
    upper_bound: int | None = None


def native_checks(game: str, *, cases=None, algorithms: Sequence[str] | None = None,
                  heuristics: Sequence[str] | None = None, registry=None, max_size: int | None = None,
                  options: dict[str, Any] | None = None, max_examples: int = 100,
                  max_nodes: tuple[int, int] = (0, 300), upper_bounds: tuple[int, int] | None = (0, 30),
                  interrupt_case: str | None = None, interrupt_search: tuple[str, str | None] | None = None
                  ) -> Callable[..., None]:
    """A pytest test checking ``game``'s native domain against its Python puzzle, one test per check.

    Assign it to a name starting with ``test`` in a test module; pytest collects
    ``NAME[differential]``, ``NAME[time-limit-expired]`` and ``NAME[ctrl-c]``.  Without pytest, the checks
    are the returned function's ``checks`` attribute, a list of :class:`~searchkit.testing.ContractCheck`
    (call each; it raises ``AssertionError`` on a difference).

    The checks:

    * ``differential``: hypothesis draws a case (from ``cases``) and a :class:`Search` -- an algorithm
      (its options drawn: weights, widths), a heuristic (for an algorithm that takes one), a set of pruning
      rules switched off, a node limit (``None`` or an int in ``max_nodes``) and an upper bound (``None`` or
      an int in ``upper_bounds``) -- among the components the game's native twin supports, solves the case
      on both engines (its plan's mode and depth as the game gives them) and asserts
      that every field of :data:`COMPARED` is equal.  A case or search the native twin does not take (the
      engine ``auto`` chose ran Python) is rejected; if none is taken, hypothesis fails the check
      (``Unsatisfiable``), so a twin that takes nothing cannot pass.
    * ``time-limit-expired``: a case with a time limit of 0, or of 1 s spent before it started (its first
      byte read 2 s earlier): both engines give ``time_limit`` with the same (empty) counts (at most 100
      examples: the case stops before either engine searches).
    * ``ctrl-c`` (with ``interrupt_case``): in a child Python (with the installed plugins, whatever
      ``registry`` is), the case is solved on the native engine,
      and SIGINT is sent once the native search reports progress; the result must be ``cancelled`` (not a
      traceback, not a hang).  Without ``interrupt_case`` the check is skipped, saying so.

    Every check is skipped (under pytest; the reason names what is missing) when the game's native twin
    supports no algorithm: the native module is not installed, or the game builds no native problem.

    Args:
        game: the game's name.
        cases: a hypothesis strategy of cases: each drawn value is a :class:`~searchkit.game.Case`, or the
            case's data as the game's generator returns it (made a case with ``Case.generated``).  Default:
            the game's generator at sizes from its ``min_size`` to ``max_size``.
        algorithms: the algorithms to draw from, names with options allowed (``"beam(width=4)"``); an
            algorithm named without options gets each drawn from a few values (:func:`param_values`).
            Default: every registered algorithm with a native twin.
        heuristics: the game's heuristics to draw from (``"pdb(partition=4-4)"``); one named without
            options gets them drawn, among the combinations with a native twin (:func:`_supported_heuristics`).
            Default: every heuristic of the game with a native twin.
        registry: a loaded registry (default: the installed plugins').
        max_size: the generator's largest size (default: its ``check_size``); only without ``cases``.
        options: generator options (``GameOption.key`` -> value); only without ``cases``.
        max_examples: hypothesis examples per check; the environment variable
            ``SEARCHKIT_DIFFERENTIAL_EXAMPLES``, when set, wins (CI raises it).
        max_nodes: ``(low, high)``, the range of drawn node limits.
        upper_bounds: ``(low, high)``, the range of drawn upper bounds, or ``None`` to draw none.
        interrupt_case: the text of one case (the game's input format) that the native engine takes more
            than a few seconds to solve, for ``ctrl-c``.
        interrupt_search: ``(algorithm, heuristic)`` for ``ctrl-c`` (default: the case's plan).

    Returns:
        A function ``test(check)`` with pytest's ``parametrize`` mark over the checks, and the list as its
        ``checks`` attribute.

    Raises:
        ImportError: hypothesis or pytest is not installed (``pip install 'searchkit-puzzles[plugin-dev]'``).
        UnknownNameError: an unknown game, algorithm or heuristic.
        ValueError: an algorithm or heuristic named that the native twin lacks (one line naming it), a
            ``max_size`` below the generator's ``min_size``, an empty or reversed range.
    """
    import pytest
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from searchkit.testing import ContractCheck
    from searchkit.tools.instances import instances
    from searchkit.tools.instances import load as _registry

    reg = _registry(registry)
    the_game = reg.game(game)
    for name, span in (("max_nodes", max_nodes), ("upper_bounds", upper_bounds)):
        if span is not None and not (0 <= span[0] <= span[1]):
            raise ValueError(f"native_checks: {name} must be (low, high) with 0 <= low <= high, got {span!r}")
    env = os.environ.get(EXAMPLES_VAR)
    if env is not None:
        if not env.strip().isdigit() or int(env) < 1:
            raise ValueError(f"{EXAMPLES_VAR}={env!r}: expected a number of examples >= 1")
        max_examples = int(env)

    rules = reg.rules_for(game)
    native_algorithms, skip = _supported_algorithms(reg, the_game, algorithms)
    native_heuristics = _supported_heuristics(reg, game, the_game, native_algorithms, heuristics)
    native_rules = {r.name for r in rules if native_algorithms
                    and why_not_native(the_game, native_algorithms[0][1], None, [r]) is None}
    if cases is None and skip is None:
        cases = instances(game, registry=reg, max_size=max_size, options=options)
    elif cases is None:
        cases = st.nothing()

    searches = _searches(native_algorithms, native_heuristics, rules, native_rules, max_nodes, upper_bounds)
    cfg = settings(max_examples=max_examples, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                          HealthCheck.data_too_large])

    def as_case(value) -> Case:
        return value if isinstance(value, Case) else Case.generated(value)

    def both(case: Case, search: Search, limits: Limits, started_ago: float | None = None):
        """``(python outcome, native outcome)``; rejects (hypothesis) a search the case's plan cannot take
        and a case the native twin does not take."""
        import time

        from hypothesis import reject

        from searchkit.errors import PlanError
        from searchkit.machinery.solver import Solver

        outcomes = []
        for engine in ("python", "auto"):
            try:
                solver = Solver(reg, game, algorithm=search.algorithm, heuristic=search.heuristic,
                                disabled=frozenset(search.disabled), limits=limits, upper_bound=search.upper_bound,
                                engine=engine)
                started = None if started_ago is None else time.perf_counter() - started_ago
                outcomes.append(solver.solve(case, started=started))
            except PlanError:
                if engine == "auto":
                    raise  # the Python engine took the plan: under auto, nothing else may refuse it
                reject()  # the plan cannot be searched so (its mode, a depth it lacks...): on either engine
        py, nat = outcomes
        assert py.engine in ("python", None), f"engine python ran {py.engine}"
        if nat.engine != "native":
            if py.engine is None or nat.engine is None:  # a verdict without search, on both
                assert summary(py) == summary(nat)
            reject()  # the native twin does not take this case
        return py, nat

    def differ(py, nat, what: str) -> str:
        a, b = summary(py), summary(nat)
        lines = [f"  {k}: python {a[k]!r}, native {b[k]!r}" for k in COMPARED if a[k] != b[k]]
        return f"{game}: the native engine differs from the Python engine {what}:\n" + "\n".join(lines)

    @cfg
    @given(case=cases, search=searches)
    def differential(case, search):
        py, nat = both(as_case(case), search, Limits(max_nodes=search.max_nodes))
        assert summary(py) == summary(nat), differ(py, nat, f"with {search}")

    @settings(cfg, max_examples=min(max_examples, 100))  # the same path whatever the case: few are enough
    @given(case=cases, search=searches, spent=st.sampled_from([(0.0, None), (1.0, 2.0)]))
    def time_limit_expired(case, search, spent):
        limit, ago = spent  # --time-limit 0, or a limit of 1 s whose case began 2 s ago
        py, nat = both(as_case(case), attrs.evolve(search, max_nodes=None), Limits(time_limit=limit),
                       started_ago=ago)
        assert py.result.status == "time_limit", f"python: {py.result.status}, expected time_limit"
        assert summary(py) == summary(nat), differ(py, nat, f"with a time limit spent before it started, {search}")

    def ctrl_c():
        _interrupted(game, interrupt_case, interrupt_search)

    no_interrupt = None if interrupt_case is not None else (
        "no interrupt_case given (the text of a case the native engine takes seconds to solve)")
    checks = [ContractCheck("differential", differential, skip),
              ContractCheck("time-limit-expired", time_limit_expired, skip),
              ContractCheck("ctrl-c", ctrl_c, skip or no_interrupt)]

    @pytest.mark.parametrize("check", checks, ids=lambda c: c.name)
    def test(check):
        check()

    test.checks = checks
    return test


def _supported_algorithms(reg, game, names: Sequence[str] | None) -> tuple[list[tuple[str, Any]], str | None]:
    """``([(spec, Algorithm)], skip)``: the algorithms to draw, and why every check is skipped (or ``None``).

    Raises:
        ValueError: a named algorithm the native twin lacks (while others have one).
    """
    from searchkit.algorithm import parse_spec

    specs = list(names) if names is not None else [a.name for a in reg.algorithms.values()]
    found, why = [], {}
    for spec in specs:
        algorithm = reg.algorithm(parse_spec(spec)[0])
        reason = why_not_native(game, algorithm)
        if reason is None:
            found.append((spec, algorithm))
        else:
            why[spec] = reason
    if not found:
        return [], next(iter(why.values()), "no algorithm to draw")
    if names is not None and why:
        spec, reason = next(iter(why.items()))
        raise ValueError(f"native_checks({game.name!r}): algorithm {spec!r}: {reason}")
    return found, None


#: The most option combinations of one heuristic drawn from (more: its defaults only).
MAX_HEURISTIC_VARIANTS = 64


def _supported_heuristics(reg, name: str, game, algorithms, names: Sequence[str] | None) -> list[list[str]]:
    """The heuristics to draw: for each, the specs (names with options) of its variants the twin supports.

    A heuristic named without options, or every heuristic by default, has its options drawn from a few
    values each (:func:`param_values`; all their combinations, up to :data:`MAX_HEURISTIC_VARIANTS`), those
    whose native twin exists (a heuristic's ``claims`` may take it away for some options).

    Raises:
        ValueError: a named heuristic the native twin lacks.
    """
    import itertools

    if not algorithms:
        return []
    probe = algorithms[0][1]
    if names is None:
        names = [h.name for h in reg.heuristics_for(name) if why_not_native(game, probe, h) is None]
    else:
        for spec in names:
            reason = why_not_native(game, probe, reg.heuristic(name, spec))
            if reason is not None:
                raise ValueError(f"native_checks({name!r}): heuristic {spec!r}: {reason}")
    out = []
    for spec in names:
        heuristic = reg.heuristic(name, spec)
        variants = [spec]
        if "(" not in spec and heuristic.params:
            choices = [[(p.name, v) for v in param_values(p)] for p in heuristic.params]
            if math.prod(len(c) for c in choices) <= MAX_HEURISTIC_VARIANTS:
                specs = [f"{spec}({', '.join(f'{k}={v}' for k, v in combo)})" for combo in itertools.product(*choices)]
                variants = [v for v in specs if why_not_native(game, probe, reg.heuristic(name, v)) is None] or [spec]
        out.append(variants)
    return out


def _searches(algorithms, heuristics: list[list[str]], rules, native_rules: set[str], max_nodes, upper_bounds):
    """The hypothesis strategy of :class:`Search` values over the supported components."""
    from hypothesis import strategies as st

    if not algorithms:
        return st.nothing()

    @st.composite
    def draw_search(draw):
        spec, algorithm = draw(st.sampled_from(algorithms))
        if "(" not in spec and algorithm.params:  # options not fixed by the caller: drawn
            spec += "(" + ", ".join(f"{p.name}={draw(st.sampled_from(param_values(p)))}"
                                    for p in algorithm.params) + ")"
        heuristic = None
        if algorithm.takes_heuristic:
            if not heuristics:
                if algorithm.uses_heuristic:
                    from hypothesis import reject

                    reject()
            else:
                heuristic = draw(st.sampled_from(draw(st.sampled_from(heuristics))))  # a heuristic, a variant
        acting = [r for r in rules if r.acts_under(algorithm)]
        forced = [r.name for r in acting if r.name not in native_rules]  # no native twin: always off
        optional = sorted(r.name for r in acting if r.name in native_rules)
        off = set(forced)
        if optional:
            off |= draw(st.sets(st.sampled_from(optional)))
        nodes = draw(st.one_of(st.none(), st.integers(*max_nodes)))
        bound = None if upper_bounds is None else draw(st.one_of(st.none(), st.integers(*upper_bounds)))
        return Search(spec, heuristic, tuple(sorted(off)), nodes, bound)

    return draw_search()


def param_values(param) -> list:
    """A few values of an algorithm's :class:`~searchkit.algorithm.Param` to draw: its choices, else its
    default and its smallest values (ints: min .. min + 2 and min + 5; floats: min, min + 0.2, + 0.5 and
    + 1, one decimal), within its range."""
    if param.choices:
        return list(param.choices)
    low = param.min if param.min is not None else param.default
    if param.type is int:
        values = {param.default, low, low + 1, low + 2, low + 5}
    elif param.type is float:
        values = {float(param.default)} | {round(low + step, 1) for step in (0, 0.2, 0.5, 1)}
    else:
        return [param.default]
    return sorted(v for v in values if param.max is None or v <= param.max)


#: The child of the ``ctrl-c`` check: argv is a JSON ``[game, case text, algorithm, heuristic]``.  It keeps
#: live figures, and a watcher thread sends SIGINT to the process once the native search has reported
#: progress (it is running); it prints one JSON line: the status, the engine and the expanded count.
_CHILD = r"""
import json, os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # a background shell may start us with it ignored
game, text, algorithm, heuristic = json.loads(sys.argv[1])
from searchkit.api import registry
from searchkit.limits import live_figures, track_live
from searchkit.machinery.solver import Solver
solver = Solver(registry(), game, algorithm=algorithm, heuristic=heuristic, engine="native")
cases = [c for c in solver.game.parse(text, "<interrupt_case>", solver.options)]
if len(cases) != 1 or not hasattr(cases[0], "data"):
    print(json.dumps({"error": f"interrupt_case is not one case: {[str(c) for c in cases]}"}), flush=True)
    sys.exit(0)
track_live(True)
sent, done = [], []
def watch():
    while not sent:
        figures = live_figures()
        if figures is not None and figures["expanded"]:
            sent.append(figures["expanded"])
            os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
    for _ in range(6000):  # 60 s for the search to answer Ctrl-C
        if done:
            return
        time.sleep(0.01)
    print(json.dumps({"error": "Ctrl-C was sent, and the native search went on for 60 s"}), flush=True)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
outcome = solver.solve(cases[0])
done.append(True)
sent.append(None)
print(json.dumps({"status": outcome.result.status, "engine": outcome.engine, "sent": sent[0],
                  "expanded": outcome.result.stats.expanded}), flush=True)
"""


def _interrupted(game: str, text: str | None, search: tuple[str, str | None] | None) -> None:
    """The ``ctrl-c`` check: ``text`` solved natively in a child Python, interrupted while it searches."""
    import json
    import subprocess
    import sys

    algorithm, heuristic = search if search is not None else (None, None)
    argv = [sys.executable, "-c", _CHILD, json.dumps([game, text, algorithm, heuristic])]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, (
        f"{game}: the interrupted child failed (exit status {done.returncode}): {done.stderr.strip()[-2000:]}")
    out = json.loads(lines[-1])
    assert "error" not in out, f"{game}: {out.get('error')}"
    assert out["engine"] == "native", f"{game}: interrupt_case ran on the {out['engine']} engine, not native"
    assert out["sent"] is not None, (
        f"{game}: interrupt_case was {out['status']} before the native search reported progress, so Ctrl-C "
        f"was never sent: give a case that takes the native engine seconds")
    assert out["status"] == "cancelled", f"{game}: Ctrl-C during a native search gave {out['status']}, " \
                                         f"not cancelled"
