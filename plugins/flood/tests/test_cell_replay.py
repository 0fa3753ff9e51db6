"""CellReplay, the cell-level model native solutions are replayed on, against the area puzzle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board
from searchkit_flood.native import CellReplay


@st.composite
def boards_and_moves(draw):
    w, h, k = draw(st.integers(1, 9)), draw(st.integers(1, 9)), draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    board = Board.from_values(w, h, cells, draw(st.integers(0, w * h - 1)))
    moves = draw(st.lists(st.integers(0, board.colours - 1), max_size=4 * board.colours + 4))
    return board, moves


@settings(max_examples=400, deadline=None)
@given(case=boards_and_moves())
def test_cell_regions_are_the_area_regions(case):
    board, moves = case
    cells = CellReplay(board)
    areas = FloodPuzzle(board, frozenset({"frontier-colours", "no-growth", "completion", "exposure"}))
    s, a = cells.initial_state(), areas.initial_state()
    assert s == areas.region_cells(a)
    for move in moves:
        s = {m: child for m, child, _ in cells.successors(s)}[move]
        a = {m: child for m, child, _ in areas.successors(a)}[move]
        assert s == areas.region_cells(a)
        assert cells.is_goal(s) == areas.is_goal(a)


def test_edges_do_not_wrap():
    # 0 1     the pivot's 0 must not reach the 0 at the end of the row above or below through the edge
    # 1 0
    board = Board.from_values(2, 2, [0, 1, 1, 0])
    replay = CellReplay(board)
    assert replay.initial_state() == 0b0001
    assert {m: s for m, s, _ in replay.successors(0b0001)} == {0: 0b0001, 1: 0b0111}


@settings(max_examples=200, deadline=None)
@given(case=boards_and_moves())
def test_the_child_of_one_move_is_the_one_the_scan_finds(case):
    # check_solution asks successor(state, move) instead of scanning successors: the two must agree
    board, moves = case
    replay = CellReplay(board)
    state = replay.initial_state()
    for move in moves:
        children = {m: (child, cost) for m, child, cost in replay.successors(state)}
        assert {m: replay.successor(state, m) for m in children} == children
        state = children[move][0]
    assert replay.successor(state, board.colours) is None and replay.successor(state, -1) is None
    assert replay.successor(state, "0") is None


def test_masks_of_many_colours_take_the_loop_and_match_the_cells():
    # more colours than bytes can hold (the loop over the rows) and few (the bytes' translation): same masks
    for w, h, k in ((23, 17, 300), (23, 17, 7), (16, 16, 256)):
        board = Board.from_values(w, h, [(i * 7919) % k for i in range(w * h)], pivot=5)
        masks = CellReplay(board)._masks
        assert masks == [sum(1 << i for i, c in enumerate(board.cells) if c == colour)
                         for colour in range(board.colours)]


def test_a_move_that_is_no_colour_does_not_replay():
    from searchkit.machinery.engine import NativeEngineError, check_solution
    from searchkit.result import SOLVED, SearchResult

    board = Board.from_values(2, 1, [0, 1])
    check_solution(CellReplay(board), SearchResult(status=SOLVED, moves=(1,), cost=1))
    with pytest.raises(NativeEngineError, match="move 1 \\(2\\) is not legal"):
        check_solution(CellReplay(board), SearchResult(status=SOLVED, moves=(2,), cost=1))
    with pytest.raises(NativeEngineError, match="costs 2, not the 1"):
        check_solution(CellReplay(board), SearchResult(status=SOLVED, moves=(0, 1), cost=1))
