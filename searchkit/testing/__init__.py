"""Test kit for plugin authors: hypothesis strategies and a contract suite.

Use it from a plugin's own tests, either as one call::

    from searchkit.testing import run_contract

    def test_my_game_keeps_the_contract():
        run_contract("mygame")

or as one test per contract::

    import pytest
    from searchkit.testing import contract_checks

    @pytest.mark.parametrize("check", contract_checks("mygame"), ids=lambda c: c.name)
    def test_contract(check):
        check()

The contracts (each a :class:`ContractCheck`):

* ``states-hashable``: states are hashable, equal to a deep copy with the same
  hash, and unchanged (same hash) after their successors are generated;
* ``successors-deterministic``: generating a state's successors twice gives
  the same moves and children in the same order;
* ``format-round-trip``: an instance written with ``Game.format_input`` parses
  back to the same data, and writing that again gives the same text; written
  to a file and read by the CLI's reader (``parse_stream`` over the file's
  lines, when the game has it), it gives the same case;
* ``solutions-replay``: the game's default search returns moves that replay,
  under the plain rules, to a goal (and with exactly the planned number of
  moves in exact mode);
* ``solutions-render`` (games with the optional ``render`` hook): every state
  of the replayed solution (or the start, when there is none) renders to a
  :class:`~searchkit.render.grid.Frame`, and the SVG of them all parses;
* ``heuristics-admissible``: every heuristic that claims admissibility (or
  consistency) shows no violation on small instances (exhaustive search);
* ``pruning-keeps-answers``: under *every* registered algorithm the rule
  acts under (its hooks, :attr:`~searchkit.pruning.PruningRule.needs`) and
  that can search the case's plan, switching each pruning rule off leaves the
  optimal cost unchanged (algorithms whose ``solved`` is optimal) -- and the
  very same moves for rules that claim to keep first-solution order
  (``PruningRule.sound_for == "first"``) under an algorithm that keeps the
  move order; so a rule that acts only under IDA* is exercised under IDA*
  even when the plan runs A*;
* ``references-resolve``: every ``"module:attr"`` string the game registered
  (the game itself, heuristic, rule and generator factories) names an object.

Instances come from the game's registered generator, drawn through
hypothesis so failures shrink and runs are reproducible, with sizes from the
generator's ``min_size`` (1 unless it says otherwise) up.  The generator is
optional: without one, every check that needs instances is *skipped, saying
so* (its :attr:`ContractCheck.skipped` gives the reason; under pytest it is
reported as a skip, and :func:`run_contract` warns), and only
``references-resolve`` runs.  Without the optional ``format_input``,
``format-round-trip`` is skipped the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import attrs

from searchkit.game import Case
from searchkit.result import EXHAUSTED, SOLVED
from searchkit.tools.instances import instances  # public here, as the plugin guide documents
from searchkit.tools.instances import load as _registry
from searchkit.testing.native import native_checks  # the test kit for native domains (its module's docstring)

__all__ = ["ContractCheck", "ContractSkipped", "contract_checks", "instances", "native_checks", "run_contract"]


@attrs.frozen
class ContractCheck:
    """One named contract, callable with no arguments; raises ``AssertionError`` on failure.

    Attributes:
        name: the contract's name.
        run: the check.
        skipped: why the check cannot run for this game (e.g. it registers no
            generator), or ``None``.  Calling a skipped check skips the test
            under pytest, and otherwise warns (:class:`ContractSkipped`).
    """

    name: str
    run: Callable[[], None]
    skipped: str | None = None

    def __call__(self) -> None:
        if self.skipped is None:
            self.run()
            return
        import sys

        if "pytest" in sys.modules:
            import pytest

            pytest.skip(f"{self.name}: {self.skipped}")
        import warnings

        warnings.warn(f"{self.name} skipped: {self.skipped}", ContractSkipped, stacklevel=2)


class ContractSkipped(UserWarning):
    """A contract check that could not run for the game (the message says why)."""


def contract_checks(game_name: str, *, registry=None, max_size: int | None = None, max_examples: int = 25,
                    max_nodes: int = 200_000, check_size: int | None = None,
                    max_states: int = 20_000) -> list[ContractCheck]:
    """The contract suite of ``game_name`` as a list of :class:`ContractCheck`.

    Draws are derandomized (the same instances on every run), so a failure
    reproduces.

    Args:
        game_name: the game to check.
        registry: a loaded registry (default: load the installed plugins).
        max_size: largest generator size for every check but the admissibility
            one (default: the generator's ``check_size``).  Sizes are drawn
            from the generator's ``min_size`` up.
        max_examples: hypothesis examples per contract.
        max_nodes: node limit for each search the contracts run; a search that
            hits it is skipped, not failed.
        check_size: largest generator size for the admissibility check, which
            explores whole state spaces (default: the generator's ``check_size``).
        max_states: the admissibility check skips instances with more
            reachable states than this.

    Raises:
        ValueError: ``max_size`` or ``check_size`` below the generator's
            ``min_size`` (one line naming it).
    """
    from hypothesis import HealthCheck, given, settings

    reg = _registry(registry)
    game = reg.game(game_name)
    no_generator = None if game_name in reg.generators else (
        f"{game_name} registers no generator (register_generators), so no instances can be drawn")
    if no_generator is None:
        from searchkit.tools.instances import size_range

        size_range(reg.generator(game_name), None, check_size, ("min_size", "check_size"))  # one line, now
        strategy = instances(game_name, registry=reg, max_size=max_size)
    else:
        from hypothesis import strategies as st

        strategy = st.nothing()
    from searchkit.machinery.solver import Solver

    options = Solver(reg, game_name).options
    all_rules = frozenset(r.name for r in reg.rules_for(game_name))
    cfg = settings(max_examples=max_examples, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))

    case_of = Case.generated

    @cfg
    @given(strategy)
    def states_hashable(data):
        puzzle = game.puzzle(case_of(data), options, frozenset())
        state = puzzle.initial_state()
        for _ in range(3):
            before = hash(state)
            clone = copy.deepcopy(state)
            assert clone == state and hash(clone) == before, "a state differs from its deep copy"
            succ = list(puzzle.successors(state))
            assert hash(state) == before, "generating successors changed the state"
            for _, child, cost in succ:
                hash(child)
                assert isinstance(cost, int) and cost >= 0, f"step cost must be an int >= 0, got {cost!r}"
            if not succ:
                break
            state = succ[0][1]

    @cfg
    @given(strategy)
    def successors_deterministic(data):
        puzzle = game.puzzle(case_of(data), options, frozenset())
        again = game.puzzle(case_of(data), options, frozenset())
        state = puzzle.initial_state()
        assert state == again.initial_state(), "two puzzles of one instance start differently"
        for _ in range(3):
            first = [(m, c) for m, c, _ in puzzle.successors(state)]
            second = [(m, c) for m, c, _ in again.successors(state)]
            assert first == second, "successors differ between two calls"
            if not first:
                break
            state = first[-1][1]

    @cfg
    @given(strategy)
    def format_round_trip(data):
        fmt = game.format_input
        text = fmt([data])
        items = list(game.parse(text, "<generated>", options))
        errors = [str(i) for i in items if not isinstance(i, Case)]
        assert not errors, f"generated text does not parse: {errors[0]}"
        assert len(items) == 1, f"expected one case, parsed {len(items)}"
        assert items[0].data == data, "parsed data differs from the data written"
        assert fmt([items[0].data]) == text, "writing the parsed data gives other text"
        # The CLI's path: the file read by the one reader (parse_stream over its lines, when the game has it).
        import os
        import tempfile

        from searchkit.machinery.reading import iter_cases

        fd, path = tempfile.mkstemp(suffix=".txt", prefix="searchkit-contract-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            read = [item.value for item in iter_cases(game, [path], options)]
        finally:
            os.unlink(path)
        assert [getattr(v, "data", str(v)) for v in read] == [data], (
            "the file read by the CLI's reader gives other items than parse(text)")

    def solver(disabled=frozenset(), algorithm=None, heuristic=None):
        from searchkit.limits import Limits

        return Solver(reg, game_name, algorithm=algorithm, heuristic=heuristic, disabled=disabled,
                      limits=Limits(max_nodes=max_nodes), options=options)

    def decided(data):
        """The case of ``data`` and its default outcome, or ``None`` when a limit stopped it."""
        case = case_of(data)
        outcome = solver().solve(case)
        return (case, outcome) if outcome.result.status in (SOLVED, EXHAUSTED) else None

    @cfg
    @given(strategy)
    def solutions_replay(data):
        from searchkit.puzzle import replay

        found = decided(data)
        if found is None or not found[1].result.solved:
            return
        case, outcome = found
        moves = outcome.result.moves
        plain = game.puzzle(case, options, all_rules)
        assert plain.is_goal(replay(plain, moves)), f"moves {moves!r} do not reach a goal"
        plan = outcome.plan
        if plan.mode == "exact" and plan.depth is not None:
            assert len(moves) == plan.depth, "exact mode returned a solution of another length"

    @settings(max_examples=min(max_examples, 10), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def solutions_render(data):
        import xml.etree.ElementTree as ET

        from searchkit.render.grid import Frame
        from searchkit.render.steps import replay_steps
        from searchkit.render.svg import render_svg

        case = case_of(data)
        result = solver().solve(case).result
        moves = result.moves if result.solved else ()
        plain = game.puzzle(case, options, all_rules)
        steps, _ = replay_steps(game, case, plain, moves)
        assert len([s for s in steps if s.settled]) == len(moves) + 1, "one settled picture per state"
        for step in steps:
            assert isinstance(step.frame, Frame)
        ET.fromstring(render_svg(steps))

    def heuristics_admissible():
        from searchkit.tools.check import check_heuristic

        problems = []
        for spec in reg.heuristics_for(game_name):
            if not (spec.admissible or spec.consistent):
                continue
            report = check_heuristic(reg, game_name, spec.name, samples=max_examples,
                                     max_size=check_size, max_states=max_states)
            for prop, (data, bad) in report.examples.items():
                if report.claims.get(prop):
                    v = bad[0]
                    problems.append(f"{spec.name} is not {prop}: h={v.h} > {v.limit} after moves {list(v.path)} "
                                    f"on\n{game.format_input([data])}")
        assert not problems, "\n".join(problems)

    admissible = [h.name for h in reg.heuristics_for(game_name) if h.admissible]

    def judges(rule, algorithm) -> str | None:
        """What switching ``rule`` off must keep under ``algorithm``: ``"cost"``, ``"moves"`` or ``None``."""
        if not rule.acts_under(algorithm):
            return None
        if algorithm.guarantee.solved_is_optimal:
            return "cost"
        if algorithm.keeps_order and rule.sound_for == "first":
            return "moves"
        return None

    def strategy_for(algorithm, case) -> tuple[bool, str | None]:
        """``(runs, heuristic)``: whether ``algorithm`` can search ``case``'s plan, and with which heuristic
        (the plan's, else the game's first admissible one, for an algorithm that needs one)."""
        from searchkit.errors import SearchkitError

        plan = game.plan(case, options)
        if plan.verdict is not None:
            return False, None
        heuristic = None
        if algorithm.uses_heuristic:
            heuristic = plan.heuristic if plan.heuristic is not None else (admissible[0] if admissible else None)
            if heuristic is None:
                return False, None
        try:
            solver(algorithm=algorithm.name, heuristic=heuristic).resolve(plan)
        except SearchkitError:  # e.g. a mode, a move order or a depth bound the algorithm cannot give
            return False, None
        return True, heuristic

    @cfg
    @given(strategy)
    def pruning_keeps_answers(data):
        case = case_of(data)
        for algorithm in reg.algorithms.values():
            rules = [(rule, judges(rule, algorithm)) for rule in reg.rules_for(game_name)]
            rules = [(rule, how) for rule, how in rules if how is not None]
            if not rules:
                continue
            runs, heuristic = strategy_for(algorithm, case)
            if not runs:
                continue
            base = solver(algorithm=algorithm.name, heuristic=heuristic).solve(case).result
            if base.status not in (SOLVED, EXHAUSTED):
                continue
            for rule, how in rules:
                other = solver(frozenset({rule.name}), algorithm.name, heuristic).solve(case).result
                if other.status not in (SOLVED, EXHAUSTED):
                    continue
                under = f"switching off {rule.name!r} under {algorithm.name}"
                assert other.status == base.status, f"{under} changes the status"
                if how == "cost":
                    assert other.cost == base.cost, f"{under} changes the optimal cost"
                else:
                    assert other.moves == base.moves, f"{under} changes the first solution"

    def references_resolve():
        from searchkit._refs import resolve

        refs = [("game", reg.game_ref(game_name))]
        refs += [(f"heuristic {h.name}", h.factory) for h in reg.heuristics_for(game_name)]
        refs += [(f"rule {r.name}", r.factory) for r in reg.rules_for(game_name) if r.factory is not None]
        if game_name in reg.generators:
            refs.append(("generator", reg.generator(game_name).generate))
        bad = []
        for what, ref in refs:
            try:
                obj = resolve(ref)
            except (ImportError, AttributeError, ValueError) as exc:
                bad.append(f"{what}: {ref!r} does not resolve ({type(exc).__name__}: {exc})")
                continue
            if not callable(obj) and what != "game":  # a game may be registered as an instance
                bad.append(f"{what}: {ref!r} is not callable")
        assert not bad, "\n".join(bad)

    no_format = None if callable(getattr(game, "format_input", None)) else (
        f"{game_name} has no format_input (an optional hook), so there is no text to read back")
    return [
        ContractCheck("references-resolve", references_resolve),
        ContractCheck("states-hashable", states_hashable, no_generator),
        ContractCheck("successors-deterministic", successors_deterministic, no_generator),
        ContractCheck("format-round-trip", format_round_trip, no_generator or no_format),
        ContractCheck("solutions-replay", solutions_replay, no_generator),
        *([ContractCheck("solutions-render", solutions_render, no_generator)]
          if callable(getattr(game, "render", None)) else []),
        ContractCheck("heuristics-admissible", heuristics_admissible, no_generator),
        ContractCheck("pruning-keeps-answers", pruning_keeps_answers, no_generator),
    ]


def run_contract(game_name: str, **kwargs) -> None:
    """Run every contract of :func:`contract_checks`; raise ``AssertionError`` naming each failure."""
    import warnings

    failures = []
    for check in contract_checks(game_name, **kwargs):
        if check.skipped is not None:
            warnings.warn(f"{check.name} skipped: {check.skipped}", ContractSkipped, stacklevel=2)
            continue
        try:
            check()
        except AssertionError as exc:
            failures.append(f"{check.name}: {exc}")
    assert not failures, "contract failures:\n" + "\n".join(failures)
