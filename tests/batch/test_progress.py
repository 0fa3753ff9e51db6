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
def test_live_figures_of_a_running_search(searchkit_registry):
    """What the progress line reads while one long case runs: the driver's bound and the expanded count."""
    from searchkit.cli.progress import live_text
    from searchkit.game import Case
    from searchkit.limits import live_figures, track_live
    from searchkit.machinery.solver import Solver

    seen = []
    solver = Solver(searchkit_registry, "flood", algorithm="astar", heuristic="colours")
    import random

    board = searchkit_registry.generator("flood")(random.Random(5), 12, {"colours": 6})  # thousands of A* expansions
    case = Case.generated(board)
    original = searchkit_registry.heuristic("flood", "colours")
    import attrs

    def spying(puzzle):
        estimate = original.bind(puzzle)

        def h(state):
            seen.append(live_figures())
            return estimate(state)

        return h

    solver.heuristic = attrs.evolve(original, factory=spying, native=False)  # a Python spy: no native twin
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


def _under_a_terminal(tmp_path, *args, columns=200):
    """Run the CLI with stderr on a real pseudo-terminal and stdout into a file; ``(stdout text, terminal text)``."""
    import os

    from searchkit.testing.terminal import run_on_terminal
    from tests.batch.conftest import PLUGINS

    out = tmp_path / "out.txt"
    path = os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    code, seen = run_on_terminal(args, stdout=out, columns=columns, env={"PYTHONPATH": path})
    assert code == 0, seen
    return out.read_text(), seen


def test_answers_reach_stdout_when_stderr_is_a_terminal(tmp_path):
    """Issue 19.1: rich's Progress redirected stdout onto its console, so ``> out.txt`` got nothing."""
    expected = (ROOT / "tests" / "batch" / "data" / "pc19-first12.ans").read_text().split()
    for args in (("-j", "2"), ("--progress",), ("--format", "json", "-j", "2")):
        stdout, terminal = _under_a_terminal(tmp_path, "solve", "flood", *args, PC19)
        if "json" in args:
            import json

            costs = [str(json.loads(line)["cost"]) for line in stdout.splitlines() if '"event"' not in line]
            assert costs == expected, args
        else:
            assert stdout.split() == expected, args
        assert "solved 12" in terminal or "12 solved" in terminal, (args, terminal)


@pytest.mark.python_engine("the test plugin 'crashy'")
def test_the_progress_line_fits_the_width_and_keeps_the_memory(tmp_path):
    """Issue 19.16: the line was cut at the terminal's width, so the memory figure never showed."""
    from searchkit.cli.progress import fit_longest

    long_dir = tmp_path / ("d" * 80)
    long_dir.mkdir()
    cases = long_dir / "cases.txt"
    cases.write_text("sleep 3\nok 1\n")
    _stdout, terminal = _under_a_terminal(tmp_path, "solve", "crashy", "-j", "2", "--progress", cases,
                                          columns=100)
    assert "MiB" in terminal, terminal
    figures = {"rss_kb": 812 * 1024, "bound": 31, "expanded": 120_000, "seconds": 3.0}
    text = fit_longest(str(cases), 7, 12.0, figures, 40)
    assert len(text) <= 40 and "812 MiB" in text and "d" * 80 not in text
    assert fit_longest(str(cases), 7, 12.0, figures, 200) == \
        "  longest: cases.txt case 7 (12 s, 812 MiB, bound 31, 120,000 expanded, 40,000/s)"


def test_a_plain_solve_closes_with_a_summary_on_a_terminal(tmp_path):
    """Issue 19.16: a plain solve printed no closing summary on stderr (a batch run does)."""
    stdout, terminal = _under_a_terminal(tmp_path, "solve", "flood", PC19)
    assert stdout.split() == (ROOT / "tests" / "batch" / "data" / "pc19-first12.ans").read_text().split()
    assert "searchkit: 12 cases in" in terminal and "(12 solved)" in terminal, terminal
