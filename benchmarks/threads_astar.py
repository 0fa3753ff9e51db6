"""Benchmark: A*/PEA* on 2 threads against 1 (K-parallel best-first search) on b24c6's first 20 boards (issue 34).

Each board is solved by a fresh ``searchkit solve flood --engine native --threads N --format jsonl`` process
(start-up included, the same on both) with the plugin's plan (on 24x24 boards ``peastar`` with ``puchert`` and
``dominance``; ``--algorithm astar`` for A*), on 1 thread and on N, the two alternating which goes first board
by board, so that a change of load on the shared host falls on both alike.  For each board the script checks
that the two give the same status, cost and lower bound (and that the moves replay: the CLI replays them
before it writes the record) and stops if they differ (the counts may differ: one thread runs the serial
search, N the batch search, whose counts are the same at every thread count above one).  It reports each
run's wall time, CPU time (user + system of the process, every thread's, from ``os.wait4``), peak resident
memory (``ru_maxrss``) and expanded count, the totals, and the ratio (target: 2 threads at least 1.6x faster
in wall time).

Boards: the first ``--boards`` (20) lines of ColorFill's ``b24c6n1000.txt`` (``../shared/cases/flood/colorfill/``).
Release builds only.  The shared host's other work distorts wall times: the load average is printed with
the figures.

Usage: ``python benchmarks/threads_astar.py [--boards 20] [--threads 2] [--algorithm astar] [--file FILE]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import SHARED  # noqa: E402


def run(board: Path, threads: int, algorithm: str | None) -> tuple[dict, float, float, int]:
    """One board on ``threads`` threads: (its record, wall seconds, CPU seconds, peak RSS in KiB)."""
    argv = [sys.executable, "-m", "searchkit", "solve", "flood", "--engine", "native", "--threads", str(threads),
            "--format", "jsonl", str(board)] + (["-a", algorithm] if algorithm else [])
    with tempfile.TemporaryFile() as out:
        w0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - w0
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit(f"{' '.join(argv)}: exit status {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        record = json.loads(out.read().decode().splitlines()[0])
    return record, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=20, help="the first N boards of the file")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--algorithm", default=None, help="astar or peastar (default: the plugin's plan)")
    ap.add_argument("--file", type=Path, default=SHARED / "cases" / "flood" / "colorfill" / "b24c6n1000.txt")
    args = ap.parse_args()
    lines = [x for x in args.file.read_text().splitlines() if x.strip()][:args.boards]
    t = args.threads
    wall, cpu, expanded, peak = ({k: 0 for k in (1, t)} for _ in range(4))
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for n, line in enumerate(lines):
            board = Path(tmp) / f"b{n + 1}.txt"
            board.write_text(line + "\n")
            seen = {}
            for k in sorted((1, t), reverse=n % 2 == 1):  # alternate which goes first
                record, w, c, rss = run(board, k, args.algorithm)
                s = record.get("stats") or {}
                wall[k] += w
                cpu[k] += c
                expanded[k] += s.get("expanded", 0)
                peak[k] = max(peak[k], rss)
                seen[k] = ((record["status"], record.get("cost"), record.get("lower_bound")), w, c, rss,
                           s.get("expanded", 0), s.get("threads", 1), record.get("algorithm"))
            if seen[1][0] != seen[t][0]:
                sys.exit(f"board {n + 1}: 1 thread and {t} differ: {seen[1][0]} against {seen[t][0]}")
            print(f"board {n + 1}: {seen[1][0][0]}, cost {seen[1][0][1]} (equal on both, {seen[1][6]}); "
                  + "; ".join(f"{k} thread(s) (ran {seen[k][5]}): {seen[k][1]:.2f} s wall, {seen[k][2]:.2f} s CPU, "
                              f"{seen[k][3] / 1024:.0f} MiB, {seen[k][4]:,} expanded" for k in sorted(seen)),
                  flush=True)
    print(f"{len(lines)} boards, the same statuses, costs and lower bounds on 1 and {t} threads")
    for k in (1, t):
        print(f"  {k} thread(s): {wall[k]:.1f} s wall, {cpu[k]:.1f} s CPU, {expanded[k]:,} expanded, "
              f"peak resident {peak[k] / 1024:.0f} MiB (the largest board's process)")
    print(f"  speed-up in wall time: {wall[1] / wall[t]:.2f}x (target at least 1.6x on 2 threads); "
          f"CPU {cpu[t] / cpu[1]:.2f}x one thread's")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
