"""Benchmark: optimal Flood-It on the 1000 PC19 boards (14x14, 6 colours), one process.

Solves ../shared/cases/flood/pc19-14x14-6c.txt through the same path as
``searchkit solve flood`` (the registry, the game's default plan -- A* with
the Puchert heuristic and the dominance rule at this size -- and every
pruning rule unless ``--no-prune``), checks every answer against
pc19-14x14-6c.ans, and prints the total moves (20086 when all are optimal),
total and median seconds per board (search time, from the drivers' own
clocks, plus the whole loop's wall time including parsing and set-up),
states expanded and generated, the largest ``peak_stored`` of one search and
the process's peak resident memory (ru_maxrss).

Usage: python benchmarks/flood_pc19.py [--limit N] [--algorithm A] [--heuristic H]
       [--no-prune RULE ...] [--profile] [FILE]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(SHARED / "cases/flood/pc19-14x14-6c.txt"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N boards")
    ap.add_argument("--algorithm", default=None)
    ap.add_argument("--heuristic", default=None)
    ap.add_argument("--no-prune", action="append", default=[])
    ap.add_argument("--profile", action="store_true", help="run under cProfile, print the top functions")
    args = ap.parse_args()

    from searchkit.limits import Limits
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    registry = load_registry()
    game = registry.game("flood")
    path = Path(args.file)
    text = path.read_text()
    answers_path = path.with_suffix(".ans")
    answers = [int(x) for x in answers_path.read_text().split()] if answers_path.exists() else None
    solver = Solver(registry, "flood", algorithm=args.algorithm, heuristic=args.heuristic,
                    disabled=frozenset(args.no_prune), limits=Limits(), options={})

    def run():
        rows = []
        for case in game.parse(text, str(path), {}):
            if args.limit is not None and len(rows) >= args.limit:
                break
            rows.append((case, solver.solve(case).result))
        return rows

    t0 = time.perf_counter()
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        rows = prof.runcall(run)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    else:
        rows = run()
    wall = time.perf_counter() - t0

    times = [r.stats.elapsed for _, r in rows]
    costs = [r.cost for _, r in rows]
    wrong = [c.index for (c, r) in rows if answers is not None and r.cost != answers[c.index - 1]]
    first = solver.solve(rows[0][0])
    algorithm, heuristic = first.algorithm, first.heuristic
    print(f"file: {path.name}, {len(rows)} boards, {algorithm}/{heuristic}, "
          f"pruning off: {', '.join(args.no_prune) or 'none'}")
    print(f"total moves: {sum(c for c in costs if c is not None)}"
          + ("" if answers is None else f" (expected {sum(answers[:len(rows)])}, wrong: {wrong or 'none'})"))
    print(f"search seconds: total {sum(times):.2f}, median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times):.2f}; wall (parse + set-up + search) {wall:.2f}")
    print(f"expanded {sum(r.stats.expanded for _, r in rows)}, generated {sum(r.stats.generated for _, r in rows)}, "
          f"largest peak_stored {max(r.stats.peak_stored for _, r in rows)}")
    print(f"peak memory (ru_maxrss): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
