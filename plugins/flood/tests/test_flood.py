"""Flood-It (HDU 4127 / NKOJ 2440): rules, heuristics, pruning rules and the judges' files."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.machinery.drivers.bfs import bfs
from searchkit.machinery.drivers.ida_star import ida_star
from searchkit.puzzle import replay
from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board

from cellref import bfs_optimum, boards, flood_cells, replay_cells
from flood_paths import EXAMPLES, shared

ALL_RULES = frozenset({"frontier-colours", "no-growth", "completion", "exposure"})


# --- hand-made rule cases ----------------------------------------------------

def solve(board, heuristic="layered", registry=None, disabled=frozenset()):
    from searchkit_flood import heuristics

    puzzle = FloodPuzzle(board, disabled)
    return puzzle, ida_star(puzzle, getattr(heuristics, heuristic)(puzzle))


def test_one_colour_board_needs_zero():
    board = Board.from_values(3, 3, [7] * 9)
    _, r = solve(board)
    assert r.status == "solved" and r.cost == 0 and r.moves == ()


def test_region_is_four_connected_not_diagonal():
    # the 1 at bottom-right touches the top-left 1-region only diagonally
    board = Board.from_values(2, 2, [1, 2, 2, 1])
    puzzle, r = solve(board)
    assert r.cost == 2
    assert len(set(replay_cells(board, r.moves))) == 1


def test_move_recolours_whole_region_and_absorbs_same_colour_neighbours():
    board = Board.from_values(3, 1, [1, 2, 1])
    grid = flood_cells(board, board.cells[1], list(board.cells))
    assert grid == [1, 1, 0]  # picking 2 recolours cell 0 and joins cell 1; cell 2 keeps its colour
    board2 = Board.from_values(4, 1, [1, 2, 1, 1])
    puzzle, r = solve(board2)
    assert r.cost == 2  # 1->2, then 2->1 absorbs both trailing 1s at once


def test_values_are_remapped_and_printed_back():
    board = Board.from_values(2, 2, [5, 2, 2, 0])
    assert board.palette == ("5", "2", "0")
    assert board.cells == (0, 1, 1, 2)


def test_completion_rule_forces_the_completing_colour():
    # 1 2 4 3    the pivot's frontier holds 2 (its only cell) and a 3;
    # 3 4 4 4    another 3 lies outside, so only 2 completes
    board = Board.from_values(4, 2, [1, 2, 4, 3, 3, 4, 4, 4])
    puzzle = FloodPuzzle(board)
    succ = list(puzzle.successors(puzzle.initial_state()))
    assert [board.palette[m] for m, _, _ in succ] == ["2"]
    off = FloodPuzzle(board, frozenset({"completion"}))
    assert len(list(off.successors(off.initial_state()))) == 2


def test_no_growth_rules_cut_colours_not_on_frontier():
    board = Board.from_values(3, 1, [1, 2, 3])
    on = FloodPuzzle(board, frozenset({"completion"}))
    assert [m for m, _, _ in on.successors(on.initial_state())] == [1]
    off = FloodPuzzle(board, ALL_RULES)
    assert [m for m, _, _ in off.successors(off.initial_state())] == [0, 1, 2]


# --- the judges' files -------------------------------------------------------

@pytest.mark.parametrize(
    "name, expected",
    [("hdu4127-sample.txt", "0\n3\n"), ("hdu4127-sample-oneline.txt", "0\n3\n"), ("nkoj2440-sample.txt", "1\n3\n")],
)
def test_judge_samples(searchkit_cli_run, name, expected):
    out = searchkit_cli_run(["solve", "flood", str(EXAMPLES / "flood" / name)])
    assert out.exit_code == 0
    assert out.output == expected


def test_random_8x8_matches_answers(searchkit_cli_run):
    path = shared("flood", "random-8x8-6c.txt")
    out = searchkit_cli_run(["solve", "flood", str(path)])
    assert out.exit_code == 0
    assert out.output == shared("flood", "random-8x8-6c.ans").read_text()


@pytest.mark.parametrize("heuristic", ["colours", "eccentricity", "layered"])
def test_random_8x8_first_boards_every_heuristic(searchkit_cli_run, heuristic):
    path = shared("flood", "random-8x8-6c.txt")
    text = "\n".join(path.read_text().splitlines()[: 9 * 3]) + "\n0\n"
    out = searchkit_cli_run(["solve", "flood", "-H", heuristic, "-"], input=text)
    assert out.output.split() == shared("flood", "random-8x8-6c.ans").read_text().split()[:3]


def test_moves_option_prints_a_replayable_sequence(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "--moves", str(EXAMPLES / "flood" / "nkoj2440-sample.txt")])
    lines = out.output.splitlines()
    assert lines[0].startswith("1:") and lines[1].startswith("3:")
    # NKOJ sample 2: values 5, 2, 0 are printed back in the input's own values
    values = lines[1].split(":")[1].split()
    assert len(values) == 3 and set(values) <= {"5", "2", "0"}
    board = Board.from_values(4, 4, "5 5 2 0 5 5 2 0 2 2 2 0 0 0 0 2".split())
    grid = replay_cells(board, [board.palette.index(v) for v in values])
    assert len(set(grid)) == 1


def test_json_format(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "--format", "json", str(EXAMPLES / "flood" / "hdu4127-sample.txt")])
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["length"] for r in records] == [0, 3]
    assert records[1]["status"] == "solved" and records[1]["cost"] == 3
    assert len(records[1]["moves"]) == 3
    assert records[1]["stats"]["expanded"] >= 1 and records[1]["stats"]["iterations"]
    assert records[1]["algorithm"] == "ida_star" and records[1]["heuristic"] == "layered"


def test_stats_go_to_stderr(searchkit_cli_run):
    from click.testing import CliRunner

    from searchkit.cli import cli

    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames else CliRunner()
    res = runner.invoke(cli, ["solve", "flood", "--stats", str(EXAMPLES / "flood" / "hdu4127-sample.txt")])
    assert res.stdout == "0\n3\n"
    assert "expanded" in res.stderr and "bound 3" in res.stderr


@pytest.mark.parametrize("rule", sorted(ALL_RULES))
def test_each_rule_switched_off_keeps_answers(searchkit_cli_run, rule):
    path = EXAMPLES / "flood" / "nkoj2440-sample.txt"
    out = searchkit_cli_run(["solve", "flood", "--no-prune", rule, str(path)])
    assert out.output == "1\n3\n"


def test_limits_report_status(searchkit_cli_run):
    path = shared("flood", "random-8x8-6c.txt")
    out = searchkit_cli_run(["solve", "flood", "--max-nodes", "5", str(path)])
    assert out.exit_code == 1
    assert "? (node_limit)" in out.output


def test_several_files_each_under_a_header(searchkit_cli_run):
    a = str(EXAMPLES / "flood" / "hdu4127-sample.txt")
    b = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")
    out = searchkit_cli_run(["solve", "flood", a, b])
    assert out.output == f"==> {a} <==\n0\n3\n\n==> {b} <==\n1\n3\n"


# --- bad input ---------------------------------------------------------------

@pytest.mark.parametrize(
    "text, message",
    [
        ("2\n1 2\n3 x\n0\n", "<stdin>:3: case 1: expected an integer colour value, got 'x'"),
        ("2\n1 2\n3\n", "case 1: expected 4 colour values for a 2x2 board, the file ends after 3"),
        ("-3\n", "<stdin>:1: case 1: expected the board size n (an integer >= 0), got '-3'"),
        ("1\n5\n2.5\n", "as the judge format, line 3: case 2: expected the board size n (an integer >= 0), got '2.5'"),
        ("2\n1 2\n3 4\n2.5\n", "<stdin>:4: case 2: expected the board size n (an integer >= 0), got '2.5'"),
        ("1\n5\n0\n7\n", "<stdin>:1: cannot tell the format: the input reads as the judge format"),
        ("", "<stdin>: empty input"),
    ],
)
def test_bad_input_is_one_line_exit_2(searchkit_cli_run, text, message):
    out = searchkit_cli_run(["solve", "flood", "-"], input=text)
    assert out.exit_code == 2
    err_lines = [line for line in out.output.splitlines() if line.startswith("searchkit: error:")]
    assert len(err_lines) == 1
    assert message in err_lines[0]
    assert "Traceback" not in out.output


@pytest.mark.parametrize("sizes, need", [
    ("3000000000 2", "expected 6000000000 colour values for a 3000000000x2"),
    ("9" * 60 + " 2", "expected at least 10^59 colour values for a 999999999...x2"),
    ("0" * 20 + "3 3", "expected 9 colour values for a 3x3 board"),  # not "000000000...x3"
])
def test_a_huge_rect_board_says_how_many_values_it_needs(searchkit_cli_run, sizes, need):
    """A tester's defect: a width over 10^9 was counted as 10^9 in the message (a 3000000000x2 board
    'expected 2000000000 colour values')."""
    out = searchkit_cli_run(["solve", "flood", "--input-format", "rect", "-"], input=f"{sizes}\n1 2\n")
    assert out.exit_code == 2 and need in out.stderr, out.stderr


def test_cases_before_a_bad_one_are_still_printed(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "-"], input="1\n4\n2\n1 1\n1 1\n2\n1 z\n")
    assert out.exit_code == 2
    assert out.output.splitlines()[:2] == ["0", "0"]
    assert "case 3" in out.output


def test_missing_file_and_unknown_rule(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "no/such/file.txt"])
    assert out.exit_code == 2 and "no/such/file.txt: cannot read" in out.stderr
    assert out.stdout == "? (input error)\n"  # a file that cannot be read still gives its line
    out = searchkit_cli_run(["solve", "flood", "no/such/file.txt", "-"], input="")
    assert out.stdout.splitlines() == ["==> no/such/file.txt <==", "? (input error)", "", "==> <stdin> <==",
                                       "? (input error)"]
    out = searchkit_cli_run(["solve", "flood", "--no-prune", "nope", "-"], input="0\n")
    assert out.exit_code == 2


def test_lines_format_reports_bad_lines_and_continues(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "-"], input="1221\n12-2\n11111\n2222\n")
    assert out.exit_code == 2
    lines = out.output.splitlines()
    assert lines[0] == "2"  # 12/21: the diagonal 1 needs a second move
    assert "<stdin>:2: case 2: expected a row of digits or letters, got '-'" in out.output
    assert "<stdin>:3: case 3: expected a square board, got 5 cells" in out.output
    assert lines[-1] == "0"  # the good case after the bad ones is still solved


# --- hypothesis: optimality, replay, admissibility ---------------------------

@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_ida_star_with_every_admissible_heuristic_equals_bfs(searchkit_registry, board):
    expected = bfs_optimum(board)
    ref = bfs(FloodPuzzle(board, ALL_RULES))
    assert ref.cost == expected
    for spec in searchkit_registry.heuristics_for("flood"):
        if not spec.admissible:
            continue
        puzzle = FloodPuzzle(board)
        result = ida_star(puzzle, spec.bind(puzzle))
        assert result.cost == expected, spec.name
        assert len(set(replay_cells(board, result.moves))) == 1, spec.name
        assert puzzle.is_goal(replay(FloodPuzzle(board, ALL_RULES), result.moves))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_heuristics_never_exceed_true_cost_along_optimal_path(searchkit_registry, board):
    plain = FloodPuzzle(board, ALL_RULES)
    path = bfs(plain)
    state = plain.initial_state()
    states = [state]
    for move in path.moves:
        state = next(child for m, child, _ in plain.successors(state) if m == move)
        states.append(state)
    for spec in searchkit_registry.heuristics_for("flood"):
        if not spec.admissible:
            continue
        h = spec.bind(plain)
        for t, s in enumerate(states):
            assert h(s) <= path.cost - t, (spec.name, t)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sets(st.sampled_from(sorted(ALL_RULES))))
def test_any_combination_of_rules_keeps_the_optimum(board, disabled):
    from searchkit_flood.heuristics import layered

    expected = bfs(FloodPuzzle(board, ALL_RULES)).cost
    puzzle = FloodPuzzle(board, frozenset(disabled))
    assert ida_star(puzzle, layered(puzzle)).cost == expected


def test_byte_order_mark_crlf_and_unreadable_inputs(searchkit_cli_run, tmp_path):
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf2\r\n1 2\r\n2 1\r\n0\r\n")
    out = searchkit_cli_run(["solve", "flood", str(bom)])
    assert out.exit_code == 0 and out.output == "2\n"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    out = searchkit_cli_run(["solve", "flood", str(junk), str(bom)])
    assert out.exit_code == 2
    assert f"{junk}:1: case 1: expected UTF-8 text, found byte 0xff at offset 0" in out.output  # its one case
    assert out.output.rstrip().endswith("2")  # the good file after the bad one is still solved
    out = searchkit_cli_run(["solve", "flood", str(tmp_path)])
    assert out.exit_code == 2 and out.stdout == "? (input error)\n" and "cannot read" in out.stderr


def test_a_long_width_without_a_height_is_quoted_as_written(searchkit_cli_run, tmp_path):
    """Issue 32 (S3): a 5000-digit width was quoted as 'width 1000000000' (the capped size, not the token)."""
    path = tmp_path / "r.txt"
    path.write_text("1" * 5000 + " x\n")
    result = searchkit_cli_run(["solve", "flood", "--input-format", "rect", str(path)])
    assert "after width 111111111..., got 'x'" in result.output
    assert "1000000000" not in result.output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(max_side=4, max_colours=4, any_pivot=True))
def test_every_board_is_solvable_as_the_puzzle_says(board):
    """The puzzle's ``solvable`` (which ``searchkit verify`` asks of a record claiming no solution) is True on
    every state, and a breadth-first search on the cells, independent of the area graph, does flood every
    board drawn."""
    puzzle = FloodPuzzle(board, ALL_RULES)
    start = puzzle.initial_state()
    assert puzzle.solvable(start) is True
    assert all(puzzle.solvable(child) is True for _, child, _ in puzzle.successors(start))
    assert isinstance(bfs_optimum(board), int)
