"""A board's set-up (the puzzle, the heuristic's tables, the first estimate) holds its case's limits
(tester defect 9): a 100 x 100 board took 25 s and 800 MB in the Manhattan table (``N**4`` entries)
before ``--time-limit 1`` was seen, a 300 x 300 one ran out of memory."""

import tracemalloc

import pytest

from searchkit.limits import Limiter, LimitReached, Limits, active

from sliding_tiles import heuristics
from sliding_tiles.puzzle import SlidingPuzzle, neighbours


def _near_goal(n: int) -> tuple[int, ...]:
    """The goal with tiles 1, 2 and 3, 4 swapped (solvable: two swaps keep the parity)."""
    tiles = list(range(1, n * n)) + [0]
    tiles[0], tiles[1] = tiles[1], tiles[0]
    tiles[2], tiles[3] = tiles[3], tiles[2]
    return tuple(tiles)


def _peak(build):
    """``(value, peak bytes)`` of ``build()``, the per-side tables built afresh."""
    heuristics._manhattan_table.cache_clear()
    tracemalloc.start()
    try:
        value = build()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", ["manhattan", "linear_conflict", "misplaced"])
def test_a_large_boards_heuristic_is_built_in_memory_linear_in_its_cells(name):
    n = 60  # 3600 cells: an N**4 table would hold 13 million entries (over 100 MB)
    puzzle = SlidingPuzzle(_near_goal(n))
    state = puzzle.initial_state()
    value, peak = _peak(lambda: getattr(heuristics, name)(puzzle)(state))
    assert value == {"manhattan": 4, "linear_conflict": 8, "misplaced": 4}[name]
    assert peak < 2_000_000  # bytes: a few tuples of 3600 entries


def test_the_row_and_column_manhattan_agrees_with_the_table():
    n = heuristics.TABLE_MAX_SIDE + 1
    puzzle = SlidingPuzzle(tuple(reversed(range(n * n))))
    table = heuristics._manhattan_table.__wrapped__(n)
    state = puzzle.initial_state()
    assert heuristics.manhattan(puzzle)(state) == sum(table[pos][tile] for pos, tile in enumerate(puzzle.tiles))


def test_the_line_memo_is_bounded():
    line = heuristics._LineTable(3, 0, True)
    line.MAX_ENTRIES = 2
    for tiles in [(1, 2, 3), (2, 1, 3), (3, 2, 1)]:
        line[tiles]
    assert len(line) <= 2 and line[(3, 2, 1)] == 4  # two of the three leave the row


def test_building_the_puzzle_checks_the_clock():
    with active(Limiter(Limits(time_limit=0))), pytest.raises(LimitReached) as stop:
        neighbours(3)
    assert stop.value.status == "time_limit"


def test_the_manhattan_table_is_charged_before_it_is_built():
    with active(Limiter(Limits(memory_mb=1))), pytest.raises(LimitReached) as stop:
        heuristics._manhattan_table.__wrapped__(heuristics.TABLE_MAX_SIDE)  # 4096 entries: 32 KB
        heuristics._manhattan_table.__wrapped__(20)  # 160 000 entries: 1.28 MB
    assert stop.value.status == "memory_limit"


def test_the_manhattan_table_checks_the_clock():
    with active(Limiter(Limits(time_limit=0))), pytest.raises(LimitReached):
        heuristics._manhattan_table.__wrapped__(3)


@pytest.mark.parametrize("heuristic", ["linear-conflict", "manhattan", "misplaced"])
def test_a_large_board_stops_at_its_node_limit_in_little_memory(heuristic):
    from searchkit.game import Case
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    solver = Solver(load_registry(), "sliding-tiles", heuristic=heuristic, engine="python",
                    limits=Limits(max_nodes=1))
    outcome, peak = _peak(lambda: solver.solve(Case(1, _near_goal(60))))
    assert outcome.result.status == "node_limit"
    assert peak < 20_000_000  # bytes; the N**4 table alone was over 100 MB
