"""The benchmark scripts still run: each on a few bundled boards, checking its own answers.

Benchmarks are not timed here (no wall-clock assertions in tests); this only
keeps them from rotting when the code they drive changes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PC19_FIRST50 = ROOT / "tests" / "data" / "pc19-first50.txt"


def _run(*argv: str) -> str:
    proc = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_flood_pc19_checks_its_answers():
    out = _run("benchmarks/flood_pc19.py", "--limit", "4", str(PC19_FIRST50))
    expected = sum(int(x) for x in PC19_FIRST50.with_suffix(".ans").read_text().split()[:4])
    assert f"total moves: {expected} (expected {expected}, wrong: none)" in out


def test_flood_floor_oracle_searches_the_same_states():
    # The script exits non-zero if the dict-backed run expands other states than the real one.
    out = _run("benchmarks/flood_floor.py", "--no-colorfill", "--boards", "3", "--sets", str(PC19_FIRST50))
    row = out.splitlines()[1].split()
    expected = sum(int(x) for x in PC19_FIRST50.with_suffix(".ans").read_text().split()[:3])
    assert row[0] == "pc19-first50" and int(row[4]) == expected and row[-1] == "astar/puchert"


def test_report_benchmark_runs_on_a_small_experiment():
    out = _run("benchmarks/report.py", "--records", "400", "--runs", "1", "--no-html")
    assert "400 records in 4 files" in out
    assert out.count("report --format") == 4


def test_dead_wrapper_benchmark_runs_both_searches_alike():
    # The script exits non-zero if the wrapped and the plain search expand other states.
    out = _run("benchmarks/dead_wrapper.py", "--boards", "3", "--rounds", "1", "--size", "8")
    assert "not wrapped / wrapped:" in out and "3 pancake cases" in out


def test_native_seed_benchmark_finds_the_same_seeds():
    import pytest

    pytest.importorskip("searchkit_flood_native")
    out = _run("benchmarks/flood_native_seed.py", "--boards", "5", "--rounds", "1", "--anytime-ms", "10")
    assert out.count("ratio") == 2, out


def test_native_small_runs_both_engines_and_compares_their_answers():
    import pytest

    pytest.importorskip("searchkit_flood_native")
    out = _run("benchmarks/native_small.py", "--rounds", "1", "--count", "20")
    assert out.count("native / python:") == 2 and "python" in out and "native" in out


def test_ida_overhead_benchmark_finds_both_searches_equal():
    # The script exits non-zero if searchkit's native IDA* and the standalone solver search other nodes.
    import shutil

    import pytest

    pytest.importorskip("sliding_tiles_native")
    if shutil.which("cargo") is None:
        pytest.skip("cargo builds the standalone solver")
    cases = ROOT.parent / "shared" / "cases" / "sliding-tiles"
    if not (cases / "korf100.txt").exists():
        pytest.skip("Korf's 100 are not here")
    out = _run("benchmarks/ida_overhead.py", "--rounds", "1", "--boards", "12,79", "--cases", str(cases))
    assert "both searches equal board for board (expanded 722,264, generated 1,473,476" in out
    assert "searchkit / standalone nodes a second:" in out


def test_threads_astar_runs_a_board_on_1_and_2_threads_and_compares_them():
    """``benchmarks/threads_astar.py`` on PC19's first 3 boards (14x14: A* by the plan), 1 and 2 threads: it
    exits non-zero when their statuses, costs or lower bounds differ."""
    import pytest

    pytest.importorskip("searchkit_flood_native")
    out = _run("benchmarks/threads_astar.py", "--boards", "3", "--file", str(PC19_FIRST50))
    assert "3 boards, the same statuses, costs and lower bounds on 1 and 2 threads" in out
