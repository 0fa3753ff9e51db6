"""Input format, errors, plan and output of the sliding-tiles game."""

import pytest
from searchkit.errors import InputError
from searchkit.game import Case
from searchkit.result import SearchResult

from sliding_tiles.game import SlidingTilesGame


GAME = SlidingTilesGame()


def parse(text):
    return list(GAME.parse(text, "in.txt", {"moves": False}))


def test_cases_are_blank_line_separated_blocks_of_any_side():
    items = parse("\n1 2 3\n4 5 6\n7 8 0\n\n\n 1  2  3  4\n5 6 7 8\n9 10 11 12\n13 14 0 15  \n\n2 1\r\n3 0\r\n")
    assert [type(i) for i in items] == [Case, Case, Case]
    assert [i.index for i in items] == [1, 2, 3]
    assert [i.line for i in items] == [2, 7, 12]
    assert items[0].data == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert items[1].data[-2:] == (0, 15)
    assert items[2].data == (2, 1, 3, 0)
    assert all(i.source == "in.txt" for i in items)


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("1 2 3\n4 5\n7 8 0\n", 2, "expected 3 numbers per row"),
        ("1 2 3\n4 5 6 9\n7 8 0\n", 2, "expected 3 numbers per row"),
        ("1 2 3\n4 5 6\n", 2, "expected 3 rows"),
        ("1 2 3\n4 5 6\n7 8 0\n1 2 3\n", 4, "expected 3 rows"),
        ("1 2 3\n4 x 6\n7 8 0\n", 2, "expected an integer tile number, got 'x'"),
        ("1 2 3\n4 5 6\n7 8 1.5\n", 3, "got '1.5'"),
        ("1 2 3\n4 5 6\n7 3 0\n", 3, "tile 3 appears twice (also on line 5) (missing: 8)"),
        ("1 2 3\n4 5 6\n7 9 0\n", 3, "tile 9 out of range 0..8 for a 3x3 board (missing: 8)"),
        ("1 2 3\n4 5 6\n7 -8 0\n", 3, "tile -8 out of range"),
    ],
)
def test_bad_case_is_one_error_naming_line_and_case_and_the_rest_is_read(text, line, fragment):
    good = "1 2 3\n4 5 6\n7 0 8\n"
    items = parse(good + "\n" + text + "\n" + good)
    assert isinstance(items[0], Case) and isinstance(items[2], Case)
    assert items[2].index == 3  # the bad case still counts
    err = items[1]
    assert isinstance(err, InputError) and not err.fatal
    assert err.case == 2 and err.line == line + 4
    assert fragment in err.message
    assert str(err).startswith(f"in.txt:{line + 4}: case 2: ")
    assert "\n" not in str(err)


def test_format_input_round_trip_aligns_columns():
    datas = [(1, 2, 3, 4, 5, 6, 7, 8, 0), tuple(range(1, 16)) + (0,), (0,)]
    text = GAME.format_input(datas)
    assert text.startswith("1 2 3\n4 5 6\n7 8 0\n\n 1  2  3  4\n")
    assert [c.data for c in parse(text)] == datas
    assert GAME.format_input([c.data for c in parse(text)]) == text


def test_plan_searches_solvable_boards_and_not_unsolvable_ones():
    solvable = Case(1, (1, 2, 3, 4, 5, 6, 7, 0, 8))
    unsolvable = Case(2, (1, 2, 3, 4, 5, 6, 8, 7, 0))
    assert GAME.plan(solvable, {}).verdict is None
    plan = GAME.plan(unsolvable, {})
    assert plan.verdict == "exhausted"
    assert (plan.algorithm, plan.heuristic) == ("ida_star", "linear-conflict")


def test_format_result():
    case = Case(1, (1, 2, 3, 4, 5, 6, 0, 7, 8))
    solved = SearchResult("solved", ("R", "R"), 2)
    assert GAME.format_result(case, solved, {"moves": False}) == "2"
    assert GAME.format_result(case, solved, {"moves": True}) == "2: R R"
    goal = Case(1, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    assert GAME.format_result(goal, SearchResult("solved", (), 0), {"moves": True}) == "0"
    assert GAME.format_result(case, SearchResult("node_limit"), {}) == "? (node_limit)"
    bad = Case(1, (1, 2, 3, 4, 5, 6, 8, 7, 0))
    assert GAME.format_result(bad, SearchResult("exhausted"), {}).startswith("unsolvable")
    from searchkit.game import moves_to_json

    assert moves_to_json(GAME, case, ("R", "R")) == ["R", "R"]  # a board for the blank-last goal: as searched


def test_format_state_shows_the_board_and_the_last_move():
    from sliding_tiles.puzzle import SlidingPuzzle

    puzzle = SlidingPuzzle((1, 2, 3, 4, 5, 6, 7, 0, 8))
    assert GAME.format_state(puzzle, puzzle.initial_state()) == "1 2 3\n4 5 6\n7 0 8"
    child = puzzle.successors(puzzle.initial_state())[0][1]
    assert GAME.format_state(puzzle, child).endswith("(blank came from cell 7)")


def test_a_feasible_answer_says_it_is_not_proven_optimal():
    case = Case(1, (1, 2, 3, 4, 5, 6, 0, 7, 8))
    feasible = SearchResult("feasible", ("R", "R"), 2, lower_bound=2)
    assert GAME.format_result(case, feasible, {"moves": True}) == "2 (feasible, >= 2): R R"
    assert GAME.format_result(case, SearchResult("feasible", ("R", "R"), 2), {}) == "2 (feasible, no proven bound)"
