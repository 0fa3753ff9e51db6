"""Benchmark: how fast could searchkit's Flood-It search be with a free heuristic?  A floor, against ColorFill.

For each set it runs, in the same run:

* ColorFill's benchmark mode on the first N boards (its CPU: user + sys of
  the JVM, start-up and JIT included), skipped without ``java`` or the jar;
* searchkit in this process on the same boards, through the Solver's own
  pieces (the game's plan, its heuristic, every pruning rule), three times
  per board: once recording every heuristic value the search asks for, then
  timed with the real heuristic, then timed with the recorded values looked
  up in a dict (an oracle: the same states, the same values, so the same
  search, and each value costs one dict look-up, about 40 ns).

It prints CPU seconds (``time.process_time``; set-up -- the area graph, the
pruning rules, the heuristic's tables -- counted in both of ours, start-up
in neither), the ratio of each to ColorFill, and the heuristic's share.
The oracle's ratio is a floor: however cheap the heuristic became, the same
search could not be faster than that, because the rest -- successors,
dominance, heap, tables -- costs that much by itself.  A ratio above 1 there
means the target of issue 13 (or 11) cannot be met by a cheaper heuristic;
only a search that stores and expands fewer states, or cheaper expansion,
moves it.

Usage::

    python benchmarks/flood_floor.py [--boards N] [--sets pc19,b10c15,...] [--algorithm A] [--heuristic H]
        [--colorfill-strategy AStarPuchertStrategy] [--no-colorfill]

``--algorithm 'wastar(weight=1.3)'`` and ``--heuristic two-best`` with
``--colorfill-strategy AStarFlolleStrategy`` give issue 11's floor.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import SHARED  # noqa: E402
from flood_anytime import colorfill  # noqa: E402

SETS = {
    "pc19": SHARED / "cases/flood/pc19-14x14-6c.txt",
    **{name: SHARED / f"cases/flood/colorfill/{name}n1000.txt"
       for name in ("b10c15", "b12c12", "b14c8", "b18c6", "b24c4")},
}


def ours(path: Path, boards: int, algorithm: str | None, heuristic: str | None):
    """``(total moves, real CPU s, oracle CPU s, evaluations, names)`` of the first ``boards`` boards of ``path``."""
    from searchkit.algorithm import SearchRequest, bind_params
    from searchkit.limits import Limits
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    registry = load_registry()
    solver = Solver(registry, "flood", algorithm=algorithm, heuristic=heuristic, limits=Limits())
    game = solver.game
    total = evaluations = 0
    real = oracle = 0.0
    names = None
    for i, case in enumerate(game.parse(path.read_text(), str(path), solver.options)):
        if i >= boards:
            break
        plan = game.plan(case, solver.options)
        alg, heur = solver.resolve(plan)
        names = (alg.name, heur.name)
        off = solver.config.disabled | {rule.name for rule in solver.rules if not rule.acts_under(alg)}
        params = solver.params if solver.algorithm is not None else bind_params(alg, {})

        def setup():
            puzzle = game.puzzle(case, solver.options, off)
            pruners = [rule.bind(puzzle) for rule in solver.rules if rule.factory is not None and rule.name not in off]
            return puzzle, heur.bind(puzzle), pruners

        def search(puzzle, estimate, pruners):
            request = SearchRequest(heuristic=estimate, pruners=pruners, max_cost=plan.depth, mode=plan.mode,
                                    params=params, admissible=heur.admissible)
            return alg.run(puzzle, request)

        puzzle, estimate, pruners = setup()
        table: dict = {}

        def record(state, estimate=estimate, table=table):
            value = table[state] = estimate(state)
            return value

        first = search(puzzle, record, pruners)
        t0 = time.process_time()
        result = search(*setup())
        real += time.process_time() - t0
        t0 = time.process_time()
        puzzle, _, pruners = setup()
        again = search(puzzle, table.__getitem__, pruners)
        oracle += time.process_time() - t0
        if not first.cost == result.cost == again.cost or first.stats.expanded != again.stats.expanded:
            raise SystemExit(f"{path.name} board {i + 1}: the oracle run searched differently")
        total += result.cost
        evaluations += result.stats.evaluated
    return total, real, oracle, evaluations, names


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--sets", default=",".join(SETS), help="names of SETS, or files with one board a line")
    ap.add_argument("--algorithm", default=None, help="e.g. 'wastar(weight=1.3)'; default: the game's plan")
    ap.add_argument("--heuristic", default=None, help="default: the game's plan")
    ap.add_argument("--colorfill-strategy", default="AStarPuchertStrategy")
    ap.add_argument("--no-colorfill", action="store_true")
    args = ap.parse_args()

    print(f"{'set':8} {'boards':>6} {'CF moves':>8} {'CF s':>7} {'SK moves':>8} {'SK s':>7} {'ratio':>6} "
          f"{'free-h s':>8} {'floor':>6} {'h share':>7}  evaluations  search")
    for name in args.sets.split(","):
        path = SETS.get(name) or Path(name)  # a set's name, or a file of one board a line
        label = name if name in SETS else path.stem
        lines = [line for line in path.read_text().splitlines() if line.strip()][:args.boards]  # a board a line
        cf = None if args.no_colorfill else colorfill(args.colorfill_strategy, lines, heap="4G")
        total, real, oracle, evaluations, names = ours(path, args.boards, args.algorithm, args.heuristic)
        cf_moves, cf_cpu = (cf[0], cf[1]) if cf else ("-", None)
        ratio = f"{real / cf_cpu:.2f}" if cf_cpu else "-"
        floor = f"{oracle / cf_cpu:.2f}" if cf_cpu else "-"
        cf_s = f"{cf_cpu:.2f}" if cf_cpu else "-"
        print(f"{label:8} {args.boards:6} {cf_moves:>8} {cf_s:>7} {total:8} {real:7.2f} {ratio:>6} "
              f"{oracle:8.2f} {floor:>6} {1 - oracle / real:7.0%}  {evaluations:11}  {names[0]}/{names[1]}",
              flush=True)


if __name__ == "__main__":
    main()
