"""Benchmark: the native engine's fixed cost per search, on many small cases, as a ratio to the Python engine.

Two sets of 1000 8-puzzles, made here with ``searchkit.generate`` (the same as the CLI's ``generate``): the
issue's file, ``generate sliding-tiles --count 1000 --seed 1 --size 3 --scramble 4``, and 1000 boards one move
from the goal (``--scramble 1``).  Each is solved with ``-a ida_star -H manhattan`` by a
:class:`~searchkit.machinery.solver.Solver` on each engine, through the whole per-case path the CLI takes (plan,
engine choice, the native request, the replay of each native answer), in one process, the two engines in
turns (``--rounds`` rounds), so a change of load on a shared machine falls on both alike.  The figure is the
CPU time of the loop (``time.process_time``: every thread of the process, the interpreter's start left out,
as it is the same for both engines); the least of the rounds and the median are printed, and the ratio
native / Python of the least.  The answers of the two engines must agree, case for case.

Also printed: the median of each case's ``stats.elapsed`` (its clock counts from the case's start, so it
holds the set-up before the search too).

Target (issue 32 item 6): native at most 0.5x Python's CPU on both sets.  Release builds only: a debug build
of the native engine is refused (its Rust is 10-50 times slower).

Usage: python benchmarks/native_small.py [--rounds 7] [--count 1000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import release_module  # noqa: E402


def _cases(game, text):
    return [c for c in game.parse(text, "<generated>", {})]


def _run(solver, cases):
    """``(CPU seconds, answers, search seconds per case)`` of solving ``cases`` in order."""
    answers, searches = [], []
    start = time.process_time()
    for case in cases:
        outcome = solver.solve(case)
        answers.append((outcome.result.status, outcome.result.cost))
        searches.append(outcome.result.stats.elapsed)
    return time.process_time() - start, answers, searches


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()

    import searchkit
    from searchkit.limits import Limits
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    registry = load_registry()
    game = registry.game("sliding-tiles")
    release_module(game)
    sets = {"scramble 4": searchkit.generate("sliding-tiles", args.count, seed=1, size=3, scramble=4),
            "one move": searchkit.generate("sliding-tiles", args.count, seed=1, size=3, scramble=1)}
    solvers = {engine: Solver(registry, "sliding-tiles", algorithm="ida_star", heuristic="manhattan",
                              limits=Limits(), engine=engine) for engine in ("python", "native")}
    print(f"{args.count} 8-puzzles per set, ida_star/manhattan, {args.rounds} rounds in turns; CPU of the loop")
    for name, text in sets.items():
        cases = _cases(game, text)
        cpu = {engine: [] for engine in solvers}
        answers, searches = {}, {}
        for engine, solver in solvers.items():  # a first pass each, untimed: tables, caches, imports
            _run(solver, cases[:50])
        for _ in range(args.rounds):
            for engine, solver in solvers.items():
                seconds, answers[engine], searches[engine] = _run(solver, cases)
                cpu[engine].append(seconds)
        if answers["python"] != answers["native"]:
            sys.exit(f"{name}: the engines' answers differ")
        best = {e: min(t) for e, t in cpu.items()}
        for engine in solvers:
            print(f"  {name:10s} {engine:6s}: least {best[engine] * 1000:7.1f} ms, median "
                  f"{statistics.median(cpu[engine]) * 1000:7.1f} ms ({best[engine] / len(cases) * 1e6:5.1f} us a "
                  f"case); stats.elapsed p50 {statistics.median(searches[engine]) * 1e6:6.1f} us")
        print(f"  {name:10s} native / python: {best['native'] / best['python']:.2f}x (target at most 0.5x)")


if __name__ == "__main__":
    main()
