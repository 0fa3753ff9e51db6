"""--progress draws on stderr only; stdout stays the judge's output."""

from __future__ import annotations

from tests.conftest import ROOT

PC19_50 = ROOT / "tests" / "data" / "pc19-first50.txt"


def test_progress_goes_to_stderr_only(cli):
    plain = cli("solve", "flood", PC19_50)
    shown = cli("solve", "flood", "--progress", "-j", "2", PC19_50)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == plain.stdout
    assert "50/50" in shown.stderr and "50 solved" in shown.stderr


def test_no_progress_when_not_a_terminal(cli):
    res = cli("solve", "flood", "-j", "2", PC19_50)
    assert "50/50" not in res.stderr
