"""A native Flood-It case stopped at a limit spends no time after it (tester defect 11).

A 1600 x 1600 board of 1600 one-column areas under ``--time-limit 0.5`` stopped its native search at
0.62 s, then spent 38 s building the :class:`~searchkit_flood.native.CellReplay` its solution would have
been replayed on -- there was no solution -- in a loop that set one bit at a time in a 2.56-million-bit
integer (quadratic) and never read the clock.
"""

from __future__ import annotations

import sys

import pytest

from searchkit.game import Case
from searchkit.limits import Limiter, LimitReached, Limits, active
from searchkit.plugin.manager import load_registry
from searchkit.machinery.solver import Solver

from searchkit_flood import native
from searchkit_flood.game import FloodGame


def _columns(n: int) -> str:
    """An n x n board of n one-column areas, colours 0 and 1 alternating (the tester's board)."""
    return f"{n}\n" + "".join(" ".join("01"[j % 2] for j in range(n)) + "\n" for _ in range(n)) + "0\n"


def _case(n: int) -> Case:
    (case,) = FloodGame().parse(_columns(n), "in.txt", {})
    return case


def test_the_replay_puzzle_checks_the_clock():
    board = _case(40).data
    with active(Limiter(Limits(time_limit=0))), pytest.raises(LimitReached) as stop:
        native.CellReplay(board)
    assert stop.value.status == "time_limit"


def test_the_replay_puzzle_has_each_colours_cells():
    board = _case(5).data
    replay = native.CellReplay(board)
    assert replay._masks == [sum(1 << (y * 5 + x) for y in range(5) for x in range(5) if x % 2 == c) for c in (0, 1)]


@pytest.mark.skipif(native.native_problem(_case(3).data, ()) is None, reason="needs searchkit_flood_native")
def test_a_native_case_stopped_at_a_limit_builds_no_replay_puzzle():
    built = []

    def watch(frame, event, _arg):  # records each CellReplay made (no stand-in: the real one runs)
        if event == "call" and frame.f_code is native.CellReplay.__init__.__code__:
            built.append(1)

    solver = Solver(load_registry(), "flood", engine="native", limits=Limits(max_nodes=1))
    sys.setprofile(watch)
    try:
        outcome = solver.solve(_case(60))
    finally:
        sys.setprofile(None)
    assert outcome.result.status == "node_limit" and outcome.engine == "native"
    assert built == []
