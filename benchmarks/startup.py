"""Start-up cost: whole-process CPU time of ``searchkit`` commands against a bare interpreter, in one run.

CPU time (user + system, from ``os.wait4``) of each command, the minimum over
``--runs`` interleaved runs (the minimum is the figure least disturbed by
other work on a shared machine).  Prints each figure and its ratio to
``python -c pass``.  Issue 8's target: ``solve flood`` on the HDU sample at
most 4.5x the bare interpreter.  ``import pluggy, attrs`` is measured too:
the two libraries every command loads, the floor under any searchkit
command.

    python benchmarks/startup.py [--runs 31]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from _harness import warm_bytecode

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(argv: list[str]) -> float:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    warm_bytecode()  # as an install does; PYTHONDONTWRITEBYTECODE would otherwise recompile every run
    exe = Path(sys.executable)
    script = str(exe.parent / "searchkit")
    commands = {
        "python -c pass": [str(exe), "-c", "pass"],
        # The floor: the plugin manager and the value library every command needs, before any searchkit code.
        "python -c 'import pluggy, attrs'": [str(exe), "-c", "import pluggy, attrs"],
        "searchkit solve flood hdu4127-sample.txt": [script, "solve", "flood", "examples/flood/hdu4127-sample.txt"],
        "searchkit solve mayan noip2011-sample.in": [script, "solve", "mayan", "examples/mayan/noip2011-sample.in"],
        "searchkit games": [script, "games"],
        "searchkit solve flood --stats hdu4127-sample.txt": [script, "solve", "flood", "--stats",
                                                             "examples/flood/hdu4127-sample.txt"],
    }
    best = {name: float("inf") for name in commands}
    for _ in range(args.runs):
        for name, argv in commands.items():
            best[name] = min(best[name], cpu_seconds(argv))
    base = best["python -c pass"]
    for name, t in best.items():
        print(f"{name:52s} {t * 1000:7.1f} ms CPU  {t / base:5.2f}x")


if __name__ == "__main__":
    main()
