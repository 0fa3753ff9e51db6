"""compare is no longer silent until everything is done (issue 32 item 23).

A progress bar on a terminal (as solve's), a default per-case time limit the table states, and solve's
records with --resume: one record per case and strategy, written as each finishes.
"""

from __future__ import annotations

import json

from searchkit.testing.terminal import run_on_terminal

from conftest import EXAMPLES

HDU = EXAMPLES / "flood" / "hdu4127-sample.txt"  # 2 boards, costs 0 and 3
NKOJ = EXAMPLES / "flood" / "nkoj2440-sample.txt"  # 2 boards, costs 1 and 3


def test_compare_draws_progress_on_a_terminal_and_states_its_time_limit(tmp_path):
    out = tmp_path / "table.txt"
    code, terminal = run_on_terminal(["compare", "flood", HDU, NKOJ, "-H", "colours", "-H", "layered"], stdout=out)
    assert code == 0, terminal
    assert "4/4" not in terminal and "8/8" in terminal, terminal  # a step per case and strategy
    assert "solved 8" in terminal, terminal
    table = out.read_text()
    assert "time limit 60 s a case" in table and "colours" in table  # the table on stdout, the bar not
    assert "8/8" not in table
    code, quiet = run_on_terminal(["compare", "flood", HDU, "-H", "colours", "--no-progress"], stdout=out)
    assert code == 0 and "2/2" not in quiet


def test_compare_default_time_limit_is_in_the_table(searchkit_cli_run):
    report = json.loads(searchkit_cli_run(["compare", "flood", str(HDU), "-H", "colours", "--format", "json"]).output)
    assert report["time_limit"] == 60.0
    free = json.loads(searchkit_cli_run(["compare", "flood", str(HDU), "-H", "colours", "--format", "json",
                                         "--time-limit", "none"]).output)
    assert free["time_limit"] is None
    stopped = json.loads(searchkit_cli_run(["compare", "flood", str(NKOJ), "-H", "colours", "--format", "json",
                                            "--time-limit", "0"]).output)
    assert stopped["time_limit"] == 0 and {r["status"] for r in stopped["rows"]} == {"time_limit"}
    bad = searchkit_cli_run(["compare", "flood", str(HDU), "-H", "colours", "--time-limit", "soon"])
    assert bad.exit_code == 2 and "expected seconds or none" in bad.output


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_compare_writes_records_and_resumes_them(searchkit_cli_run, tmp_path):
    out = tmp_path / "compare.jsonl"
    first = searchkit_cli_run(["compare", "flood", str(HDU), str(NKOJ), "-H", "colours", "--output", str(out),
                               "--format", "json"])
    assert first.exit_code == 0, first.output
    records = _records(out)
    assert [(r["case"], r["strategy"], r["cost"]) for r in records] == [
        (1, "colours", 0), (2, "colours", 3), (1, "colours", 1), (2, "colours", 3)]
    assert all(r["schema"] == 1 and r["data_hash"].startswith("sha256:") for r in records)
    # resumed with a second strategy: only its rows are solved and written; the table has every row
    again = searchkit_cli_run(["compare", "flood", str(HDU), str(NKOJ), "-H", "colours", "-H", "layered", "-j", "2",
                               "--output", str(out), "--resume", "--format", "json"])
    assert again.exit_code == 0, again.output
    records = _records(out)
    assert len(records) == 8 and [r["strategy"] for r in records[4:]] == ["layered"] * 4
    report = json.loads(again.output[:again.output.rindex("}") + 1])
    rows = [(r["case"], r["strategy"], r["cost"], r["expanded"]) for r in report["rows"]]
    assert len(rows) == 8 and report["disagreements"] == []
    assert [(c, s, cost) for c, s, cost, _ in rows if s == "colours"] == [(1, "colours", 0), (2, "colours", 3),
                                                                         (1, "colours", 1), (2, "colours", 3)]
    recorded = {(r["source"], r["case"], r["strategy"]): r["stats"]["expanded"] for r in records}
    assert all(recorded[(r["source"], r["case"], r["strategy"])] == r["expanded"] for r in report["rows"])
    # a third run has nothing left to solve
    done = searchkit_cli_run(["compare", "flood", str(HDU), str(NKOJ), "-H", "colours", "-H", "layered",
                              "--output", str(out), "--resume"])
    assert done.exit_code == 0 and len(_records(out)) == 8
    assert "0 record(s) written" in done.output and "8 already there" in done.output


def test_compare_counts_the_records_it_wrote_not_its_rows(searchkit_cli_run, tmp_path):
    """A case that is an input error (as a cancelled search) writes no record: the summary said "5 record(s)
    written" of a file holding 4."""
    board = tmp_path / "b.txt"
    board.write_text("1 2 3\n4 5 6\n0 7 8\n\n1 2 3\n4 5 6\n9 7 8\n\n1 2 3\n4 5 6\n7 0 8\n")
    out = tmp_path / "r.jsonl"
    done = searchkit_cli_run(["compare", "sliding-tiles", str(board), "-H", "manhattan", "-H", "linear-conflict",
                              "--output", str(out)])
    assert done.exit_code == 2, done.output  # the input error's status, as solve's
    assert len(_records(out)) == 4
    assert f"searchkit: 4 record(s) written to {out}" in done.output, done.output


def test_compare_jsonl_alone_writes_the_records_to_stdout(searchkit_cli_run):
    out = searchkit_cli_run(["compare", "flood", str(HDU), "-H", "colours", "-H", "layered", "--format", "jsonl"])
    assert out.exit_code == 0
    lines = [json.loads(line) for line in out.output.splitlines()]
    assert [(r["case"], r["strategy"]) for r in lines] == [(1, "colours"), (1, "layered"), (2, "colours"),
                                                           (2, "layered")]


def test_compare_record_options_are_refused_in_one_line(searchkit_cli_run, tmp_path):
    base = ["compare", "flood", str(HDU), "-H", "colours"]
    assert "--resume needs --output" in searchkit_cli_run(base + ["--resume"]).output
    solved = tmp_path / "solve.jsonl"
    assert searchkit_cli_run(["solve", "flood", str(HDU), "--output", str(solved)]).exit_code == 0
    out = searchkit_cli_run(base + ["--output", str(solved), "--resume"])
    assert out.exit_code == 2 and "not a compare record" in out.output
    kept = solved.read_bytes()
    out = searchkit_cli_run(base + ["--output", str(solved)])
    assert out.exit_code == 2 and "already holds records" in out.output and solved.read_bytes() == kept
    before = HDU.read_bytes()
    out = searchkit_cli_run(base + ["--output", str(HDU)])
    assert out.exit_code == 2 and HDU.read_bytes() == before  # an input is never written
