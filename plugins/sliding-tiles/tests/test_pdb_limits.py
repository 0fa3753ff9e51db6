"""Building a pattern database on first use holds the case's limits (tester defect: a cold ``-H
'pdb(partition=7-8)' --time-limit 1`` ran the whole two-and-a-half-minute build, and Ctrl-C waited for it),
and shows its progress bar on a terminal whichever builder runs.  The native builder runs in the solving
process (issue 34), under the case's deadline and a cancel flag Ctrl-C sets; no builder process exists to
be orphaned, and these tests check that none appears.

Real processes, signals and a pseudo-terminal: ``searchkit solve`` in a child, its cache a fresh folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("numpy")

KORF_1 = "13 6 8 12\n15 14 0 10\n11 7 4 5\n9 1 3 2\n"  # Korf's first instance (57 moves)


def _native_builder() -> bool:
    from sliding_tiles.native import pdb_builder

    return pdb_builder() is not None


def _solve(tmp_path: Path, *options: str, **popen) -> subprocess.Popen:
    case = tmp_path / "korf1.txt"
    case.write_text(KORF_1)
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "sliding-tiles", "-H", "pdb(partition=7-8)",
                             *options, str(case)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, **popen)


def _builders_of(cache: Path) -> list[str]:
    """Command lines of running processes that name ``cache`` (the native builder's child, when it had one,
    named its file)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(cache) in cmdline and "-m searchkit" not in cmdline:
            found.append(cmdline)
    return found


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a suite run in the background ignores SIGINT (POSIX)


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_a_cold_build_stops_at_the_time_limit_and_leaves_no_file(tmp_path, engine):
    # The first table, tiles 1-8 (518.9 M entries), takes minutes: it cannot be built in 0.3 s.
    proc = _solve(tmp_path, "--engine", engine, "--time-limit", "0.3")
    out, err = proc.communicate(timeout=120)
    assert out == "? (time_limit)\n", err
    assert "Traceback" not in err
    cache = tmp_path / "cache"
    assert not cache.exists() or not any(cache.iterdir())  # no table, no temporary file
    assert _builders_of(cache) == []


def test_a_memory_allowance_below_the_tables_stops_before_building(tmp_path):
    # The first table, tiles 1-8, needs 3.25 bytes a placement of 518.9 M (native: 1.7 GB), or a byte per
    # abstract state (Python): far over 200 MB.
    proc = _solve(tmp_path, "--memory-limit", "200")
    out, err = proc.communicate(timeout=120)
    assert out == "? (memory_limit)\n", err
    assert "Traceback" not in err


def _address_space(pid: int) -> int:
    """The process's address space in bytes (``VmSize``), 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals and /proc")
def test_ctrl_c_during_a_native_build_stops_it_and_leaves_no_file(tmp_path):
    if not _native_builder():
        pytest.skip("the native engine is not installed")
    cache = tmp_path / "cache"
    proc = _solve(tmp_path, preexec_fn=_sigint_default)
    # the builder runs in the solving process: once its address space has grown by the 8-tile table's buffers
    # (1.6 GB reserved at the start of the build; the interpreter alone is far below 1 GiB), it is building
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _address_space(proc.pid) < (1 << 30) and proc.poll() is None:
        time.sleep(0.01)
    assert _address_space(proc.pid) >= 1 << 30, "the native builder never started"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)  # the build takes minutes: only a build that stops ends in time
    assert proc.returncode == 130, err
    assert out == "? (cancelled)\n", err  # the case keeps its line, as when its search is stopped (D5)
    assert "searchkit: cancelled" in err and "Traceback" not in err
    assert _builders_of(cache) == []
    assert not [p for p in cache.glob("*") if p.suffix in (".tmp", ".pdb")]
    assert not list(cache.glob(".*.tmp"))


def test_the_python_builder_checks_the_clock_and_the_allowance(tmp_path, monkeypatch):
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from searchkit.machinery.pdb import load_or_build
    from sliding_tiles.pdb import TileAbstraction

    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    five = TileAbstraction(4, (1, 2, 3, 4, 5))  # 5.8 M abstract states: several batches of 2**20
    python_only = lambda *_: False  # noqa: E731  (decline the native builder)
    with active(Limiter(Limits(time_limit=0.001))):
        with pytest.raises(LimitReached) as stop:
            load_or_build(five, builder=python_only, quiet=True)
    assert stop.value.status == "time_limit"
    with active(Limiter(Limits(memory_mb=4))):
        with pytest.raises(LimitReached) as stop:
            load_or_build(five, builder=python_only, quiet=True)
    assert stop.value.status == "memory_limit"
    assert not any(tmp_path.iterdir())
    table = load_or_build(TileAbstraction(3, (1, 2)), builder=python_only, quiet=True)  # no running case: no limit
    assert table.built


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_build_on_first_use_shows_its_bar_on_a_terminal(tmp_path, engine):
    # The native engine makes its tables ready itself (sliding_tiles.native), the Python one through
    # searchkit.machinery.pdb.load_or_build: both show the bar, for the native builder's tables too.
    from searchkit.testing.terminal import run_on_terminal

    case = tmp_path / "korf1.txt"
    case.write_text(KORF_1)
    out = tmp_path / "out.txt"
    code, terminal = run_on_terminal(["solve", "sliding-tiles", "-H", "pdb(partition=5-5-5)", "--engine", engine,
                                      "--max-nodes", "1", case], stdout=out,
                                     env={"SEARCHKIT_CACHE_DIR": str(tmp_path / "cache")})
    assert "building sliding-tiles 4x4 tiles 1-2-3-5-6" in terminal, (code, terminal)
    assert "100%" in terminal  # the builder's layers reached the bar (its total is unknown until the first)
    assert "Traceback" not in terminal
    assert out.read_text() == "? (node_limit)\n"
    assert len(list((tmp_path / "cache").glob("*.pdb"))) == 3


def test_a_builder_out_of_address_space_is_a_memory_limit_not_an_error(tmp_path):
    # Under the address-space limit (--memory-limit's RLIMIT_AS) the builder's allocations fail; they are
    # fallible, so that is the case's memory_limit, not a builder defect (nor an abort of the process).
    if not _native_builder():
        pytest.skip("the native engine is not installed")
    code = f"""
import resource
from searchkit.limits import LimitReached
from sliding_tiles.native import build_table
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + (300 << 20), resource.getrlimit(resource.RLIMIT_AS)[1]))
try:
    build_table(4, [1, 2, 3, 4, 5, 6, 7, 8], {str(tmp_path / "t.pdb")!r}, "key")
except LimitReached as stop:
    print(stop.status)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout == "memory_limit\n", done.stderr
    assert not any(tmp_path.iterdir())


def test_the_native_build_runs_in_this_process_under_the_cases_deadline(tmp_path):
    # A passed deadline stops it with time_limit before anything is written; without a running case it builds.
    if not _native_builder():
        pytest.skip("the native engine is not installed")
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from sliding_tiles.native import build_table

    path = tmp_path / "t.pdb"
    limiter = Limiter(Limits(time_limit=1e-9))
    with active(limiter):
        with pytest.raises(LimitReached) as stop:
            build_table(4, [1, 2, 3, 4, 5, 6, 7, 8], str(path), "key")
    assert stop.value.status == "time_limit"
    assert not any(tmp_path.iterdir())
    build_table(3, [1, 2, 3], str(path), "key")
    assert path.exists()


def test_the_native_engine_keeps_the_table_it_built_instead_of_reading_it_back(tmp_path):
    # The native engine's builder keeps the table it has just built for the process: loading it does not
    # read the file back (here the file is overwritten after the build, and the load still gives the table).
    if not _native_builder():
        pytest.skip("the native engine is not installed")
    import hashlib

    import sliding_tiles_native as mod
    from sliding_tiles.native import pdb_builder
    from sliding_tiles.pdb import TileAbstraction

    a = TileAbstraction(3, (1, 2, 3))
    path = tmp_path / "t.pdb"
    assert pdb_builder(keep=True)(a, path, a.key())
    path.write_bytes(b"not a table")
    assert mod.tiles_load_pdb(str(path), hashlib.sha256(a.key().encode()).digest()) == a.entries
