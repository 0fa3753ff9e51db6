"""--progress draws on stderr only; stdout stays the judge's output."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def test_progress_goes_to_stderr_only(cli):
    plain = cli("solve", "flood", PC19)
    shown = cli("solve", "flood", "--progress", "-j", "2", PC19)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == plain.stdout
    assert "12/12" in shown.stderr and "12 solved" in shown.stderr


def test_no_progress_when_not_a_terminal(cli):
    res = cli("solve", "flood", "-j", "2", PC19)
    assert "12/12" not in res.stderr


@pytest.mark.python_engine("live figures come from the Python drivers' limiter; the native engine reports none yet")
def test_live_figures_of_a_running_search(registry):
    """What the progress line reads while one long case runs: the driver's bound and the expanded count."""
    from searchkit.batch.progress import live_text
    from searchkit.game import Case
    from searchkit.limits import live_figures, track_live
    from searchkit.solver import Solver

    seen = []
    solver = Solver(registry, "flood", algorithm="astar", heuristic="colours")
    import random

    board = registry.generator("flood")(random.Random(5), 12, {"colours": 6})  # thousands of A* expansions
    case = Case.generated(board)
    original = registry.heuristic("flood", "colours")
    import attrs

    def spying(puzzle):
        estimate = original.bind(puzzle)

        def h(state):
            seen.append(live_figures())
            return estimate(state)

        return h

    solver.heuristic = attrs.evolve(original, factory=spying, native=None)  # a Python spy: no native twin
    track_live()
    try:
        outcome = solver.solve(Case.generated(case.data))
    finally:
        track_live(False)
    assert outcome.result.solved
    late = [f for f in seen if f and f["expanded"]]
    assert late and all(f["bound"] is not None for f in late)
    assert max(f["expanded"] for f in late) <= outcome.result.stats.expanded
    text = live_text({"bound": 9, "expanded": 1200, "seconds": 2.0, "rss_kb": 2048})
    assert text == ", bound 9, 1,200 expanded, 600/s, 2 MiB"
