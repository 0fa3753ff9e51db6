"""Set-up memory of the Flood-It puzzle is linear in the board's size (issue 9, item 10).

The area graph used to keep a full-board cell bitset per area and eager
neighbour bitsets over all areas: cells x areas bits, 4.7 GB at 500x500 and
an out-of-memory kill at 1000x1000.  Now set-up holds an area label per cell,
the area graph in sparse rows, and neighbour bitsets only on demand.

The board here is 150x150, not 1000x1000: ``tracemalloc`` traces every
allocation, which makes the pure-Python set-up loops about 30x slower
(1000x1000 would take minutes in the test; it takes 5.5 s and 74 MB of
resident memory untraced, see ``AreaGraph``).  150x150 still has about
15 000 areas, above ``EAGER_NEIGHBOURS``, so the lazy path is the one
measured, and the old code's set-up traced 43.5 MiB there (10 MB at
100x100, 127 MB at 200x200: it grows with the square).

Ceiling: 400 bytes per cell (9 MB here; measured 1.6 MB).  What set-up really needs per cell
is a 4-byte label plus, per area (about 0.67 per cell), a colour entry and
about 3 sparse-row entries of 4 bytes: under 50 bytes per cell; the ceiling
leaves room for transient lists and is still 4x below the old figure.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest

from searchkit_flood import areas
from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board
from searchkit_flood.heuristics import puchert

SIDE = 150
BYTES_PER_CELL = 400


def _board(side: int, seed: int = 1) -> Board:
    rng = random.Random(seed)
    return Board.from_values(side, side, [rng.randint(1, 6) for _ in range(side * side)])


def test_setup_peak_memory_is_linear_in_cells():
    board = _board(SIDE)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        puzzle = FloodPuzzle(board)
        h = puchert(puzzle)  # the Solver builds the heuristic right after the puzzle
        start = puzzle.initial_state()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert puzzle.graph.count > areas.EAGER_NEIGHBOURS  # the lazy path is the one measured
    assert peak < BYTES_PER_CELL * SIDE * SIDE, f"set-up peak {peak} bytes"
    assert h(start) > 0


@pytest.mark.parametrize("eager", [True, False])
def test_neighbours_equal_the_cells_adjacency(eager, monkeypatch):
    """Eager or lazy neighbour bitsets and the area labels describe the same graph as the cells."""
    if not eager:
        monkeypatch.setattr(areas, "EAGER_NEIGHBOURS", 0)
    board = _board(40, seed=3)
    g = FloodPuzzle(board).graph
    assert isinstance(g.neighbours, list) == eager
    w, h = board.width, board.height
    expect = [set() for _ in range(g.count)]
    for i in range(w * h):
        a = g.area_of[i]
        assert g.colour[a] == board.cells[i]
        for j in ((i + 1) if (i + 1) % w else None, (i + w) if i + w < w * h else None):
            if j is not None:
                b = g.area_of[j]
                if a != b:
                    expect[a].add(b)
                    expect[b].add(a)
                else:
                    assert board.cells[i] == board.cells[j]
    for a in range(g.count):
        bits = g.neighbours[a]
        assert {b for b in range(g.count) if bits >> b & 1} == expect[a]
        assert all(g.colour[b] != g.colour[a] for b in expect[a])
    # The pivot's area is 0 and numbers are in breadth-first order: each area
    # after 0 has a neighbour with a smaller number.
    assert g.area_of[board.pivot] == 0
    assert all(min(expect[a]) < a for a in range(1, g.count))


def test_region_cells_match_area_labels():
    board = _board(30, seed=5)
    puzzle = FloodPuzzle(board)
    g = puzzle.graph
    flooded = sum(1 << a for a in range(0, g.count, 3))
    cells = puzzle.region_cells(puzzle.pack(flooded, 0))
    assert cells == sum(1 << i for i in range(900) if flooded >> g.area_of[i] & 1)
