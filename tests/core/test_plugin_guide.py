"""The plugin guide's counter plugin, built from the guide's own code blocks and run as a plugin.

docs/plugin-guide.md is the template third-party authors copy; these tests take its ``# counter_puzzle/*.py``
blocks verbatim, so the guide cannot drift from code that works.
"""

from __future__ import annotations

import re
import types

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
def test_the_guide_format_result_shows_a_feasible_answer(searchkit_cli_run, counter_registry, algorithm):
    """Issue 32 item 24: the template printed '? (feasible)' for every answer not proven optimal."""
    from searchkit.game import Case
    from searchkit.machinery.solver import Solver

    targets = [37, 100, 1]
    out = searchkit_cli_run(["solve", "counter", "-a", algorithm, "--time-limit", "5", "-"],
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


# -- issue 32 item 26: the guide's versions, import lines and pattern-database section ----------------------

def version_gaps(texts: dict[str, str], version: str) -> list[str]:
    """What the docs ``texts`` (``{file name: text}``) say past the package's ``version``: the guide's pin
    not the version's series, or a release after it named anywhere."""
    series = tuple(int(v) for v in version.split(".")[:2])
    pin = re.search(r"searchkit-puzzles>=(\d+)\.(\d+),<(\d+)\.(\d+)", texts.get("plugin-guide.md", ""))
    gaps = [] if pin and (int(pin[1]), int(pin[2])) == series and \
        (int(pin[3]), int(pin[4])) == (series[0], series[1] + 1) else ["the guide's pin is not the series"]
    # a version: 'searchkit 0.3', 'before 0.3', 'one release (0.3)'; not a time ('searchkit 0.17 s', '3.26x')
    said = r"(?:searchkit(?:-puzzles)?|before|release|releases) \(?(\d+)\.(\d{1,2})(?![\d.]|\s?(?:s|ms|x)\b)"
    for name, text in sorted(texts.items()):
        for m in re.finditer(said, text):
            if (int(m[1]), int(m[2])) > series:
                gaps.append(f"docs/{name} speaks of {m[0]!r}: the package is {version}")
    return gaps


def test_the_guide_speaks_of_no_release_past_the_pinned_series():
    """Section 9 spoke of 'before searchkit 0.3' while the package is 0.2.0 and the guide pins <0.3."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert version_gaps({path.name: path.read_text() for path in (ROOT / "docs").glob("*.md")}, version) == []


def test_the_version_check_fails_on_planted_text():
    """The guard above, shown failing: a page speaking of a later release, and a pin of another series; a
    time that looks like a version is not one."""
    texts = {"plugin-guide.md": "pin `searchkit-puzzles>=0.2,<0.4`; searchkit 0.17 s; 3.26x",
             "other.md": "this changes in searchkit 0.3 or later"}
    assert version_gaps(texts, "0.2.0") == ["the guide's pin is not the series",
                                            "docs/other.md speaks of 'searchkit 0.3': the package is 0.2.0"]


def test_every_import_line_of_the_guide_imports_and_rank_is_public():
    """The scalar rank a PDB lookup needs was neither in searchkit.plugin nor in the guide."""
    import searchkit.plugin as plugin
    from searchkit.machinery.pdb import ranking

    text = GUIDE.read_text()
    lines = re.findall(r"^from searchkit\.plugin import (.+)$", text, re.M)
    names = {n.strip() for line in lines for n in line.split("#")[0].split(",")}
    assert {"rank", "load_or_build", "rank_array", "unrank_array"} <= names, names
    for name in names:
        assert getattr(plugin, name) is not None
    assert {"rank", "unrank"} <= set(plugin.__all__)
    assert plugin.rank is ranking.rank and plugin.unrank is ranking.unrank
    assert plugin.unrank(plugin.rank((3, 0, 7), 9), 9, 3) == (3, 0, 7)


def test_the_guide_pdb_lookup_is_a_lower_bound_that_is_zero_at_the_goal():
    """The guide's lookup snippet, run as written against the sliding-tile abstraction it names."""
    pytest.importorskip("numpy")
    from sliding_tiles.pdb import TileAbstraction

    import searchkit

    block = re.search(r"```python\n(from searchkit\.plugin import load_or_build, rank\n.*?)```", GUIDE.read_text(),
                      re.S)
    assert block, "the guide's lookup snippet"
    scope = {"TileAbstraction": TileAbstraction}
    exec(block[1], scope)  # noqa: S102 - the guide's own code
    puzzle = types.SimpleNamespace(n=3)
    estimate = scope["tiles_123"](puzzle)
    assert estimate((1, 2, 3, 4, 5, 6, 7, 8, 0)) == 0
    boards = searchkit.generate("sliding-tiles", count=12, seed=3, size=3, scramble=16).split("\n\n")
    seen = []
    for text in boards:
        tiles = tuple(int(v) for v in text.split())
        if len(tiles) != 9:
            continue
        optimum = searchkit.solve("sliding-tiles", text + "\n", heuristic="manhattan").cost
        seen.append((estimate(tiles), optimum))
    assert seen and all(h <= c for h, c in seen), seen
    assert any(h > 0 for h, _ in seen), seen


def _pancake_tables(n, patterns, charge):
    """Pattern tables of ``n`` pancakes built through searchkit's builder, and the true costs by BFS.

    ``charge(k, cells)``: the cost of flip ``k`` for a pattern whose pancakes sit at ``cells`` before it.
    A flip that moves no pattern pancake is the cost-0 self-loop the guide tells authors to give as their own
    rank.
    """
    from itertools import permutations

    from searchkit.machinery.pdb.abstraction import ExplicitAbstraction
    from searchkit.machinery.pdb.build import build
    from searchkit.machinery.pdb.ranking import count, rank, unrank

    def flipped(cell, k):
        return k - 1 - cell if cell < k else cell

    tables = []
    for pattern in patterns:
        m = len(pattern)

        def preds(r, m=m):
            cells = unrank(r, n, m)
            out = []
            for k in range(2, n + 1):
                moved = tuple(flipped(c, k) for c in cells)
                # the flip from `moved` reaches `cells` (a flip is its own inverse); a self-loop: itself, cost 0
                out.append((rank(moved, n), charge(k, moved) if moved != cells else 0))
            return out

        goal = rank(tuple(p - 1 for p in pattern), n)
        table = build(ExplicitAbstraction("pancake", pattern, {"n": n}, count(n, m), [goal], preds))
        tables.append((pattern, table))

    goal = tuple(range(1, n + 1))
    true = {goal: 0}
    layer = [goal]
    while layer:
        nxt = []
        for s in layer:
            for k in range(2, n + 1):
                t = s[:k][::-1] + s[k:]
                if t not in true:
                    true[t] = true[s] + 1
                    nxt.append(t)
        layer = nxt
    assert len(true) == len(list(permutations(goal)))

    def lookups(state):
        return [int(table[rank(tuple(state.index(p) for p in pattern), n)]) for pattern, table in tables]

    return true, lookups


def test_pancake_tables_many_pieces_per_move_as_the_guide_says():
    """A flip moves many pattern pieces: charged once, self-loops cost 0; disjoint tables do not add up,
    their maximum does, and so does a sum when each flip is charged to one pattern only."""
    pytest.importorskip("numpy")
    n, patterns = 6, [(1, 2, 3), (4, 5, 6)]
    once = lambda k, cells: 1  # noqa: E731 - charged once when it moves a pattern pancake
    true, lookups = _pancake_tables(n, patterns, once)
    values = {s: lookups(s) for s in true}
    assert all(max(v) <= true[s] for s, v in values.items())  # each table, and their maximum: admissible
    assert all(v == [0, 0] for s, v in values.items() if true[s] == 0)
    assert any(sum(v) > true[s] for s, v in values.items())  # the sum is not
    # the guide's split: the pattern holding the pancake the flip brings to the top (at cell k - 1) pays
    split = lambda k, cells: int(k - 1 in cells)  # noqa: E731
    true, lookups = _pancake_tables(n, patterns, split)
    assert all(sum(lookups(s)) <= c for s, c in true.items())
    assert max(sum(lookups(s)) for s in true) > 1
