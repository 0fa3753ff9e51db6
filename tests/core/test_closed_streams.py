"""Standard streams closed, full or unreadable: the answers still reach stdout, whole (a real shell sets the fds).

The rule: output reaches stdout whatever stderr is.  ``2>&-`` leaves Python with ``sys.stderr`` set to
``None`` (rich and click then wrote the progress bar to stdout, and a message raised), and ``2>/dev/full``
makes every diagnostic raise ``OSError``; stdout closed was a traceback.  Each test runs ``searchkit`` under
``sh`` with the redirection a user would type.
"""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from conftest import EXAMPLES

SAMPLE = str(EXAMPLES / "flood" / "hdu4127-sample.txt")
#: Three cases, the second unreadable ('x' is no colour): its answer is '? (input error)'.
BAD_MIDDLE = "2\n0 1\n1 0\n2\n0 x\n1 0\n2\n0 1\n1 1\n0\n"


def sh(args: list[str], redirect: str, *, input: str | None = None) -> subprocess.CompletedProcess:
    """``python -m searchkit ARGS REDIRECT`` run by ``sh`` (stdout and stderr captured unless redirected)."""
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "searchkit", *args]) + " " + redirect
    return subprocess.run(["sh", "-c", command], input=input, capture_output=True, text=True, timeout=300)


def expected(*args: str, input: str | None = None) -> str:
    return sh(list(args), "", input=input).stdout


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_stats_with_stderr_closed_or_full_keep_every_answer(redirect):
    """Before: one answer of two and exit 1 (the statistics' write failed and ended the run)."""
    want = expected("solve", "flood", SAMPLE)
    assert want.count("\n") == 2
    run = sh(["solve", "flood", "--stats", SAMPLE], redirect)
    assert (run.returncode, run.stdout) == (0, want)


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_an_input_error_with_stderr_closed_or_full_keeps_the_other_answers(redirect):
    """Before: only '2' on stdout, exit 1; the error line is lost but its '? (input error)' and exit 2 are not."""
    run = sh(["solve", "flood", "-"], redirect, input=BAD_MIDDLE)
    lines = run.stdout.splitlines()
    assert lines[:2] == ["2", "? (input error)"] and len(lines) == 3
    assert run.returncode == 2
    assert lines == expected("solve", "flood", "-", input=BAD_MIDDLE).splitlines()


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_the_progress_bar_never_reaches_stdout(redirect):
    """Before (2>&-): rich fell back to stdout, whose lines then held the bar as well as the answers."""
    want = expected("solve", "flood", SAMPLE)
    run = sh(["solve", "flood", "--progress", SAMPLE], redirect)
    assert (run.returncode, run.stdout) == (0, want)


def test_a_record_file_opened_with_stderr_closed_gets_only_records(tmp_path):
    """With fd 2 closed, -O's file would be fd 2 and receive the progress bar and messages."""
    out = tmp_path / "r.jsonl"
    run = sh(["solve", "flood", "--progress", "--stats", "-O", str(out), SAMPLE], "2>&-")
    assert run.returncode == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and all(line.startswith('{"schema":') for line in lines)


def test_stdout_closed_is_one_line_exit_2():
    """Before: AttributeError: 'NoneType' object has no attribute 'write' (a traceback), exit 1."""
    for args in (["solve", "flood", SAMPLE], ["solve", "flood", "--stats", SAMPLE]):
        run = sh(args, ">&-")
        assert run.returncode == 2, args
        assert run.stderr.count("\n") == 1 and "standard output is closed" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
