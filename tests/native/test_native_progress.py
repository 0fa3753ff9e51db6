"""Live --progress figures for a case on the native engine: the search hands its expanded count and bound to
the case's limiter about every half second (``searchkit.machinery.engine.request``'s ``progress``), where the progress
line reads them as for a Python search."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

pytest.importorskip("searchkit_testgame")
pytest.importorskip("searchkit_flood_native")
from tests.native.modules import flood_solve, toy_solve  # noqa: E402

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def _terminal_text(*args) -> tuple[int, str]:
    """Run the CLI with stderr on a pseudo-terminal: ``(exit code, what the terminal got)``."""
    import os

    from searchkit.testing.terminal import run_on_terminal
    from tests.batch.conftest import PLUGINS

    path = os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return run_on_terminal(args, env={"PYTHONPATH": path})


def test_the_progress_line_shows_a_native_case_while_it_runs(tmp_path):
    # IDA* with the weak `colours` estimate on a 14x14 board: far more than the 6 seconds allowed (PC19's
    # second board: 8 s reach f-bound 20 of its 21 or more, each bound about 4 times the one before; its
    # first is solved in 4 s), so the case is still running when the line shows the longest case's figures
    # (after 1 s); they come from the worker's heartbeat, which reads the limiter the native search writes
    # into.  (6 s, not 3: on a loaded machine, e.g. the suite on both cores, 3 s showed one figure.)
    cases = tmp_path / "one.txt"
    cases.write_text(PC19.read_text().splitlines()[1] + "\n")
    code, terminal = _terminal_text("solve", "flood", "--engine", "native", "--progress", "-j", "2",
                                    "--algorithm", "ida_star", "--heuristic", "colours", "--time-limit", "6", cases)
    assert "1 time_limit" in terminal, (code, terminal)
    shown = re.findall(r"bound (\d+), ([\d,]+) expanded", terminal)
    assert shown, terminal
    assert all(int(e.replace(",", "")) > 0 for _b, e in shown)
    assert len({e for _b, e in shown}) > 1, "the figures move while the case runs"


def _progress_request():
    """A case's limiter (live figures on) and the ``progress`` callable its native request carries."""
    from searchkit.machinery import engine
    from searchkit.limits import Limiter, track_live

    limiter = Limiter()
    track_live()
    try:
        request = engine.request(None, None, [], {}, admissible=True, max_cost=None, limiter=limiter)
    finally:
        track_live(False)
    assert callable(request["progress"])
    return limiter, request["progress"]


def test_progress_figures_reach_the_limiter():
    """The request's ``progress`` writes the native figures into the case's limiter."""
    from searchkit.limits import live_figures, active

    seen = []
    limiter, progress = _progress_request()

    def spy(expanded, bound):
        progress(expanded, bound)
        with active(limiter):
            seen.append(live_figures())

    from tests.native.toy import scramble

    tiles = scramble(3, 60, 11)
    # zero estimate: a long IDA* (far over half a second), stopped by the 1.5 s time limit
    result = toy_solve(3, list(tiles), {"algorithm": "ida_star", "heuristic": "zero", "remaining": 1.5,
                                               "progress": spy})
    assert result["status"] == "time_limit"
    assert seen, result["stats"]
    assert all(0 < f["expanded"] <= result["stats"]["expanded"] for f in seen)
    assert all(f["bound"] is not None for f in seen)


def test_progress_reaches_the_limiter_from_a_search_on_the_callers_thread():
    """Flood-It's A* runs on the caller's thread: its limit checks hand ``progress`` the figures."""
    import random

    limiter, progress = _progress_request()
    seen = []

    def spy(expanded, bound):
        progress(expanded, bound)
        seen.append((expanded, bound))

    rng = random.Random(5)
    cells = [rng.randrange(6) for _ in range(60 * 60)]  # A* on 60x60 runs for minutes: stopped at 1.5 s
    result = flood_solve(60, 60, cells, 0, [], {"algorithm": "astar", "heuristic": "puchert",
                                                       "remaining": 1.5, "progress": spy})
    assert result["status"] == "time_limit"
    assert seen, result["stats"]
    assert all(0 < e <= result["stats"]["expanded"] and b is not None for e, b in seen)
    assert limiter.done == seen[-1][0]
