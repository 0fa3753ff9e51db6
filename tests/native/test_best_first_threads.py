"""N threads against one: the native engine's A* and PEA* on several threads (K-parallel best-first search,
``native/core/src/drivers/best_first/parallel.rs``) against its one-thread search and the Python engine.

What the parallel search claims, and what is checked here on small random Flood-It boards:

* the optimal cost, the status and the lower bound of the one-thread search and of the Python engine (the
  reference), with ``dominance`` and the fused rules on or off, under a cost cap too; the moves replay to the
  goal in that many moves;
* for a fixed K (``SEARCHKIT_PARALLEL_BATCH``), the same everything (moves, counts, f-layers, rule cuts) at
  every thread count and on the calling thread alone (``SEARCHKIT_PARALLEL_SMALL`` above the search: no
  thread started), under a node limit too; with K = 1 the serial search's counts exactly;
* under a node limit, never more expansions than the limit, and a lower bound at most the optimum;
* a deadline and Ctrl-C stop it (``time_limit``, ``cancelled``); a small search starts no thread.

``SEARCHKIT_PARALLEL_SMALL=0`` starts the threads at the first batch, so that small boards exercise them;
``SEARCHKIT_MAX_THREADS`` lets 3 threads run on this 2-CPU machine.  Examples: ``SEARCHKIT_DIFFERENTIAL_EXAMPLES``
(default 150).
"""

from __future__ import annotations

import os
import random
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

native = pytest.importorskip("searchkit_flood_native", reason="Flood-It's native module is not installed "
                                                                "(pip install ./plugins/flood/native)")

from searchkit_flood.areas import FloodPuzzle  # noqa: E402
from searchkit_flood.board import Board  # noqa: E402
from tests.conftest import interrupted  # noqa: E402
from tests.native.summaries import summary_native, summary_python  # noqa: E402
from tests.native.test_flood_differential import python_run, replay  # noqa: E402

EXAMPLES = int(os.environ.get("SEARCHKIT_DIFFERENTIAL_EXAMPLES", "150"))
RULES = ["frontier-colours", "no-growth", "completion", "exposure"]
B24C6 = Path(__file__).resolve().parents[2] / ".." / "shared" / "cases" / "flood" / "colorfill" / "b24c6n1000.txt"


@contextmanager
def env(**values):
    """The environment variables ``values`` set (None: unset) for the block."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def solve(board, algorithm, threads, *, dominance=True, disabled=(), max_cost=None, max_nodes=None,
          batch=None, small=0, **extra):
    request = {"algorithm": algorithm, "heuristic": "puchert", "pruners": ["dominance"] if dominance else [],
               "max_cost": max_cost, "max_nodes": max_nodes, "threads": threads, "disabled": sorted(disabled),
               **extra}
    with env(SEARCHKIT_PARALLEL_BATCH=batch, SEARCHKIT_PARALLEL_SMALL=small, SEARCHKIT_MAX_THREADS=64):
        return native.solve((board.width, board.height, list(board.cells), board.pivot), request)


def answer(s: dict) -> tuple:
    return s["status"], s["cost"], s["lower_bound"]


def random_board(rng: random.Random, max_side=6, max_colours=5) -> Board:
    w, h, k = rng.randint(1, max_side), rng.randint(1, max_side), rng.randint(1, max_colours)
    return Board.from_values(w, h, [rng.randrange(k) for _ in range(w * h)], rng.randrange(w * h))


def check(board, algorithm, dominance, disabled, max_cost=None, batch=None):
    """The module's claims on one board (unlimited): returns the parallel search's summary."""
    puzzle = FloodPuzzle(board, frozenset(disabled))
    reference = summary_python(python_run(algorithm, puzzle, "puchert", dominance, max_cost, None, {}), puzzle)
    one = summary_native(solve(board, algorithm, 1, dominance=dominance, disabled=disabled, max_cost=max_cost))
    assert answer(one) == answer(reference)
    runs = [solve(board, algorithm, t, dominance=dominance, disabled=disabled, max_cost=max_cost, batch=batch,
                  small=small) for t, small in ((2, 0), (3, 0), (2, 10**12))]
    many = [summary_native(r) for r in runs]
    what = (algorithm, board, dominance, sorted(disabled), max_cost, batch)
    assert answer(many[0]) == answer(reference), what
    assert many[1] == many[0] and many[2] == many[0], what  # a fixed K: the same at every thread count
    if runs[0]["stats"]["expanded"] > 0:
        assert runs[0]["stats"].get("threads") == 2 and runs[1]["stats"].get("threads") == 3, what
    assert "threads" not in runs[2]["stats"], what  # (no thread started: the calling thread alone)
    if batch == 1:
        assert many[0] == one, what  # K = 1 is the serial search, count for count
    if many[0]["moves"] or many[0]["status"] == "solved":
        assert len(many[0]["moves"]) == many[0]["cost"] and puzzle.is_goal(replay(puzzle, many[0]["moves"]))
    return many[0]


def test_a_thousand_boards_on_2_and_3_threads():
    rng = random.Random(34)
    for i in range(1000):
        board = random_board(rng)
        disabled = [r for r in RULES if rng.random() < 0.2]
        check(board, ("astar", "peastar")[i % 2], dominance=i % 3 != 0, disabled=disabled,
              batch=(None, 1, 2, 5)[i % 4])


@st.composite
def boards(draw, max_side=6, max_colours=5):
    w, h = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    k = draw(st.integers(1, max_colours))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    return Board.from_values(w, h, cells, draw(st.integers(0, w * h - 1)))


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(), algorithm=st.sampled_from(["astar", "peastar"]), dominance=st.booleans(),
       disabled=st.sets(st.sampled_from(RULES)), batch=st.sampled_from([None, 1, 2, 3, 8]),
       cap=st.one_of(st.none(), st.integers(-3, 0)))
def test_n_threads_equal_one_and_the_python_engine(board, algorithm, dominance, disabled, batch, cap):
    max_cost = None
    if cap is not None:
        # a cost cap about the optimum: below it the search is exhausted, as Python's
        best = solve(board, algorithm, 1, dominance=dominance, disabled=disabled)["cost"]
        max_cost = max(0, best + cap + 1)
    check(board, algorithm, dominance, sorted(disabled), max_cost=max_cost, batch=batch)


@settings(max_examples=EXAMPLES, deadline=None)
@given(board=boards(max_side=7), algorithm=st.sampled_from(["astar", "peastar"]), dominance=st.booleans(),
       batch=st.sampled_from([None, 1, 3]), limit=st.integers(0, 60))
def test_a_node_limit_holds_across_threads(board, algorithm, dominance, batch, limit):
    full = solve(board, algorithm, 1, dominance=dominance)
    runs = [solve(board, algorithm, t, dominance=dominance, max_nodes=limit, batch=batch, small=small)
            for t, small in ((2, 0), (3, 0), (2, 10**12))]
    many = [summary_native(r) for r in runs]
    assert many[1] == many[0] and many[2] == many[0]
    got = many[0]
    assert got["expanded"] <= limit
    assert got["status"] in ("solved", "node_limit")
    if got["status"] == "solved":
        assert got["cost"] == full["cost"]
    else:
        assert got["expanded"] == limit  # exact: the limit is counted over all threads
        assert got["lower_bound"] is not None and got["lower_bound"] <= full["cost"]


def big_board() -> Board:
    """b24c6 board 1 (ColorFill's set; optimum 30, about 230,000 expansions with PEA*)."""
    if not B24C6.exists():
        pytest.skip("../shared/cases/flood/colorfill/b24c6n1000.txt is not here")
    line = B24C6.read_text().split()[0]
    return Board.from_values(24, 24, [int(c) - 1 for c in line], 0)


def test_a_deadline_stops_the_threads():
    r = solve(big_board(), "peastar", 2, remaining=0.3)
    assert r["status"] == "time_limit" and r["lower_bound"] is not None and r["stats"]["expanded"] > 0
    assert r["lower_bound"] <= 30


def test_a_small_search_starts_no_thread():
    rng = random.Random(5)
    for _ in range(20):
        r = solve(random_board(rng), "astar", 2, small=None)
        assert r["status"] == "solved" and "threads" not in r["stats"]


CHILD = """
import json, sys
import searchkit_flood_native
print("ready", flush=True)
r = searchkit_flood_native.solve((24, 24, %r, 0), {"algorithm": "astar", "heuristic": "puchert",
                                                  "pruners": ["dominance"], "threads": 2})
print(json.dumps({"status": r["status"], "expanded": r["stats"]["expanded"],
                  "threads": r["stats"].get("threads", 1)}), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_threads():
    """SIGINT to a process searching on 2 threads: the calling thread polls Python's handlers between
    batches, status ``cancelled``."""
    out = interrupted(CHILD % (list(big_board().cells),), 0.5)
    assert out["status"] == "cancelled" and out["expanded"] > 0 and out["threads"] == 2
