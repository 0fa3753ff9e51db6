"""The native Flood-It domain against the Python plugin, at the binding: the heuristics' values on random
regions, boards past the native region's nine words, PC19's default plan, and a few boards of each ColorFill set
against their ``.ans``.  Every algorithm x heuristic x rule set on thousands of small boards, field for field, is
the plugin's own ``native_checks`` (plugins/flood/tests/test_flood_native_checks.py).

Needs the native modules (``pip install ./plugins/flood/native ./plugins/sliding-tiles/native
./native/testgame``); skipped without them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

native = pytest.importorskip("searchkit_flood_native", reason="Flood-It's native module is not installed "
                                                                "(pip install ./plugins/flood/native)")

from searchkit.limits import Limits  # noqa: E402
from searchkit.pruning import Pruner  # noqa: E402
from searchkit_flood.areas import FloodPuzzle  # noqa: E402
from searchkit_flood.board import Board, parse_lines  # noqa: E402
from searchkit_flood.dominance import dominance_pruner  # noqa: E402
from searchkit_flood.greedy import greedy, two_best  # noqa: E402
from searchkit_flood.heuristics import colours, eccentricity, layered, puchert  # noqa: E402
from tests.native.summaries import summary_native, summary_python  # noqa: E402

HEURISTICS = {"colours": colours, "eccentricity": eccentricity, "layered": layered, "puchert": puchert,
              "greedy": greedy, "two-best": two_best}
ADMISSIBLE = {"colours", "eccentricity", "layered", "puchert"}
RULES = ["frontier-colours", "no-growth", "completion", "exposure"]
COLORFILL = Path(__file__).resolve().parents[2] / ".." / "shared" / "cases" / "flood" / "colorfill"


def python_run(algorithm, puzzle, hname, dominance, max_cost, max_nodes, params):
    from searchkit.machinery.drivers import anytime, astar, beam, bfs, gbfs, ida_star, peastar, wastar

    h = HEURISTICS[hname](puzzle)
    pruners = []
    if dominance:
        p = dominance_pruner(puzzle)
        pruners = [Pruner(cut=p.cut, name="dominance")]
    limits = Limits(max_nodes=max_nodes)
    common = dict(pruners=pruners, limits=limits, max_cost=max_cost)
    if algorithm == "astar":
        return astar.astar(puzzle, h, **common)
    if algorithm == "peastar":
        return peastar.peastar(puzzle, h, **common)
    if algorithm in ("ida_star", "ida_star_tt"):
        return ida_star.ida_star(puzzle, h, transposition=algorithm == "ida_star_tt", **common)
    admissible = hname in ADMISSIBLE
    if algorithm == "wastar":
        return wastar.wastar(puzzle, h, weight=params.get("weight", 2.0), admissible=admissible, **common)
    if algorithm == "gbfs":
        return gbfs.gbfs(puzzle, h, admissible=admissible, **common)
    if algorithm == "bfs":
        return bfs.bfs(puzzle, limits=limits, max_cost=max_cost)
    if algorithm == "beam":
        return beam.beam(puzzle, h, width=params.get("width", 64), admissible=admissible, **common)
    if algorithm == "anytime":
        return anytime.anytime(puzzle, h, weight=params.get("weight", 2.0), step=params.get("step", 0.5),
                               ara=bool(params.get("ara", 0)), **common)
    raise AssertionError(algorithm)


def native_solve(board, disabled, request):
    return native.solve((board.width, board.height, list(board.cells), board.pivot),
                        dict(request, disabled=sorted(disabled)))


def compare(algorithm, board, hname="puchert", disabled=frozenset(), dominance=False, max_cost=None,
            max_nodes=None, params=None):
    params = params or {}
    puzzle = FloodPuzzle(board, frozenset(disabled))
    expected = summary_python(python_run(algorithm, puzzle, hname, dominance, max_cost, max_nodes, params), puzzle)
    request = {"algorithm": algorithm, "heuristic": hname, "pruners": ["dominance"] if dominance else [],
               "max_cost": max_cost, "max_nodes": max_nodes, "params": params, "admissible": hname in ADMISSIBLE}
    got = summary_native(native_solve(board, disabled, request))
    assert got == expected, (algorithm, board, hname, sorted(disabled), dominance, max_cost, max_nodes, params)
    if got["moves"]:
        assert puzzle.is_goal(replay(puzzle, got["moves"]))
    return got


def replay(puzzle, moves):
    g = puzzle.graph
    state = puzzle.initial_state()
    for c in moves:
        flooded, frontier = g.split(state)
        state = g.absorb(flooded, frontier, g.colour_areas[c] & frontier)
    return state


@st.composite
def boards(draw, max_side=5, max_colours=4):
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    k = draw(st.integers(1, max_colours))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    pivot = draw(st.integers(0, w * h - 1))
    return Board.from_values(w, h, cells, pivot)


@settings(max_examples=300, deadline=None)
@given(board=boards(max_side=12, max_colours=7), seed=st.integers(0, 10 ** 6))
def test_heuristics_give_python_values(board, seed):
    rng = random.Random(seed)
    puzzle = FloodPuzzle(board, frozenset(RULES))
    k = board.colours
    sequences = [[rng.randrange(k) for _ in range(rng.randrange(0, 3 * k + 2))] for _ in range(8)]
    for name, make in HEURISTICS.items():
        h = make(puzzle)
        expected = [h(replay(puzzle, s)) for s in sequences]
        got = native.flood_estimates(board.width, board.height, list(board.cells), board.pivot, name, sequences)
        assert got == expected, name


def test_boards_of_more_than_nine_words_use_the_fallback():
    rng = random.Random(7)
    board = Board.from_values(40, 40, [rng.randrange(6) for _ in range(1600)])
    count, words = native.flood_areas(40, 40, list(board.cells), 0)
    assert words > 9 and count == FloodPuzzle(board).graph.count
    compare("gbfs", board, "greedy", max_nodes=50)
    compare("astar", board, "puchert", dominance=True, max_nodes=30)


def test_pc19_default_plan_counts_as_python():
    path = COLORFILL.parent / "pc19-14x14-6c.txt"
    if not path.exists():
        pytest.skip(f"{path} not present")
    cases = [c for c in parse_lines(path.read_text(), str(path)) if hasattr(c, "data")][:3]
    for case in cases:
        compare("astar", case.data, "puchert", dominance=True)


@pytest.mark.parametrize("name", ["b10c15n1000", "b12c12n1000", "b14c8n1000", "b18c6n1000", "b24c4n1000"])
def test_colorfill_boards_match_their_answers(name):
    path = COLORFILL / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} not present")
    answers = [int(line.split()[0]) for line in (COLORFILL / f"{name}.ans").read_text().split("\n") if line.strip()]
    cases = [c for c in parse_lines(path.read_text(), str(path)) if hasattr(c, "data")]
    for k in range(3):
        board = cases[k].data
        request = {"algorithm": "peastar" if board.width * board.height > 400 else "astar", "heuristic": "puchert",
                   "pruners": ["dominance"]}
        got = native_solve(board, (), request)
        assert got["status"] == "solved", got.get("message")
        assert got["cost"] == answers[k] == len(got["moves"]), (name, k)
        puzzle = FloodPuzzle(board)
        assert puzzle.is_goal(replay(puzzle, got["moves"]))
