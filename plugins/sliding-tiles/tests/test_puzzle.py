"""Hand-made cases for every rule: moves at edges, move names, goal detection, parity, no-undo."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiles_reference import bfs_distances, rect_distances
from sliding_tiles.puzzle import NO_PREV, SlidingPuzzle, goal_board, is_solvable


PLAIN = frozenset({"no-undo"})


def board(text):
    return tuple(int(t) for t in text.split())


def moves_of(puzzle, state):
    return [m for m, _, _ in puzzle.successors(state)]


@pytest.mark.parametrize(
    "blank, expected",
    [
        (0, ["D", "R"]),            # top-left corner
        (1, ["D", "L", "R"]),       # top edge
        (2, ["D", "L"]),            # top-right corner
        (3, ["U", "D", "R"]),       # left edge
        (4, ["U", "D", "L", "R"]),  # centre
        (5, ["U", "D", "L"]),       # right edge
        (6, ["U", "R"]),            # bottom-left corner
        (7, ["U", "L", "R"]),       # bottom edge
        (8, ["U", "L"]),            # bottom-right corner (the goal's blank)
    ],
)
def test_legal_moves_at_edges_and_corners(blank, expected):
    tiles = [t for t in range(1, 9)]
    tiles.insert(blank, 0)
    puzzle = SlidingPuzzle(tuple(tiles), PLAIN)
    assert moves_of(puzzle, puzzle.initial_state()) == expected


def test_moves_name_the_direction_the_blank_moves():
    puzzle = SlidingPuzzle(board("1 2 3  4 0 5  6 7 8"), PLAIN)
    children = {m: c[:-1] for m, c, _ in puzzle.successors(puzzle.initial_state())}
    assert children["U"] == board("1 0 3  4 2 5  6 7 8")  # tile 2 slid down
    assert children["D"] == board("1 2 3  4 7 5  6 0 8")
    assert children["L"] == board("1 2 3  0 4 5  6 7 8")
    assert children["R"] == board("1 2 3  4 5 0  6 7 8")
    assert all(cost == 1 for _, _, cost in puzzle.successors(puzzle.initial_state()))


def test_4x4_edges():
    puzzle = SlidingPuzzle(goal_board(4), PLAIN)
    assert moves_of(puzzle, puzzle.initial_state()) == ["U", "L"]
    tiles = list(goal_board(4))
    tiles[15], tiles[5] = tiles[5], 0
    puzzle = SlidingPuzzle(tuple(tiles), PLAIN)
    assert moves_of(puzzle, puzzle.initial_state()) == ["U", "D", "L", "R"]


def test_goal_detection():
    puzzle = SlidingPuzzle(goal_board(3))
    assert puzzle.is_goal(puzzle.initial_state())
    assert puzzle.is_goal(goal_board(3) + (5,))  # whatever the last move was
    assert not puzzle.is_goal(board("1 2 3  4 5 6  7 0 8") + (NO_PREV,))
    # the blank must be last: the same order with the blank first is not the goal
    assert not puzzle.is_goal(board("0 1 2  3 4 5  6 7 8") + (NO_PREV,))
    assert SlidingPuzzle((0,)).is_goal((0, NO_PREV))
    assert SlidingPuzzle((0,)).successors((0, NO_PREV)) == []


def test_states_are_flat_immutable_tuples():
    puzzle = SlidingPuzzle(board("1 2 3  4 0 5  6 7 8"))
    state = puzzle.initial_state()
    before = (state, hash(state))
    children = puzzle.successors(state)
    assert (state, hash(state)) == before
    for _, child, _ in children:
        assert isinstance(child, tuple) and len(child) == 10
        assert sorted(child[:-1]) == list(range(9))


def test_no_undo_drops_exactly_the_reverse_move():
    puzzle = SlidingPuzzle(board("1 2 3  4 0 5  6 7 8"))
    start = puzzle.initial_state()
    assert moves_of(puzzle, start) == ["U", "D", "L", "R"]  # no last move yet
    for move, back in (("U", "D"), ("D", "U"), ("L", "R"), ("R", "L")):
        child = dict((m, c) for m, c, _ in puzzle.successors(start))[move]
        assert child[-1] == 4  # the blank came from the centre
        assert back not in moves_of(puzzle, child)
        assert len(moves_of(puzzle, child)) == 2  # edge cell: 3 moves, one is the undo


def test_no_undo_switched_off_keeps_every_move_and_no_history():
    puzzle = SlidingPuzzle(board("1 2 3  4 0 5  6 7 8"), PLAIN)
    for _, child, _ in puzzle.successors(puzzle.initial_state()):
        assert child[-1] == NO_PREV  # plain states are just boards
        assert len(moves_of(puzzle, child)) == 3


def test_replay_uses_the_plain_rules():
    from searchkit.puzzle import replay

    puzzle = SlidingPuzzle(board("1 2 3  4 5 6  7 0 8"), frozenset({"no-undo"}))
    assert puzzle.is_goal(replay(puzzle, ["R"]))
    assert puzzle.is_goal(replay(puzzle, ["R", "L", "R"]))  # an undo is still a legal move
    with pytest.raises(ValueError):
        replay(puzzle, ["D"])  # the blank is on the bottom row


def test_parity_known_boards():
    assert is_solvable(goal_board(3)) and is_solvable(goal_board(4)) and is_solvable((0,))
    assert not is_solvable(board("1 2 3  4 5 6  8 7 0"))          # one swap
    assert not is_solvable(board("1 2 3 4  5 6 7 8  9 10 11 12  13 15 14 0"))  # Sam Loyd's 14-15
    assert is_solvable(board("1 2 3 4  5 6 7 8  9 10 11 0  13 14 15 12"))      # one move from the goal
    assert not is_solvable(board("2 1  3 0"))


def test_parity_matches_reachability_on_every_2x2_board():
    reachable = bfs_distances(2)
    for perm in itertools.permutations(range(4)):
        assert is_solvable(perm) == (perm in reachable), perm


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(range(9))))
def test_parity_matches_reachability_on_3x3(perm):
    assert is_solvable(tuple(perm)) == (tuple(perm) in bfs_distances(3))


def textbook_parity(tiles, width):
    """The rule as textbooks state it (is_solvable's docstring, form (2)), computed independently of it:
    inversions among the tiles, plus on an even width the blank's row distance from the bottom row."""
    order = [t for t in tiles if t]
    inversions = sum(1 for i, a in enumerate(order) for b in order[i + 1:] if a > b)
    if width % 2:
        return inversions % 2 == 0
    rows = len(tiles) // width
    return (inversions + rows - 1 - tiles.index(0) // width) % 2 == 0


@settings(max_examples=400, deadline=None)
@given(shape=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]), data=st.data())
def test_solvable_equals_breadth_first_reachability(shape, data):
    """The parity rule (the puzzle's solvable hook, which verify asks of every record claiming no solution)
    answers exactly what a breadth-first search from the goal reaches, on 2x2, 2x3, 3x2 and 3x3 boards; the
    textbook form of the rule agrees too.  (Square boards through the puzzle, rectangles through is_solvable.)"""
    width, height = shape
    tiles = tuple(data.draw(st.permutations(list(range(width * height)))))
    reached = tiles in rect_distances(width, height)
    assert is_solvable(tiles, width=width) == reached
    assert textbook_parity(tiles, width) == reached
    if width == height:
        puzzle = SlidingPuzzle(tiles)
        state = puzzle.initial_state()
        assert puzzle.solvable(state) is reached
        assert puzzle.solvable(state[:-1] + (0,)) is reached  # the last-move field is not part of the board


@pytest.mark.parametrize("width,height", [(2, 3), (3, 2)])
def test_parity_matches_reachability_on_every_rectangular_board(width, height):
    """Every board of the two 6-cell shapes (720 each): exactly half reach the goal, the half parity says."""
    reachable = rect_distances(width, height)
    assert len(reachable) == 360
    for perm in itertools.permutations(range(width * height)):
        assert is_solvable(perm, width=width) == (perm in reachable), perm


def test_parity_refuses_a_board_of_one_line():
    """On one row tiles cannot pass each other: "2 3 1 0" meets the parity rule and is unsolvable, so the rule
    is not applied there (and the plugin's square boards are never one line but the 1x1 goal)."""
    assert textbook_parity((2, 3, 1, 0), 4) and (2, 3, 1, 0) not in rect_distances(4, 1)  # the rule is wrong
    with pytest.raises(ValueError, match="one line"):
        is_solvable((2, 3, 1, 0), width=4)
    with pytest.raises(ValueError, match="one line"):
        is_solvable((1, 0, 2), width=1)
    assert is_solvable((0,)) and is_solvable((0,), width=1)


@settings(max_examples=100, deadline=None)
@given(st.permutations(list(range(16))))
def test_parity_is_invariant_under_moves_on_4x4(perm):
    tiles = tuple(perm)
    puzzle = SlidingPuzzle(tiles, PLAIN)
    for _, child, _ in puzzle.successors(puzzle.initial_state()):
        assert is_solvable(child[:-1]) == is_solvable(tiles)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 4), data=st.data())
def test_the_replay_puzzle_has_the_plain_puzzles_moves(n, data):
    """The puzzle a native answer is replayed on (``Replay``, the rules on the board alone) gives each board
    the plain puzzle's successors, and refuses a move off the board or a move that is no move."""
    from sliding_tiles.puzzle import Replay

    tiles = tuple(data.draw(st.permutations(range(n * n))))
    replay, plain = Replay(tiles), SlidingPuzzle(tiles, PLAIN)
    assert [(m, c) for m, c, _ in replay.successors(tiles)] == \
        [(m, c[:-1]) for m, c, _ in plain.successors(plain.initial_state())]
    assert replay.is_goal(tiles) == plain.is_goal(plain.initial_state())
    legal = {m for m, _, _ in plain.successors(plain.initial_state())}
    for move in ("U", "D", "L", "R", "X", 0, None):
        assert (replay.successor(tiles, move) is not None) == (move in legal)
