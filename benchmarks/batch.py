"""Dataset runs: --jobs speed-up, per-case overhead, parent memory, Dask against local workers, kill -9 + resume.

    python benchmarks/batch.py            # everything (several minutes on 2 cores)
    python benchmarks/batch.py --quick    # smaller sizes, to try it
    python benchmarks/batch.py --only speedup,overhead,dask,resume,colorfill

Every run is a fresh ``searchkit`` process (start-up counts).  Wall time by
``time.perf_counter``; CPU time of a run and all its workers by
``getrusage(RUSAGE_CHILDREN)`` deltas; the parent's own peak memory by
reading ``VmHWM`` of its ``/proc/PID/status`` while it runs (``wait4``'s
``ru_maxrss`` would count the workers' peaks too).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
PC19 = SHARED / "cases" / "flood" / "pc19-14x14-6c.txt"
COLORFILL = SHARED / "reference" / "colorfill" / "colorfill.jar"
SEARCHKIT = [sys.executable, "-m", "searchkit"]


def run(args, stdout=subprocess.DEVNULL) -> dict:
    """Run searchkit ARGS; wall seconds, CPU seconds (it and its workers), the parent's peak RSS in KiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([*SEARCHKIT, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE)
    hwm = 0
    while proc.poll() is None:
        hwm = max(hwm, _vmhwm(proc.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"searchkit {' '.join(map(str, args))} exited {proc.returncode}: {err}")
    return {"wall": wall, "cpu": cpu, "parent_kb": hwm, "stderr": err}


def _vmhwm(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def untimed(record: dict) -> dict:
    drop = {"seconds", "elapsed", "per_depth_seconds", "peak_rss_kb"}

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in drop}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return strip(record)


def speedup(n: int, tmp: Path) -> None:
    data = tmp / "pc19.txt"
    data.write_text("".join(PC19.read_text().splitlines(keepends=True)[:n]))
    one = run(["solve", "flood", data])
    two = run(["solve", "flood", "--jobs", "2", data])
    print(f"PC19 {n} boards: --jobs 1 {one['wall']:.1f} s, --jobs 2 {two['wall']:.1f} s, "
          f"speed-up {one['wall'] / two['wall']:.2f}x (CPU {one['cpu']:.1f} s vs {two['cpu']:.1f} s)")


def colorfill(n: int, tmp: Path) -> None:
    import shutil

    if shutil.which("java") is None or not COLORFILL.exists():
        print("ColorFill: java or colorfill.jar missing, skipped")
        return
    data = tmp / "cf" / "boards.txt"
    data.parent.mkdir(exist_ok=True)
    data.write_text("".join(PC19.read_text().splitlines(keepends=True)[:n]))
    t0 = time.perf_counter()
    subprocess.run(["java", "-Xms2G", "-Xmx2G", "-cp", str(COLORFILL), "colorfill.ui.Starter", "-benchmark",
                    str(data), "AStarPuchertStrategy"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    cf = time.perf_counter() - t0
    two = run(["solve", "flood", "--jobs", "2", data])
    print(f"PC19 {n} boards: ColorFill single-threaded {cf:.1f} s, searchkit --jobs 2 {two['wall']:.1f} s, "
          f"ratio {two['wall'] / cf:.2f}")


def overhead(counts: list[int], tmp: Path) -> None:
    for n in counts:
        data = tmp / f"g6-{n}.txt"
        with open(data, "w") as fh:
            subprocess.run([*SEARCHKIT, "generate", "flood", "--count", str(n), "--size", "6", "--seed", "1"],
                           stdout=fh, check=True)
        one = run(["solve", "flood", data])
        out = tmp / f"g6-{n}.jsonl"
        two = run(["solve", "flood", "--jobs", "2", "--format", "jsonl", "--output", out, data])
        print(f"{n} boards 6x6: one process {one['wall']:.1f} s wall / {one['cpu']:.1f} s CPU; "
              f"--jobs 2 jsonl --output {two['wall']:.1f} s wall / {two['cpu']:.1f} s CPU; "
              f"overhead {1e6 * (two['cpu'] - one['cpu']) / n:.0f} us CPU a case "
              f"({1e6 * (2 * two['wall'] - one['wall']) / n:.0f} us of 2-core wall); "
              f"parent peak RSS {two['parent_kb'] / 1024:.1f} MiB")


def dask(n: int, tmp: Path) -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        print("dask: not installed, skipped")
        return
    data = tmp / "pc19-dask.txt"
    data.write_text("".join(PC19.read_text().splitlines(keepends=True)[:n]))
    local = run(["solve", "flood", "--jobs", "2", data])
    cluster = run(["solve", "flood", "--jobs", "2", "--executor", "dask", data])
    print(f"PC19 first {n}: local pool {local['wall']:.1f} s, Dask LocalCluster (2 workers, its start-up "
          f"included) {cluster['wall']:.1f} s, ratio {cluster['wall'] / local['wall']:.2f}")


def resume(n: int, tmp: Path) -> None:
    data = tmp / "pc19-resume.txt"
    data.write_text("".join(PC19.read_text().splitlines(keepends=True)[:n]))
    clean = tmp / "clean.jsonl"
    run(["solve", "flood", "--jobs", "2", "--output", clean, data])
    killed = tmp / "killed.jsonl"
    proc = subprocess.Popen([*SEARCHKIT, "solve", "flood", "--jobs", "2", "--output", str(killed), str(data)],
                            stderr=subprocess.DEVNULL, start_new_session=True)
    while not killed.exists() or killed.read_bytes().count(b"\n") < n // 2:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers, mid-run
    proc.wait()
    had = killed.read_bytes().count(b"\n")
    again = run(["solve", "flood", "--jobs", "2", "--output", killed, "--resume", data])
    a = [untimed(json.loads(line)) for line in clean.read_text().splitlines()]
    b = [untimed(json.loads(line)) for line in killed.read_text().splitlines()]
    verdict = "match" if a == b else "DIFFER"
    print(f"kill -9 after {had} of {n} records, then --resume ({again['wall']:.1f} s): {len(b)} records, "
          f"{verdict} a clean run's in everything but timings and memory")
    if a != b:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="speedup,colorfill,overhead,dask,resume")
    parser.add_argument("--pc19", type=int, default=None, help="PC19 boards for speedup, colorfill and resume")
    parser.add_argument("--boards", default=None, help="counts of 6x6 boards for overhead, e.g. 10000,100000")
    args = parser.parse_args()
    if not PC19.exists():
        sys.exit(f"{PC19} is missing")
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="searchkit-batch-") as name:
        tmp = Path(name)
        pc19 = args.pc19 or (200 if args.quick else 1000)
        boards = [int(n) for n in args.boards.split(",")] if args.boards else (
            [1000, 10000] if args.quick else [10000, 100000])
        if "speedup" in only:
            speedup(pc19, tmp)
        if "colorfill" in only:
            colorfill(pc19, tmp)
        if "overhead" in only:
            overhead(boards, tmp)
        if "dask" in only:
            dask(50 if args.quick else 200, tmp)
        if "resume" in only:
            resume(pc19, tmp)


if __name__ == "__main__":
    main()
