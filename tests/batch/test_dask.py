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
    from searchkit.batch.executors import DaskPool
    from searchkit.solver import Solver

    before = _listening(_tree())
    pool = DaskPool(Solver(registry, "flood").config, None, 2, dashboard=dashboard)
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


@pytest.mark.parametrize("address", ["garbage", "http://127.0.0.1:8786", "inproc://x", "tcp://:8786",
                                     "127.0.0.1:99999"])
def test_a_malformed_scheduler_is_one_line(cli, address):
    """Issue 32, item 13: these were ValueError tracebacks from distributed."""
    pytest.importorskip("dask.distributed")
    res = cli("solve", "flood", "--executor", "dask", "--scheduler", address, PC19)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"searchkit: error: --scheduler {address!r}: "), res.stderr
    assert len(res.stderr.splitlines()) == 1


def test_an_unreachable_scheduler_is_one_line(cli):
    """Issue 32, item 13: after distributed's connect timeout the run said 'cannot write the output'."""
    import socket

    pytest.importorskip("dask.distributed")
    with socket.socket() as free:  # a port nothing listens on (bound, never listening: connections are refused)
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
        res = cli("solve", "flood", "--executor", "dask", "--scheduler", f"127.0.0.1:{port}", PC19,
                  env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert res.returncode == 2 and res.stdout == "", res.stderr
    assert res.stderr.startswith(f"searchkit: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: ")
    assert len(res.stderr.splitlines()) == 1 and "cannot write the output" not in res.stderr


WORKERS_IGNORE_CTRL_C = """
import os, signal, sys
from searchkit.batch.executors import DaskPool
from searchkit.plugin.manager import load_registry
from searchkit.solver import Solver

pool = DaskPool(Solver(load_registry(), "flood").config, None, 2)
try:
    def ignored(pid):
        with open(f"/proc/{pid}/status") as fh:
            mask = int(next(line for line in fh if line.startswith("SigIgn:")).split()[1], 16)
        return bool(mask >> (signal.SIGINT - 1) & 1)
    workers = list(pool.client.run(os.getpid).values())
    print(len(workers), all(ignored(pid) for pid in workers),
          signal.getsignal(signal.SIGINT) is signal.default_int_handler)
finally:
    pool.close(cancel=True)
"""


def test_local_cluster_workers_leave_ctrl_c_to_searchkit():
    """Issue 32, item 13: a Ctrl-C reaches the whole process group, and the LocalCluster's workers printed 4-5
    tracebacks (68-78 lines) of their own.  They now start with SIGINT ignored; this process keeps its handler."""
    import subprocess

    from tests.conftest import sigint_default

    pytest.importorskip("dask.distributed")
    res = subprocess.run([sys.executable, "-c", WORKERS_IGNORE_CTRL_C], capture_output=True, text=True,
                         timeout=120, preexec_fn=sigint_default)
    assert res.stdout.split() == ["2", "True", "True"], res.stderr


def test_a_dashboard_beyond_loopback_is_named_and_said_to_be_exposed():
    """Issue 32, item 13: ``--dashboard=0.0.0.0:8799`` listened on every interface but printed
    http://127.0.0.1:8799 (distributed's link names the scheduler's host)."""
    from searchkit.batch.executors import dashboard_lines

    link = "http://127.0.0.1:8799/status"
    assert dashboard_lines(link, "127.0.0.1:8799") == ["searchkit: Dask dashboard at http://127.0.0.1:8799/status"]
    every, warning = dashboard_lines(link, "0.0.0.0:8799")
    assert every == "searchkit: Dask dashboard at http://127.0.0.1:8799/status, listening on 0.0.0.0:8799 " \
                    "(every interface)"
    assert warning.startswith("searchkit: warning: the Dask dashboard listens on 0.0.0.0:8799, not only on "
                              "loopback: anyone who can reach this machine there sees the workers")
    named, _warning = dashboard_lines(link, "192.0.2.7:8799")
    assert named == "searchkit: Dask dashboard at http://192.0.2.7:8799/status, listening on 192.0.2.7:8799"
