"""``searchkit.run``: a named algorithm on a puzzle, the public entry point plugins use (issue 20 item 8)."""

from __future__ import annotations

import attrs
import pytest
from toy import Line, line_h

import searchkit
from searchkit.machinery.drivers.astar import astar
from searchkit.machinery.drivers.beam import beam
from searchkit.errors import PlanError, UnknownNameError


def _same(a, b):
    return attrs.evolve(a, stats=attrs.evolve(a.stats, elapsed=0, iterations=())) == \
        attrs.evolve(b, stats=attrs.evolve(b.stats, elapsed=0, iterations=()))


def test_run_is_the_driver_by_name():
    puzzle, h = Line(0, 11), line_h(11)
    assert _same(searchkit.run(puzzle, "astar", heuristic=h), astar(puzzle, h))
    assert _same(searchkit.run(puzzle, "beam(width=2)", heuristic=h), beam(puzzle, h, width=2))
    bounded = searchkit.run(puzzle, "bounded_dfs", max_cost=5, mode="exact")
    assert bounded.solved and bounded.cost == 5
    assert searchkit.run(puzzle, "bfs").cost == 5


def test_run_refuses_what_the_algorithm_cannot_do():
    puzzle = Line(0, 5)
    with pytest.raises(PlanError, match="needs a heuristic"):
        searchkit.run(puzzle, "astar")
    with pytest.raises(PlanError, match="needs a depth bound"):
        searchkit.run(puzzle, "bounded_dfs")
    with pytest.raises(PlanError, match="exact"):
        searchkit.run(puzzle, "astar", heuristic=line_h(5), mode="exact")
    with pytest.raises(PlanError, match="no option 'depth'"):
        searchkit.run(puzzle, "beam(depth=3)", heuristic=line_h(5))
    with pytest.raises(UnknownNameError):
        searchkit.run(puzzle, "nosuch")


def test_plugins_reach_run_through_the_vocabulary():
    from searchkit.plugin import run

    assert run is searchkit.run


def drivers_named(folder) -> list[str]:
    """The modules of ``folder`` that name a driver module (``searchkit.machinery.drivers``)."""
    return [path.name for path in sorted(folder.glob("*.py")) if "searchkit.machinery.drivers" in path.read_text()]


def test_flood_seed_and_mayan_generator_import_no_driver():
    """The plugins' own searches go through ``searchkit.run``, not a driver module."""
    from pathlib import Path

    import searchkit_flood
    import searchkit_mayan

    for package in (searchkit_flood, searchkit_mayan):
        assert drivers_named(Path(package.__file__).parent) == [], package.__name__


def test_the_driver_check_fails_on_a_planted_import(tmp_path):
    """The guard above, shown failing: a plugin module importing a driver, and one importing ``searchkit``."""
    (tmp_path / "seed.py").write_text("from searchkit.machinery.drivers.beam import beam\n")
    (tmp_path / "game.py").write_text("import searchkit\n")
    assert drivers_named(tmp_path) == ["seed.py"]
