"""--executor dask on a real LocalCluster of two worker processes: the same output, records and limits."""

from __future__ import annotations

import sys

import pytest

from tests.batch.conftest import PLUGINS
from tests.batch.test_jobs import json_lines
from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("dask.distributed")
    sys.path.insert(0, str(PLUGINS))  # the workers (spawned from here) find the crashy game too
    try:
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        try:
            yield cluster.scheduler_address
        finally:
            cluster.close()
    finally:
        sys.path.remove(str(PLUGINS))


def test_dask_prints_what_local_workers_print(cli, scheduler, tmp_path):
    local = cli("solve", "flood", "--moves", PC19)
    dask = cli("solve", "flood", "--moves", "--executor", "dask", "--scheduler", scheduler, PC19)
    assert dask.returncode == 0, dask.stderr
    assert dask.stdout == local.stdout


@pytest.mark.python_engine("a test game written in Python (crashy)")
def test_dask_records_resume_and_memory_limit(cli, scheduler, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    cli("solve", "flood", "--output", a, "-j", "2", PC19)
    lines = a.read_text().splitlines(keepends=True)
    b.write_text("".join(lines[:10]) + lines[10][:30])
    res = cli("solve", "flood", "--executor", "dask", "--scheduler", scheduler, "--output", b, "--resume", PC19)
    assert res.returncode == 0, res.stderr
    assert json_lines(b.read_text()) == json_lines(a.read_text())  # all but the measurements
    cases = tmp_path / "cases.txt"
    cases.write_text("ok 2\nhog\nok 3\n")
    res = cli("solve", "crashy", "--executor", "dask", "--scheduler", scheduler, "--memory-limit", "128", cases)
    assert res.stdout.splitlines() == ["2", "? (memory_limit)", "3"], res.stderr
    assert res.returncode == 1


def test_without_dask_one_line_says_what_to_install(cli, tmp_path):
    fake = tmp_path / "dask"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no dask here')\n")
    res = cli("solve", "flood", "--executor", "dask", PC19, env={"PYTHONPATH": f"{tmp_path}:{PLUGINS}"})
    assert res.returncode == 2  # was 1, the status of a case stopped at a limit
    assert res.stderr.strip() == "searchkit: error: --executor dask needs dask.distributed: " \
                                 "pip install 'searchkit-puzzles[dask]'"


@pytest.mark.python_engine("a test game written in Python (crashy)")
def test_a_case_that_kills_its_dask_worker_is_an_error(cli, scheduler, tmp_path):
    cases = tmp_path / "cases.txt"
    cases.write_text("ok 1\nkill\nok 2\n")
    res = cli("solve", "crashy", "--executor", "dask", "--scheduler", scheduler, cases)
    first, second, third = res.stdout.splitlines()
    assert second == "? (error)", res.stderr
    # Dask also blames a task that merely shared a dying worker; after enough such retries it gives up on it too,
    # so the innocent cases are solved or (rarely) errors, never missing or out of order.
    assert first in ("1", "? (error)") and third in ("2", "? (error)"), res.stderr
    assert res.returncode == 1
    assert f"{cases}: case 2: its Dask task failed (KilledWorker: " in res.stderr
