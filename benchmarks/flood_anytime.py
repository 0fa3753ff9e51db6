"""Benchmark: Flood-It quality against time -- our strategies and ColorFill's, in the same run.

Part 1, PC19 (../shared/cases/flood/pc19-14x14-6c.txt, 1000 boards 14x14, 6
colours, optimal total 20086): total moves and CPU seconds of each of our
strategies (one process, ``time.process_time``, parsing and set-up
included, start-up excluded) and of ColorFill's ``AStarFlolleStrategy`` and
``AStarPuchertStrategy`` (its benchmark mode, one JVM each; CPU = user + sys
of the child, JIT warm-up included), then ``anytime`` with a time limit per
board: its total, the summed proven gap (cost - lower bound) and how many
boards it proved optimal.

Part 2, ColorFill's b24c6n1000 (24x24, 6 colours; nobody has optimal
answers): ``anytime`` on the first N boards with T seconds each, against the
best published lengths in b24c6n1000.ub (not proven optimal): our total,
theirs, the summed proven gap and the boards proven optimal.

Usage: python benchmarks/flood_anytime.py [--boards N] [--strategy ALG/H ...] [--anytime-ms 50]
       [--b24 50] [--b24-seconds 10] [--no-colorfill] [--no-pc19]
(--strategy none: only the greedy seed and anytime on PC19, no ColorFill)
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
PC19 = SHARED / "cases/flood/pc19-14x14-6c.txt"
B24 = SHARED / "cases/flood/colorfill/b24c6n1000.txt"
JAR = SHARED / "reference/colorfill/colorfill.jar"

STRATEGIES = ("astar/puchert", "wastar(weight=1.2)/puchert", "wastar(weight=1.25)/puchert",
              "wastar(weight=1.3)/puchert", "wastar(weight=1.35)/puchert", "wastar(weight=1.4)/puchert",
              "wastar(weight=1.5)/puchert", "beam(width=32)/puchert", "astar/two-best",
              "wastar(weight=1.2)/two-best")


def colorfill(strategy: str, lines: list[str], heap: str = "2G") -> tuple[int, float, float] | None:
    """``(total moves, CPU seconds, wall seconds)`` of ColorFill's benchmark mode, or ``None`` without java.

    ``heap`` is the JVM's fixed heap (``-Xms``/``-Xmx``), e.g. ``"2G"``.
    """
    java = shutil.which("java")
    if java is None or not JAR.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        boards = Path(tmp) / "boards.txt"
        boards.write_text("\n".join(lines) + "\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run([java, f"-Xms{heap}", f"-Xmx{heap}", "-cp", str(JAR), "colorfill.ui.Starter", "-benchmark",
                              str(boards), strategy], capture_output=True, text=True, cwd=tmp, check=True).stdout
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    total = int(re.search(r"solutions with\s+(\d+) steps", out).group(1))
    return total, cpu, wall


def ours(registry, spec: str, text: str, source: str, limit: int, time_limit: float | None = None):
    """Solve the first ``limit`` boards with ``ALG/H``; return (total, CPU s, proven gap sum, proven count, results)."""
    from searchkit.limits import Limits
    from searchkit.machinery.solver import Solver

    alg, _, h = spec.partition("/")
    solver = Solver(registry, "flood", algorithm=alg, heuristic=h or None, limits=Limits(time_limit=time_limit))
    t0 = time.process_time()
    results = []
    for i, case in enumerate(solver.game.parse(text, source, solver.options)):
        if i >= limit:
            break
        results.append(solver.solve(case).result)
    cpu = time.process_time() - t0
    total = sum(r.cost for r in results)
    gaps = [r.gap for r in results]
    gap = None if None in gaps else sum(gaps)
    proven = sum(1 for r in results if r.status == "solved")
    return total, cpu, gap, proven, results


def greedy_only(registry, text: str, source: str, limit: int):
    """The greedy play-out alone (the ``--upper-bound auto`` seed): total and CPU seconds."""
    from searchkit.machinery.solver import Solver
    from searchkit_flood.greedy import greedy_solution

    solver = Solver(registry, "flood")
    t0 = time.process_time()
    total = 0
    for i, case in enumerate(solver.game.parse(text, source, solver.options)):
        if i >= limit:
            break
        total += len(greedy_solution(solver.game.puzzle(case, solver.options, frozenset())))
    return total, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000, help="PC19 boards (default all 1000)")
    ap.add_argument("--strategy", action="append", default=None, help="ALG/H (repeatable; default: a set)")
    ap.add_argument("--anytime-ms", type=float, default=50.0, help="anytime's time per PC19 board (ms)")
    ap.add_argument("--b24", type=int, default=50, help="b24c6 boards (0: skip)")
    ap.add_argument("--b24-seconds", type=float, default=10.0, help="anytime's time per b24c6 board")
    ap.add_argument("--no-colorfill", action="store_true")
    ap.add_argument("--no-pc19", action="store_true")
    args = ap.parse_args()

    from searchkit.plugin.manager import load_registry

    registry = load_registry()
    print(f"machine: {os.cpu_count()} cores; CPU seconds per whole run\n")
    if not args.no_pc19:
        text = PC19.read_text()
        lines = [line for line in text.splitlines() if line.strip()][:args.boards]
        optimum = sum(int(x) for x in PC19.with_suffix(".ans").read_text().split()[:args.boards])
        print(f"PC19, {len(lines)} boards, optimal total {optimum}")
        print(f"{'strategy':36s} {'moves':>7s} {'over opt':>8s} {'CPU s':>8s}")
        if not args.no_colorfill and args.strategy != ["none"]:
            for strategy in ("AStarFlolleStrategy", "AStarPuchertStrategy"):
                got = colorfill(strategy, lines)
                if got is None:
                    print(f"ColorFill {strategy}: no java or jar, skipped")
                    continue
                total, cpu, wall = got
                print(f"{'ColorFill ' + strategy:36s} {total:7d} {total - optimum:+8d} {cpu:8.2f}  "
                      f"(wall {wall:.2f} s, JIT included)", flush=True)
        total, cpu = greedy_only(registry, text, str(PC19), len(lines))
        print(f"{'greedy seed (--upper-bound auto)':36s} {total:7d} {total - optimum:+8d} {cpu:8.2f}", flush=True)
        for spec in [x for x in (args.strategy or STRATEGIES) if x != "none"]:
            total, cpu, _, _, _ = ours(registry, spec, text, str(PC19), len(lines))
            print(f"{spec:36s} {total:7d} {total - optimum:+8d} {cpu:8.2f}", flush=True)
        limit = args.anytime_ms / 1000
        total, cpu, gap, proven, _ = ours(registry, "anytime", text, str(PC19), len(lines), limit)
        print(f"{'anytime, ' + f'{args.anytime_ms:g} ms a board':36s} {total:7d} {total - optimum:+8d} {cpu:8.2f}  "
              f"summed proven gap {gap}, {proven} proven optimal", flush=True)
    if args.b24:
        text = B24.read_text()
        ub = [int(x) for x in B24.with_suffix(".ub").read_text().split()[:args.b24]]
        total, cpu, gap, proven, results = ours(registry, "anytime", text, str(B24), args.b24, args.b24_seconds)
        bound = sum(r.lower_bound for r in results)
        print(f"\nb24c6n1000, first {len(results)} boards, anytime {args.b24_seconds:g} s a board: total {total} "
              f"vs best published {sum(ub)} ({total - sum(ub):+d}); summed lower bounds {bound}, summed proven "
              f"gap {gap}; {proven} proven optimal; better than published on "
              f"{sum(1 for r, u in zip(results, ub) if r.cost < u)}, worse on "
              f"{sum(1 for r, u in zip(results, ub) if r.cost > u)}; CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()
