"""``solve_all(output=..., resume=...)``: the Python API writes and resumes record files as ``solve --output`` does,
through one resume policy (``searchkit.machinery.records.resume_plan``; issue 33, item 5).

Before, the policy lived in the command line's face, so a notebook could not resume a dataset run.
"""

from __future__ import annotations

import json
import warnings

import pytest

import searchkit
from searchkit.machinery.records import ResumeRefused
from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
#: Fields that differ from run to run (time, memory, the engine's counters' timing).
VARYING = {"seconds", "peak_rss_kb", "stats"}


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _steady(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in VARYING}


@pytest.mark.parametrize("jobs", [1, 2])
def test_solve_all_writes_the_records_solve_output_writes(tmp_path, searchkit_cli_run, jobs):
    api = tmp_path / "api.jsonl"
    outcomes = list(searchkit.solve_all("flood", PC19, output=api, jobs=jobs))
    assert [o.status for o in outcomes] == ["solved"] * 12
    cli = tmp_path / "cli.jsonl"
    assert searchkit_cli_run(["solve", "flood", "--output", str(cli), str(PC19)]).exit_code == 0
    assert [_steady(r) for r in _records(api)] == [_steady(r) for r in _records(cli)]
    assert [r["cost"] for r in _records(api)] == [o.cost for o in outcomes]


def test_resume_skips_what_is_recorded_and_cuts_a_torn_line(tmp_path):
    out = tmp_path / "r.jsonl"
    list(searchkit.solve_all("flood", PC19, output=out))
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:40])  # killed while writing case 6's record
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        again = list(searchkit.solve_all("flood", PC19, output=out, resume=True))
    assert [o.case.index for o in again] == list(range(6, 13))  # only the cases solved now
    assert [str(w.message) for w in said] == [
        f"{out}: the last line has no newline (the run was killed while writing it); it is dropped and its case "
        f"solved again"]
    records = _records(out)
    assert [r["case"] for r in records] == list(range(1, 13)) and records[:5] == [json.loads(x) for x in lines[:5]]
    assert list(searchkit.solve_all("flood", PC19, output=out, resume=True)) == []  # nothing left to do


def test_a_record_file_is_refused_as_solve_output_refuses_it(tmp_path):
    out = tmp_path / "r.jsonl"
    list(searchkit.solve_all("flood", PC19, output=out, max_nodes=1))  # every case stopped at its node limit
    before = out.read_bytes()
    with pytest.raises(ResumeRefused, match="already holds records: resume=True to solve only the cases it lacks, "
                                            "or force=True to start it afresh"):
        searchkit.solve_all("flood", PC19, output=out)  # at the call, before the loop
    with pytest.raises(ResumeRefused, match="is the input"):
        searchkit.solve_all("flood", PC19, output=PC19, force=True)
    with pytest.raises(ResumeRefused, match="is a record of the game"):
        searchkit.solve_all("mayan", "1\n0\n", output=out, resume=True)
    with pytest.raises(ValueError, match="go with output="):
        searchkit.solve_all("flood", PC19, resume=True)
    with pytest.raises(ResumeRefused, match="force=True starts output= afresh, resume=True appends to it: give one"):
        searchkit.solve_all("flood", PC19, output=out, resume=True, force=True)  # a tester's defect: it resumed
    assert out.read_bytes() == before
    kept = list(searchkit.solve_all("flood", PC19, output=out, resume=True, keep_stopped=True))
    assert kept == [] and out.read_bytes() == before  # stopped cases kept as done: nothing solved again
    redone = list(searchkit.solve_all("flood", PC19, output=out, force=True))
    assert [o.status for o in redone] == ["solved"] * 12 and len(_records(out)) == 12


def test_an_output_in_a_missing_folder_is_named_not_its_temporary_file(tmp_path):
    """A tester's defect: the error named the temporary file the records are written through."""
    out = tmp_path / "no-such-folder" / "x.jsonl"
    with pytest.raises(FileNotFoundError) as raised:
        list(searchkit.solve_all("flood", PC19, output=out))
    assert f"cannot write {out}: No such file or directory" in str(raised.value)
    assert ".tmp" not in str(raised.value)
