"""The native sliding-tile domain (``plugins/sliding-tiles/native``) against the Python plugin, at the binding:
the 8-puzzle's deepest board (31 moves) under IDA* with each heuristic with a native twin, every iteration's
counts.  Random boards of side 1 to 3 for every algorithm x heuristic x rule set, field for field, are the plugin's own
``native_checks`` (plugins/sliding-tiles/tests/test_tiles_native_checks.py).

Needs the native modules (``pip install ./plugins/flood/native ./plugins/sliding-tiles/native
./native/testgame``); skipped without them.
"""

from __future__ import annotations

import pytest

native = pytest.importorskip("sliding_tiles_native", reason="the sliding-tile native module is not installed "
                                                              "(pip install ./plugins/sliding-tiles/native)")
pytest.importorskip("numpy", reason="the pdb heuristic's Python twin needs numpy")

from searchkit.limits import Limits  # noqa: E402
from searchkit.puzzle import replay  # noqa: E402
from sliding_tiles import native as tiles_native  # noqa: E402
from sliding_tiles.heuristics import linear_conflict, manhattan  # noqa: E402
from sliding_tiles.pdb import pdb  # noqa: E402
from sliding_tiles.puzzle import SlidingPuzzle  # noqa: E402
from tests.native.summaries import summary_native, summary_python  # noqa: E402

HEURISTICS = {"manhattan": manhattan, "linear-conflict": linear_conflict, "pdb": pdb}


def python_run(algorithm, puzzle, h, max_cost, max_nodes, params):
    from searchkit.machinery.drivers import anytime, astar, beam, bfs, gbfs, ida_star, peastar, wastar

    common = dict(limits=Limits(max_nodes=max_nodes), max_cost=max_cost)
    if algorithm == "astar":
        return astar.astar(puzzle, h, **common)
    if algorithm == "peastar":
        return peastar.peastar(puzzle, h, **common)
    if algorithm in ("ida_star", "ida_star_tt"):
        return ida_star.ida_star(puzzle, h, transposition=algorithm == "ida_star_tt", **common)
    if algorithm == "wastar":
        return wastar.wastar(puzzle, h, weight=params["weight"], admissible=True, **common)
    if algorithm == "gbfs":
        return gbfs.gbfs(puzzle, h, admissible=True, **common)
    if algorithm == "bfs":
        return bfs.bfs(puzzle, **common)
    if algorithm == "beam":
        return beam.beam(puzzle, h, width=params["width"], admissible=True, **common)
    if algorithm == "anytime":
        return anytime.anytime(puzzle, h, weight=params["weight"], step=0.5, ara=False, **common)
    raise AssertionError(algorithm)


def compare(algorithm, tiles, hname, disabled, max_cost=None, max_nodes=5000, params=None):
    params = params or {}
    puzzle = SlidingPuzzle(tuple(tiles), frozenset(disabled))
    h = HEURISTICS[hname](puzzle)
    expected = summary_python(python_run(algorithm, puzzle, h, max_cost, max_nodes, params), puzzle)
    request = {"algorithm": algorithm, "heuristic": hname, "pruners": [], "max_cost": max_cost,
               "max_nodes": max_nodes, "params": params, "admissible": True, "disabled": sorted(disabled)}
    got = summary_native(tiles_native.solve(tuple(tiles), request))
    assert got == expected, (algorithm, tiles, hname, sorted(disabled), max_cost, max_nodes, params)
    if got["moves"]:
        plain = SlidingPuzzle(tuple(tiles), frozenset({"no-undo"}))
        assert plain.is_goal(replay(plain, got["moves"]))
    return got


@pytest.mark.parametrize("hname", sorted(HEURISTICS))
def test_hardest_8_puzzle_counts_as_python(hname):
    """A 31-move board (the 8-puzzle's deepest) with IDA*, the game's algorithm: every iteration's counts."""
    got = compare("ida_star", (8, 6, 7, 2, 5, 4, 3, 0, 1), hname, (), max_nodes=None)
    assert got["status"] == "solved" and got["cost"] == 31
