"""Benchmark: the ``anytime`` seed on the native engine, found natively against found by Python (issue 33).

On PC19's boards (../shared/cases/flood/pc19-14x14-6c.txt; a bundled copy of the first 50 otherwise) each
board is solved in one process with ``-a anytime`` on the native engine, twice over the same boards in the
same run:

* ``native seed``: Flood-It's ``greedy`` provider names its search (``beam(width=4)`` on ``puchert``,
  :attr:`searchkit.bounds.UpperBound.native`), which the native engine runs;
* ``python seed``: the same provider with ``native=None``, the path before: the Python puzzle is built and
  the Python beam runs.

Each run is ``--max-nodes 0`` (only the seed: the search stops before its first expansion) and then
``--time-limit`` T per board.  Figures: CPU seconds (``time.process_time``, parsing and set-up included,
start-up excluded), the least of ``--rounds`` rounds, and the ratio; the seeds' totals of moves must be equal (the
script fails otherwise; with a time limit the anytime totals may differ by timing).

Usage: python benchmarks/flood_native_seed.py [--boards N] [--rounds R] [--anytime-ms 50]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
PC19 = ROOT.parent / "shared" / "cases" / "flood" / "pc19-14x14-6c.txt"
BUNDLED = ROOT / "tests" / "data" / "pc19-first50.txt"


def run(boards: list[str], native_seed: bool, limits) -> tuple[float, int, int]:
    """CPU seconds, total moves and boards left without a solution (the limit came before the seed) of
    ``anytime`` on ``boards`` on the native engine."""
    from searchkit.machinery.solver import Solver
    from searchkit.plugin.manager import load_registry

    registry = load_registry()
    if not native_seed:
        providers = [attrs.evolve(p, native=None) for p in registry.upper_bounds_for("flood")]
        registry.upper_bounds_for = lambda game: providers
    solver = Solver(registry, "flood", algorithm="anytime", engine="native", limits=limits,
                    options={"input_format": "lines"})
    cpu = time.process_time()
    total = unsolved = 0
    for case in solver.game.parse("".join(boards), "pc19", solver.options):
        outcome = solver.solve(case)
        assert outcome.engine == "native"
        if outcome.result.cost is None:
            unsolved += 1
        else:
            total += outcome.result.cost
    return time.process_time() - cpu, total, unsolved


def main() -> None:
    from searchkit.limits import Limits

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--anytime-ms", type=float, default=50)
    args = parser.parse_args()
    source = PC19 if PC19.exists() else BUNDLED
    boards = [line + "\n" for line in source.read_text().split("\n") if line.strip()][:args.boards]
    print(f"{len(boards)} boards of {source.name}, anytime on the native engine, least of {args.rounds} rounds")
    for label, limits in (("seed only (--max-nodes 0)", Limits(max_nodes=0)),
                          (f"--time-limit {args.anytime_ms / 1000:g}", Limits(time_limit=args.anytime_ms / 1000))):
        figures = {}
        for native_seed in (True, False):
            runs = [run(boards, native_seed, limits) for _ in range(args.rounds)]
            figures[native_seed] = (min(r[0] for r in runs), runs[-1][1], runs[-1][2])
        (n_cpu, n_moves, n_none), (p_cpu, p_moves, p_none) = figures[True], figures[False]
        if limits.max_nodes == 0 and n_moves != p_moves:  # the seeds themselves: the same on both paths
            raise SystemExit(f"the seeds differ: {n_moves} moves native, {p_moves} moves python")
        per = 1000 / len(boards)
        print(f"{label:28s} native seed {n_cpu:7.3f} s ({n_cpu * per:6.2f} ms/board, {n_moves} moves, "
              f"{n_none} unsolved)   python seed {p_cpu:7.3f} s ({p_cpu * per:6.2f} ms/board, {p_moves} moves, "
              f"{p_none} unsolved)   ratio {n_cpu / p_cpu:.2f}")


if __name__ == "__main__":
    main()
