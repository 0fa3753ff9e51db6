"""Benchmark: searchkit against ColorFill (Java, A*/Puchert) on ColorFill's own suite, per core.

For each set ``bWcK`` of ``../shared/cases/flood/colorfill/`` it writes the
first N boards (``--boards``, default 100) to a scratch directory and runs,
one after the other in the same run:

* ColorFill with the parallel collector, its best here: ``java
  -XX:+UseParallelGC -Xms4G -Xmx4G -cp colorfill.jar colorfill.ui.Starter
  -benchmark FILE`` (single-threaded A* with the Puchert heuristic), and
  beside it with the default G1 collector (``--no-g1`` leaves that out);
  skipped with a message when ``java`` is not on the PATH or the jar is
  missing;
* searchkit on the native engine: ``searchkit solve flood --engine native
  FILE`` with the game's default plan (``--searchkit-arg`` passes extra
  options, e.g. ``-a`` or ``-H``); only a release build of ``searchkit_flood_native``
  is timed (debug Rust is 10-50 times slower), and without the package this
  column is skipped with a message;
* with ``--python``, searchkit on the Python engine as well (``--engine python``).

The ratio column is native searchkit / ColorFill (parallel collector).

Each is one fresh process.  It prints per set the whole-process CPU seconds
(user + sys of the child, from ``os.wait4``'s rusage: JVM start-up and JIT,
Python start-up and imports included), their ratio searchkit / ColorFill,
the total moves of each checked against ``.ans`` (or against ``.ub``, an
upper bound, where no ``.ans`` exists), and the peak resident memory
(ru_maxrss) of each.  PC19 (``../pc19-14x14-6c.txt``, 1000 boards) runs
whole afterwards unless ``--no-pc19``.

CPU time, not wall time, is what is compared: the machine is shared, and CPU
seconds of a single-threaded process are far less noisy than wall seconds.
(ColorFill's JVM runs a few GC/JIT threads; their CPU counts against it, as
it would on a single core.)  Ratios are only meaningful within one run.

Results (issue 13; first 100 boards per set, PC19 whole; one run on the
project's shared 2-core machine, load average 5-8 from other sessions, so
CPU seconds are inflated and ColorFill's own figure moved by up to 2x between
runs -- compare ratios within one run only)::

    set       before: CF s   SK s  ratio   after: CF s   SK s  ratio   SK MiB after
    b10c15            5.21   6.99   1.34          2.69   7.76   2.89      40
    b12c12           33.30 102.42   3.08         35.11 113.22   3.23     409
    b14c8            32.14  72.61   2.26         30.36  76.83   2.53     424
    b18c6            30.87  69.93   2.27         31.49  71.76   2.28     160
    b24c4             4.13   3.71   0.90          3.03   3.79   1.25      23
    pc19 (1000)      12.74  38.55   3.03         10.40  40.60   3.90      43
    total           118.39 294.20   2.48        113.07 313.96   2.78

All answers equal ``.ans`` in both runs.  The two runs differ more by load
than by code.  Old plugin (commit e9af190, put first on ``PYTHONPATH``)
against new, same run, two alternating passes, ``--no-colorfill --boards 30
--sets b10c15,b12c12,b14c8 --pc19-boards 200``, CPU s (peak MiB)::

    b10c15   old 2.56 / 2.84 (44)    new 2.53 / 2.58 (40)
    b12c12   old 38.59 / 39.04 (475) new 36.96 / 36.86 (408)
    b14c8    old 22.36 / 20.93 (135) new 19.68 / 18.14 (113)
    pc19/200 old 10.62 / 8.87 (48)   new 8.80 / 8.84 (44)

that is 5-11% less CPU and 9-15% less peak memory.  The 1.0x target is not reached: 97.6% of the expanded
states have f < C* (see ``searchkit_flood.heuristics.puchert``), a bound
as strong as a one-move look-ahead would remove only a third of them, and
the remaining gap is the cost of a Python expansion (about 7 heuristic
calls of 4-7 us each, a dominance check and the driver's bookkeeping).

Usage::

    python benchmarks/flood_colorfill.py [--jar PATH] [--boards N] [--sets b10c15,b24c4]
        [--no-pc19] [--no-colorfill] [--timeout S] [--searchkit-arg ARG ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import SHARED, searchkit_argv  # noqa: E402

SETS = ("b10c15", "b12c12", "b14c8", "b18c6", "b24c4", "b24c6")


def run_child(argv, cwd=None, timeout=None):
    """Run ``argv``; return ``(cpu_seconds, peak_rss_kib, output, exit_status, wall_seconds)``.

    ``cpu_seconds`` is user + sys of the child from ``os.wait4``'s rusage;
    ``peak_rss_kib`` its ru_maxrss.  With ``timeout`` (wall seconds) the child
    is killed and the status is ``"timeout"``.
    """
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        status = None
        while True:
            pid, st, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(st)
                status = proc.returncode
                break
            if timeout is not None and time.perf_counter() - t0 > timeout:
                proc.kill()
                _, st, usage = os.wait4(proc.pid, 0)
                proc.returncode = -9
                status = "timeout"
                break
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        out.seek(0)
        text = out.read().decode(errors="replace")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, text, status, wall


def _best(repeat, run):
    """Run ``run()`` ``repeat`` times; return ``(least cpu, max rss, output, status)`` (output of the last run)."""
    best, peak = None, 0
    for _ in range(max(1, repeat)):
        cpu, rss, text, status, _ = run()
        best = cpu if best is None else min(best, cpu)
        peak = max(peak, rss)
    return best, peak, text, status


def colorfill_total(text):
    """(boards solved, total steps) from ColorFill's summary line, or ``None``."""
    m = re.search(r"(\d+) solutions with\s+(\d+) steps", text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def searchkit_total(text):
    """(boards solved, total moves, per-board list) from ``searchkit solve`` output."""
    vals = []
    for line in text.splitlines():
        line = line.strip()
        if re.fullmatch(r"\d+", line):
            vals.append(int(line))
    return len(vals), sum(vals), vals


def _native_profile() -> str | None:
    """``"release"`` or ``"debug"``: how the installed ``searchkit_flood_native`` was built; ``None`` without it."""
    probe = ("import searchkit_flood_native as n; print(n.manifest()['profile'])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return done.stdout.strip() or None if done.returncode == 0 else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jar", default=str(SHARED / "reference/colorfill/colorfill.jar"))
    ap.add_argument("--cases", default=str(SHARED / "cases/flood/colorfill"))
    ap.add_argument("--boards", type=int, default=100, help="first N boards of each set (default 100)")
    ap.add_argument("--sets", default=",".join(SETS[:-1]),
                    help="comma-separated set names (default: every set with an .ans: " + ",".join(SETS[:-1]) + ")")
    ap.add_argument("--no-pc19", action="store_true", help="skip the whole PC19 run")
    ap.add_argument("--pc19-boards", type=int, default=None, help="only the first N PC19 boards")
    ap.add_argument("--no-colorfill", action="store_true", help="run searchkit only")
    ap.add_argument("--timeout", type=float, default=None, help="wall seconds per process before it is killed")
    ap.add_argument("--searchkit-arg", action="append", default=[], help="extra argument for searchkit solve")
    ap.add_argument("--python", action="store_true", help="also run searchkit on the Python engine")
    ap.add_argument("--no-g1", action="store_true", help="skip ColorFill with the default G1 collector")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each process R times in a row and keep the least CPU time of each "
                         "(the least is the figure least inflated by other load on the machine)")
    args = ap.parse_args()

    java = shutil.which("java")
    use_cf = not args.no_colorfill
    if use_cf and java is None:
        print("java not found: ColorFill is skipped")
        use_cf = False
    if use_cf and not Path(args.jar).exists():
        print(f"{args.jar} not found: ColorFill is skipped")
        use_cf = False

    native = _native_profile()
    if native != "release":
        print("searchkit_flood_native is not installed (pip install ./plugins/flood/native): the native column "
              "is skipped"
              if native is None else f"searchkit_flood_native is a {native} build: only release builds are timed "
                                     f"(pip install ./plugins/flood/native builds one)")

    work = Path(tempfile.mkdtemp(prefix="searchkit-cf-"))
    jobs = []
    for name in [s for s in args.sets.split(",") if s]:
        src = next(Path(args.cases).glob(f"{name}n*.txt"))
        jobs.append((name, src, args.boards))
    if not args.no_pc19:
        jobs.append(("pc19", SHARED / "cases/flood/pc19-14x14-6c.txt", args.pc19_boards))

    header = (f"{'set':8} {'boards':>6} {'CF cpu s':>9} {'CF G1 s':>8} {'SK nat s':>9} {'ratio':>6} "
              f"{'SK py s':>8} {'CF moves':>9} {'SK moves':>9} {'expected':>9} {'CF MiB':>7} {'SK MiB':>7}")
    print(header)
    print("-" * len(header))
    sum_cf = sum_sk = 0.0
    for name, src, n in jobs:
        lines = [ln for ln in src.read_text().splitlines() if ln.strip()]
        if n is not None:
            lines = lines[:n]
        board_file = work / f"{name}.txt"
        board_file.write_text("\n".join(lines) + "\n")
        expected, kind = None, ""
        for suffix, label in ((".ans", ""), (".ub", " ub")):
            p = src.with_suffix(suffix)
            if p.exists():
                expected = sum(int(x) for x in p.read_text().split()[:len(lines)])
                kind = label
                break
        cf_cpu = cf_rss = cf_moves = cf_g1 = None
        if use_cf:
            cf_argv = [java, "-Xms4G", "-Xmx4G", "-cp", str(Path(args.jar).resolve()), "colorfill.ui.Starter",
                       "-benchmark", board_file.name]
            cpu, rss, text, status = _best(args.repeat, lambda: run_child(
                cf_argv[:1] + ["-XX:+UseParallelGC"] + cf_argv[1:], cwd=work, timeout=args.timeout))
            if not args.no_g1:
                cf_g1 = _best(args.repeat, lambda: run_child(cf_argv, cwd=work, timeout=args.timeout))[0]
            total = colorfill_total(text)
            cf_cpu, cf_rss = cpu, rss
            if total is None or total[0] != len(lines):
                cf_moves = f"fail:{status}" if total is None else f"{total[0]}b?"
            else:
                cf_moves = total[1]
        py_cpu = None
        if args.python:
            py_cpu, _, py_text, py_status = _best(args.repeat, lambda: run_child(
                searchkit_argv() + ["solve", "flood", "--engine", "python", *args.searchkit_arg, str(board_file)],
                timeout=args.timeout))
        if native == "release":
            cpu, rss, text, status = _best(args.repeat, lambda: run_child(
                searchkit_argv() + ["solve", "flood", "--engine", "native", *args.searchkit_arg, str(board_file)],
                timeout=args.timeout))
        elif args.python:
            cpu, rss, text, status = py_cpu, 0, py_text, py_status
        else:
            cpu, rss, text, status = float("nan"), 0, "", "skipped"
        count, moves, _ = searchkit_total(text)
        sk_moves = moves if count == len(lines) else f"{count}b/{status}"
        ratio = f"{cpu / cf_cpu:6.2f}" if cf_cpu and isinstance(cf_moves, int) and native == "release" \
            else "     -"
        if isinstance(cf_moves, int) and native == "release":
            sum_cf += cf_cpu
            sum_sk += cpu
        mark = ""
        if expected is not None and isinstance(sk_moves, int):
            if kind == "" and sk_moves != expected:
                mark = " WRONG"
            if kind == " ub" and sk_moves > expected:
                mark = " ABOVE-UB"
        print(f"{name:8} {len(lines):6} {cf_cpu if cf_cpu is not None else float('nan'):9.2f} "
              f"{cf_g1 if cf_g1 is not None else float('nan'):8.2f} {cpu:9.2f} {ratio} "
              f"{py_cpu if py_cpu is not None else float('nan'):8.2f} "
              f"{str(cf_moves) if cf_moves is not None else '-':>9} {str(sk_moves):>9} "
              f"{(str(expected) + kind) if expected is not None else '-':>9} "
              f"{(cf_rss or 0) / 1024:7.0f} {rss / 1024:7.0f}{mark}", flush=True)
    if sum_cf:
        print(f"{'total':8} {'':6} {sum_cf:9.2f} {'':8} {sum_sk:9.2f} {sum_sk / sum_cf:6.2f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
