"""Flood-It at real sizes: the Puchert heuristic, A*, the dominance rule, every
pruning combination against breadth-first search, PC19 boards, rectangular
input and ``--start``.

The reference everywhere is a plain cell-grid simulator written here (flood
fill on the cells, breadth-first search over regions), independent of the
area graph the solver uses.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.machinery.drivers.astar import astar
from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board, parse_rect, pivot_index
from searchkit_flood.dominance import dominance_pruner
from searchkit_flood.heuristics import puchert

from cellref import bfs_from, replay_cells, start_region  # noqa: E402
from cellref import boards as _boards  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"  # the core suite's boards, shared with it
SUCCESSOR_RULES = ("frontier-colours", "no-growth", "completion", "exposure")
ALL_RULES = SUCCESSOR_RULES + ("dominance",)


def boards(max_side=6, max_colours=5):
    """Small boards with the pivot on any cell."""
    return _boards(max_side, max_colours, any_pivot=True)


def solve_astar(board: Board, disabled=frozenset()):
    puzzle = FloodPuzzle(board, frozenset(disabled) & frozenset(SUCCESSOR_RULES))
    pruners = [] if "dominance" in disabled else [dominance_pruner(puzzle)]
    return puzzle, astar(puzzle, puchert(puzzle), pruners=pruners)


def slow(n: int):
    """Hypothesis settings for searches: ``n`` examples, no deadline."""
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the heuristic -----------------------------------------------------------

@slow(150)
@given(boards(), st.randoms(use_true_random=False))
def test_puchert_never_exceeds_the_bfs_optimum(board, rnd):
    """h <= opt at the start and at states along a random play (areas, any pivot)."""
    puzzle = FloodPuzzle(board, frozenset(SUCCESSOR_RULES))
    h = puchert(puzzle)
    state = puzzle.initial_state()
    for _ in range(4):
        cells = puzzle.region_cells(state)
        region = {i for i in range(board.width * board.height) if cells >> i & 1}
        assert h(state) <= bfs_from(board, region)
        if puzzle.is_goal(state):
            break
        _, state, _ = rnd.choice(list(puzzle.successors(state)))


@slow(60)
@given(boards(max_side=6, max_colours=5))
def test_puchert_memo_gives_the_same_values_as_fresh_play_outs(board):
    """The play-out memo is shared by all states of a search; it must not change any value."""
    puzzle = FloodPuzzle(board)
    shared_h = puchert(puzzle)
    seen = [puzzle.initial_state()]
    for state in seen:
        if len(seen) > 60:
            break
        seen.extend(child for _, child, _ in puzzle.successors(state))
    for state in seen:
        assert shared_h(state) == puchert(puzzle)(state)


# --- A* with every pruning combination ----------------------------------------

def _subsets(names):
    return [frozenset(c) for r in range(len(names) + 1) for c in itertools.combinations(names, r)]


@pytest.mark.parametrize("enabled", _subsets(ALL_RULES), ids=lambda s: "+".join(sorted(s)) or "none")
@slow(25)
@given(board=boards(max_side=5, max_colours=4))
def test_astar_puchert_equals_bfs_with_every_pruning_combination(enabled, board):
    disabled = frozenset(ALL_RULES) - enabled
    puzzle, result = solve_astar(board, disabled)
    expected = bfs_from(board, start_region(board))
    assert result.status == "solved" and result.cost == expected == len(result.moves)
    assert len(set(replay_cells(board, result.moves))) == 1


@slow(120)
@given(boards(max_side=6, max_colours=5))
def test_astar_default_rules_equal_bfs_and_moves_replay_on_cells(board):
    puzzle, result = solve_astar(board)
    assert result.cost == bfs_from(board, start_region(board))
    grid = replay_cells(board, result.moves)
    assert len(set(grid)) == 1
    assert result.stats.peak_stored >= 1


# --- PC19 ----------------------------------------------------------------------

def test_first_50_pc19_boards_are_solved_optimally(searchkit_registry):
    """The first 50 PC19 14x14 boards through the default plan (A*, puchert, dominance)."""
    from searchkit.machinery.solver import Solver

    game = searchkit_registry.game("flood")
    text = (DATA / "pc19-first50.txt").read_text()
    answers = [int(x) for x in (DATA / "pc19-first50.ans").read_text().split()]
    solver = Solver(searchkit_registry, "flood")
    cases = [c for c in game.parse(text, "pc19", {})]
    assert len(cases) == 50
    for case, expected in zip(cases, answers):
        outcome = solver.solve(case)
        assert (outcome.algorithm, outcome.heuristic) == ("astar", "puchert")
        result = outcome.result
        assert result.cost == expected
        assert len(set(replay_cells(case.data, result.moves))) == 1


def test_cli_moves_and_json_on_pc19_boards(searchkit_cli_run, tmp_path):
    src = tmp_path / "three.txt"
    src.write_text("".join((DATA / "pc19-first50.txt").read_text().splitlines(keepends=True)[:3]))
    answers = [int(x) for x in (DATA / "pc19-first50.ans").read_text().split()][:3]
    out = searchkit_cli_run(["solve", "flood", "--moves", str(src)]).output.splitlines()
    boards_ = [Board.from_values(14, 14, line.strip()) for line in src.read_text().splitlines()]
    for line, board, expected in zip(out, boards_, answers):
        count, moves = line.split(":")
        assert int(count) == expected
        colours = [board.palette.index(v) for v in moves.split()]
        assert len(colours) == expected and len(set(replay_cells(board, colours))) == 1
    solved = searchkit_cli_run(["solve", "flood", "--format", "json", str(src)])
    records = [json.loads(x) for x in solved.output.splitlines()]
    assert [r["length"] for r in records] == answers
    assert all(r["algorithm"] == "astar" and r["heuristic"] == "puchert" for r in records)
    assert all(len(r["moves"]) == r["cost"] and r["stats"]["peak_stored"] > 0 for r in records)


# --- rectangular input and --start ---------------------------------------------------

def test_parse_rect_reads_w_then_h_and_stops_at_0_0():
    items = list(parse_rect("3 2\n1 2 2\n3 3 1\n2 1 5 5\n0 0\n", "x"))
    assert [type(i).__name__ for i in items] == ["Case", "Case"]
    b = items[0].data
    assert (b.width, b.height) == (3, 2) and b.rows() == [["1", "2", "2"], ["3", "3", "1"]]
    assert (items[1].data.width, items[1].data.height) == (2, 1)
    # one line, a lone 0 to end, or just the end of the file
    assert len(list(parse_rect("2 1 7 8 0", "x"))) == 1
    assert len(list(parse_rect("2 1 7 8", "x"))) == 1


@pytest.mark.parametrize("text, message", [
    ("3", "height"), ("3 0 1", "height"), ("x 2", "width"), ("2 2 1 2 3", "ends after 3"),
    ("1 1 a", "integer colour"), ("1 1 5 0 0 9", "after the terminating"),
])
def test_parse_rect_errors(text, message):
    items = list(parse_rect(text, "x"))
    assert type(items[-1]).__name__ == "InputError" and message in str(items[-1])


def test_rect_boards_from_the_cli_match_bfs(searchkit_cli_run, tmp_path):
    rng = random.Random(4)
    boards_, text = [], []
    for w, h in ((5, 2), (2, 6), (7, 3), (1, 4)):
        values = [rng.randint(1, 4) for _ in range(w * h)]
        boards_.append(Board.from_values(w, h, values))
        text.append(f"{w} {h}")
        text.extend(" ".join(map(str, values[y * w:(y + 1) * w])) for y in range(h))
    src = tmp_path / "rect.txt"
    src.write_text("\n".join(text) + "\n0 0\n")
    out = searchkit_cli_run(["solve", "flood", "--input-format", "rect", "--moves", str(src)]).output.splitlines()
    for line, board in zip(out, boards_, strict=True):
        count, _, moves = line.partition(":")
        assert int(count) == bfs_from(board, start_region(board))
        colours = [board.palette.index(v) for v in moves.split()]
        assert len(set(replay_cells(board, colours))) == 1


@pytest.mark.parametrize("start, cell", [
    ("top-left", (0, 0)), ("top-right", (4, 0)), ("bottom-left", (0, 2)), ("bottom-right", (4, 2)),
    ("centre", (2, 1)),
])
def test_pivot_index(start, cell):
    x, y = cell
    assert pivot_index(5, 3, start) == y * 5 + x


@pytest.mark.parametrize("start", ["top-left", "top-right", "bottom-left", "bottom-right", "centre"])
def test_start_option_moves_the_pivot(searchkit_cli_run, tmp_path, start):
    rng = random.Random(7)
    w, h = 6, 5
    values = [rng.randint(1, 4) for _ in range(w * h)]
    src = tmp_path / "b.txt"
    src.write_text("".join(map(str, values)) + "\n")
    out = searchkit_cli_run(["solve", "flood", "--width", str(w), "--start", start, "--moves", str(src)]).output.strip()
    board = Board.from_values(w, h, values)
    board = Board(w, h, board.cells, board.palette, pivot_index(w, h, start))
    count, _, moves = out.partition(":")
    assert int(count) == bfs_from(board, start_region(board))
    assert len(set(replay_cells(board, [board.palette.index(v) for v in moves.split()]))) == 1


@pytest.mark.parametrize("seed", range(12))
def test_puchert_and_astar_on_random_6x6_5_colour_boards(seed):
    """Full-size cases of the property tests (hypothesis favours small boards)."""
    rng = random.Random(seed)
    board = Board.from_values(6, 6, [rng.randint(0, 4) for _ in range(36)])
    puzzle, result = solve_astar(board)
    opt = bfs_from(board, start_region(board))
    assert result.cost == opt and len(set(replay_cells(board, result.moves))) == 1
    h = puchert(FloodPuzzle(board))
    state = puzzle.initial_state()
    while not puzzle.is_goal(state):
        cells = puzzle.region_cells(state)
        region = {i for i in range(36) if cells >> i & 1}
        assert h(state) <= bfs_from(board, region)
        _, state, _ = rng.choice(list(puzzle.successors(state)))


def test_resume_with_another_start_is_refused(searchkit_cli_run, tmp_path):
    # the pivot is part of the case: records of a --start centre run are no answers for a top-left run
    src, out = tmp_path / "b.txt", tmp_path / "r.jsonl"
    src.write_text("1221311213212113\n")
    searchkit_cli_run(["solve", "flood", "--start", "centre", "--output", str(out), str(src)])
    again = searchkit_cli_run(["solve", "flood", "--output", str(out), "--resume", str(src)])
    assert again.exit_code == 2 and "--start" in again.output  # refused: the file answers another question
    assert len(out.read_text().splitlines()) == 1
    same = searchkit_cli_run(["solve", "flood", "--start", "centre", "--output", str(out), "--resume", str(src)])
    assert "1 already recorded" in same.stderr and len(out.read_text().splitlines()) == 1
