"""``searchkit report`` at dataset scale: 100,000 records across 4 files, whole-process CPU time.

Issue 35's target: 100,000 records across 4 record files reported in at most
3 s CPU (Downward Lab takes about a minute for its equivalent).  The files are
made here from real records (the bundled PC19 boards solved once with A* +
puchert, its records copied with new data hashes and perturbed counts, so
every record is as large as a real one: moves, f-layers and rule cuts
included).  Each format is timed as a fresh process (start-up and imports
count), the median of ``--runs``, with ``python -c pass`` beside it in the
same run.  The HTML page is timed too: it draws its plots with matplotlib.

    python benchmarks/report.py [--records 100000] [--files 4] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from _harness import timed, warm_bytecode

ROOT = Path(__file__).resolve().parent.parent
PC19 = ROOT / "tests" / "data" / "pc19-first50.txt"


def templates(folder: Path) -> list[dict]:
    """Real records: the first 20 PC19 boards solved with the default plan."""
    out = folder / "seed.jsonl"
    boards = folder / "boards.txt"
    boards.write_text("".join(PC19.read_text().splitlines(keepends=True)[:20]))
    subprocess.run([str(Path(sys.executable).parent / "searchkit"), "solve", "flood", "--format", "jsonl",
                    "--output", str(out), str(boards)], check=True, capture_output=True)
    return [json.loads(line) for line in out.read_text().splitlines()]


def make_files(folder: Path, records: int, files: int, seed: int = 1) -> list[Path]:
    """``files`` record files of ``records // files`` records each, over the same instances."""
    rng = random.Random(seed)
    base = templates(folder)
    per_file = records // files
    heuristics = ["puchert", "layered", "eccentricity", "colours"]
    paths = []
    for f in range(files):
        path = folder / f"h{f + 1}.jsonl"
        with open(path, "w") as fh:
            for i in range(per_file):
                r = dict(base[i % len(base)])
                r["case"], r["line"] = i + 1, i + 1
                r["source"] = "boards.txt"
                r["data_hash"] = f"sha256:{i:064x}"
                r["heuristic"] = heuristics[f % len(heuristics)]
                stats = dict(r["stats"])
                stats["expanded"] = int(stats["expanded"] * rng.uniform(0.5, 4))
                stats["generated"] = int(stats["generated"] * rng.uniform(0.5, 4))
                r["stats"] = stats
                r["seconds"] = round(r["seconds"] * rng.uniform(0.5, 4), 6)
                if rng.random() < 0.02:
                    r.update(status="time_limit", cost=None, gap=None, length=None, moves=[])
                fh.write(json.dumps(r, separators=(",", ":")) + "\n")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-html", action="store_true", help="leave out the HTML page (matplotlib)")
    args = parser.parse_args()
    warm_bytecode()
    exe = Path(sys.executable)
    searchkit = str(exe.parent / "searchkit")
    try:
        import orjson  # noqa: F401

        reader = "orjson"
    except ImportError:
        reader = "json (orjson not installed: pip install 'searchkit-puzzles[report]')"
    with tempfile.TemporaryDirectory(prefix="searchkit-report-bench-") as tmp:
        folder = Path(tmp)
        paths = [str(p) for p in make_files(folder, args.records, args.files)]
        size = sum(Path(p).stat().st_size for p in paths)
        print(f"{args.records} records in {args.files} files, {size / 2**20:.1f} MiB; JSON reader: {reader}")
        bare, _, _ = timed([sys.executable, "-c", "pass"], runs=args.runs)
        print(f"{'command':<44} {'CPU s':>8} {'peak MiB':>9}")
        print(f"{'python -c pass':<44} {bare:>8.3f}")
        formats = ["text --no-per-instance", "markdown", "csv", "json"] + ([] if args.no_html else ["html"])
        for fmt in formats:
            name, *flags = fmt.split()
            out = folder / f"report.{ {'text': 'txt', 'markdown': 'md'}.get(name, name)}"
            argv = [searchkit, "report", *paths, "--format", name, *flags, "-o", str(out)]
            cpu, peak, _ = timed(argv, runs=args.runs)
            print(f"{'report --format ' + fmt:<44} {cpu:>8.3f} {peak / 1024:>9.0f}")


if __name__ == "__main__":
    main()
