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
  back to the same data, and writing that again gives the same text;
* ``solutions-replay``: the game's default search returns moves that replay,
  under the plain rules, to a goal (and with exactly the planned number of
  moves in exact mode);
* ``heuristics-admissible``: every heuristic that claims admissibility (or
  consistency) shows no violation on small instances (exhaustive search);
* ``pruning-keeps-answers``: switching each pruning rule off leaves the
  optimal cost unchanged -- and the very same moves for rules that claim to
  keep first-solution order (``PruningRule.sound_for == "first"``) under a
  first-solution algorithm.

Instances come from the game's registered generator, drawn through
hypothesis so failures shrink and runs are reproducible.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from searchkit.game import Case, option_defaults


def _registry(registry):
    if registry is not None:
        return registry
    from searchkit.plugin.manager import load_registry

    return load_registry()


def instances(game: str, *, registry=None, max_size: int | None = None, min_size: int = 1,
              options: Mapping[str, Any] | None = None):
    """A hypothesis strategy of case data for ``game`` from its registered generator.

    Args:
        game: the game's name.
        registry: a loaded registry (default: load the installed plugins).
        max_size, min_size: the generator's ``size`` range (default max: the
            generator's ``check_size``, small enough for exhaustive search).
        options: generator options (``GameOption.key`` -> value).

    Raises:
        UnknownNameError: if the game has no generator.
    """
    from hypothesis import strategies as st

    gen = _registry(registry).generator(game)
    top = max_size if max_size is not None else gen.check_size
    opts = dict(options or {})
    return st.builds(
        lambda size, rng: gen(rng, size, opts),
        st.integers(min_size, max(min_size, top)),
        st.randoms(use_true_random=False),
    )


@attrs.frozen
class ContractCheck:
    """One named contract, callable with no arguments; raises ``AssertionError`` on failure."""

    name: str
    run: Callable[[], None]

    def __call__(self) -> None:
        self.run()


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
            one (default: the generator's ``check_size``).
        max_examples: hypothesis examples per contract.
        max_nodes: node limit for each search the contracts run; a search that
            hits it is skipped, not failed.
        check_size: largest generator size for the admissibility check, which
            explores whole state spaces (default: the generator's ``check_size``).
        max_states: the admissibility check skips instances with more
            reachable states than this.
    """
    from hypothesis import HealthCheck, given, settings

    reg = _registry(registry)
    game = reg.game(game_name)
    strategy = instances(game_name, registry=reg, max_size=max_size)
    options = option_defaults(game.options)
    all_rules = frozenset(r.name for r in reg.rules_for(game_name))
    cfg = settings(max_examples=max_examples, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))

    def case_of(data):
        return Case(1, data, "<generated>", 1)

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
        fmt = getattr(game, "format_input", None)
        assert fmt is not None, f"game {game_name!r} has no format_input"
        text = fmt([data])
        items = list(game.parse(text, "<generated>", options))
        errors = [str(i) for i in items if not isinstance(i, Case)]
        assert not errors, f"generated text does not parse: {errors[0]}"
        assert len(items) == 1, f"expected one case, parsed {len(items)}"
        assert items[0].data == data, "parsed data differs from the data written"
        assert fmt([items[0].data]) == text, "writing the parsed data gives other text"

    def solver(disabled=frozenset(), algorithm=None):
        from searchkit.limits import Limits
        from searchkit.runner import Solver

        return Solver(reg, game_name, algorithm=algorithm, disabled=disabled, limits=Limits(max_nodes=max_nodes),
                      options=options)

    @cfg
    @given(strategy)
    def solutions_replay(data):
        from searchkit.puzzle import replay

        case = case_of(data)
        result = solver().solve(case)
        if not result.solved:
            return
        plain = game.puzzle(case, options, all_rules)
        end = replay(plain, result.moves)
        assert plain.is_goal(end), f"moves {result.moves!r} do not reach a goal"
        plan = game.plan(case, options)
        if plan.mode == "exact" and plan.depth is not None and solver().names(case)[0] == "bounded_dfs":
            assert len(result.moves) == plan.depth, "exact mode returned a solution of another length"

    def heuristics_admissible():
        from searchkit.check import check_heuristic

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

    @cfg
    @given(strategy)
    def pruning_keeps_answers(data):
        case = case_of(data)
        base = solver().solve(case)
        if not base.solved and base.status != "exhausted":
            return
        algorithm, _ = solver().names(case)
        optimal = reg.algorithm(algorithm).optimal
        for rule in reg.rules_for(game_name):
            other = solver(frozenset({rule.name})).solve(case)
            if other.status not in ("solved", "exhausted"):
                continue
            assert other.status == base.status, f"switching off {rule.name!r} changes the status"
            if optimal:
                assert other.cost == base.cost, f"switching off {rule.name!r} changes the optimal cost"
            elif rule.sound_for == "first":
                assert other.moves == base.moves, f"switching off {rule.name!r} changes the first solution"

    return [
        ContractCheck("states-hashable", states_hashable),
        ContractCheck("successors-deterministic", successors_deterministic),
        ContractCheck("format-round-trip", format_round_trip),
        ContractCheck("solutions-replay", solutions_replay),
        ContractCheck("heuristics-admissible", heuristics_admissible),
        ContractCheck("pruning-keeps-answers", pruning_keeps_answers),
    ]


def run_contract(game_name: str, **kwargs) -> None:
    """Run every contract of :func:`contract_checks`; raise ``AssertionError`` naming each failure."""
    failures = []
    for check in contract_checks(game_name, **kwargs):
        try:
            check()
        except AssertionError as exc:
            failures.append(f"{check.name}: {exc}")
    assert not failures, "contract failures:\n" + "\n".join(failures)
