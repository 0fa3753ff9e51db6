"""One small hand-made board per rule of the NOIP 2011 Mayan puzzle."""

import pytest

from searchkit_mayan.board import (
    Shape, apply_move, format_board, from_columns, is_empty, run_cells, settle,
    successors, to_columns,
)
from mayan_search import format_moves, solve, solve_columns

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")


def test_crossing_runs_vanish_together():
    # A "+" centred on (1, 1): a horizontal and a vertical run share one block.
    board = from_columns([[2, 1], [1, 1, 1], [2, 1]])
    assert run_cells(board) == [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
    assert to_columns(settle(board)) == [[2], [], [2], [], []]


def test_l_shape_vanishes_whole():
    # Clearing the horizontal run first would leave two blocks of the vertical one.
    board = from_columns([[1, 1, 1], [1], [1]])
    assert is_empty(settle(board))


def test_runs_of_four_and_five_go_whole():
    assert is_empty(settle(from_columns([[1], [1], [1], [1]])))
    assert is_empty(settle(from_columns([[1]] * 5)))
    assert to_columns(settle(from_columns([[2, 1, 1, 1, 1, 3]]))) == [[2, 3], [], [], [], []]


def test_cascade():
    # The vertical run clears, the 2 on top falls next to two 2s and clears too.
    board = from_columns([[1, 1, 1, 2], [2], [2]])
    assert is_empty(settle(board))


def test_nothing_vanishes_while_falling():
    # The 3 passes row 2, where it would make 3 3 3, but lands on row 0.
    board = from_columns([[2, 4, 3], [], [], [1, 2, 3], [2, 1, 3]])
    after = apply_move(board, 0, 2, 1)
    assert to_columns(after) == [[2, 4], [3], [], [1, 2, 3], [2, 1, 3]]


def test_move_into_empty_cell_right():
    board = from_columns([[1, 2], [], [3]])
    assert to_columns(apply_move(board, 0, 1, 1)) == [[1], [2], [3], [], []]


def test_move_into_empty_cell_left():
    board = from_columns([[3], [], [1, 2]])
    assert to_columns(apply_move(board, 2, 1, -1)) == [[3], [2], [1], [], []]


def test_source_column_closes_up():
    board = from_columns([[1, 2, 3], []])
    assert to_columns(apply_move(board, 0, 0, 1)) == [[2, 3], [1], [], [], []]


def test_swap_and_settle():
    # The sample's first move: swapping (2,1) and (3,1).
    board = from_columns([[1], [2, 1], [2, 3, 4], [3, 1], [2, 4, 3, 4]])
    assert to_columns(apply_move(board, 2, 1, 1)) == [[1], [2, 1], [2, 1, 4], [3, 3], [2, 4, 3, 4]]


def test_illegal_moves_are_none():
    board = from_columns([[1, 1], [1], [], [], [2]])
    assert apply_move(board, 0, 0, -1) is None  # off the board
    assert apply_move(board, 4, 0, 1) is None
    assert apply_move(board, 2, 0, 1) is None  # no block
    assert apply_move(board, 0, 2, 1) is None
    assert apply_move(board, 0, 0, 1) is None  # same colour swap (Luogu)
    assert apply_move(board, 0, 0, 2) is None
    assert apply_move(board, 0, 0, 1, same_colour_swaps=True) == board


def test_successors_order_and_left_swap_skip():
    board = from_columns([[1], [2]])
    assert [m for m, _ in successors(board)] == [(0, 0, 1), (1, 0, 1), (1, 0, -1)]
    assert [m for m, _ in successors(board, skip_left_swaps=True)] == [(0, 0, 1), (1, 0, 1)]
    assert list(successors(0)) == []


def test_exact_n_uses_every_move():
    board = from_columns([[1], [1], [], [1]])
    assert solve(board, 1).moves == [(3, 0, -1)]
    # Two moves: spend the first one, finish with the second.
    assert solve(board, 2).moves == [(1, 0, 1), (0, 0, 1)]
    assert solve(board, 2, mode="shortest").moves == [(3, 0, -1)]


def test_emptying_early_is_not_a_solution():
    # The first move, (0, 0, 1), empties the board at once: fine for n = 1,
    # but the empty board has no second move.
    board = from_columns([[1], [], [1], [1]])
    assert solve(board, 1).moves == [(0, 0, 1)]
    assert solve(board, 2).moves == [(2, 0, -1), (3, 0, -1)]


def test_no_solution():
    out = solve(from_columns([[1], [1], [2, 2, 2, 3]]), 3)
    assert out.moves is None
    assert format_moves(out.moves) == "-1"


def test_same_colour_swap_option():
    board = from_columns([[1], [1], [], [1]])
    assert solve(board, 2).moves == [(1, 0, 1), (0, 0, 1)]
    # AcWing: swapping the two 1s is a move that changes nothing, and it sorts first.
    assert solve(board, 2, same_colour_swaps=True).moves == [(0, 0, 1), (3, 0, -1)]


def test_noip_sample():
    board = from_columns([[1], [2, 1], [2, 3, 4], [3, 1], [2, 4, 3, 4]])
    assert format_moves(solve(board, 3).moves) == "2 1 1\n3 1 1\n3 0 1"


def test_other_shapes():
    shape = Shape(width=3, height=3, run=2, cell_bits=4)
    assert solve(from_columns([[1], [], [1]], shape), 1, shape).moves == [(0, 0, 1)]
    assert solve(from_columns([[1], [2], [1]], shape), 3, shape).moves is None  # a lone 2
    assert is_empty(settle(from_columns([[5, 5]], shape), shape))
    with pytest.raises(ValueError):
        from_columns([[1, 1, 1, 1]], shape)


def test_colours_are_renumbered():
    assert solve_columns([[100], [2000], [], [100, 2000]], 2).moves == \
        solve_columns([[1], [2], [], [1, 2]], 2).moves


def test_format_board():
    board = from_columns([[1], [2, 10]])
    assert format_board(board) == " . 10  .  .  .\n 1  2  .  .  ."
    assert format_board(0) == "(empty)"


def test_command_line(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "mayan", "-"], input="3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n")
    assert out.exit_code == 0 and out.output == "2 1 1\n3 1 1\n3 0 1\n"
    bad = searchkit_cli_run(["solve", "mayan", "-"], input="9\n0\n0\n0\n0\n0\n")
    assert bad.exit_code == 2
    assert bad.stderr == "searchkit: error: <stdin>:1: the number of moves n must be in 1..5, found 9\n"
    assert bad.stdout == "? (input error)\n"


def test_solvable_is_false_only_for_a_colour_that_can_never_vanish():
    """The puzzle's ``solvable`` (asked by ``searchkit verify`` of a record claiming no solution): False for a
    colour of 1 or 2 blocks, True for the empty board, None (no cheap exact answer) otherwise, the NOIP sample
    (solvable in 3) and a board no move empties alike."""
    from searchkit_mayan.instance import MayanInstance
    from searchkit_mayan.puzzle import RULE_BOUND, RULE_FEW, RULE_LEFT, MayanPuzzle

    def answer(n, columns):
        puzzle = MayanPuzzle.from_instance(MayanInstance(n, columns))
        return puzzle.solvable(puzzle.initial_state())

    assert answer(1, ((1, 1), (), (), (), ())) is False  # two blocks of colour 1
    assert answer(1, ((1, 1, 1, 2), (2,), (), (), ())) is False  # the 1s vanish at once, leaving two 2s
    assert answer(1, ((1, 1, 1), (), (), (), ())) is True  # settles to the empty board
    assert answer(3, ((1,), (2, 1), (2, 3, 4), (3, 1), (2, 4, 3, 4))) is None  # the NOIP 2011 sample
    assert answer(1, ((1,), (), (1,), (), (1,))) is None  # three blocks that no single move lines up
    # the first's every reachable board, every rule off: none is empty (the claim is for any number of moves)
    plain = MayanPuzzle.from_instance(MayanInstance(1, ((1, 1), (), (), (), ())),
                                      disabled=frozenset({RULE_LEFT, RULE_FEW, RULE_BOUND}))
    seen, todo = {plain.initial_state()}, [plain.initial_state()]
    while todo:
        for _, child, _ in plain.successors(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert len(seen) > 10 and not any(plain.is_goal(board) for board in seen)
