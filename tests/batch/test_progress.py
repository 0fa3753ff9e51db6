"""--progress draws on stderr only; stdout stays the judge's output."""

from __future__ import annotations

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
