"""--jobs: the same bytes as one process, in input order, under the spawn start method."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def untimed(value):
    """``value`` (parsed JSON) without its wall-clock fields."""
    if isinstance(value, dict):
        timed = ("seconds", "elapsed", "per_depth_seconds", "peak_rss_kb")
        return {k: untimed(v) for k, v in value.items() if k not in timed}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def json_lines(text):
    import json

    return [untimed(json.loads(line)) for line in text.splitlines()]


@pytest.mark.parametrize("extra", [["--moves"], ["--format", "json"]])
def test_jobs_2_prints_the_same_bytes_as_one_process(cli, extra):
    one = cli("solve", "flood", *extra, PC19)
    two = cli("solve", "flood", *extra, "--jobs", "2", PC19)
    assert one.returncode == two.returncode == 0, two.stderr
    if "json" in extra:  # the same records but for the timings
        assert json_lines(two.stdout) == json_lines(one.stdout)
    else:
        assert two.stdout == one.stdout
    assert len(one.stdout.splitlines()) == 12
    assert "12 cases" in two.stderr and "12 solved" in two.stderr


def test_answers_match_the_judge_file(cli):
    out = cli("solve", "flood", "--jobs", "2", PC19)
    answers = (ROOT / "tests" / "batch" / "data" / "pc19-first12.ans").read_text().split()
    assert out.stdout.split() == answers


def test_bad_input_and_several_files_keep_their_places(cli, tmp_path: Path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1 2\n2 1\n2\n1 x\n2 2\n2\n1 1\n1 2\n0\n")
    args = ["solve", "flood", "--moves", bad, PC19, bad]
    one = cli(*args)
    two = cli(*args, "-j", "2")
    assert one.returncode == two.returncode == 2
    assert two.stdout == one.stdout
    assert [line for line in two.stderr.splitlines() if "error:" in line] == \
        [line for line in one.stderr.splitlines() if "error:" in line]


def test_forkserver_and_auto(cli):
    one = cli("solve", "flood", PC19)
    auto = cli("solve", "flood", "--jobs", "auto", PC19, env={"SEARCHKIT_START_METHOD": "forkserver"})
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout == one.stdout


def test_limits_hold_inside_workers(cli):
    one = cli("solve", "flood", "--format", "json", "--max-nodes", "30", PC19)
    two = cli("solve", "flood", "--format", "json", "--max-nodes", "30", "-j", "2", PC19)
    assert one.returncode == two.returncode == 1
    first, second = json_lines(one.stdout), json_lines(two.stdout)
    assert second == first
    assert {r["status"] for r in first} >= {"node_limit"}


def test_bad_jobs_value_is_a_usage_error(cli):
    out = cli("solve", "flood", "--jobs", "zero", PC19)
    assert out.returncode == 2 and "--jobs" in out.stderr and "Traceback" not in out.stderr


def test_compare_with_jobs_gives_the_same_table(cli, tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text(cli("generate", "flood", "--count", "30", "--size", "6", "--seed", "5").stdout)
    one = cli("compare", "flood", boards, "-H", "layered", "-H", "colours", "--format", "json")
    two = cli("compare", "flood", boards, "-H", "layered", "-H", "colours", "--format", "json", "-j", "2")
    assert one.returncode == two.returncode, two.stderr
    import json

    first, second = untimed(json.loads(one.stdout)), untimed(json.loads(two.stdout))
    for doc in (first, second):
        for name in doc["totals"]:
            doc["totals"][name].pop("ebf", None)
    assert second == first


def test_workers_get_the_algorithms_options_and_the_upper_bound(cli):
    """A worker rebuilds the whole Solver: -a with its options and --upper-bound travel with the spec."""
    args = ("solve", "flood", "-a", "wastar(weight=2)", "--upper-bound", "auto", "--format", "jsonl", PC19)
    one = cli(*args)
    two = cli(*args[:-1], "--jobs", "2", PC19)
    assert one.returncode == two.returncode == 0, two.stderr
    lines = json_lines(two.stdout)
    assert lines == json_lines(one.stdout)  # improvement events included, in the same places
    records = [r for r in lines if "event" not in r]
    assert len(records) == 12 and len(lines) > 12
    assert {r["algorithm"] for r in records} == {"wastar"} and all(r["lower_bound"] is not None for r in records)


def test_jobs_above_the_cases_start_one_worker_a_case_at_most(searchkit_registry, tmp_path):
    """Issue 19.4: ``--jobs 40`` on 20 cases started all 40 workers (about 700 MB in 3 s)."""
    from searchkit.machinery.batch.executors import LocalPool
    from searchkit.machinery.batch.runner import solve_ordered
    from searchkit.machinery.reading import iter_cases
    from searchkit.machinery.solver import Solver

    three = tmp_path / "three.txt"
    three.write_text("".join((ROOT / "tests" / "batch" / "data" / "pc19-first12.txt").read_text()
                             .splitlines(keepends=True)[:3]))
    solver = Solver(searchkit_registry, "flood")
    pool = LocalPool(solver.config, 40)
    try:
        results = list(solve_ordered(iter_cases(solver.game, [str(three)], solver.options), pool))
        started = len(pool.pool)
    finally:
        pool.close()
    assert [res.outcome.result.cost for _item, res in results] == [19, 23, 22]
    assert 1 <= started <= 3


def test_jobs_above_the_cpus_warns(cli, tmp_path):
    import os

    one = tmp_path / "one.txt"
    one.write_text((ROOT / "tests" / "batch" / "data" / "pc19-first12.txt").read_text().splitlines()[0] + "\n")
    n = len(os.sched_getaffinity(0)) + 1
    res = cli("solve", "flood", "--jobs", str(n), one)
    assert res.returncode == 0 and res.stdout.split() == ["19"]
    assert f"--jobs {n} is more than the" in res.stderr


def _most_children(args, cpus: int) -> tuple:
    """Run the CLI on ``cpus`` CPUs (its affinity) and count its child processes while it runs, at most."""
    import os
    import subprocess
    import sys
    import time

    pid_cpus = sorted(os.sched_getaffinity(0))[:cpus]
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.sched_setaffinity(0, pid_cpus))
    most = 0
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as fh:
                most = max(most, len(fh.read().split()))
        except OSError:
            pass
        time.sleep(0.01)
    out, err = proc.communicate()
    return most, subprocess.CompletedProcess(args, proc.returncode, out, err)


def test_jobs_are_capped_at_the_usable_cpus_unless_oversubscribed(tmp_path):
    """Issue 32, item 20: ``--jobs 40`` on 2 CPUs with 200 cases started 40 workers (997 MB, nothing done after
    7.6 s).  On one CPU, ``--jobs 3 --memory-limit`` (a pool even of one worker) starts one worker."""
    many = tmp_path / "many.txt"
    many.write_text(PC19.read_text() * 4)
    most, res = _most_children(["solve", "flood", "--jobs", "3", "--memory-limit", "2000", many], 1)
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.split()) == 48
    assert "--jobs 3 is more than the 1 CPU this process may use: 1 worker (--oversubscribe to start 3)" \
        in res.stderr
    assert most == 1
    most, res = _most_children(["solve", "flood", "--jobs", "3", "--oversubscribe", "--memory-limit", "2000",
                                many], 1)
    assert res.returncode == 0 and len(res.stdout.split()) == 48, res.stderr
    assert "--oversubscribe starts them all" in res.stderr
    assert 1 <= most <= 3


@pytest.mark.python_engine("the test plugin 'crashy'")
def test_an_upper_bound_provider_that_finds_nothing_means_no_bound(cli, tmp_path):
    """Issue 19.11: a provider could not say "I found nothing"; ``None`` now means no upper bound."""
    cases = tmp_path / "c.txt"
    cases.write_text("ok 3\nok 1\n")
    for extra in ((), ("-j", "2")):
        res = cli("solve", "crashy", "--upper-bound", "auto", *extra, cases)
        assert res.returncode == 0, res.stderr
        assert res.stdout.split() == ["3", "1"]


def test_a_case_is_read_only_after_the_one_before_is_handed_over(searchkit_registry, tmp_path):
    """A case's time limit counts from its first byte, so the next case must not be read (its clock started)
    while the caller still works on the one before: with ``--format jsonl`` that work hashes the case's data,
    0.2 s for a 1500x1500 board, and a 1x1 board after it was reported ``time_limit`` under ``--time-limit
    0.1``.  The in-process backend, in the order things happen."""
    from searchkit.machinery.batch.executors import InProcess
    from searchkit.machinery.batch.runner import solve_ordered
    from searchkit.machinery.reading import iter_cases
    from searchkit.machinery.solver import Solver

    three = tmp_path / "three.txt"
    three.write_text("".join((ROOT / "tests" / "batch" / "data" / "pc19-first12.txt").read_text()
                             .splitlines(keepends=True)[:3]))
    solver = Solver(searchkit_registry, "flood")
    log = []

    def items():
        for item in iter_cases(solver.game, [str(three)], solver.options):
            log.append(("read", item.value.index))
            yield item

    for item, res in solve_ordered(items(), InProcess(solver.config, solver)):
        log.append(("handed over", item.value.index, res.outcome.result.cost))
    assert log == [("read", 1), ("handed over", 1, 19), ("read", 2), ("handed over", 2, 23),
                   ("read", 3), ("handed over", 3, 22)]


UNGUARDED = """import warnings
import searchkit
warnings.simplefilter("error")  # a capped jobs= would warn: this test wants 2 real workers
for outcome in searchkit.solve_all("flood", "2\\n1 2\\n2 1\\n2\\n1 1\\n1 2\\n0\\n", jobs=2):
    print(outcome.status, outcome.cost, outcome.error)
"""


@pytest.mark.skipif(len(__import__("os").sched_getaffinity(0)) < 2, reason="needs 2 usable CPUs for 2 workers")
@pytest.mark.parametrize("how", ["script", "stdin"])
def test_solve_all_with_workers_from_a_script_without_a_main_guard(tmp_path, how):
    """Issue 32, item 5: spawn's workers imported the caller's main module again: a script without an
    ``if __name__ == "__main__":`` guard (RuntimeError) or code on standard input (FileNotFoundError: '<stdin>')
    got ``error`` for every case, with a traceback per worker.  A real interpreter runs the script."""
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    if how == "script":
        res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                             cwd=tmp_path)
    else:
        res = subprocess.run([sys.executable, "-"], input=UNGUARDED, capture_output=True, text=True, timeout=120,
                             cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["solved 2 None", "solved 1 None"]
    assert res.stderr == ""


def test_a_bad_start_method_is_one_line(cli, tmp_path):
    """Issue 32, item 14: ``SEARCHKIT_START_METHOD=bogus`` was a ValueError traceback (SEARCHKIT_ENGINE=bogus
    already got one line); the Python API raises PlanError at the call."""
    import subprocess
    import sys

    one = tmp_path / "one.txt"
    one.write_text("2\n1 2\n2 1\n0\n")
    res = cli("solve", "flood", "--jobs", "2", "--oversubscribe", one, env={"SEARCHKIT_START_METHOD": "bogus"})
    assert res.returncode == 2
    assert res.stderr.splitlines()[-1].startswith(
        "searchkit: error: SEARCHKIT_START_METHOD='bogus': expected one of spawn, forkserver, fork")
    assert "Traceback" not in res.stderr and res.stdout == ""
    compare = cli("compare", "flood", "-H", "all", "--jobs", "2", one, env={"SEARCHKIT_START_METHOD": "bogus"})
    assert compare.returncode == 2 and "Traceback" not in compare.stderr, compare.stderr
    assert compare.stderr.startswith("searchkit: error: SEARCHKIT_START_METHOD='bogus': expected one of")
    code = ("import searchkit\nfrom searchkit.errors import PlanError\ntry:\n"
            "    searchkit.solve_all('flood', '2\\n1 2\\n2 1\\n0\\n', jobs=2, oversubscribe=True)\n"
            "except PlanError as exc:\n    print(exc)\n")
    api = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "SEARCHKIT_START_METHOD": "bogus"})
    assert api.stdout.startswith("SEARCHKIT_START_METHOD='bogus': expected one of"), api.stderr
