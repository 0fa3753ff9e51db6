"""``--threads N|auto`` (issue 34, item 1): the threads one search may use, on ``solve`` and ``compare`` and in
the API, under ``--jobs`` and Dask.

The ``threads-echo`` test game (``tests/batch/threads_plugin``) has a native module that reports the request's
``threads`` as the threads its search ran on, so a record's ``stats.threads`` is what reached the native request
through the real CLI, the workers, the Solver and the engine.  The Python engine ignores ``--threads`` (it is
single-threaded, the reference): its records never carry the key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.batch.conftest import run_cli

ECHO = Path(__file__).resolve().parent / "threads_plugin"
CASES = "ok 3\nok 2\nok 4\n"
ENGINE = os.environ.get("SEARCHKIT_ENGINE", "auto")


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def _echo(*args, engine=None):
    """``searchkit ARGS`` with the threads-echo game on the path, on ``engine`` (default: the suite's)."""
    path = os.pathsep.join([str(ECHO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return run_cli(*args, env={"PYTHONPATH": path, "SEARCHKIT_ENGINE": engine or ENGINE})


def _threads(stdout: str) -> list:
    """The ``(engine, stats.threads)`` of each JSON Lines record (``None``: the key is absent, one thread)."""
    return [(r["engine"], r["stats"].get("threads")) for r in map(json.loads, stdout.splitlines())]


@pytest.fixture
def cases(tmp_path):
    path = tmp_path / "line.txt"
    path.write_text(CASES)
    return path


# -- the value ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["solve", "sliding-tiles"], ["compare", "sliding-tiles", "-H", "manhattan"]])
@pytest.mark.parametrize("value", ["0", "-2", "two", "2.5", "", " 2", "1025"])
def test_threads_refuses_zero_negatives_and_junk_naming_the_option(searchkit_cli_run, tmp_path, command, value):
    case = tmp_path / "one.txt"
    case.write_text("1 2 3\n4 0 5\n7 8 6\n")
    out = searchkit_cli_run([*command, "--threads", value, str(case)])
    assert out.exit_code == 2, out.output
    assert "Invalid value for '--threads'" in out.output and "Traceback" not in out.output


def test_the_real_command_says_a_bad_threads_in_one_line(tmp_path):
    case = tmp_path / "one.txt"
    case.write_text("ok 1\n")
    for command in (["solve", "threads-echo"], ["compare", "threads-echo", "-H", "steps-left"]):
        out = _echo(*command, "--threads", "0", case)
        assert out.returncode == 2 and out.stdout == "", out.stderr
        assert out.stderr.count("\n") == 1 and "'--threads'" in out.stderr and "got '0'" in out.stderr, out.stderr


def test_auto_is_the_usable_cpus_divided_by_the_workers_and_a_number_is_itself():
    from searchkit.limits import MAX_THREADS
    from searchkit.machinery.batch.executors import resolve_threads

    cpus = _cpus()
    assert resolve_threads("auto") == cpus
    assert resolve_threads("auto", 1) == cpus
    assert resolve_threads("auto", 2) == max(1, cpus // 2)
    assert resolve_threads("auto", cpus) == 1
    assert resolve_threads("auto", cpus + 5) == 1, "at least one thread however many workers"
    assert resolve_threads("3") == 3 and resolve_threads("03") == 3 and resolve_threads(7, 4) == 7
    assert resolve_threads(MAX_THREADS) == MAX_THREADS
    for bad in (0, -1, "0", "x", 2.0, True, None, MAX_THREADS + 1, "1" * 5000):
        with pytest.raises(ValueError, match="number of threads"):
            resolve_threads(bad)


def test_a_solver_config_takes_only_a_number_of_threads():
    """The config a worker receives holds a resolved number (auto never travels), checked where it is made."""
    from searchkit.machinery.solver import SolverConfig

    assert SolverConfig("flood").threads == 1 and SolverConfig("flood", threads=4).threads == 4
    for bad in (0, -1, "auto", "2", 2.0, True, 1025):
        with pytest.raises(ValueError, match="threads must be a whole number from 1 to 1024"):
            SolverConfig("flood", threads=bad)


def test_auto_counts_the_cpus_this_process_may_use_not_the_machines():
    """Pinned to one CPU (``sched_setaffinity``), ``auto`` is 1 whatever the machine has."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no sched_setaffinity here")
    code = ("import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
            "from searchkit.machinery.batch.executors import resolve_threads; "
            "print(resolve_threads('auto'), resolve_threads('auto', 3))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["1", "1"], out.stderr


def test_the_api_refuses_a_bad_threads_with_a_value_error_naming_it():
    import searchkit

    for bad in (0, -3, "many", 1.5, True):
        for call in (lambda: searchkit.solve("sliding-tiles", "1 2 3\n4 0 5\n7 8 6\n", threads=bad),
                     lambda: searchkit.solve_all("sliding-tiles", "1 2 3\n4 0 5\n7 8 6\n", threads=bad),
                     lambda: searchkit.compare("sliding-tiles", "1 2 3\n4 0 5\n7 8 6\n", "manhattan", threads=bad)):
            with pytest.raises(ValueError, match="^threads: "):
                call()


# -- where it travels -------------------------------------------------------------------------------------------

def test_the_native_request_carries_the_threads():
    from searchkit.limits import Limiter
    from searchkit.machinery import engine

    assert engine.request(None, None, [], {}, admissible=True, max_cost=None, limiter=Limiter())["threads"] == 1
    sent = engine.request(None, None, [], {}, admissible=True, max_cost=None, limiter=Limiter(), threads=4)
    assert sent["threads"] == 4


def test_each_worker_search_gets_the_threads_and_the_python_engine_ignores_them(cases):
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "3", "--jobs", "2", "--format", "jsonl",
                cases)
    assert out.returncode == 0, out.stderr
    assert _threads(out.stdout) == [("native", 3)] * 3
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "2", "--format", "jsonl", cases)
    assert _threads(out.stdout) == [("native", 2)] * 3, "one process too"
    out = _echo("solve", "threads-echo", "--engine", "python", "--threads", "3", "--jobs", "2", "--format", "jsonl",
                cases)
    assert out.returncode == 0, out.stderr
    assert _threads(out.stdout) == [("python", None)] * 3, "the Python engine runs on one thread, and says so"
    out = _echo("solve", "threads-echo", "--engine", "native", "--format", "jsonl", cases)
    assert _threads(out.stdout) == [("native", None)] * 3, "default: one thread, no key"


def test_auto_divides_the_cpus_by_the_jobs_workers(cases):
    cpus = _cpus()
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "auto", "--format", "jsonl", cases)
    assert _threads(out.stdout) == [("native", None if cpus == 1 else cpus)] * 3, out.stderr
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "auto", "--jobs", "2", "--format",
                "jsonl", cases)
    share = max(1, cpus // min(2, cpus))  # --jobs above the CPUs is capped at them
    assert _threads(out.stdout) == [("native", None if share == 1 else share)] * 3, out.stderr
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "auto", "--stats", cases)  # one process
    assert out.returncode == 0 and out.stdout.split() == ["3", "2", "4"], out.stderr
    said = [line for line in out.stderr.splitlines() if " case " in line]
    assert len(said) == 3 and all((f", {cpus} threads" in line) == (cpus > 1) for line in said), out.stderr


def test_compare_hands_every_strategy_the_threads(cases):
    out = _echo("compare", "threads-echo", "-H", "steps-left", "-a", "astar", "--engine", "native", "--threads", "2",
                "--jobs", "2", "--format", "jsonl", cases)
    assert out.returncode == 0, out.stderr
    assert _threads(out.stdout) == [("native", 2)] * 3
    out = _echo("compare", "threads-echo", "-H", "steps-left", "-a", "astar", "--engine", "python", "--threads", "2",
                "--format", "jsonl", cases)
    assert _threads(out.stdout) == [("python", None)] * 3


def test_the_api_hands_the_threads_to_each_worker(cases):
    code = (
        "import json, pathlib, searchkit\n"
        f"src = pathlib.Path({str(cases)!r})\n"
        "one = searchkit.solve('threads-echo', 'ok 2\\n', engine='native', threads=3)\n"
        "many = searchkit.solve_all('threads-echo', src, jobs=2, threads=2, engine='native')\n"
        "python = searchkit.solve_all('threads-echo', src, threads=5, engine='python')\n"
        "table = searchkit.compare('threads-echo', src, 'steps-left', 'astar', jobs=2, threads=4, engine='native')\n"
        "print(json.dumps([one.stats.threads] + [o.stats.threads for o in many] + [o.stats.threads for o in python]"
        " + [r.status for r in table.rows]))\n"
    )
    path = os.pathsep.join([str(ECHO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [3, 2, 2, 2, 1, 1, 1, "solved", "solved", "solved"]


def test_each_dask_task_gets_the_threads(cases):
    pytest.importorskip("distributed")
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "3", "--executor", "dask", "--jobs", "2",
                "--format", "jsonl", cases)
    assert out.returncode == 0, out.stderr
    assert _threads(out.stdout) == [("native", 3)] * 3


# -- the records --------------------------------------------------------------------------------------------------

def test_a_record_with_threads_is_read_by_verify_and_report(cases, tmp_path):
    records = tmp_path / "run.jsonl"
    out = _echo("solve", "threads-echo", "--engine", "native", "--threads", "2", "--output", records, cases)
    assert out.returncode == 0, out.stderr
    written = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["stats"]["threads"] for r in written] == [2, 2, 2]
    out = _echo("verify", "threads-echo", cases, records)
    assert out.returncode == 0, out.stdout + out.stderr
    out = _echo("report", records, "--format", "json")
    assert out.returncode == 0, out.stderr
    one = tmp_path / "one.jsonl"  # a one-thread run's records: no key, read alike
    out = _echo("solve", "threads-echo", "--engine", "native", "--output", one, cases)
    assert all("threads" not in json.loads(line)["stats"] for line in one.read_text().splitlines())
    out = _echo("report", records, one, "--format", "json")
    assert out.returncode == 0, out.stderr


def test_the_stats_write_threads_only_when_the_search_ran_on_more_than_one():
    from searchkit.machinery.engine.native import result_of
    from searchkit.result import SearchStats

    assert "threads" not in SearchStats().to_dict(), "a one-thread search's record is as before threads existed"
    assert SearchStats(threads=4).to_dict()["threads"] == 4
    stats = {"expanded": 1, "generated": 1, "evaluated": 1, "elapsed": 0.0, "iterations": [], "per_depth": [],
             "per_depth_seconds": [], "peak_stored": 0, "rule_cuts": [], "peak_bytes": 0, "pruner_bytes": 0,
             "states_stored": 0}
    native = {"engine": "native", "status": "solved", "moves": [], "cost": 0, "lower_bound": 0, "message": None}
    assert result_of(dict(native, stats=stats)).stats.threads == 1
    assert result_of(dict(native, stats=dict(stats, threads=2))).stats.threads == 2
