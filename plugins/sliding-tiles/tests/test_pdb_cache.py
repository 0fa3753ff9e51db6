"""Sliding tiles' tables in a cache they cannot trust or cannot write (issue 32), through the real command line:
the native builder's file never follows a planted link (item 8), an unwritable cache costs one build and one
warning for the whole run on both engines (item 11), ``pdb build`` states a table's size and refuses one larger
than the memory (item 15), and a warm table under too small a ``--memory-limit`` is said to be just that."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

BOARDS = "8 6 7\n2 5 4\n3 0 1\n\n1 2 3\n4 5 6\n0 7 8\n"  # 31 moves, 2 moves


def _native() -> bool:
    from sliding_tiles.native import pdb_builder

    return pdb_builder() is not None


def _run(args, cache, engine=None, **kw):
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(cache))
    if engine:
        env["SEARCHKIT_ENGINE"] = engine
    return subprocess.run([sys.executable, "-m", "searchkit", *args], capture_output=True, text=True, env=env,
                          timeout=600, **kw)


def test_the_native_builder_never_follows_a_link_planted_at_its_temporary_name(tmp_path, monkeypatch):
    # the native writer's temporary file was `TABLE.PID.tmp` (File::create, following links): links planted for
    # the next few hundred process ids made `pdb build` overwrite the file they pointed to, and say "built"
    if not _native():
        pytest.skip("the native builder is not installed")
    cache = tmp_path / "cache"
    cache.mkdir()
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    from searchkit.machinery.pdb import path_for
    from sliding_tiles.pdb import abstractions

    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(cache))
    paths = [path_for(a) for a in abstractions("4-4", n=3)]
    last = int(Path("/proc/sys/kernel/ns_last_pid").read_text())
    for path in paths:
        for pid in range(last + 1, last + 400):
            Path(f"{path}.{pid}.tmp").symlink_to(victim)
    done = _run(["pdb", "build", "sliding-tiles", "pdb(partition=4-4)"], cache)
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == b"precious"
    assert all(p.is_file() and not p.is_symlink() for p in paths)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_an_unwritable_cache_builds_once_and_solves_every_case(tmp_path, engine):
    # before: every case built the table again, then failed with "(a defect in ...)"; the tests run as root,
    # whom chmod does not stop, so the cache is /proc/self, a folder no one can create a file in
    if engine == "native" and not _native():
        pytest.skip("the native engine is not installed")
    boards = tmp_path / "b.txt"
    boards.write_text(BOARDS + "\n" + BOARDS)
    done = _run(["solve", "sliding-tiles", "-H", "pdb(partition=4-4)", str(boards)], "/proc/self", engine)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["31", "2", "31", "2"]
    assert done.stderr.count("cannot keep pattern databases in /proc/self") == 1, done.stderr
    assert "defect" not in done.stderr and "waiting" not in done.stderr


def test_pdb_build_states_the_size_and_refuses_a_table_larger_than_the_memory(tmp_path):
    # 'pdb(partition=7-8, blank=1)': 4.15 G entries, went past 4.8 GB and on growing
    done = _run(["pdb", "build", "sliding-tiles", "pdb(partition=7-8, blank=1)"], tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("searchkit: building sliding-tiles 4x4 tiles 1-2-3-4-5-6-7-8 and the blank: "
                               "4,151,347,200 entries, about ")
    assert lines[1].startswith("searchkit: error: sliding-tiles 4x4 tiles 1-2-3-4-5-6-7-8 and the blank: building "
                               "its table of 4,151,347,200 entries needs about ")
    assert "more than this machine's" in lines[1] and len(lines) == 2
    small = _run(["pdb", "build", "sliding-tiles", "pdb(partition=6-6-3)", "--memory-limit", "5"], tmp_path)
    assert small.returncode == 2
    assert small.stderr.strip().splitlines()[-1].endswith("more than --memory-limit 5 (MiB)")
    assert not [p for p in Path(tmp_path).iterdir() if p.suffix == ".pdb"]


def test_a_warm_table_over_the_memory_limit_is_a_memory_limit_not_unusable(tmp_path):
    # before: "pattern database ... is unusable (cannot read ...: out of memory); rebuilding it", and nothing
    # was rebuilt
    if not _native():
        pytest.skip("the native builder is not installed")
    assert _run(["pdb", "build", "sliding-tiles", "pdb(partition=6-6-3)"], tmp_path).returncode == 0
    board = tmp_path / "korf1.txt"
    board.write_text("13 6 8 12\n15 14 0 10\n11 7 4 5\n9 1 3 2\n")
    for engine in ("native", "python"):
        done = _run(["solve", "sliding-tiles", "-H", "pdb(partition=6-6-3)", "--memory-limit", "4", str(board)],
                    tmp_path, engine)
        assert done.stdout.strip() == "? (memory_limit)", (engine, done.stdout, done.stderr)
        assert "unusable" not in done.stderr and "rebuilding" not in done.stderr, (engine, done.stderr)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_an_unwritable_cache_under_jobs_builds_each_table_once_for_every_worker(tmp_path, engine):
    # before: each worker, a process of its own, built the table again in its own memory and warned, so
    # `--jobs 2` built it twice; now the workers share one private temporary cache, removed at the end
    if engine == "native" and not _native():
        pytest.skip("the native engine is not installed")
    boards = tmp_path / "b.txt"
    boards.write_text("\n".join([BOARDS] * 6))
    temp = tmp_path / "tmp"
    temp.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "searchkit", "solve", "sliding-tiles", "--jobs", "2", "-H", "pdb(partition=4-4)",
         str(boards)], capture_output=True, text=True, timeout=600,
        env=dict(os.environ, SEARCHKIT_CACHE_DIR="/proc/self", SEARCHKIT_ENGINE=engine, TMPDIR=str(temp)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["31", "2"] * 6
    assert done.stderr.count("cannot keep pattern databases in /proc/self") == 1, done.stderr
    assert "this run's workers build each table once into a private temporary folder" in done.stderr
    assert "defect" not in done.stderr and "Traceback" not in done.stderr
    assert os.listdir(temp) == []  # the private cache is gone with the run
