"""A table the native engine builds for a case has its file written behind (issue 34, the cold Korf 100 run):
the 519 MB file of the 8-tile table was written on the calling thread while the other core waited, before the
next table could start.  Now ``ensure_file`` runs the write on a thread of its own, holding the build lock until
the file is written and stamped, and the case waits for it only when it is done.  These tests hold a write
back to see the route in between, and make one fail."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest


def _native():
    from sliding_tiles.native import pdb_builder

    if pdb_builder() is None:
        pytest.skip("the native engine is not installed")


@pytest.fixture
def table(tmp_path, monkeypatch):
    """The 8-puzzle's first 4-4 table in a fresh cache folder, and the module's state of writes reset."""
    _native()
    from searchkit.machinery.pdb import store
    from sliding_tiles.pdb import abstractions

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(cache))
    monkeypatch.setattr(store, "_BEHIND", {})
    monkeypatch.setattr(store, "_BEHIND_FAILED", [])
    monkeypatch.setattr(store, "_KEPT_FILES", {})
    return abstractions("4-4", n=3)[0]


def _held(path) -> bool:
    """Whether another holder has the build lock of ``path`` (flock locks conflict between open files, in one
    process too)."""
    from searchkit.machinery.locks import lock_beside

    class Busy(Exception):
        pass

    def wait():
        raise Busy

    try:
        held = lock_beside(path, wait)
    except Busy:
        return True
    held.release()
    return False


def test_the_file_is_written_behind_under_the_lock_and_in_the_cache_when_the_writes_finish(table, capsys):
    from searchkit.machinery.pdb import store
    from searchkit.plugin import ensure_file, finish_writes
    from sliding_tiles.native import pdb_builder

    go, calls, loads = threading.Event(), [], []
    real = pdb_builder(keep=True, behind=True)

    def builder(*args):
        calls.append(args[1])
        write = real(*args)
        assert callable(write)  # the file's write, handed back

        def held_back():
            assert go.wait(60)
            write()

        return held_back

    path = ensure_file(table, builder, lambda where, crc: loads.append((where, crc)), quiet=True)
    assert not path.exists() and _held(path)  # built and kept; its file is still to come, under the lock
    assert loads == [(path, False)]  # the engine took the table it keeps
    assert ensure_file(table, builder, lambda *a: loads.append(a), quiet=True) == path  # at once, no second build
    assert calls == [path] and len(loads) == 1
    go.set()
    finish_writes()
    assert path.is_file() and store.stamped(path) and not _held(path)
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    assert store._BEHIND == {}
    # written and stamped: the next lookup loads it as verified, builds nothing
    assert ensure_file(table, builder, lambda where, crc: loads.append((where, crc)), quiet=True) == path
    assert calls == [path] and loads[-1] == (path, False)
    assert capsys.readouterr().err == ""


def test_a_file_that_cannot_be_written_is_said_in_one_line_and_the_table_kept(table, capsys):
    from searchkit.machinery.pdb import store
    from searchkit.plugin import ensure_file, finish_writes
    from sliding_tiles.native import pdb_builder

    real = pdb_builder(keep=True, behind=True)

    def builder(*args):
        real(*args)

        def fails():
            raise OSError(28, "No space left on device")

        return fails

    built = []
    path = ensure_file(table, lambda *a: built.append(1) or builder(*a), lambda where, crc: None)
    finish_writes()
    err = capsys.readouterr().err.splitlines()
    said = [line for line in err if "cannot write" in line]
    assert said == [f"searchkit: cannot write pattern database {path} (No space left on device); it is kept in "
                    f"memory for this run"], err
    assert not path.exists() and not store.stamped(path) and not _held(path)
    # the next case takes the table the engine keeps: no second build, no second line
    assert ensure_file(table, lambda *a: built.append(1) or builder(*a), lambda where, crc: None) == path
    assert built == [1] and capsys.readouterr().err == ""


def test_a_defect_in_a_write_behind_is_raised_when_the_writes_finish(table):
    from searchkit.plugin import ensure_file, finish_writes
    from sliding_tiles.native import pdb_builder

    real = pdb_builder(keep=True, behind=True)

    def builder(*args):
        real(*args)

        def broken():
            raise ValueError("a defect")

        return broken

    path = ensure_file(table, builder, lambda where, crc: None, quiet=True)
    with pytest.raises(ValueError, match="a defect"):
        finish_writes()
    assert not _held(path)
    finish_writes()  # said once


def test_a_cold_run_leaves_every_table_written_and_stamped(tmp_path):
    # through the command line: the tables built for the first case are in the cache, stamped, when the run
    # ends; no temporary file, no lock file; a second run reads them (no build)
    _native()
    cache = tmp_path / "cache"
    boards = tmp_path / "b.txt"
    boards.write_text("8 6 7\n2 5 4\n3 0 1\n\n1 2 3\n4 5 6\n0 7 8\n")
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(cache), SEARCHKIT_ENGINE="native")
    run = [sys.executable, "-m", "searchkit", "solve", "sliding-tiles", "-H", "pdb(partition=4-4)", str(boards)]
    for _ in range(2):
        done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0 and done.stdout.split() == ["31", "2"], done.stderr
        names = sorted(p.name for p in cache.iterdir())
        tables = [n for n in names if n.endswith(".pdb")]
        assert len(tables) == 2 and sorted(f".{n}.verified" for n in tables) == [n for n in names if
                                                                                  n.endswith(".verified")]
        assert len(names) == 4, names  # nothing else: no temporary file, no lock
        if _ == 0:
            first = {n: os.stat(cache / n).st_ino for n in tables}
    assert {n: os.stat(cache / n).st_ino for n in tables} == first  # the second run built nothing


def test_an_engine_that_keeps_its_tables_checks_an_unchanged_file_once_a_process(table, monkeypatch):
    # a run of many cases asked for each table file once a case: 0.08 s of warm Korf 100's 0.6 s (issue 34)
    from searchkit.machinery.pdb import store
    from searchkit.plugin import ensure_file, finish_writes
    from sliding_tiles.native import pdb_builder

    monkeypatch.setattr(store, "_HELD", {})
    loads = []

    def load(where, crc):
        loads.append((where, crc))

    path = ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="t")
    finish_writes()
    assert loads == [(path, False)]
    for _ in range(3):
        assert ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="t") == path
    assert loads == [(path, False)]  # built, kept and unchanged: not asked again
    ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="u")  # another engine loads it itself
    ensure_file(table, pdb_builder(keep=True), load, quiet=True)  # and so does a caller naming none
    ensure_file(table, pdb_builder(keep=True), load, quiet=True)
    assert loads == [(path, False)] * 4
    # the file replaced by a copy of itself: another identity, so checked again, whole (the stamp is stale)
    copy = path.with_name("copy")
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)
    assert ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="t") == path
    assert loads[-1] == (path, True) and len(loads) == 5
    assert ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="t") == path
    assert len(loads) == 5
    # the file gone: built again, not taken as held
    path.unlink()
    ensure_file(table, pdb_builder(keep=True), load, quiet=True, engine="t")
    finish_writes()
    assert path.is_file() and len(loads) == 6
