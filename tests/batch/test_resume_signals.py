"""--resume --keep-stopped says how many skipped cases are unsolved, and SIGTERM ends a --jobs run as Ctrl-C does
(issue 32, S3)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def test_keep_stopped_says_how_many_skipped_cases_are_unsolved_and_exits_as_they_would(cli, tmp_path):
    """It exited 0 saying '12 already recorded, skipped', though none of them had an answer."""
    out = tmp_path / "r.jsonl"
    first = cli("solve", "flood", "--max-nodes", "100", "--output", out, PC19)
    assert first.returncode == 1, first.stderr
    again = cli("solve", "flood", "--output", out, "--resume", "--keep-stopped", PC19)
    assert again.returncode == 1, again.stderr  # as the run that stopped them at the node limit
    assert "; 12 already recorded, skipped (12 of them unsolved: 12 node_limit); records in" in again.stderr
    solved = tmp_path / "s.jsonl"
    cli("solve", "flood", "--output", solved, PC19)
    kept = cli("solve", "flood", "--output", solved, "--resume", "--keep-stopped", PC19)
    assert kept.returncode == 0 and "12 already recorded, skipped; records in" in kept.stderr, kept.stderr


def test_sigterm_under_jobs_gives_the_summary_and_the_resume_hint(tmp_path):
    """SIGINT gave both; SIGTERM killed the run without a word."""
    out = tmp_path / "r.jsonl"
    env = dict(os.environ)
    env.pop("SEARCHKIT_PLUGINS", None)
    # IDA* with the weak colours estimate: far longer than the test waits
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood", "-a", "ida_star", "-H", "colours",
                             "--jobs", "2", "--oversubscribe", "--output", str(out), str(PC19)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        for _ in range(600):  # until a worker runs a case
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as fh:
                if fh.read().split():
                    break
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    lines = err.splitlines()
    assert lines[0] == "searchkit: terminated (SIGTERM)", err
    assert lines[-1].endswith(f"; records in {out}; run the same command with --resume to solve the rest")
    assert "Traceback" not in err


def test_resume_keeps_a_complete_deeply_nested_last_line(cli, tmp_path):
    """A complete, valid record whose last line nests deeper than Python's JSON reader goes was dropped (cut
    off the file) as 'torn'; a torn line is one without its newline."""
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, PC19).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    deep = lines[-1].rstrip("\n")[:-1] + ',"extra":' + "[" * 100_000 + "]" * 100_000 + "}\n"
    out.write_text("".join(lines[:-1]) + deep)
    res = cli("solve", "flood", "--output", out, "--resume", PC19)
    assert res.returncode == 0, res.stderr
    assert f"searchkit: warning: {out}: line 12 is nested too deeply to read; ignored (kept in the file): a case " \
           f"it recorded is solved again\n" in res.stderr
    assert "torn" not in res.stderr and "not a complete JSON record" not in res.stderr
    after = out.read_text().splitlines(keepends=True)
    assert after[:12] == lines[:-1] + [deep] and len(after) == 13  # kept, and case 12 solved again


def test_resume_says_a_case_of_an_unreadable_line_is_solved_again(cli, tmp_path):
    """Issue 32 (S3): a complete last line nested 20,000 deep (``{"a":{"a":...}}``) in place of a case's record,
    and a line that is not JSON, were ignored with a warning that did not say their case would be solved
    again; it was, and appended.  One warning each, naming file and line, and saying so."""
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, PC19).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + "{not json\n" + "".join(lines[6:-1]) + '{"a":' * 20_000 + "1"
                   + "}" * 20_000 + "\n")
    res = cli("solve", "flood", "--output", out, "--resume", PC19)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert res.stderr.splitlines()[:2] == [
        f"searchkit: warning: {out}: line 6 is not a JSON record; ignored (kept in the file): a case it recorded "
        f"is solved again",
        f"searchkit: warning: {out}: line 12 is nested too deeply to read; ignored (kept in the file): a case it "
        f"recorded is solved again"]
    assert "2 cases in " in res.stderr and "(2 solved); 10 already recorded, skipped" in res.stderr


# two easy boards (3 and 2 moves), then two of Korf's 100 that Manhattan IDA* needs minutes for on either
# engine (#60, #88)
THREE = """1 2 3 4
5 6 7 8
9 10 11 12
0 13 14 15

1 2 3 4
5 6 7 8
9 10 11 12
13 0 14 15

 0  8 10  6
11  7  9  1
12  4 13 14
15  3  2  5

 5  7 11 10
 3  0  4  6
12 13  9 15
14  2  1  8
"""


@pytest.mark.parametrize("run", [("--jobs", "2", "--oversubscribe"), ()], ids=["jobs-2", "one-process"])
@pytest.mark.parametrize("signum,said", [(signal.SIGINT, "searchkit: cancelled"),
                                         (signal.SIGTERM, "searchkit: terminated (SIGTERM)")])
def test_ctrl_c_under_jobs_prints_what_a_one_process_run_stopped_there_would(tmp_path, signum, said, run):
    """Under --jobs 2 a Ctrl-C printed no line for the case it stopped (one process prints "? (cancelled)")
    (a tester's defect D5); SIGTERM ends the run the same way, and says so, in one process too (where the
    signal's default action ended the process and the case under way had no line: another tester's defect)."""
    from tests.conftest import sigint_default

    cases = tmp_path / "three.txt"
    cases.write_text(THREE)
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "sliding-tiles", "-a", "ida_star",
                             "-H", "manhattan", *run, str(cases)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default)
    try:
        first = proc.stdout.readline()  # the easy boards are solved at once; the third is started meanwhile
        second = proc.stdout.readline()
        time.sleep(1.0)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert (first, second) == ("3\n", "2\n"), err
    assert out == "? (cancelled)\n", err
    assert proc.returncode == 128 + signum, err
    assert err.splitlines()[0] == said and "Traceback" not in err
