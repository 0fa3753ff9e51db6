"""The pattern database cache as a shared folder (issue 32): table files never follow a planted link (item 8),
a cache that cannot keep a table builds it once for the run (item 11), one process builds a table while the
others wait (item 12), and a build larger than the memory is refused before it starts (item 15)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from searchkit.machinery.pdb import load_or_build, path_for  # noqa: E402
from searchkit.machinery.pdb import store  # noqa: E402
from test_pdb_core import toy_abstraction  # noqa: E402

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """A fresh cache folder (of ours, 0o755) per test, and no table kept in memory from another test."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o755)
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(cache))
    monkeypatch.setattr(store, "_KEPT", {}, raising=False)
    monkeypatch.setattr(store, "_KEPT_FILES", {}, raising=False)
    monkeypatch.setattr(store, "_WARNED", set(), raising=False)
    return cache


def python_only(counter):
    """A builder that declines (so the Python builder builds), counting the builds."""
    def builder(*_):
        counter.append(1)
        return False
    return builder


def test_a_table_write_never_follows_a_link_planted_at_its_temporary_name(tmp_path):
    # the writer's temporary name was `.NAME.PID.tmp`: a link planted there by another user of a shared cache
    # made a table build overwrite the file it pointed to, and report "built"
    a = toy_abstraction((1, 2, 3))
    path = path_for(a)
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (path.parent / f".{path.name}.{os.getpid()}.tmp").symlink_to(victim)
    path.symlink_to(victim)  # and one at the table's own name
    db = load_or_build(a, builder=python_only([]), quiet=True)
    assert victim.read_bytes() == b"precious"
    assert db.built and db.path == path and not path.is_symlink()
    assert not load_or_build(a, quiet=True).built  # the file written is the table


def test_a_cache_folder_others_may_write_is_neither_read_nor_written(_own_cache, capfd):
    a = toy_abstraction((1, 2, 3))
    load_or_build(a, builder=python_only([]), quiet=True)  # a valid table, but anyone could have put it there
    os.chmod(_own_cache, 0o777)
    builds = []
    capfd.readouterr()
    db = load_or_build(a, builder=python_only(builds))
    again = load_or_build(a, builder=python_only(builds))
    err = capfd.readouterr().err
    assert builds == [1] and db.path is None and again is db  # built once, from memory for the run
    assert err.count("\n") == 1
    assert f"cannot keep pattern databases in {_own_cache}: other users may write in it" in err
    # sticky and ours (as /tmp is for root): our files cannot be removed or replaced by others, so it is used
    os.chmod(_own_cache, 0o1777)
    store._KEPT.clear()
    assert load_or_build(a, builder=python_only([]), quiet=True).path == path_for(a)


def test_an_unwritable_cache_builds_each_table_once_and_keeps_it_in_memory(monkeypatch, capfd):
    # the tests run as root, whom chmod does not stop: /proc/self is a folder no one can create files in
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", "/proc/self")
    a = toy_abstraction((1, 2, 3))
    builds = []
    first = load_or_build(a, builder=python_only(builds))
    second = load_or_build(a, builder=python_only(builds))
    err = capfd.readouterr().err
    assert builds == [1], "the table was built again for the next case"
    assert second is first and first.path is None
    assert err.count("\n") == 1 and "cannot keep pattern databases in /proc/self: it cannot be written" in err


def test_a_build_waits_for_the_process_building_the_same_table(_own_cache):
    import fcntl

    a = toy_abstraction((1, 2, 3))
    path = path_for(a)
    lock = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)  # this process is "building" the table
    code = ("import sys; sys.path.insert(0, %r); import test_pdb_core as t; "
            "from searchkit.machinery.pdb import load_or_build; "
            "db = load_or_build(t.toy_abstraction((1, 2, 3)), builder=lambda *a: False); "
            "print('built' if db.built else 'cached')") % str(HERE)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, SEARCHKIT_CACHE_DIR=str(_own_cache)))
    try:
        line = child.stderr.readline()  # it says it waits (without the lock, it built and printed nothing here)
        assert line.startswith("searchkit: waiting for another process building toy-hops 1-2-3"), line
        from searchkit.machinery.pdb.build import build

        store.write(path, a.key(), build(a))  # the "other builder" finishes
        os.close(lock)
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out.strip() == "cached"  # it read the table the other process built


def test_the_lock_of_a_builder_that_died_is_no_obstacle(_own_cache, capfd):
    # flock: the kernel releases a lock when its holder exits, killed or not, so no stale lock is left
    import signal

    a = toy_abstraction((1, 2, 3))
    path = path_for(a)
    code = ("import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600); "
            "fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(300)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(path.with_name(f".{path.name}.lock"))],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    holder.stdout.close()
    db = load_or_build(a, builder=python_only([]))
    assert db.built and db.path == path
    assert "waiting" not in capfd.readouterr().err


def test_a_build_larger_than_the_machine_or_the_memory_limit_is_refused_before_it_starts():
    from searchkit.errors import PlanError
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from searchkit.machinery.pdb.abstraction import ExplicitAbstraction

    def never(_rank):
        raise AssertionError("nothing is built")

    huge = ExplicitAbstraction("toy-hops", (1,), {"n": "huge"}, 10**13, [0], never)
    with pytest.raises(PlanError, match=r"toy-hops 1: building its table of 10,000,000,000,000 entries needs about "
                                        r"[\d,.]+ GiB of memory, more than this machine's [\d,.]+ GiB; no option "
                                        r"raises this bound \(--memory-limit only lowers it\): name a smaller "
                                        r"pattern in the heuristic's spec$"):
        load_or_build(huge, builder=python_only([]), quiet=True)  # (a tester: the refusal named no option)
    middle = ExplicitAbstraction("toy-hops", (1,), {"n": "middle"}, 10**6, [0], never)
    with active(Limiter(Limits(memory_mb=1))), pytest.raises(LimitReached) as stopped:
        load_or_build(middle, builder=python_only([]), quiet=True)
    assert stopped.value.status == "memory_limit"
    assert not list(path_for(middle).parent.iterdir())  # nothing left behind, not even a lock file


def test_a_table_is_checked_whole_once_then_by_its_stamp(_own_cache):
    """Issue 34 (cheap loading): a table's CRC over all its data is checked when it is written or first read;
    later loads check its header, key, length and verification stamp.  Corruption below the filesystem (the
    bytes changed, the file's times and inode not: simulated here by stamping the damaged file) is then
    only found by the full check (`pdb info --verify`), which removes the stamp; a change through the
    filesystem, even with the modification time put back, is found at once."""
    a = toy_abstraction((1, 2))
    db = load_or_build(a, builder=python_only([]), quiet=True)
    path = db.path
    assert store.stamped(path) is not None  # written by us: stamped with the table's own max
    assert store.stamped(path)["max"] == db.max
    blob = bytearray(path.read_bytes())
    blob[-1] ^= 1
    path.write_bytes(bytes(blob))
    assert store.stamped(path) is None  # written through the filesystem: the stamp no longer holds
    with pytest.raises(store.CorruptFile, match="checksum"):
        store.read(path, a.key())
    store.stamp(path)  # as if the bytes had rotted on the disk after the stamp
    assert store.read(path, a.key()).entries == db.entries  # the cheap load does not read the CRC
    assert store.verify_file(path, a.key())["crc"] is False
    with pytest.raises(store.CorruptFile, match="checksum"):
        store.verify_file(path, a.key(), full=True)
    assert store.stamped(path) is None  # the full check found it: the stamp is gone
    with pytest.raises(store.CorruptFile, match="checksum"):
        store.read(path, a.key())
    # a change with the modification time put back still changes the change time: found
    good = load_or_build(a, builder=python_only([]), quiet=True)  # rebuilt (one line said so), stamped
    st = os.stat(good.path)
    blob = bytearray(good.path.read_bytes())
    blob[-1] ^= 1
    good.path.write_bytes(bytes(blob))
    os.utime(good.path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(store.CorruptFile, match="checksum"):
        store.read(good.path, a.key())


def test_a_stamp_is_never_followed_through_a_link_nor_taken_from_another_file(_own_cache, tmp_path):
    a = toy_abstraction((1, 2))
    db = load_or_build(a, builder=python_only([]), quiet=True)
    side = store._stamp_path(db.path)
    record = side.read_text()
    side.unlink()
    elsewhere = tmp_path / "record"
    elsewhere.write_text(record)
    side.symlink_to(elsewhere)
    assert store.stamped(db.path) is None
    side.unlink()
    side.write_text(record.replace('"size": ', '"size": 1'))
    assert store.stamped(db.path) is None
    store.clear([a])
    assert not side.exists() and not db.path.exists()


def test_pdb_build_and_info_need_no_numpy_with_the_native_builder(tmp_path):
    """Review 2026-12c, defect 4: `pdb build` demanded numpy even when the native builder does the work.
    With numpy blocked, `pdb build` builds and `pdb info` checks natively built tables; `--verify` checks
    the whole CRC again."""
    pytest.importorskip("sliding_tiles_native")
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from searchkit.cli import main\n"
            "sys.argv = ['searchkit', *sys.argv[1:]]\n"
            "main()\n")
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(tmp_path / "cache"))

    def run(*args):
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                              timeout=300)

    built = run("pdb", "build", "sliding-tiles", "pdb(partition=4-4)")
    assert built.returncode == 0, built.stderr
    assert built.stdout.count("built, 3,024 entries") == 2
    info = run("pdb", "info", "sliding-tiles", "pdb(partition=4-4)")
    assert info.returncode == 0 and info.stdout.count("verified, stamped") == 2, info.stderr
    full = run("pdb", "info", "--verify", "sliding-tiles", "pdb(partition=4-4)")
    assert full.returncode == 0 and full.stdout.count("verified:") == 2, full.stderr
    # a table only the Python builder makes (blank=1) says in one line that it needs numpy
    blank = run("pdb", "build", "sliding-tiles", "pdb(partition=4-4,blank=1)")
    assert blank.returncode == 2 and "numpy" in blank.stderr and "Traceback" not in blank.stderr


def test_the_stand_in_cache_is_announced_once_a_run_whichever_worker_builds(tmp_path, monkeypatch, capfd):
    """Under --jobs with an unusable cache, two workers building two tables at once each said why the run uses
    a private folder (seen as a flaky `--jobs 2` test): the first to say it now leaves a mark there."""
    import json

    private = tmp_path / "private"
    private.mkdir()
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(private))
    monkeypatch.setenv(store.STAND_IN_VAR, json.dumps({"folder": "/proc/self", "problem": "it cannot be written"}))
    store._say_stand_in(private / "a.pdb", False)
    store._WARNED.clear()  # the other worker: a process of its own
    store._say_stand_in(private / "b.pdb", False)
    assert capfd.readouterr().err.count("this run's workers build each table once") == 1
