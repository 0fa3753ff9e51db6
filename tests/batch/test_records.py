"""JSON Lines records: --output, --resume after Ctrl-C and after a torn last line, edited inputs re-solved."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.batch.conftest import PLUGINS
from tests.conftest import ROOT, sigint_default

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_records_hold_the_schema_fields(cli, tmp_path):
    out = tmp_path / "r.jsonl"
    res = cli("solve", "flood", "--output", out, PC19)
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""
    rs = records(out)
    assert [r["case"] for r in rs] == list(range(1, 13))
    answers = (ROOT / "tests" / "batch" / "data" / "pc19-first12.ans").read_text().split()
    assert [str(r["cost"]) for r in rs] == answers
    first = rs[0]
    assert first["schema"] == 1 and first["game"] == "flood" and first["source"] == str(PC19)
    assert first["data_hash"].startswith("sha256:") and first["status"] == "solved"
    assert first["length"] == len(first["moves"]) == first["cost"]
    assert first["algorithm"] == "astar" and first["heuristic"] == "puchert"
    assert first["peak_rss_kb"] > 0 and first["stats"]["expanded"] > 0
    assert "12 solved" in res.stderr and "records in" in res.stderr


def test_data_hash_is_the_same_in_every_process(cli, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    cli("solve", "flood", "--output", a, PC19)
    cli("solve", "flood", "--output", b, "-j", "2", PC19, env={"PYTHONHASHSEED": "7"})
    assert [r["data_hash"] for r in records(a)] == [r["data_hash"] for r in records(b)]


def test_resume_after_a_torn_last_line_solves_that_case_again(cli, tmp_path):
    out = tmp_path / "r.jsonl"
    cli("solve", "flood", "--output", out, PC19)
    lines = out.read_bytes().split(b"\n")
    out.write_bytes(b"\n".join(lines[:5]) + b"\n" + lines[5][:57])  # kill -9 while writing case 6
    res = cli("solve", "flood", "--output", out, "--resume", "-j", "2", PC19)
    assert res.returncode == 0, res.stderr
    assert "the last line has no newline" in res.stderr and "7 cases" in res.stderr
    assert "5 already recorded" in res.stderr
    rs = records(out)
    assert sorted(r["case"] for r in rs) == list(range(1, 13))
    again = cli("solve", "flood", "--output", out, "--resume", PC19)
    assert "0 cases" in again.stderr and "12 already recorded" in again.stderr
    assert len(records(out)) == 12


def test_an_edited_case_is_solved_again(cli, tmp_path):
    data = tmp_path / "boards.txt"
    lines = PC19.read_text().splitlines()[:5]
    data.write_text("\n".join(lines) + "\n")
    out = tmp_path / "r.jsonl"
    cli("solve", "flood", "--output", out, data)
    edited = lines[:]
    edited[2] = edited[2][::-1]
    data.write_text("\n".join(edited) + "\n")
    res = cli("solve", "flood", "--output", out, "--resume", data)
    assert "1 case in" in res.stderr and "4 already recorded" in res.stderr
    rs = records(out)
    assert [r["case"] for r in rs] == [1, 2, 3, 4, 5, 3]
    assert rs[2]["data_hash"] != rs[5]["data_hash"]


@pytest.mark.python_engine("a test game written in Python (crashy)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_complete_lines_and_resume_finishes(cli, tmp_path, jobs):
    data = tmp_path / "slow.txt"
    data.write_text("sleep 0.4\n" * 12)
    out = tmp_path / "r.jsonl"
    env = dict(os.environ, PYTHONPATH=str(PLUGINS))
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "crashy", "-j", jobs, "--output", str(out),
                             str(data)], stderr=subprocess.PIPE, text=True, env=env, preexec_fn=sigint_default)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    text = out.read_text()
    assert text.endswith("\n")
    done = [json.loads(line) for line in text.splitlines()]
    assert 3 <= len(done) < 12 and all(r["status"] == "solved" for r in done)
    res = cli("solve", "crashy", "-j", "2", "--output", out, "--resume", data)
    assert res.returncode == 0, res.stderr
    assert sorted(r["case"] for r in records(out)) == list(range(1, 13))


def test_jsonl_on_stdout_and_usage_errors(cli, tmp_path):
    res = cli("solve", "flood", "--format", "jsonl", ROOT / "examples" / "flood" / "hdu4127-sample.txt")
    assert res.returncode == 0
    assert [json.loads(line)["cost"] for line in res.stdout.splitlines()] == [0, 3]
    bad = cli("solve", "flood", "--resume", PC19)
    assert bad.returncode == 2 and "--output" in bad.stderr
    bad = cli("solve", "flood", "--format", "text", "--output", tmp_path / "x", PC19)
    assert bad.returncode == 2 and "jsonl" in bad.stderr


def test_an_output_that_cannot_be_opened_is_a_usage_error(cli, tmp_path):
    """--output naming a directory or a missing folder: one line naming it, status 2 (bad usage), no case solved."""
    for target in (tmp_path, tmp_path / "missing" / "r.jsonl"):
        res = cli("solve", "flood", "--output", target, ROOT / "examples" / "flood" / "hdu4127-sample.txt")
        assert res.returncode == 2, res.stderr
        assert f"cannot write {target}" in res.stderr and "Traceback" not in res.stderr


def test_canonical_text_is_stable():
    from searchkit.machinery.records import canonical, data_hash
    from searchkit.game import Case

    assert canonical({"b": (1, 2), "a": frozenset({3, 1})}) == "{'a':{1,3},'b':(1,2)}"
    assert data_hash(Case(1, (1, "x"))) == data_hash(Case(2, (1, "x"), "other"))
    import pytest

    with pytest.raises(TypeError):
        canonical(object())


#: A NOIP Mayan case (n = 5, from ../shared/cases/mayan/solvable-01.in): ``--shortest`` clears it in 4 moves.
MAYAN_FIVE = "5\n2 0\n1 0\n1 3 1 3 0\n2 1 3 2 0\n1 1 0\n"


@pytest.mark.python_engine("the Mayan puzzle")
def test_records_hold_the_options_and_resume_refuses_other_ones(cli, tmp_path):
    data = tmp_path / "m.in"
    data.write_text(MAYAN_FIVE)
    out = tmp_path / "m.jsonl"
    assert cli("solve", "mayan", "--output", out, data).returncode == 0
    (first,) = records(out)
    assert first["length"] == 5 and first["options"]["shortest"] is False and first["options"]["width"] is None
    res = cli("solve", "mayan", "--shortest", "--output", out, "--resume", data)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "was solved with --shortest false, not true" in res.stderr
    assert len(records(out)) == 1  # nothing appended
    assert cli("solve", "mayan", "--show", "--output", out, "--resume", data).returncode == 0  # printing only
    assert len(records(out)) == 1
    shortest = tmp_path / "s.jsonl"
    assert cli("solve", "mayan", "--shortest", "--output", shortest, data).returncode == 0
    assert records(shortest)[0]["length"] == 4


def test_resume_refuses_records_that_do_not_say_their_options(cli, tmp_path):
    out = tmp_path / "r.jsonl"
    cli("solve", "flood", "--output", out, PC19)
    old = [{k: v for k, v in r.items() if k != "options"} for r in records(out)]
    out.write_text("".join(json.dumps(r) + "\n" for r in old))
    res = cli("solve", "flood", "--output", out, "--resume", PC19)
    assert res.returncode == 2 and "written without the game options it was solved under" in res.stderr
    assert cli("solve", "flood", "--moves", "--output", tmp_path / "m.jsonl", PC19).returncode == 0
    assert cli("solve", "flood", "--output", tmp_path / "m.jsonl", "--resume", PC19).returncode == 0  # --moves prints


def test_output_never_destroys_an_input(cli, tmp_path):
    """Issue 19.3: ``--output IN IN`` overwrote the boards, and ``--resume`` cut the last line of any file."""
    import os

    from tests.conftest import ROOT

    boards = (ROOT / "tests" / "batch" / "data" / "pc19-first12.txt").read_text()
    cases = tmp_path / "in5.txt"
    cases.write_text(boards)
    link = tmp_path / "link.txt"
    os.link(cases, link)
    sym = tmp_path / "sym.txt"
    sym.symlink_to(cases)
    for output, extra in ((cases, ()), (cases, ("--resume",)), (cases, ("--force",)), (link, ()), (sym, ()),
                          (tmp_path / "." / "in5.txt", ("--resume",))):
        res = cli("solve", "flood", "--output", output, *extra, cases)
        assert res.returncode == 2, (output, extra, res.stderr)
        assert "overwrite the input" in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
        assert cases.read_text() == boards
    res = cli("solve", "flood", "--output", cases, "-", input=boards)  # stdin is another file: only the record check
    assert res.returncode == 2 and "not a searchkit record" in res.stderr, res.stderr
    assert cases.read_text() == boards
    with open(cases) as stdin:  # standard input reads the very file
        import subprocess
        import sys

        from tests.batch.conftest import PLUGINS

        env = dict(os.environ, PYTHONPATH=str(PLUGINS))
        run = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "--output", str(link), "-"],
                             stdin=stdin, capture_output=True, text=True, env=env)
    assert run.returncode == 2 and "standard input" in run.stderr, run.stderr
    assert cases.read_text() == boards


def test_output_refuses_a_file_that_is_not_records(cli, tmp_path):
    """Issue 19.3: any existing file whose first line is not a record is left alone, with or without --resume."""
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nline two\n")
    for extra in ((), ("--resume",), ("--force",)):
        res = cli("solve", "flood", "--output", notes, *extra, pc)
        assert res.returncode == 2, res.stderr
        assert "first line is not a searchkit record" in res.stderr
        assert notes.read_text() == "my notes\nline two\n"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert cli("solve", "flood", "--output", empty, pc).returncode == 0  # an empty file holds nothing to lose


def test_output_refuses_to_truncate_records_without_resume_or_force(cli, tmp_path):
    """Issue 19.3: re-running without --resume silently truncated a record file."""
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    before = out.read_text()
    assert len(before.splitlines()) == 12
    res = cli("solve", "flood", "--output", out, pc)
    assert res.returncode == 2 and "already holds records" in res.stderr and "--force" in res.stderr
    assert out.read_text() == before
    res = cli("solve", "flood", "--output", out, "--resume", pc)
    assert res.returncode == 0 and out.read_text() == before
    res = cli("solve", "flood", "--output", out, "--force", pc)
    assert res.returncode == 0 and len(out.read_text().splitlines()) == 12


def test_json_and_jsonl_records_are_one_schema(cli, tmp_path):
    """Issue 19.7: json records lacked schema, game, data_hash, options and peak_rss_kb, so verify failed them."""
    import json

    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    bad = tmp_path / "mixed.txt"
    bad.write_text(pc.read_text().splitlines()[0] + "\n12x\n")
    for extra in ((), ("-j", "2")):
        plain = cli("solve", "flood", "--format", "json", *extra, pc)
        lines = cli("solve", "flood", "--format", "jsonl", *extra, pc)
        json_records = [json.loads(line) for line in plain.stdout.splitlines()]
        jsonl_records = [json.loads(line) for line in lines.stdout.splitlines()]
        assert [list(r) for r in json_records] == [list(r) for r in jsonl_records], extra
        assert [r["data_hash"] for r in json_records] == [r["data_hash"] for r in jsonl_records]
        assert all(r["schema"] == 1 and r["game"] == "flood" and r["peak_rss_kb"] for r in json_records)
        f = tmp_path / "f.json"
        f.write_text(plain.stdout)
        res = cli("verify", "flood", pc, f)
        assert res.returncode == 0 and res.stdout.splitlines()[-1] == "12 OK", res.stderr
        got = {}
        for fmt in ("json", "jsonl"):
            out = cli("solve", "flood", "--format", fmt, *extra, bad).stdout
            got[fmt] = [json.loads(line) for line in out.splitlines()]
        assert [list(r) for r in got["json"]] == [list(r) for r in got["jsonl"]] and len(got["json"]) == 2


def _rewrite(path, **changes):
    import json

    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for index, fields in changes.items():
        lines[int(index[1:])].update(fields)
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))


def test_resume_solves_stopped_cases_again_unless_kept(cli, tmp_path):
    """Issue 19.8: records with status time_limit, error or an unknown string counted as done."""
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    _rewrite(out, c0={"status": "time_limit", "cost": None, "moves": [], "length": None},
             c1={"status": "error"}, c2={"status": "banana"}, c3={"status": "memory_limit"})
    kept = tmp_path / "kept.jsonl"
    kept.write_text(out.read_text())
    res = cli("solve", "flood", "--output", out, "--resume", pc)
    assert res.returncode == 0, res.stderr
    assert "4 solved" in res.stderr and "8 already recorded" in res.stderr, res.stderr
    assert len(out.read_text().splitlines()) == 16
    assert cli("verify", "flood", pc, out).stdout.splitlines()[-1] == "12 OK"
    res = cli("solve", "flood", "--output", kept, "--resume", "--keep-stopped", pc)
    assert "1 solved" in res.stderr, res.stderr  # only the unknown status
    # kept, yet unsolved: said, and the exit status is a stopped run's (issue 32, S3: it exited 0)
    assert res.returncode == 1 and "(3 of them unsolved: 1 error, 1 memory_limit, 1 time_limit)" in res.stderr
    assert len(kept.read_text().splitlines()) == 13


def test_resume_and_verify_check_the_game_and_the_schema(cli, tmp_path):
    """Issue 19.8: records of game mayan counted as done; verify took schema 2 without a word."""
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    good = out.read_text()
    for fields, says in (({"game": "mayan"}, 'game "mayan", not flood'), ({"schema": 2}, "schema 2")):
        out.write_text(good)
        _rewrite(out, c5=fields)
        res = cli("solve", "flood", "--output", out, "--resume", pc)
        assert res.returncode == 2 and says in res.stderr and "cannot resume" in res.stderr, res.stderr
        res = cli("verify", "flood", pc, out)
        assert res.returncode == 1 and says in res.stderr, res.stderr
        assert res.stdout.splitlines()[-1] == "11 OK, 1 failed"


def test_resume_normalises_paths_and_warns_when_nothing_matches(cli, tmp_path):
    """Issue 19.8: --resume ./p20.txt against records of p20.txt solved everything again, silently."""
    import shutil

    from tests.conftest import ROOT

    shutil.copy(ROOT / "tests" / "batch" / "data" / "pc19-first12.txt", tmp_path / "p12.txt")
    import os
    import subprocess
    import sys

    from tests.batch.conftest import PLUGINS

    def run(*args):
        return subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", *args], cwd=tmp_path,
                              capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(PLUGINS)))

    assert run("--output", "r.jsonl", "p12.txt").returncode == 0
    res = run("--output", "r.jsonl", "--resume", "./p12.txt")
    assert res.returncode == 0 and "12 already recorded" in res.stderr, res.stderr
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 12
    (tmp_path / "other.txt").write_text((tmp_path / "p12.txt").read_text())
    res = run("--output", "r.jsonl", "--resume", "other.txt")
    assert res.returncode == 0 and "0 of the 12 records in r.jsonl match a case of the input" in res.stderr


def test_ctrl_c_while_reading_the_records_still_prints_the_summary(cli, tmp_path):
    """Issue 19.12: a Ctrl-C outside the solving loop escaped run_batch: no summary line, no --resume hint.

    The SIGINT is sent once the process has the (large) record file open for --resume, so it lands while
    the records are read, every time.
    """
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.batch.conftest import PLUGINS
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines) * 8000)  # 96,000 records: reading them takes a second or more
    size = out.stat().st_size
    env = dict(os.environ, PYTHONPATH=str(PLUGINS))
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood", "--jobs", "2", "--output", str(out),
                             "--resume", str(pc)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=sigint_default)
    fds = f"/proc/{proc.pid}/fd"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if any(os.readlink(os.path.join(fds, fd)) == str(out) for fd in os.listdir(fds)):
                break
        except OSError:
            pass
        time.sleep(0.001)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "searchkit: cancelled" in stderr
    assert f"records in {out}; run the same command with --resume to solve the rest" in stderr, stderr
    assert out.stat().st_size == size


def test_resume_and_verify_tell_a_bounded_exhaustion_and_a_feasible_answer_from_a_proof(cli, tmp_path):
    """A tester's defects: a case `exhausted` under `--upper-bound 2` (no solution cheaper than 2; every
    Flood-It board has one) was called "proven unsolvable" by `verify`, and `--resume` kept it, and a
    `wastar` record's feasible answer, as done for a default (optimal) run, so those cases were never solved.
    Records now hold the run's `upper_bound`; resume keeps a record only when it answers the run's question."""
    board = tmp_path / "three.txt"
    board.write_text("3\n1 2 3\n2 3 1\n3 1 2\n0\n")  # optimum 4
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--upper-bound", "2", "--output", out, board).returncode == 0
    (first,) = records(out)
    assert first["status"] == "exhausted" and first["upper_bound"] == 2
    checked = cli("verify", "flood", board, out)
    assert "unsolvable" not in checked.stdout and "1 with no solution cheaper than the --upper-bound" in checked.stdout
    tighter = cli("solve", "flood", "--upper-bound", "1", "--resume", "--output", out, board)
    assert "1 already recorded, skipped" in tighter.stderr and len(records(out)) == 1  # < 1 follows from < 2
    plain = cli("solve", "flood", "--resume", "--output", out, board)
    assert ("1 recorded case(s) have no answer to this run's question and are solved again (1 no solution below a "
            "smaller --upper-bound than this run's)") in plain.stderr and "1 solved" in plain.stderr
    assert [(r["status"], r["cost"], r["upper_bound"]) for r in records(out)] == [("exhausted", None, 2),
                                                                                  ("solved", 4, None)]
    assert "1 OK" in cli("verify", "flood", board, out).stdout  # the last record of a case is the one checked

    weighted = tmp_path / "w.jsonl"
    cli("solve", "flood", "-a", "wastar(weight=2)", "-H", "two-best", "--output", weighted, board)
    assert [r["status"] for r in records(weighted)] == ["feasible"]
    again = cli("solve", "flood", "-a", "wastar(weight=2)", "-H", "two-best", "--resume", "--output", weighted, board)
    assert "1 already recorded, skipped" in again.stderr  # the same question: its answer stands
    optimal = cli("solve", "flood", "--resume", "--output", weighted, board)
    assert "(1 a feasible answer where this run seeks a proven optimum)" in optimal.stderr
    assert "1 solved" in optimal.stderr and [r["status"] for r in records(weighted)] == ["feasible", "solved"]
    quiet = cli("solve", "flood", "--resume", "--output", weighted, board)  # the case has its answer now
    assert "no answer" not in quiet.stderr and "1 already recorded, skipped" in quiet.stderr
    # an optimal driver with an inadmissible heuristic proves nothing: its feasible answer answers its own run
    guessed = tmp_path / "g.jsonl"
    cli("solve", "flood", "-a", "ida_star", "-H", "two-best", "--output", guessed, board)
    assert [r["status"] for r in records(guessed)] == ["feasible"]
    again = cli("solve", "flood", "-a", "ida_star", "-H", "two-best", "--resume", "--output", guessed, board)
    assert "1 already recorded, skipped" in again.stderr and "no answer" not in again.stderr


def test_resume_solves_incomplete_cases_again_unless_kept(cli, tmp_path):
    """A tester's defect: a beam that ran dry (`incomplete`: no solution, no proof) counted as done for any
    later run, a greedy search that would solve it included; it is now solved again, as a stopped case is,
    unless --keep-stopped; and --keep-stopped also keeps a feasible answer (an anytime search at its limit)."""
    board = tmp_path / "eight.txt"
    board.write_text("2 3 1\n0 8 7\n6 5 4\n")  # a beam of width 1 runs dry on it
    out = tmp_path / "b.jsonl"
    cli("solve", "sliding-tiles", "-a", "beam(width=1)", "--output", out, board)
    assert [r["status"] for r in records(out)] == ["incomplete"]
    kept = cli("solve", "sliding-tiles", "-a", "gbfs", "--resume", "--keep-stopped", "--output", out, board)
    assert "1 already recorded, skipped" in kept.stderr and len(records(out)) == 1
    again = cli("solve", "sliding-tiles", "-a", "gbfs", "--resume", "--output", out, board)
    assert "(1 incomplete (no solution and no proof))" in again.stderr
    assert [r["status"] for r in records(out)] == ["incomplete", "feasible"]
    assert cli("solve", "sliding-tiles", "--resume", "--keep-stopped", "--output", out, board).stderr.count(
        "1 already recorded, skipped") == 1  # the feasible answer, kept as a stopped case would be


def test_verify_names_the_option_and_refuses_text_answers(cli, tmp_path):
    """A tester's defects: `verify sliding-tiles` of records solved with `--goal blank-first`, run without it,
    said "data hash differs" (the goal changes the parsed case) instead of naming --goal; and verify handed
    solve's text answers warned "last line incomplete" and failed every case as "no record"."""
    board = tmp_path / "one.txt"
    board.write_text("1 0 2\n3 4 5\n6 7 8\n")
    out = tmp_path / "r.jsonl"
    assert cli("solve", "sliding-tiles", "--goal", "blank-first", "--output", out, board).returncode == 0
    res = cli("verify", "sliding-tiles", board, out)
    assert res.returncode == 1 and 'the record was solved with --goal "blank-first", not "blank-last"' in res.stderr
    assert "data hash" not in res.stderr
    assert cli("verify", "sliding-tiles", "--goal", "blank-first", board, out).returncode == 0
    text = tmp_path / "answers.txt"
    text.write_text(cli("solve", "sliding-tiles", "--goal", "blank-first", "--moves", board).stdout)
    res = cli("verify", "sliding-tiles", "--goal", "blank-first", board, text)
    assert res.returncode == 2 and res.stderr.splitlines() == [
        f"searchkit: error: {text}: holds no JSON record: verify reads the JSON Lines records of "
        "'searchkit solve --output FILE' (or --format jsonl), not text answers"], res.stderr


def test_verify_refuses_records_of_another_game_in_one_line(cli, tmp_path):
    """A tester's defects: `verify flood FILE RECORDS` of a file holding only Mayan records said "no record"
    for every case; and a complete last line that is not JSON was called "incomplete"."""
    board = tmp_path / "three.txt"
    board.write_text("3\n1 2 3\n2 3 1\n3 1 2\n0\n")
    mayan = tmp_path / "m.jsonl"
    cli("solve", "mayan", "--output", mayan, "-", input="1\n1 0\n0\n0\n0\n0\n")
    res = cli("verify", "flood", board, mayan)
    assert res.returncode == 2 and res.stderr.splitlines() == [
        f"searchkit: error: {mayan}: holds records of the game mayan, not flood"], res.stderr
    mine = tmp_path / "r.jsonl"
    cli("solve", "flood", "--output", mine, board)
    with open(mine, "a") as fh:
        fh.write("not json\n")
    res = cli("verify", "flood", board, mine)
    assert res.returncode == 0 and f"{mine}: line 2 is not a JSON record; ignored" in res.stderr, res.stderr


def test_scheduler_without_dask_is_refused(cli, tmp_path):
    """A tester's defect: --scheduler without --executor dask was ignored silently by a one-process run (the
    check sat on the batch path only), and by solve_all."""
    import searchkit

    board = tmp_path / "three.txt"
    board.write_text("3\n1 2 3\n2 3 1\n3 1 2\n0\n")
    res = cli("solve", "flood", "--scheduler", "tcp://127.0.0.1:1", board)
    assert res.returncode == 2 and "--scheduler goes with --executor dask" in res.stderr and res.stdout == ""
    with pytest.raises(ValueError, match="scheduler goes with executor='dask'"):
        searchkit.solve_all("flood", board, scheduler="tcp://127.0.0.1:1")
