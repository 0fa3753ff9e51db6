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


def _listening(pids) -> set:
    """``(ip, port)`` of every TCP socket in LISTEN state held by the processes ``pids``."""
    import psutil

    out = set()
    for pid in pids:
        try:
            conns = psutil.Process(pid).net_connections(kind="tcp")
        except psutil.NoSuchProcess:
            continue
        out |= {(c.laddr.ip, c.laddr.port) for c in conns if c.status == psutil.CONN_LISTEN}
    return out


def _tree() -> list:
    import os

    import psutil

    me = psutil.Process(os.getpid())
    return [me.pid] + [p.pid for p in me.children(recursive=True)]


def _get(port: int, path: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.mark.parametrize("dashboard", [None, ""])
def test_local_cluster_listens_on_loopback_only(registry, dashboard):
    """Issue 19.2: the LocalCluster's dashboard listened on 0.0.0.0 and told anyone the workers and their memory.

    Now every socket the cluster opens (scheduler, nannies, workers, HTTP) is on 127.0.0.1, and with no
    ``--dashboard`` its HTTP server answers no info or json page.
    """
    pytest.importorskip("dask.distributed")
    from searchkit.batch.executors import DaskPool, WorkerSpec
    from searchkit.solver import Solver

    before = _listening(_tree())
    pool = DaskPool(WorkerSpec.of(Solver(registry, "flood"), None), None, 2, dashboard=dashboard)
    try:
        opened = _listening(_tree()) - before
        http = pool.cluster.scheduler.http_server.port
        pages = [_get(http, path) for path in ("/json/identity.json", "/info/main/workers.html")]
    finally:
        pool.close(cancel=True)
    assert len(opened) >= 5, opened  # the scheduler and its HTTP server, two nannies, two workers
    assert all(ip == "127.0.0.1" for ip, _port in opened), opened
    assert http in {port for _ip, port in opened}
    assert pages == ([404, 404] if dashboard is None else [200, 200])
