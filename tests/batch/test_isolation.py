"""--memory-limit per case, and workers that die: one case fails, named; the run goes on."""

from __future__ import annotations

import json

import pytest

CASES = "ok 2\nok 3\nexit\nok 1\nhog\nok 4\nkill\nok 5\n"


@pytest.mark.python_engine("a test game written in Python (crashy)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_case_over_the_memory_limit_and_dead_workers(cli, tmp_path, jobs):
    data = tmp_path / "cases.txt"
    data.write_text(CASES)
    res = cli("solve", "crashy", "--jobs", jobs, "--memory-limit", "128", data)
    assert res.returncode == 1, res.stderr
    assert res.stdout.splitlines() == ["2", "3", "? (error)", "1", "? (memory_limit)", "4", "? (memory_limit)", "5"]
    errors = [line for line in res.stderr.splitlines() if "error:" in line]
    assert errors == [
        f"searchkit: error: {data}: case 3: its worker process died (exit status 7)",
        f"searchkit: error: {data}: case 5: over the memory limit of 128 MiB",
        f"searchkit: error: {data}: case 7: its worker process died (killed by SIGKILL), taken as out of memory",
    ]
    assert "Traceback" not in res.stderr
    assert "8 cases in" in res.stderr and "(5 solved, 2 memory_limit, 1 error)" in res.stderr


@pytest.mark.python_engine("a test game written in Python (crashy)")
def test_a_killed_worker_without_a_memory_limit_is_an_error_record(cli, tmp_path):
    data = tmp_path / "cases.txt"
    data.write_text("ok 1\nkill\nok 2\nexit\nok 3\n")
    out = tmp_path / "r.jsonl"
    res = cli("solve", "crashy", "--jobs", "2", "--output", out, data)
    assert res.returncode == 1
    rs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["case"], r["status"]) for r in rs] == [(1, "solved"), (2, "error"), (3, "solved"), (4, "error"),
                                                      (5, "solved")]
    assert rs[1]["error"] == "its worker process died (killed by SIGKILL)"
    assert "3 solved, 2 error" in res.stderr


@pytest.mark.python_engine("a test game written in Python (crashy)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_search_that_raises_is_its_cases_error_and_the_worker_goes_on(cli, tmp_path, jobs):
    data = tmp_path / "cases.txt"
    data.write_text("ok 1\nraise\nok 2\nraise\nok 3\n")
    out = tmp_path / "r.jsonl"
    res = cli("solve", "crashy", "--jobs", jobs, "--output", out, data)
    assert "Traceback" not in res.stderr
    rs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in rs] == ["solved", "error", "solved", "error", "solved"]
    assert all("the search raised ZeroDivisionError: planted" in r["error"] for r in rs if r["status"] == "error")
    assert "died" not in res.stderr  # the worker caught it and went on
    assert res.returncode == 1, res.stderr  # the search failed: not bad input (2)


# One process (text), one process through the batch runner (jsonl), and two workers: the same lines and status.
_PATHS = [[], ["--format", "jsonl"], ["--jobs", "2"]]


def _answers(res, how) -> list:
    if "jsonl" in how:
        return [json.loads(line)["status"] for line in res.stdout.splitlines()]
    return res.stdout.splitlines()


@pytest.mark.python_engine("a test game written in Python (crashy)")
@pytest.mark.parametrize("how", _PATHS)
def test_a_search_that_raises_exits_1_on_every_path(cli, tmp_path, how):
    # exit status 2 means bad input or usage; a search that raised (a plugin's defect) is the search's failure
    data = tmp_path / "cases.txt"
    data.write_text("ok 1\nraise\nok 2\n")
    res = cli("solve", "crashy", *how, data)
    assert res.returncode == 1, res.stderr
    assert _answers(res, how) in (["1", "? (error)", "2"], ["solved", "error", "solved"])
    (line,) = [x for x in res.stderr.splitlines() if "error:" in x]
    assert line == (f"searchkit: error: {data}: case 2: the search raised ZeroDivisionError: planted (a defect in "
                    f"the game's plugin or in searchkit; the other cases go on)")


@pytest.mark.python_engine("a test game written in Python (crashy)")
@pytest.mark.parametrize("how", _PATHS)
def test_running_out_of_memory_without_a_memory_limit_is_said_so_and_exits_1(cli, tmp_path, how):
    # as under `ulimit -v`: the hog's 512 MiB do not fit in 400 MiB of address space, and no --memory-limit is
    # given; it was "a defect in the game's plugin" with exit status 2, and under the batch runner a traceback
    data = tmp_path / "cases.txt"
    data.write_text("ok 1\nhog\nok 2\n")
    res = cli("solve", "crashy", *how, data, address_space_mb=400)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 1, res.stderr
    assert _answers(res, how) in (["1", "? (error)", "2"], ["solved", "error", "solved"])
    (line,) = [x for x in res.stderr.splitlines() if "error:" in x]
    assert line == (f"searchkit: error: {data}: case 2: the search ran out of memory (MemoryError); give "
                    f"--memory-limit MB to stop a case at that limit (memory_limit); the other cases go on")


@pytest.mark.python_engine("the Python engine's pattern databases, which need numpy")
def test_a_small_memory_limit_with_python_pattern_databases(cli, tmp_path):
    """A tester's defect: under `--memory-limit 30` (or 60) numpy was first imported inside the case's
    allowance, so OpenBLAS could not map its library (an ImportError) or its buffers (a dead worker), and
    the case was an error; numpy is the program's, loaded before the allowance, as the native library is.
    In a subprocess: the test process may have imported numpy already."""
    pytest.importorskip("numpy")
    board = tmp_path / "eight.txt"
    board.write_text("1 2 3\n4 5 6\n0 7 8\n")
    for mb in ("30", "60"):
        res = cli("solve", "sliding-tiles", "--engine", "python", "-H", "pdb(partition=4-4)", "--memory-limit", mb,
                  "--format", "jsonl", board,
                  env={"SEARCHKIT_CACHE_DIR": str(tmp_path / "cache")})
        records = [json.loads(line) for line in res.stdout.splitlines()]
        assert [(r["status"], r["cost"]) for r in records] == [("solved", 2)], res.stderr
