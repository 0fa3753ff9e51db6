"""Benchmark: what the native IDA* driver costs, against a plain standalone IDA* + Manhattan distance (issue 31).

The yardstick is ``benchmarks/standalone_ida/`` (a small cargo project of its own, not in ``native/``'s
workspace): one recursive function, the board changed in place, the Manhattan distance kept incrementally,
the sliding-tiles game's move order (``U D L R``) and its ``no-undo`` rule, and searchkit's counting (a goal
is tested on entry and not expanded; every successor not cut is generated).  So both expand and generate
exactly the same nodes and find the same first solution; this script checks that, board for board
(expanded, generated, iterations, cost and moves), and stops if they differ.

searchkit is run as the CLI runs a case: a :class:`~searchkit.machinery.solver.Solver` for ``sliding-tiles`` with
``algorithm="ida_star"``, ``heuristic="manhattan"``, ``engine="native"`` (plan, request, the native search,
the replay of its answer).  Its figure is the CPU time of ``solver.solve`` over the boards
(``time.process_time``: every thread of this process; the interpreter's start and imports left out).  The
standalone program's figure is its whole process's CPU time (``os.wait4``; its start is about a millisecond).
The two alternate, one run of each per round (``--rounds``), so a change of load on the shared machine
falls on both alike; the least CPU time of the rounds is reported with the median, as nodes (generated) per
second, and the ratio of searchkit's nodes per second to the standalone's (target: at least 0.9).

Boards: Korf's 100 (``../shared/cases/sliding-tiles/korf100.txt``), by default numbers 6, 8, 18, 34 and 38
(about 78 M expanded, 155 M generated).  Release builds only: a debug build of the native engine is refused.

Usage: ``python benchmarks/ida_overhead.py [--rounds 5] [--boards 6,8,18,34,38] [--cases DIR]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import SHARED, release_module, run_once  # noqa: E402

STANDALONE = Path(__file__).resolve().parent / "standalone_ida"


def build_standalone() -> Path:
    """``cargo build --release`` the standalone solver (its own target folder); return the binary."""
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path", str(STANDALONE / "Cargo.toml")],
                   check=True)
    return STANDALONE / "target" / "release" / "standalone-ida"


def parse_standalone(text: str) -> list[dict]:
    """The standalone program's lines ``board=N cost=C expanded=E ...`` as dicts."""
    rows = []
    for line in text.splitlines():
        row = dict(field.split("=", 1) for field in line.split())
        rows.append({"cost": int(row["cost"]), "expanded": int(row["expanded"]),
                     "generated": int(row["generated"]), "iterations": int(row["iterations"]),
                     "moves": row["moves"]})
    return rows


def run_searchkit(solver, cases) -> tuple[float, list[dict]]:
    """``(CPU seconds, one dict a case)`` of solving ``cases`` in turn."""
    rows = []
    start = time.process_time()
    for case in cases:
        rows.append(solver.solve(case).result)
    cpu = time.process_time() - start
    out = []
    for r in rows:
        if r.status != "solved":
            sys.exit(f"searchkit: status {r.status}")
        out.append({"cost": r.cost, "expanded": r.stats.expanded, "generated": r.stats.generated,
                    "iterations": len(r.stats.iterations), "moves": "".join(str(m) for m in r.moves)})
    return cpu, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--boards", default="6,8,18,34,38", help="1-based numbers of Korf's 100, comma-separated")
    ap.add_argument("--cases", type=Path, default=SHARED / "cases" / "sliding-tiles")
    args = ap.parse_args()
    numbers = [int(x) for x in args.boards.split(",")]

    from searchkit.limits import Limits
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    source = args.cases / "korf100.txt"
    boards = [b for b in source.read_text().split("\n\n") if b.strip()]
    registry = load_registry()
    game = registry.game("sliding-tiles")
    release_module(game)
    cases = [next(iter(game.parse(boards[k - 1].strip() + "\n", f"korf100 #{k}", {}))) for k in numbers]
    solver = Solver(registry, "sliding-tiles", algorithm="ida_star", heuristic="manhattan", limits=Limits(),
                    engine="native")
    binary = build_standalone()
    argv = [str(binary), str(source), *map(str, numbers)]

    cpu: dict[str, list[float]] = {"searchkit": [], "standalone": []}
    rows: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        t, _peak, text = run_once(argv)
        cpu["standalone"].append(t)
        rows["standalone"] = parse_standalone(text)
        t, rows["searchkit"] = run_searchkit(solver, cases)
        cpu["searchkit"].append(t)
        if rows["searchkit"] != rows["standalone"]:
            for k, a, b in zip(numbers, rows["searchkit"], rows["standalone"]):
                if a != b:
                    print(f"board {k}: searchkit {a}\n          standalone {b}", file=sys.stderr)
            sys.exit("the two searches differ")
    expanded = sum(r["expanded"] for r in rows["searchkit"])
    generated = sum(r["generated"] for r in rows["searchkit"])
    print(f"Korf's 100 #{args.boards}: ida_star + manhattan, {args.rounds} rounds in turns; both searches equal "
          f"board for board (expanded {expanded:,}, generated {generated:,}, iterations, cost and moves)")
    best = {name: min(t) for name, t in cpu.items()}
    for name, t in cpu.items():
        print(f"  {name:10s}: CPU least {best[name]:6.3f} s, median {statistics.median(t):6.3f} s; "
              f"{generated / best[name] / 1e6:6.1f} M nodes (generated) a second, "
              f"{expanded / best[name] / 1e6:6.1f} M expanded a second")
    ratio = best["standalone"] / best["searchkit"]
    print(f"  searchkit / standalone nodes a second: {ratio:.2f}x (target at least 0.9x); "
          f"medians {statistics.median(cpu['standalone']) / statistics.median(cpu['searchkit']):.2f}x")


if __name__ == "__main__":
    main()
