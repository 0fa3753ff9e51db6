"""Korf's 100 random 15-puzzles (1985): pattern databases and IDA*, native and Python engines.

Every figure is a whole process's CPU seconds (user + system, the child's
``wait4`` usage; start-up, imports, loading or building tables included)
and its peak resident memory.  Answers are checked against ``korf100.ans``.

Runs (``--run``, repeatable; default all):

- ``pdb-cold``: ``searchkit solve --engine native -H 'pdb(partition=7-8)'`` on all 100 with an empty
  table cache (``SEARCHKIT_CACHE_DIR`` a fresh folder): both tables built natively, then the search;
  ``pdb-cached``: the same again with the tables cached.
- ``manhattan``: IDA* + Manhattan distance on the native engine, instance by instance (``--first N``,
  default 50): nodes generated beside Korf's 1985 count, nodes per second.
- ``python663``: the Python engine with ``pdb(partition=6-6-3)`` on the first ``--python-first`` (20)
  instances, and the native engine on the same tables: time, nodes per second, ratio.

Usage: ``nice python benchmarks/korf100.py [--run pdb-cold --run pdb-cached ...] [--cases DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import SHARED, run_once, searchkit_argv  # noqa: E402

RUNS = ("pdb-cold", "pdb-cached", "manhattan", "python663")


def load(cases: Path):
    boards = [b for b in cases.joinpath("korf100.txt").read_text().split("\n\n") if b.strip()]
    answers = [int(x) for x in cases.joinpath("korf100.ans").read_text().split()]
    table = []
    for line in cases.joinpath("korf100-table.tsv").read_text().splitlines()[1:]:
        inst, length, nodes, _ = line.split("\t")
        table.append((int(inst), int(length), int(nodes)))
    return boards, answers, table


def solve(argv_tail, boards, env):
    """Run searchkit on ``boards`` (a temporary file); return (CPU s, peak MiB, records)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n\n".join(b.strip() for b in boards) + "\n")
        path = f.name
    old = dict(os.environ)
    os.environ.update(env)
    try:
        cpu, peak, text = run_once([*searchkit_argv(), "solve", "sliding-tiles", "--format", "json", *argv_tail,
                                    path])
    finally:
        os.environ.clear()
        os.environ.update(old)
        os.unlink(path)
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return cpu, peak / 1024, records


def check(records, answers, label):
    costs = [r["cost"] for r in records]
    wrong = [i + 1 for i, (c, a) in enumerate(zip(costs, answers)) if c != a or None]
    status = "all optimal" if not wrong and len(costs) == len(answers) else f"WRONG on {wrong[:10]}"
    print(f"{label}: {len(costs)} solved, {sum(c or 0 for c in costs)} moves (expected {sum(answers)}): {status}")
    return not wrong and len(costs) == len(answers)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", action="append", choices=RUNS)
    ap.add_argument("--cases", type=Path, default=SHARED / "cases" / "sliding-tiles")
    ap.add_argument("--first", type=int, default=50, help="instances for the Manhattan run")
    ap.add_argument("--python-first", type=int, default=20, help="instances for the Python 6-6-3 run")
    ap.add_argument("--cache", type=Path, default=None, help="table cache for the cached and 6-6-3 runs")
    ap.add_argument("--partition", default="7-8")
    args = ap.parse_args()
    runs = args.run or list(RUNS)
    boards, answers, table = load(args.cases)
    ok = True
    cache = args.cache or Path(tempfile.mkdtemp(prefix="searchkit-pdb-"))
    spec = f"pdb(partition={args.partition})"
    if "pdb-cold" in runs:
        cold = Path(tempfile.mkdtemp(prefix="searchkit-pdb-cold-"))
        cpu, peak, recs = solve(["--engine", "native", "-H", spec], boards, {"SEARCHKIT_CACHE_DIR": str(cold)})
        ok &= check(recs, answers, f"native {spec}, cold")
        nodes = sum(r["stats"]["generated"] for r in recs)
        print(f"  {cpu:.1f} s CPU (tables built), peak {peak:.0f} MiB, {nodes:,} nodes generated")
        if args.cache is None:
            cache = cold
    if "pdb-cached" in runs:
        cpu, peak, recs = solve(["--engine", "native", "-H", spec], boards, {"SEARCHKIT_CACHE_DIR": str(cache)})
        ok &= check(recs, answers, f"native {spec}, cached")
        nodes = sum(r["stats"]["generated"] for r in recs)
        search = sum(r["stats"]["elapsed"] for r in recs)
        print(f"  {cpu:.1f} s CPU, peak {peak:.0f} MiB, {nodes:,} nodes generated, {search:.1f} s in the searches "
              f"({nodes / max(search, 1e-9) / 1e6:.1f} M nodes/s)")
    if "manhattan" in runs:
        n = args.first
        print(f"IDA* + Manhattan, native, first {n}: instance, length, nodes generated (Korf 1985), ours, "
              f"ratio, nodes/s")
        total_ours = total_korf = 0
        total_cpu = 0.0
        for i in range(n):
            cpu, _, recs = solve(["--engine", "native", "-a", "ida_star", "-H", "manhattan"], [boards[i]], {})
            r = recs[0]
            ok &= r["cost"] == answers[i]
            gen = r["stats"]["generated"]
            inst, length, korf = table[i]
            total_ours += gen
            total_korf += korf
            total_cpu += cpu
            rate = gen / max(r["stats"]["elapsed"], 1e-9)
            print(f"  {inst:3d} {length:3d} {korf:>14,} {gen:>14,} {gen / korf:6.3f} {rate / 1e6:6.1f} M/s "
                  f"{'ok' if r['cost'] == answers[i] else 'WRONG'}", flush=True)
        rate = total_ours / total_cpu
        all_korf = sum(t[2] for t in table)
        print(f"  first {n}: Korf {total_korf:,}, ours {total_ours:,}, {total_cpu:.0f} s CPU, "
              f"{rate / 1e6:.1f} M nodes per CPU second; all 100 (Korf: {all_korf:,} nodes) extrapolated: "
              f"about {all_korf * total_ours / total_korf / rate / 60:.0f} min CPU")
    if "python663" in runs:
        n = args.python_first
        env = {"SEARCHKIT_CACHE_DIR": str(cache)}
        solve(["--engine", "native", "-H", "pdb(partition=6-6-3)"], boards[:1], env)  # build the tables once
        rows = {}
        for engine in ("native", "python"):
            cpu, peak, recs = solve(["--engine", engine, "-H", "pdb(partition=6-6-3)"], boards[:n], env)
            ok &= check(recs, answers[:n], f"{engine} pdb(partition=6-6-3), first {n}")
            nodes = sum(r["stats"]["generated"] for r in recs)
            rows[engine] = (cpu, nodes)
            print(f"  {cpu:.1f} s CPU, peak {peak:.0f} MiB, {nodes:,} nodes generated, "
                  f"{nodes / cpu / 1e3:,.0f} k nodes per CPU second")
        print(f"  Python / native CPU time: {rows['python'][0] / rows['native'][0]:.0f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
