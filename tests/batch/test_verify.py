"""searchkit verify: replays recorded solutions and catches corrupted, missing and stale records."""

from __future__ import annotations

import copy
import json

import pytest

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    from tests.batch.conftest import run_cli

    out = tmp_path_factory.mktemp("verify") / "r.jsonl"
    res = run_cli("solve", "flood", "--output", out, PC19)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_good_records_verify(cli_run, recorded, tmp_path):
    res = cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", recorded))])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "12 OK"
    assert "length  cases" in res.output and "    19  3" in res.output


def test_corrupted_missing_and_stale_records_fail(cli_run, recorded, tmp_path):
    rs = copy.deepcopy(recorded)  # the fixture is shared by the module: mutate a copy (moves lists too)
    rs[0]["moves"] = rs[0]["moves"][:-1]  # stops short of the goal
    rs[1]["cost"] += 1  # cost disagrees
    rs[2]["moves"] = ["9"] + rs[2]["moves"][1:]  # an illegal colour
    rs[3]["data_hash"] = "sha256:0"  # a record of other data
    rs[4]["moves"][0], rs[4]["moves"][1] = rs[4]["moves"][1], rs[4]["moves"][0]  # usually no longer a solution
    del rs[5]  # missing
    res = cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    src = str(PC19)
    assert f"searchkit: error: {src}: case 1: the 18 moves do not reach a goal" in lines
    assert any(line.startswith(f"searchkit: error: {src}: case 2: the moves cost") for line in lines)
    assert f"searchkit: error: {src}: case 3: bad moves: move 1 ('9') is not legal in its state" in lines
    assert any(line.startswith(f"searchkit: error: {src}: case 4: mismatched") for line in lines)
    assert f"searchkit: error: {src}: case 6: no record" in lines
    ok, failed = lines[-1].split(" OK, ")
    assert failed.endswith(" failed") and int(failed.split()[0]) >= 5 and int(ok) + int(failed.split()[0]) == 12


def test_bounds_that_contradict_the_replayed_cost_fail(cli_run, recorded, tmp_path):
    """A valid solution of cost C caps the optimum: a lower bound above C, or ``solved`` below it, is false."""
    rs = json.loads(json.dumps(recorded[:4]))  # cases 1-4 only, deep copies
    rs[0].update(lower_bound=rs[0]["cost"] + 1, gap=-1)  # above the cost of the moves themselves
    rs[1].update(lower_bound=rs[1]["cost"] - 3, gap=3)  # 'solved' (proven optimal) with a gap
    rs[2].update(gap=rs[2]["gap"] + 2)  # gap is not cost - lower bound
    rs[3].update(lower_bound=-1, gap=rs[3]["cost"] + 1)
    res = cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1, res.output
    bad = {int(line.split(": case ")[1].split(":")[0]) for line in res.output.splitlines()
           if line.startswith("searchkit: error:") and "no record" not in line}
    assert bad == {1, 2, 3, 4}, res.output


def test_an_unsolved_record_fails(cli_run, recorded, tmp_path):
    rs = [dict(r) for r in recorded]
    rs[7] = dict(rs[7], status="time_limit", moves=[], cost=None, length=None)
    res = cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1
    assert "case 8: not solved (status time_limit)" in res.output


@pytest.mark.python_engine("the Mayan puzzle")
def test_records_of_other_options_or_the_wrong_length_fail(cli_run, recorded, tmp_path):
    """An answer to another question is no answer: other game options, or a Mayan answer not of exactly n moves."""
    from tests.batch.conftest import run_cli
    from tests.batch.test_records import MAYAN_FIVE

    started = write(tmp_path / "start.jsonl", recorded)
    res = cli_run(["verify", "flood", "--start", "centre", str(PC19), str(started)])
    assert res.exit_code == 1 and "0 OK, 12 failed" in res.output  # another pivot: other data, other answers
    printing = cli_run(["verify", "flood", "--moves", str(PC19), str(started)])
    assert printing.exit_code == 0, printing.output  # --moves only prints
    data = tmp_path / "m.in"
    data.write_text(MAYAN_FIVE)
    shortest = tmp_path / "s.jsonl"
    assert run_cli("solve", "mayan", "--shortest", "--output", shortest, data).returncode == 0
    assert cli_run(["verify", "mayan", "--shortest", str(data), str(shortest)]).exit_code == 0
    other = cli_run(["verify", "mayan", str(data), str(shortest)])
    assert other.exit_code == 1 and "was solved with --shortest true, not false" in other.output
    (record,) = [json.loads(line) for line in shortest.read_text().splitlines()]
    record["options"]["shortest"] = False  # a 4-move answer passed off as the exact-5 one
    forged = cli_run(["verify", "mayan", str(data), str(write(tmp_path / "f.jsonl", [record]))])
    assert forged.exit_code == 1 and "the moves cost 4, but the case asks for exactly 5" in forged.output
