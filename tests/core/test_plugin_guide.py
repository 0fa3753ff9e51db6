"""The plugin guide's counter plugin, built from the guide's own code blocks and run as a plugin.

docs/plugin-guide.md is the template third-party authors copy; these tests take its ``# counter_puzzle/*.py``
blocks verbatim, so the guide cannot drift from code that works.
"""

from __future__ import annotations

import re

import pytest

from searchkit.plugin.manager import load_registry

from conftest import ROOT

pytestmark = pytest.mark.python_engine("the guide's counter game is written in Python")

GUIDE = ROOT / "docs" / "plugin-guide.md"


def guide_modules() -> dict[str, str]:
    """``{module name: source}`` of every python block of the guide headed ``# counter_puzzle/NAME.py``."""
    blocks = re.findall(r"```python\n# counter_puzzle/(\w+)\.py\n(.*?)```", GUIDE.read_text(), re.S)
    return dict(blocks)


@pytest.fixture
def counter_registry(tmp_path, monkeypatch):
    """The guide's counter plugin, written from its code blocks into a package and registered."""
    package = tmp_path / "counter_puzzle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    modules = guide_modules()
    assert {"puzzle", "game", "heuristics", "plugin", "generator"} <= set(modules), sorted(modules)
    for name, source in modules.items():
        (package / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.invalidate_caches()
    plugin = importlib.import_module("counter_puzzle.plugin")
    yield load_registry(extra=[("counter", plugin)])
    import sys

    for name in [m for m in sys.modules if m == "counter_puzzle" or m.startswith("counter_puzzle.")]:
        del sys.modules[name]


@pytest.mark.parametrize("algorithm", ["wastar(weight=3)", "gbfs", "beam(width=2)", "anytime"])
def test_the_guide_format_result_shows_a_feasible_answer(cli_run, counter_registry, algorithm):
    """Issue 32 item 24: the template printed '? (feasible)' for every answer not proven optimal."""
    from searchkit.game import Case
    from searchkit.solver import Solver

    targets = [37, 100, 1]
    out = cli_run(["solve", "counter", "-a", algorithm, "--time-limit", "5", "-"],
                  input="".join(f"{t}\n" for t in targets), registry_=counter_registry)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert len(lines) == len(targets) and not any(line.startswith("?") for line in lines), lines
    solver = Solver(counter_registry, "counter", algorithm=algorithm)
    feasible = 0
    for target, line in zip(targets, lines):
        result = solver.solve(Case(1, target, "<test>", 1)).result
        assert result.has_solution
        if result.status == "feasible":
            feasible += 1
            bound = ("no lower bound" if result.gap is None
                     else f">= {result.lower_bound}, gap {result.gap}")
            assert line == f"{result.cost} (feasible, {bound})"
        else:
            assert line == str(result.cost)
    # anytime proves these small cases optimal (its answers are then 'solved'); the others cannot
    assert feasible or algorithm == "anytime", "no case was feasible: the test shows nothing"


def test_the_guide_format_result_as_text_for_each_status(counter_registry):
    """The template on results as the drivers give them: a gap, no bound, an optimum, nothing found."""
    from searchkit.game import Case
    from searchkit.result import SearchResult

    game = counter_registry.game("counter")
    case = Case(1, 10, "<test>", 1)
    options = {"moves": False}
    assert game.format_result(case, SearchResult("feasible", ("+1",) * 7, 7, lower_bound=5), options) == \
        "7 (feasible, >= 5, gap 2)"
    assert game.format_result(case, SearchResult("feasible", ("+1",) * 7, 7), options) == \
        "7 (feasible, no lower bound)"
    assert game.format_result(case, SearchResult("solved", ("+1",) * 4, 4, lower_bound=4), options) == "4"
    assert game.format_result(case, SearchResult("time_limit"), options) == "? (time_limit)"
    with_moves = game.format_result(case, SearchResult("feasible", ("+1", "*2"), 2, lower_bound=2),
                                    {"moves": True})
    assert with_moves == "2 (feasible, >= 2, gap 0): +1 *2"
