"""Issue 19 item 21: a case is read under its limits, from its first byte.

A 2000x2000 judge board took about 1.3 s to parse with ``--time-limit 0.1``
and about 238 MB outside ``--memory-limit``: parsing ran before any limit
held.  Now the reader makes the case being read the running one
(:func:`searchkit.machinery.reading.timed_items`), the flood parser charges a board
``READ_BYTES_PER_CELL`` a cell before reading it and checks the clock as it
reads, and a case a limit stops is yielded as ``Case.unread`` with the
limit's status, the rest of its values passed over so the next case is read.

Memory is measured with tracemalloc (allocations, deterministic), never with
the clock; the one CLI test uses a board whose reading takes far longer than
its limit on any machine.
"""

from __future__ import annotations

import json
import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit.game import Case
from searchkit.limits import Limits
from searchkit.plugin.manager import load_registry
from searchkit.machinery.reading import iter_cases
from searchkit.machinery.solver import Solver
from searchkit_flood.board import READ_BYTES_PER_CELL

MiB = 1 << 20
SMALL = "3\n1 2 3\n2 3 1\n3 1 2\n"


def _judge(path, n: int, tail: str = SMALL + "0\n"):
    rng = random.Random(n)
    with open(path, "w") as fh:
        fh.write(f"{n}\n")
        for _ in range(n):
            fh.write(" ".join(rng.choices("123456", k=n)) + "\n")
        fh.write(tail)
    return str(path)


def _read(path: str, limits: Limits | None) -> tuple[list, int]:
    """The values read from ``path`` under ``limits``, and the peak bytes allocated while reading."""
    solver = Solver(load_registry(), "flood")
    tracemalloc.start()
    try:
        values = [item.value for item in iter_cases(solver.game, [path], solver.options, limits)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return values, peak


def test_a_board_too_large_for_the_memory_limit_is_stopped_before_it_is_built(tmp_path):
    path = _judge(tmp_path / "big.txt", 800)  # 640,000 cells: over 10 MB to build, 15.4 MB charged
    values, peak = _read(path, Limits(memory_mb=4))
    assert [(v.index, v.line, v.stopped) for v in values] == [(1, 1, "memory_limit"), (2, 802, None)]
    assert values[0] == Case.unread(1, path, 1, "memory_limit")
    assert values[1].data.width == 3 and values[1].data.cells == (0, 1, 2, 1, 2, 0, 2, 0, 1)
    # the file's own buffers (a 1 MiB chunk checked for UTF-8, a 256K-character chunk of lines) stay
    assert peak < 4 * MiB, f"reading allocated {peak} bytes at its peak under a 4 MiB limit"


def test_a_lines_format_board_too_large_for_the_memory_limit_is_stopped(tmp_path):
    path = tmp_path / "lines.txt"
    rng = random.Random(7)
    path.write_text("".join(rng.choices("123456", k=800 * 800)) + "\n1212\n")
    values, peak = _read(str(path), Limits(memory_mb=4))
    assert [(v.index, v.line, v.stopped) for v in values] == [(1, 1, "memory_limit"), (2, 2, None)]
    assert values[1].data.cells == (0, 1, 0, 1)
    assert peak < 4 * MiB


def test_reading_stops_at_the_time_limit_and_every_case_still_gives_one_item(tmp_path):
    path = _judge(tmp_path / "big.txt", 800)
    values, peak = _read(path, Limits(time_limit=0))  # 0 stops at once: at the first check of each case
    assert [(v.index, v.line, v.stopped, v.data) for v in values] == [(1, 1, "time_limit", None),
                                                                      (2, 802, "time_limit", None)]
    assert peak < 4 * MiB  # the 800x800 board was never built


@pytest.mark.parametrize("layout", ["judge", "lines"])
def test_reading_a_board_holds_at_most_what_it_charges(tmp_path, layout):
    side = 500
    path = tmp_path / "one.txt"
    if layout == "judge":
        _judge(path, side, tail="")
    else:
        rng = random.Random(3)
        path.write_text("".join(rng.choices("123456", k=side * side)) + "\n")
    values, peak = _read(str(path), None)
    assert len(values) == 1 and values[0].data.width == side
    assert peak <= READ_BYTES_PER_CELL * side * side, (peak, READ_BYTES_PER_CELL * side * side)


def test_the_cli_reports_a_case_stopped_while_read_and_solves_the_next(tmp_path, searchkit_cli_run):
    # 3000x3000: 9 million values, more than 0.1 s of reading on any machine (1500x1500 was not: on a fast
    # machine it was read in under 0.1 s, and the case was stopped after reading, with its data hash)
    path = _judge(tmp_path / "big.txt", 3000, tail="1\n7\n0\n")
    result = searchkit_cli_run(["solve", "flood", "--time-limit", "0.1", "--format", "jsonl", path])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["case"], r["line"], r["status"], r["data_hash"]) for r in records] == [
        (1, 1, "time_limit", None), (2, 3002, "solved", records[1]["data_hash"])]
    assert records[1]["cost"] == 0 and records[1]["data_hash"].startswith("sha256:")
    assert result.exit_code == 1  # a case stopped at a limit without a solution
    text = searchkit_cli_run(["solve", "flood", "--time-limit", "0.1", path])
    assert text.stdout.splitlines() == ["? (time_limit)", "0"]


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from(" \t\r\v\f\x1c\x1d\x1e\x1f\x85\xa0\u3000a1-"), max_size=30))
def test_the_fast_tokeniser_splits_as_scanf_does(line):
    import re

    from searchkit_flood.board import _TOKEN, _tokens

    assert _tokens(line) == re.findall(_TOKEN, line)


def test_the_passes_over_the_whole_file_are_not_charged_to_the_first_case():
    """Detection and the token count read the whole file before the first case; that is not case 1's time."""
    import time

    from searchkit.limits import Limiter, active

    text = SMALL + "0\n"
    passes = []

    def lines():  # every pass over the "file" is slow, as over a huge one; reading case 1 itself is not
        passes.append(1)
        if len(passes) <= 3:
            time.sleep(0.1)
        return iter(text.split("\n"))

    solver = Solver(load_registry(), "flood")
    items = solver.game.parse_stream(lines, "in.txt", dict(solver.options))
    with active(Limiter(Limits(time_limit=0.25))):
        first = next(items)
    assert first.stopped is None and first.data.cells == (0, 1, 2, 1, 2, 0, 2, 0, 1), first


def test_show_reads_its_case_under_the_time_limit(tmp_path, searchkit_cli_run):
    path = _judge(tmp_path / "big.txt", 300)
    result = searchkit_cli_run(["show", "flood", "--time-limit", "0", "-o", str(tmp_path / "x.svg"), path])
    assert result.exit_code == 1
    assert "case 1: time_limit while it was read, nothing to show" in result.stderr
    assert not (tmp_path / "x.svg").exists()
