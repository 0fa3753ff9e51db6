"""Generator.min_size (issue 32 item 21): a game whose smallest instance is n = 4 keeps the contract suite,
``check`` and ``generate``; a size below it is refused in one line.

The throwaway plugin is the pancake problem, the game a third-party author wrote from the guide: its generator
refuses stacks of fewer than 4 pancakes, and before ``min_size`` the suite drew sizes from 1 and failed 6 of 7
checks with a raw hypothesis traceback.
"""

from __future__ import annotations

import types

import pytest

from searchkit.errors import InputError
from searchkit.game import Case, SearchPlan
from searchkit.generator import Generator
from searchkit.heuristic import Heuristic
from searchkit.plugin.manager import load_registry
from searchkit.plugin.spec import hookimpl

pytestmark = pytest.mark.python_engine("a throwaway game written in Python")


class PancakePuzzle:
    """Sort a stack (top first) by flipping its top k pancakes (move k, cost 1)."""

    def __init__(self, stack):
        self.stack = stack

    def initial_state(self):
        return self.stack

    def is_goal(self, state):
        return all(a < b for a, b in zip(state, state[1:]))

    def successors(self, state):
        return [(k, state[:k][::-1] + state[k:], 1) for k in range(2, len(state) + 1)]


def gap(puzzle):
    """Helmert's gap heuristic: neighbours (the plate below the stack included) that are not consecutive."""
    plate = len(puzzle.stack) + 1

    def estimate(state):
        below = state[1:] + (plate,)
        return sum(1 for a, b in zip(state, below) if abs(a - b) != 1)

    return estimate


class PancakeGame:
    name = "pancake"
    summary = "throwaway: sort a stack of pancakes by prefix flips"
    options = ()

    def parse(self, text, source, options):
        index = 0
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            index += 1
            try:
                stack = tuple(int(v) for v in line.split())
                assert sorted(stack) == list(range(1, len(stack) + 1))
            except (ValueError, AssertionError):
                yield InputError("expected a permutation of 1..n", source=source, line=lineno, case=index,
                                 fatal=False)
                continue
            yield Case(index, stack, source, lineno)

    def puzzle(self, case, options, disabled):
        return PancakePuzzle(case.data)

    def plan(self, case, options):
        return SearchPlan("ida_star", "gap")

    def format_result(self, case, result, options):
        return str(result.cost) if result.cost is not None else f"? ({result.status})"

    def format_input(self, datas):
        return "".join(" ".join(map(str, stack)) + "\n" for stack in datas)


def generate(rng, size, options):
    if size < 4:  # as the author's generator: no stack of fewer than 4
        raise ValueError(f"a stack has at least 4 pancakes, got {size}")
    stack = list(range(1, size + 1))
    rng.shuffle(stack)
    return tuple(stack)


def pancake_plugin():
    mod = types.ModuleType("pancake_throwaway")

    @hookimpl
    def register_games(register):
        register(PancakeGame())

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("pancake", "gap", gap, admissible=True, consistent=True, summary="the gap heuristic"))

    @hookimpl
    def register_generators(register):
        register(Generator("pancake", generate, size_help="pancakes in the stack", default_size=5, check_size=6,
                           min_size=4))

    mod.register_games = register_games
    mod.register_heuristics = register_heuristics
    mod.register_generators = register_generators
    return mod


@pytest.fixture(scope="module")
def pancake_registry():
    return load_registry(extra=[("pancake_throwaway", pancake_plugin())])


def test_the_contract_suite_draws_no_size_below_min_size(pancake_registry):
    from searchkit.testing import contract_checks, instances

    checks = contract_checks("pancake", registry=pancake_registry, max_examples=10)
    assert [c.name for c in checks if c.skipped] == []
    for check in checks:
        check()  # each passes: no size below 4 is drawn
    sizes = set()

    from hypothesis import given, settings

    @settings(max_examples=40, database=None, derandomize=True)
    @given(instances("pancake", registry=pancake_registry))
    def draw(stack):
        sizes.add(len(stack))

    draw()
    assert min(sizes) == 4 and max(sizes) == 6


def test_a_size_below_min_size_is_refused_in_one_line(pancake_registry):
    from searchkit.testing import contract_checks, instances

    with pytest.raises(ValueError, match=r"^max_size 3 is below the smallest size of the pancake generator, 4"):
        instances("pancake", registry=pancake_registry, max_size=3)
    with pytest.raises(ValueError, match=r"^check_size 2 is below"):
        contract_checks("pancake", registry=pancake_registry, check_size=2)
    with pytest.raises(ValueError, match="default_size 3 is below min_size 4"):
        Generator("pancake", generate, default_size=3, min_size=4)


def test_check_and_generate_honour_min_size(searchkit_cli_run, pancake_registry):
    out = searchkit_cli_run(["check", "pancake", "-H", "gap", "--samples", "10"], registry_=pancake_registry)
    assert out.exit_code == 0 and "gap: OK" in out.output, out.output
    low = searchkit_cli_run(["check", "pancake", "-H", "gap", "--min-size", "2"], registry_=pancake_registry)
    assert low.exit_code == 2 and low.output.count("\n") == 1, low.output
    assert "--min-size 2 is below the smallest size of the pancake generator, 4" in low.output
    made = searchkit_cli_run(["generate", "pancake", "-n", "3", "--seed", "1"], registry_=pancake_registry)
    assert made.exit_code == 0 and [len(line.split()) for line in made.output.splitlines()] == [5, 5, 5]
    small = searchkit_cli_run(["generate", "pancake", "--size", "3"], registry_=pancake_registry)
    assert small.exit_code == 2 and small.output.count("\n") == 1, small.output
    assert "--size 3 is below the smallest size of the pancake generator, 4" in small.output
    help_text = searchkit_cli_run(["generate", "pancake", "--help"], registry_=pancake_registry).output
    assert "at least 4" in help_text


def test_the_python_api_refuses_a_size_below_min_size(monkeypatch, pancake_registry):
    import searchkit
    from searchkit.api import _registry as api

    monkeypatch.setattr(api, "_REGISTRY", [pancake_registry])
    assert len(searchkit.generate("pancake", count=2, size=4).splitlines()) == 2
    with pytest.raises(ValueError, match="size must be at least 4, got 3"):
        searchkit.generate("pancake", size=3)
