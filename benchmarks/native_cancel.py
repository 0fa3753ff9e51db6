"""How soon the native engine answers Ctrl-C: a child process searches (breadth-first search on a hard
15-puzzle, GIL released) and gets SIGINT; the time from the signal to the child's ``cancelled`` result.

    python benchmarks/native_cancel.py [--runs 5]

The issue's target is 0.1 s.  Needs the test game's native module (``pip install ./native/testgame``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

CHILD = """
import json, time
import searchkit_testgame as native
print("ready", flush=True)
r = native.solve((4, [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 1, 2, 0], False), {"algorithm": "bfs"})
print(json.dumps({"status": r["status"], "expanded": r["stats"]["expanded"]}), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for _ in range(args.runs):
        child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out = json.loads(child.stdout.readline())
        answered = time.perf_counter() - sent
        child.wait()
        print(f"{out['status']} after {answered * 1000:.1f} ms ({out['expanded']} states expanded)")


if __name__ == "__main__":
    main()
