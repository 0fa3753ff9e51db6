"""The native sliding-tile domain (``plugins/sliding-tiles/native``) against the Python plugin: the same status,
moves, cost, lower bound, expanded/generated/evaluated counts, peak_stored, iteration records and rule cuts, on random
boards of side 1 to 3, for every native algorithm, each heuristic with a native twin (``manhattan``,
``linear-conflict``, ``pdb``) and ``no-undo`` on or off (``SEARCHKIT_DIFFERENTIAL_EXAMPLES`` random cases,
default 500: about 7 s).

Needs the native modules (``pip install ./plugins/flood/native ./plugins/sliding-tiles/native
./native/testgame``); skipped without them.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

native = pytest.importorskip("sliding_tiles_native", reason="the sliding-tile native module is not installed "
                                                              "(pip install ./plugins/sliding-tiles/native)")
pytest.importorskip("numpy", reason="the pdb heuristic's Python twin needs numpy")

from searchkit.limits import Limits  # noqa: E402
from searchkit.puzzle import replay  # noqa: E402
from sliding_tiles import native as tiles_native  # noqa: E402
from sliding_tiles.heuristics import linear_conflict, manhattan  # noqa: E402
from sliding_tiles.pdb import pdb  # noqa: E402
from sliding_tiles.puzzle import SlidingPuzzle, goal_board, neighbours  # noqa: E402
from tests.native.summaries import summary_native, summary_python  # noqa: E402

HEURISTICS = {"manhattan": manhattan, "linear-conflict": linear_conflict, "pdb": pdb}
EXAMPLES = int(os.environ.get("SEARCHKIT_DIFFERENTIAL_EXAMPLES", "500"))
ALGORITHMS = ["astar", "peastar", "ida_star", "ida_star_tt", "wastar", "gbfs", "bfs", "beam", "anytime"]


def python_run(algorithm, puzzle, h, max_cost, max_nodes, params):
    from searchkit.drivers import anytime, astar, beam, bfs, gbfs, ida_star, peastar, wastar

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


@st.composite
def boards(draw):
    """A board of side 1 to 3: any permutation on 2x2 (half unsolvable), a random walk of up to 24 moves on 3x3."""
    n = draw(st.integers(1, 3))
    if n < 3:
        return tuple(draw(st.permutations(range(n * n)))) if n == 2 else (0,)
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    board = list(goal_board(3))
    blank = 8
    for _ in range(draw(st.integers(0, 24))):
        _, to = rng.choice(neighbours(3)[blank])
        board[blank], board[to] = board[to], 0
        blank = to
    return tuple(board)


@settings(max_examples=EXAMPLES, deadline=None)
@given(tiles=boards(), algorithm=st.sampled_from(ALGORITHMS), hname=st.sampled_from(sorted(HEURISTICS)),
       no_undo=st.booleans(), max_cost=st.one_of(st.none(), st.integers(0, 20)),
       max_nodes=st.one_of(st.none(), st.integers(0, 300)), weight=st.sampled_from([1.0, 1.5, 2.0, 1.2]),
       width=st.integers(1, 6))
def test_every_algorithm_behaves_as_python(tiles, algorithm, hname, no_undo, max_cost, max_nodes, weight, width):
    params = {"weight": weight} if algorithm in ("wastar", "anytime") else {}
    if algorithm == "beam":
        params = {"width": width}
    disabled = () if no_undo else ("no-undo",)
    compare(algorithm, tiles, hname, disabled, max_cost, max_nodes if max_nodes is not None else 5000, params)


@pytest.mark.parametrize("hname", sorted(HEURISTICS))
def test_hardest_8_puzzle_counts_as_python(hname):
    """A 31-move board (the 8-puzzle's deepest) with IDA*, the game's algorithm: every iteration's counts."""
    got = compare("ida_star", (8, 6, 7, 2, 5, 4, 3, 0, 1), hname, (), max_nodes=None)
    assert got["status"] == "solved" and got["cost"] == 31
