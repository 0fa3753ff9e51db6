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
from tests.conftest import ROOT

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
    assert "not a complete JSON record" in res.stderr and "7 cases" in res.stderr and "5 already recorded" in res.stderr
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
                             str(data)], stderr=subprocess.PIPE, text=True, env=env)
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
    from searchkit.batch.records import canonical, data_hash
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
