"""CellReplay, the cell-level model native solutions are replayed on, against the area puzzle."""

from __future__ import annotations

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
