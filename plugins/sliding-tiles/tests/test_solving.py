"""Optimal lengths: bundled instances with known answers, random boards against BFS, and the CLI."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from searchkit.game import Case
from searchkit.limits import Limits
from searchkit.plugin.manager import load_registry
from searchkit.puzzle import replay
from searchkit.machinery.solver import Solver
from searchkit.testing import instances

from tiles_reference import bfs_distances
from sliding_tiles.game import SlidingTilesGame
from sliding_tiles.puzzle import SlidingPuzzle


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
REGISTRY = load_registry()
GAME = SlidingTilesGame()


def solve(data, **kwargs):
    solver = Solver(REGISTRY, "sliding-tiles", limits=Limits(max_nodes=2_000_000), **kwargs)
    return solver.solve(Case(1, tuple(data))).result


def check_solution(data, result, expected):
    assert result.solved and result.cost == expected == len(result.moves)
    assert plain_goal(data, result.moves)


def plain_goal(data, moves):
    """The moves replay, under the plain rules (no-undo off), to the goal."""
    plain = SlidingPuzzle(tuple(data), frozenset({"no-undo"}))
    return plain.is_goal(replay(plain, moves))


# 15-puzzle-korf.txt (Korf 1985 instances 42, 71, 97, 85, 16: ~17 s) is for benchmarks, not tests.
@pytest.mark.parametrize("name", ["8-puzzle", "15-puzzle"])
def test_bundled_examples_give_their_known_optimal_lengths(name):
    text = (EXAMPLES / f"{name}.txt").read_text()
    expected = (EXAMPLES / f"{name}.expected").read_text().splitlines()
    cases = list(GAME.parse(text, name, {}))
    assert len(cases) == len(expected)
    solver = Solver(REGISTRY, "sliding-tiles")
    for case, want in zip(cases, expected):
        result = solver.solve(case).result
        assert GAME.format_result(case, result, {}) == want, case.index
        if result.solved:
            check_solution(case.data, result, int(want))


@pytest.mark.parametrize("heuristic", ["manhattan", "linear-conflict"])
@pytest.mark.parametrize("algorithm", ["ida_star", "astar"])
def test_hardest_8_puzzles(algorithm, heuristic):
    for board in ((8, 6, 7, 2, 5, 4, 3, 0, 1), (6, 4, 7, 8, 5, 0, 3, 2, 1)):
        assert bfs_distances(3)[board] == 31
        check_solution(board, solve(board, algorithm=algorithm, heuristic=heuristic), 31)


@settings(max_examples=40, deadline=None)
@given(instances("sliding-tiles", min_size=2, max_size=3))
def test_default_search_is_optimal_on_random_boards(board):
    """Uniformly random solvable 2x2 and 3x3 boards: IDA* finds the BFS distance with either heuristic."""
    true = bfs_distances(3 if len(board) == 9 else 2)[board]
    check_solution(board, solve(board), true)
    check_solution(board, solve(board, heuristic="manhattan"), true)


# Without no-undo IDA* re-walks every move pair: a 26-move board can need
# millions of nodes, so this uses boards at most 18 moves from the goal.
@settings(max_examples=15, deadline=None)
@given(instances("sliding-tiles", min_size=3, max_size=3, options={"scramble": 18}))
def test_no_undo_switched_off_gives_the_same_lengths(board):
    check_solution(board, solve(board, disabled=frozenset({"no-undo"})), bfs_distances(3)[board])


@pytest.mark.python_engine("the misplaced heuristic has no native counterpart")
@settings(max_examples=25, deadline=None)
@given(instances("sliding-tiles", min_size=3, max_size=3, options={"scramble": 14}))
def test_misplaced_on_scrambled_boards(board):
    true = bfs_distances(3)[board]
    assert true <= 14
    check_solution(board, solve(board, heuristic="misplaced"), true)


@settings(max_examples=25, deadline=None)
@given(instances("sliding-tiles", min_size=3, max_size=3, options={"scramble": 14}))
def test_astar_on_scrambled_boards(board):
    true = bfs_distances(3)[board]
    assert true <= 14
    check_solution(board, solve(board, algorithm="astar"), true)


def test_generator_boards_are_solvable_and_scramble_bounds_the_length():
    import random

    from sliding_tiles.generator import generate
    from sliding_tiles.puzzle import is_solvable

    rng = random.Random(7)
    for size in (1, 2, 3, 4, 5):
        assert is_solvable(generate(rng, size, {"scramble": 0}))
        assert sorted(generate(rng, size, {"scramble": 0})) == list(range(size * size))
    for depth in (0, 1, 5, 20):
        board = generate(rng, 3, {"scramble": depth}) if depth else None
        if board is not None:
            assert bfs_distances(3)[board] <= depth


def searchkit(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "searchkit", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_cli_solve_prints_lengths_and_moves():
    run = searchkit("solve", "sliding-tiles", "--moves", str(EXAMPLES / "8-puzzle.txt"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "0" and lines[-1].startswith("unsolvable")
    cases = list(GAME.parse((EXAMPLES / "8-puzzle.txt").read_text(), "x", {}))
    for case, line in zip(cases[1:-1], lines[1:-1]):
        cost, moves = line.split(": ")
        check_solution(case.data, solve(case.data), int(cost))
        assert len(moves.split()) == int(cost) and plain_goal(case.data, moves.split())


@pytest.mark.parametrize("algorithm", ["ida_star", "astar", "bfs", "wastar(weight=2)", "anytime"])
def test_a_solvable_board_exhausted_under_an_upper_bound_is_not_called_unsolvable(algorithm):
    # one move from the goal: nothing is cheaper than 1, so the search under --upper-bound 1 is exhausted; the
    # board is solvable, and the parity verdict must not be printed for it (a tester's defect: it was)
    text = "1 2 3\n4 5 6\n7 0 8\n\n2 1 3\n4 5 6\n7 8 0\n"
    run = searchkit("solve", "sliding-tiles", "-a", algorithm, "--upper-bound", "1", "-", stdin=text)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["? (exhausted)",
                                       "unsolvable (the permutation parity differs from the blank's distance parity)"]
    assert searchkit("solve", "sliding-tiles", "-a", algorithm, "--upper-bound", "2", "-",
                     stdin=text).stdout.splitlines()[0] == "1"


def test_cli_reports_bad_cases_on_stderr_and_solves_the_others():
    text = "1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5\n7 8 0\n\n1 2\n0 3\n"
    run = searchkit("solve", "sliding-tiles", "-", stdin=text)
    assert run.returncode == 2
    assert run.stdout.splitlines() == ["1", "? (input error)", "1"]  # one output line per case
    assert run.stderr.splitlines() == [
        "searchkit: error: <stdin>:6: case 2: expected 3 numbers per row (as on the case's first row), got 2"
    ]


@pytest.mark.python_engine("compare -H all includes misplaced, which has no native counterpart")
def test_cli_compare_and_check():
    text = GAME.format_input([(1, 2, 3, 4, 5, 6, 0, 7, 8), (4, 1, 3, 7, 2, 6, 0, 5, 8), (1, 3, 0, 2)])
    run = searchkit("compare", "sliding-tiles", "-", "-H", "all", "--format", "csv", stdin=text)
    assert run.returncode == 0, run.stderr + run.stdout
    assert len(run.stdout.strip().splitlines()) >= 1 + 3 * 3  # header, 3 cases x 3 heuristics
    run = searchkit("check", "sliding-tiles", "-H", "all", "--max-size", "2", "--samples", "20")
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.stdout.count("OK") == 4  # manhattan, linear-conflict, misplaced, pdb
