"""The exact behaviour of every driver on a fixed set of boards: the reference the refactors are held to.

Each entry solves one file's first cases with one algorithm, heuristic and
set of choices through the :class:`~searchkit.machinery.solver.Solver`, and records
per case the status, cost, moves, lower bound and every statistic except the
clock (``elapsed``, per-depth seconds, iteration seconds).  The native engine
(issue 14) is tested against the same figures: counts, order of expansion
(the moves returned) and bounds must not change in a refactor.

Record again (after an intended change only, reviewing the diff)::

    python tests/core/driver_golden.py > tests/golden/drivers.json
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "cases"
GOLDEN = ROOT / "tests" / "golden" / "drivers.json"

_RANDOM = ("flood", "random-8x8-6c.txt", 30)
_PC19 = ("flood", "pc19-14x14-6c.txt", 20)
_SLIDE8 = ("sliding-tiles", ROOT / "plugins" / "sliding-tiles" / "examples" / "8-puzzle.txt", None)
_SLIDE15 = ("sliding-tiles", ROOT / "plugins" / "sliding-tiles" / "examples" / "15-puzzle.txt", None)

#: (label, (game, file, first N cases or None for all), Solver keyword arguments)
RUNS: tuple = tuple(
    [(f"{src[1]}:{alg}/{h}" + (f":{tag}" if tag else ""), src,
      dict(algorithm=alg, heuristic=h, limits=dict(max_nodes=nodes), **extra))
     for src in (_RANDOM, _PC19)
     for alg, h, nodes, tag, extra in (
         ("astar", "puchert", 20000, "", {}),
         ("astar", "colours", 1000, "", {}),
         ("peastar", "puchert", 20000, "", {}),
         ("ida_star", "puchert", 3000, "", {}),
         ("ida_star_tt", "puchert", 3000, "", {}),
         ("wastar", "puchert", 3000, "", {}),
         ("wastar(weight=3)", "layered", 3000, "", {}),
         ("gbfs", "puchert", 3000, "", {}),
         ("beam", "puchert", 3000, "", {}),
         ("beam(width=4)", "colours", 3000, "", {}),
         ("anytime", "puchert", 2000, "", {}),
         ("anytime(ara=1, step=0.25)", "puchert", 1000, "", {}),
         ("astar", "puchert", 20000, "ub-auto", dict(upper_bound="auto")),
         ("astar", "puchert", 4000, "no-dominance", dict(disabled=["dominance"])),
         ("gbfs", "greedy", 3000, "", {}),
         ("wastar", "greedy", 3000, "ub-25", dict(upper_bound=25)),
         ("gbfs", "colours", 3000, "ub-20", dict(upper_bound=20)),
         ("astar", "greedy", 3000, "ub-auto", dict(upper_bound="auto")),
         ("ida_star", "greedy", 3000, "", {}),
         ("bfs", None, 3000, "", {}),
     )]
    + [(f"mayan-{d}:{alg}/{h}" + (f":{tag}" if tag else ""), ("mayan", d, None),
        dict(algorithm=alg, heuristic=h, limits=dict(max_nodes=200000), **extra))
       for d in ("solvable", "no-solution")
       for alg, h, tag, extra in (
           (None, None, "", {}),
           (None, None, "no-transposition", dict(disabled=["transposition"])),
           ("bounded_dfs", None, "shortest", dict(options={"shortest": True})),
           ("ida_star", "column-steps", "shortest", dict(options={"shortest": True})),
           ("ida_star_tt", "column-steps", "shortest", dict(options={"shortest": True})),
       )]
    + [(f"{Path(src[1]).name}:{alg}/{h}", src, dict(algorithm=alg, heuristic=h, limits=dict(max_nodes=nodes)))
       for src, alg, h, nodes in (
           (_SLIDE8, "ida_star", "manhattan", 20000), (_SLIDE8, "astar", "linear-conflict", 20000),
           (_SLIDE8, "peastar", "misplaced", 20000), (_SLIDE8, "wastar", "manhattan", 20000),
           (_SLIDE8, "gbfs", "manhattan", 20000), (_SLIDE8, "beam", "manhattan", 20000),
           (_SLIDE8, "anytime", "manhattan", 20000), (_SLIDE8, "bfs", None, 20000),
           (_SLIDE15, "ida_star", "linear-conflict", 20000), (_SLIDE15, "astar", "manhattan", 5000),
           (_SLIDE15, "wastar(weight=1.5)", "manhattan", 5000), (_SLIDE15, "anytime", "manhattan", 5000),
       )]
)


def _cases(registry, game_name, where, first):
    """``(solver-independent cases)`` of one source: a file's first ``first`` cases, or a directory's files."""
    from searchkit.errors import InputError

    game = registry.game(game_name)
    from searchkit.game import option_defaults

    options = option_defaults(game.options)
    path = Path(where)
    if not path.is_absolute():
        path = SHARED / game_name / where
    files = sorted(path.glob("*.in")) if path.is_dir() else [path]
    cases = []
    for file in files:
        for case in game.parse(file.read_text(), file.name, options):
            if not isinstance(case, InputError):
                cases.append(case)
    return cases if first is None else cases[:first]


def _record(game, outcome) -> dict:
    from searchkit.game import moves_to_json

    r = outcome.result
    s = r.stats
    return {
        "case": f"{outcome.case.source}:{outcome.case.index}",
        "algorithm": outcome.algorithm,
        "heuristic": outcome.heuristic,
        "status": r.status,
        "cost": r.cost,
        "moves": json.loads(json.dumps(moves_to_json(game, outcome.case, r.moves))),
        "lower_bound": r.lower_bound,
        "expanded": s.expanded,
        "generated": s.generated,
        "evaluated": s.evaluated,
        "peak_stored": s.peak_stored,
        "per_depth": list(s.per_depth),
        "iterations": [[it.bound, it.expanded, it.generated, it.evaluated, it.kind] for it in s.iterations],
        "rule_cuts": dict(s.rule_cuts),
    }


def run_one(registry, label: str) -> list:
    """The records of the run named ``label`` (one per case; a refusal as ``{"refused": message}``)."""
    from searchkit.errors import SearchkitError
    from searchkit.limits import Limits
    from searchkit.machinery.solver import Solver

    _, (game_name, where, first), kwargs = next(run for run in RUNS if run[0] == label)
    kwargs = dict(kwargs)
    kwargs["limits"] = Limits(**kwargs["limits"])
    kwargs["disabled"] = frozenset(kwargs.get("disabled", ()))
    solver = Solver(registry, game_name, **kwargs)
    out = []
    for case in _cases(registry, game_name, where, first):
        try:
            out.append(_record(solver.game, solver.solve(case)))
        except SearchkitError as exc:
            out.append({"case": f"{case.source}:{case.index}", "refused": str(exc)})
    return out


def record_all() -> dict:
    from searchkit.plugin.manager import load_registry

    registry = load_registry(report=None)
    return {label: run_one(registry, label) for label, _, _ in RUNS}


def dump(runs: dict) -> str:
    """The golden file's text: one line per case record, so a diff names the case that changed."""
    parts = []
    for label in sorted(runs):
        lines = ",\n".join("  " + json.dumps(rec, sort_keys=True) for rec in runs[label])
        parts.append(f"{json.dumps(label)}: [\n{lines}\n]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


if __name__ == "__main__":
    print(dump(record_all()), end="")
