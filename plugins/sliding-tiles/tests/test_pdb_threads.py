"""A table is built on the search's threads (issue 34, item 2: the multi-threaded build on ``--threads``):
``solve --threads N`` hands N to the native builder (``sliding_tiles_native.tiles_build_pdb(..., threads=N)``)
of a table its heuristic has to build, on both engines, and under ``--jobs J`` the one worker that builds it
(the build lock) gives its N; ``pdb build --threads N|auto`` does the same, checked as ``solve --threads``
is; the table's bytes are the same on any number of threads.

The builds are real; what the builder was handed is seen by a recording wrapper around the real
``tiles_build_pdb`` (in this process by monkeypatch, in a command's processes and its ``--jobs`` workers by a
``sitecustomize`` module on ``PYTHONPATH``, which every Python process imports as it starts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

native = pytest.importorskip("sliding_tiles_native")
pytest.importorskip("numpy")

BOARDS = "8 6 7\n2 5 4\n3 0 1\n\n1 2 3\n4 5 6\n0 7 8\n"  # 31 moves, 2 moves

#: Wraps the real builder in every process that imports it: one JSON line per call, appended to
#: $SK_TEST_BUILDS (each line written by one write: O_APPEND keeps the workers' lines whole).
RECORDER = '''
import json, os
try:
    import sliding_tiles_native as _module
except ImportError:
    _module = None
if _module is not None and os.environ.get("SK_TEST_BUILDS"):
    _real = _module.tiles_build_pdb

    def tiles_build_pdb(*args, **kw):
        threads = kw.get("threads", args[8] if len(args) > 8 else 1)
        line = json.dumps({"pid": os.getpid(), "tiles": list(args[1]), "threads": threads}) + "\\n"
        fd = os.open(os.environ["SK_TEST_BUILDS"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        return _real(*args, **kw)

    _module.tiles_build_pdb = tiles_build_pdb
'''


def _run(args, tmp_path, cache, engine=None):
    """``searchkit ARGS`` in a child process with the recorder; ``(done, builds)``."""
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(RECORDER)
    log = tmp_path / f"builds-{len(list(tmp_path.glob('builds-*')))}.jsonl"
    env = dict(os.environ, SEARCHKIT_CACHE_DIR=str(cache), SK_TEST_BUILDS=str(log),
               PYTHONPATH=os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")])))
    if engine:
        env["SEARCHKIT_ENGINE"] = engine
    done = subprocess.run([sys.executable, "-m", "searchkit", *args], capture_output=True, text=True, env=env,
                          timeout=600)
    builds = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return done, builds


@pytest.fixture
def recorded(monkeypatch, tmp_path):
    """The calls of ``tiles_build_pdb`` in this process (each ``(tiles, threads)``), each run by the real one;
    a fresh cache folder."""
    calls: list[tuple[list[int], int]] = []
    real = native.tiles_build_pdb

    def tiles_build_pdb(*args, **kw):
        calls.append((list(args[1]), kw.get("threads", args[8] if len(args) > 8 else 1)))
        return real(*args, **kw)

    monkeypatch.setattr(native, "tiles_build_pdb", tiles_build_pdb)
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path / "cache"))
    return calls


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_solve_builds_its_tables_on_its_threads(recorded, engine):
    # before: tiles_build_pdb was called without threads (one thread) whatever --threads said
    from searchkit.api import solve

    outcome = solve("sliding-tiles", BOARDS.split("\n\n")[0], heuristic="pdb(partition=4-4)", engine=engine,
                    threads=2)
    assert outcome.cost == 31 and outcome.engine == engine
    assert sorted(recorded) == [([1, 2, 3, 4], 2), ([5, 6, 7, 8], 2)]


def test_outside_a_case_a_table_is_built_on_one_thread(recorded):
    from searchkit.limits import threads
    from searchkit.plugin import load_or_build
    from sliding_tiles.pdb import abstractions

    assert threads() == 1
    load_or_build(abstractions("4-4", n=3)[0], quiet=True)
    assert recorded == [([1, 2, 3, 4], 1)]


@pytest.mark.parametrize("engine", ["python", "native"])
def test_solve_threads_reach_the_builder_through_the_command_line(tmp_path, engine):
    boards = tmp_path / "b.txt"
    boards.write_text(BOARDS)
    done, builds = _run(["solve", "sliding-tiles", "--threads", "2", "-H", "pdb(partition=4-4)", str(boards)],
                        tmp_path, tmp_path / "cache", engine)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["31", "2"]
    assert sorted((b["tiles"], b["threads"]) for b in builds) == [([1, 2, 3, 4], 2), ([5, 6, 7, 8], 2)]


@pytest.mark.parametrize("engine", ["python", "native"])
def test_under_jobs_each_table_is_built_once_on_the_workers_threads(tmp_path, engine):
    boards = tmp_path / "b.txt"
    boards.write_text("\n".join([BOARDS] * 4))
    done, builds = _run(["solve", "sliding-tiles", "--jobs", "2", "--threads", "2", "-H", "pdb(partition=4-4)",
                         str(boards)], tmp_path, tmp_path / "cache", engine)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["31", "2"] * 4
    assert sorted((b["tiles"], b["threads"]) for b in builds) == [([1, 2, 3, 4], 2), ([5, 6, 7, 8], 2)]
    assert os.getpid() not in {b["pid"] for b in builds}


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "two", "1025", ""])
def test_pdb_build_refuses_a_bad_threads_value_naming_the_option(tmp_path, value):
    done, builds = _run(["pdb", "build", "sliding-tiles", "pdb(partition=4-4)", "--threads", value], tmp_path,
                        tmp_path / "cache")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Invalid value for '--threads'" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert builds == [] and not (tmp_path / "cache").exists()


def test_pdb_build_on_two_threads_writes_the_same_bytes_as_on_one(tmp_path):
    # the 8-puzzle's one table of all eight tiles: 181,440 reachable placements over 31 layers
    tables = {}
    for threads in ("1", "2", "auto"):
        cache = tmp_path / f"cache-{threads}"
        done, builds = _run(["pdb", "build", "sliding-tiles", "pdb(partition=8)", "--threads", threads], tmp_path,
                            cache)
        assert done.returncode == 0, done.stderr
        assert "built" in done.stdout
        from searchkit.machinery.batch.executors import resolve_threads

        assert builds == [{"pid": builds[0]["pid"], "tiles": list(range(1, 9)),
                           "threads": resolve_threads(threads)}], builds
        (table,) = [p for p in cache.iterdir() if p.suffix == ".pdb"]
        tables[threads] = (table.name, table.read_bytes())
    assert tables["2"] == tables["1"] and tables["auto"] == tables["1"]
    assert len(tables["1"][1]) > 181_440 // 2


def test_pdb_build_threads_default_is_one(tmp_path):
    done, builds = _run(["pdb", "build", "sliding-tiles", "pdb(partition=4-4)"], tmp_path, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert sorted(b["threads"] for b in builds) == [1, 1]
    assert Path(tmp_path / "cache").is_dir()
