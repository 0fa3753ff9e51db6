"""A board is read under its case's limits (searchkit issue 19, item 21): too large or too slow, it is
reported with the limit's status (``Case.unread``), and the next case is still read."""

import random
import tracemalloc

from searchkit.game import Case
from searchkit.limits import Limiter, Limits, active

from sliding_tiles.game import READ_BYTES_PER_TILE, SlidingTilesGame

GAME = SlidingTilesGame()
SMALL = "1 2 3\n4 5 6\n7 0 8\n"


def _board(n: int) -> str:
    tiles = list(range(n * n))
    random.Random(n).shuffle(tiles)
    return "\n".join(" ".join(map(str, tiles[r * n:(r + 1) * n])) for r in range(n)) + "\n"


def _read(text: str, limits: Limits | None):
    """The cases of ``text``, each read under ``limits`` as the reader reads them, and the peak bytes."""
    items, values = GAME.parse(text, "in.txt", {"goal": "blank-last"}), []
    tracemalloc.start()
    try:
        while True:
            with active(Limiter(limits)):
                value = next(items, None)
            if value is None:
                return values, tracemalloc.get_traced_memory()[1]
            values.append(value)
    finally:
        tracemalloc.stop()


def test_a_board_too_large_for_the_memory_limit_is_refused_before_it_is_built():
    values, _ = _read(_board(200) + "\n" + SMALL, Limits(memory_mb=1))  # 40,000 tiles: over 1 MiB to build
    assert values[0] == Case.unread(1, "in.txt", 1, "memory_limit")
    assert values[1] == Case(2, (1, 2, 3, 4, 5, 6, 7, 0, 8), "in.txt", 202)


def test_reading_stops_at_the_time_limit():
    values, _ = _read(_board(200) + "\n" + SMALL, Limits(time_limit=0))
    assert [(v.index, v.stopped) for v in values] == [(1, "time_limit"), (2, "time_limit")]


def test_reading_a_board_holds_at_most_what_it_charges():
    text = _board(150)
    values, peak = _read(text, None)
    assert len(values[0].data) == 150 * 150
    assert peak <= READ_BYTES_PER_TILE * 150 * 150, peak


def test_a_case_stopped_while_read_has_no_board_to_turn_under_blank_first():
    # --goal blank-first rewrote every parsed case's board, including one a limit stopped reading (no board):
    # a TypeError instead of its status, and the next case was never read (issue 32, item 1's pattern)
    items = GAME.parse(SMALL + "\n" + SMALL, "in.txt", {"goal": "blank-first"})
    with active(Limiter(Limits(time_limit=0))):
        first = next(items)
    second = next(items)
    assert first == Case.unread(1, "in.txt", 1, "time_limit")
    assert isinstance(second, Case) and second.index == 2 and second.stopped is None
