"""N threads equal one: the native engine's parallel IDA* against its serial search, through the binding.

The parallel search (``native/core/src/drivers/ida_star/parallel.rs``) claims the serial search's answer,
move for move, its lower bound, and its expanded, generated and evaluated counts and rule cuts, iteration by
iteration, the solution's iteration too; under a node limit, never more than the limit, the completed
iterations the serial search's, and the f-bound it stopped in as its lower bound; under a deadline or Ctrl-C,
status ``time_limit`` or ``cancelled`` with every thread stopped.  ``SEARCHKIT_PARALLEL_SMALL=0`` makes every
iteration split into work units, so that small boards exercise the threads.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import interrupted

sliding_tiles_native = pytest.importorskip("sliding_tiles_native")

HARD15 = [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1]  # Korf's 88: about 3e9 states with Manhattan


@pytest.fixture(autouse=True)
def split_every_iteration(monkeypatch):
    monkeypatch.setenv("SEARCHKIT_PARALLEL_SMALL", "0")
    monkeypatch.setenv("SEARCHKIT_MAX_THREADS", "64")  # more threads than this machine's CPUs


def walk(n: int, steps: int, rng: random.Random) -> list[int]:
    """A board ``steps`` random blank moves from the goal (never undoing the last one)."""
    tiles = list(range(1, n * n)) + [0]
    blank, last = n * n - 1, -1
    for _ in range(steps):
        r, c = divmod(blank, n)
        to = [t for t, ok in ((blank - n, r > 0), (blank + n, r < n - 1), (blank - 1, c > 0),
                              (blank + 1, c < n - 1)) if ok and t != last]
        t = rng.choice(to)
        tiles[blank], tiles[t] = tiles[t], tiles[blank]
        last, blank = blank, t
    return tiles


def solve(tiles: list[int], threads: int, heuristic: str = "manhattan", **extra) -> dict:
    n = math.isqrt(len(tiles))
    request = {"algorithm": "ida_star", "heuristic": heuristic, "threads": threads, **extra}
    return sliding_tiles_native.solve((n, list(tiles), None), request)


def counts(result: dict) -> tuple:
    s = result["stats"]
    return (s["expanded"], s["generated"], s["evaluated"], sorted(map(tuple, s["rule_cuts"])),
            [i[:3] for i in s["iterations"]])


def same(one: dict, many: dict, what: str) -> None:
    for key in ("status", "moves", "cost", "lower_bound"):
        assert many[key] == one[key], f"{what}: {key}"
    assert counts(many) == counts(one), what


def test_a_thousand_boards_on_2_3_and_4_threads():
    rng = random.Random(34)
    boards = [walk(3, rng.randrange(4, 40), rng) for _ in range(800)]
    boards += [walk(4, rng.randrange(8, 45), rng) for _ in range(200)]
    for i, tiles in enumerate(boards):
        heuristic = ("manhattan", "linear-conflict")[i % 2]
        one = solve(tiles, 1, heuristic)
        assert "threads" not in one["stats"]  # a one-thread record is unchanged
        threads = 2 + i % 3
        many = solve(tiles, threads, heuristic)
        same(one, many, f"board {i} {tiles} {heuristic} on {threads} threads")
        assert many["stats"]["threads"] == threads


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 50), threads=st.integers(2, 5),
       heuristic=st.sampled_from(["manhattan", "linear-conflict"]))
def test_n_threads_equal_one(seed, steps, threads, heuristic):
    tiles = walk(4, steps, random.Random(seed))
    same(solve(tiles, 1, heuristic), solve(tiles, threads, heuristic), f"{tiles} {heuristic} {threads}")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(6, 45), threads=st.integers(2, 4), cut=st.floats(0, 1))
def test_a_node_limit_holds_across_threads(seed, steps, threads, cut):
    tiles = walk(4, steps, random.Random(seed))
    full = solve(tiles, 1)
    limit = int(full["stats"]["expanded"] * cut)
    many = solve(tiles, threads, max_nodes=limit)
    assert many["stats"]["expanded"] <= limit
    if many["status"] == "solved":
        same(full, many, f"{tiles} under {limit}")
        return
    assert many["status"] == "node_limit"
    bounds = [i[0] for i in full["stats"]["iterations"]]
    assert many["lower_bound"] in bounds
    done = many["stats"]["iterations"][:-1]
    assert [i[:2] for i in done] == [i[:2] for i in full["stats"]["iterations"][:len(done)]]


def test_a_deadline_stops_every_thread():
    r = solve(HARD15, 2, remaining=0.3)
    assert r["status"] == "time_limit" and r["lower_bound"] is not None and r["stats"]["expanded"] > 0


def test_the_threads_are_refused_below_one():
    with pytest.raises(ValueError, match="threads"):
        solve([1, 2, 3, 4, 5, 6, 7, 0, 8], 0)


CHILD = """
import json, sys
import sliding_tiles_native
print("ready", flush=True)
r = sliding_tiles_native.solve((4, %r, None), {"algorithm": "ida_star", "heuristic": "manhattan", "threads": 2})
print(json.dumps({"status": r["status"], "expanded": r["stats"]["expanded"],
                  "threads": r["stats"].get("threads", 1)}), flush=True)
""" % (HARD15,)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_every_thread():
    """SIGINT to a process searching on 2 threads: the waiting thread polls Python's handlers and the
    workers see the cancel flag: status ``cancelled`` (without the poll the search would run for minutes)."""
    out = interrupted(CHILD, 1.0)  # 1 s: past the first small iterations, the threads are running
    assert out["status"] == "cancelled" and out["expanded"] > 0 and out["threads"] == 2


EXAMPLE = Path(__file__).resolve().parents[2] / "plugins" / "sliding-tiles" / "examples" / "15-puzzle-korf.txt"


def records(threads: int) -> list[dict]:
    """The CLI's records of the example 15-puzzles on ``threads`` threads (the native answer replayed by the
    Python game before it is written), the figures that may differ (times, memory, threads) left out."""
    out = subprocess.run([sys.executable, "-m", "searchkit", "solve", "sliding-tiles", "--engine", "native",
                          "-H", "manhattan", "--threads", str(threads), "--format", "jsonl", str(EXAMPLE)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "SEARCHKIT_PARALLEL_SMALL": "0", "SEARCHKIT_MAX_THREADS": "64"}).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        for key in ("seconds", "peak_rss_kib", "elapsed"):
            r.pop(key, None)
        stats = r.get("stats") or {}
        stats.pop("elapsed", None)
        assert stats.pop("threads", 1) == threads
        for it in stats.get("iterations", []):
            it.pop("elapsed", None)
    return rows


def test_the_cli_gives_the_same_records_on_2_threads_as_on_1():
    """``searchkit solve --threads 2``: the same moves, bounds and statistics as ``--threads 1``, record for
    record (the Done-when check of issue 34, on the example boards)."""
    one = records(1)
    assert len(one) == 5 and all(r["status"] == "solved" for r in one)
    assert records(2) == one


def test_a_case_too_small_to_split_says_it_ran_on_one_thread(monkeypatch):
    """An iteration after one of fewer than 16,384 expansions runs on the calling thread: a case whose
    iterations are all that small started no thread, and its stats say so (no ``threads`` key)."""
    monkeypatch.delenv("SEARCHKIT_PARALLEL_SMALL")
    for tiles in ([1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 0, 7, 8], [8, 6, 7, 2, 5, 4, 3, 0, 1]):
        r = solve(tiles, 2)
        assert r["status"] == "solved" and "threads" not in r["stats"], tiles


def test_the_threads_are_at_most_the_usable_cpus(monkeypatch):
    """More threads than CPUs only take turns (and make Ctrl-C late): a search asked for 8 runs on as many
    as the CPUs (here pinned by ``SEARCHKIT_MAX_THREADS``), and says so."""
    monkeypatch.setenv("SEARCHKIT_MAX_THREADS", "2")
    tiles = walk(4, 40, random.Random(7))
    r = solve(tiles, 8)
    assert r["stats"]["threads"] == 2
    same(solve(tiles, 1), r, "8 threads asked, 2 CPUs")
