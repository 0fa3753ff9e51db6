"""Whole-process timing shared by the benchmark scripts.

Each run is a fresh process (start-up and imports count).  The figure is the
child's CPU time (user + system, from ``os.wait4``, which also gives its peak
resident memory, ru_maxrss in KiB on Linux): on a shared, noisy machine CPU
time is steadier than wall-clock time, and ratios are taken within one run.
Before timing searchkit, its modules are compiled to bytecode once
(:func:`warm_bytecode`), as a normal install does: with
``PYTHONDONTWRITEBYTECODE`` set, every run would otherwise compile them
again.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def build_reference(source: Path) -> Path:
    """Compile a C++ reference with ``g++ -O2`` into a temporary directory; return the binary."""
    if shutil.which("g++") is None:
        sys.exit("g++ is needed to build the C++ reference")
    out = Path(tempfile.mkdtemp(prefix="searchkit-bench-")) / source.stem
    subprocess.run(["g++", "-O2", "-o", str(out), str(source)], check=True)
    return out


def run_once(argv: list[str], stdin_path: Path | None = None) -> tuple[float, int, str]:
    """Run ``argv`` once; return (CPU seconds, peak RSS in KiB, stdout)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        with tempfile.TemporaryFile() as out:
            proc = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            elapsed = usage.ru_utime + usage.ru_stime
            proc.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            text = out.read().decode()
    finally:
        if stdin_path:
            stdin.close()
    return elapsed, usage.ru_maxrss, text


def timed(argv, stdin_path=None, runs=5):
    """Run ``argv`` ``runs`` times; return (median CPU seconds, max peak KiB, stdout of the last run)."""
    times, peaks, text = [], [], ""
    for _ in range(runs):
        t, peak, text = run_once(argv, stdin_path)
        times.append(t)
        peaks.append(peak)
    return statistics.median(times), max(peaks), text


def timed_together(commands, runs=5):
    """Time several commands in turns, one run of each per round, so a change of load on a shared machine falls
    on all of them alike.

    Args:
        commands: ``(argv, stdin_path or None)`` pairs.

    Returns:
        One :func:`timed` triple per command, in order: (median CPU seconds, max peak KiB, stdout of the last run).
    """
    times: list[list[float]] = [[] for _ in commands]
    peaks: list[list[int]] = [[] for _ in commands]
    texts = [""] * len(commands)
    for _ in range(runs):
        for i, (argv, stdin_path) in enumerate(commands):
            t, peak, texts[i] = run_once(argv, stdin_path)
            times[i].append(t)
            peaks[i].append(peak)
    return [(statistics.median(t), max(p), text) for t, p, text in zip(times, peaks, texts)]


def warm_bytecode() -> None:
    """Compile searchkit's and the bundled plugins' modules to bytecode (once per benchmark run)."""
    import compileall

    for folder in ("searchkit", "plugins/flood/searchkit_flood", "plugins/mayan/searchkit_mayan",
                   "plugins/sliding-tiles/sliding_tiles"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)


def searchkit_argv() -> list[str]:
    """The ``searchkit`` script beside this interpreter (falls back to ``python -m searchkit``), bytecode warmed."""
    warm_bytecode()
    script = Path(sys.executable).with_name("searchkit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "searchkit"]


def release_module(game):
    """The game's native module (:func:`searchkit.machinery.engine.game_module`), or exit saying what is missing: the
    benchmarks time release builds of installed modules only."""
    from searchkit.machinery.engine import game_module

    native = game_module(game)
    where = f"./plugins/{game.name}/native"
    if native is None:
        sys.exit(f"the {game.name} native module is not installed: pip install {where}")
    if native.manifest.get("profile") != "release":
        sys.exit(f"the {game.name} native module is a debug build: benchmarks time release builds only")
    return native
