"""Issue 32 item 10: the native Flood-It engine under ``--memory-limit`` gives status ``memory_limit``, never an
abort.  Every allocation that grows with the board (the copy of its cells, the area graph, the domain's
bitset tables, the Puchert memo) is fallible: ``--memory-limit 1`` on a 24x24 ColorFill board, or a large board
under a tight allowance, killed the worker with SIGABRT and a Rust backtrace ("memory allocation of 458752
bytes failed"), and the case was ``? (error)``.

Real processes: the address-space limit is the one ``--memory-limit`` sets (``RLIMIT_AS``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("searchkit_flood_native")

#: The first two boards of ColorFill's b24c6 set (24x24, 6 colours), from /work/shared/cases/flood/colorfill/.
B24C6 = Path(__file__).parent / "data" / "b24c6-first2.txt"


def _searchkit(*args):
    return subprocess.run([sys.executable, "-m", "searchkit", *args], capture_output=True, text=True, timeout=300)


def test_memory_limit_1_on_a_24x24_board_is_memory_limit_not_an_abort():
    proc = _searchkit("solve", "flood", "--engine", "native", "--memory-limit", "1", "--format", "jsonl", str(B24C6))
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["status"] for r in records] == ["memory_limit", "memory_limit"], proc.stderr
    assert "SIGABRT" not in proc.stderr and "memory allocation" not in proc.stderr, proc.stderr
    assert "backtrace" not in proc.stderr and "error" not in [r["status"] for r in records]


#: A child that builds a large board before the limit, then calls the native engine under an address-space
#: allowance of ARGV[2] MiB: it prints the outcome (a status, or the Python exception's type).
_CHILD = r"""
import random, resource, sys
import searchkit_flood_native as _native
from searchkit.machinery.batch.executors import _address_space
side, mib, call = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(side)
cells = tuple(rng.randrange(6) for _ in range(side * side))
request = {"algorithm": "astar", "heuristic": "puchert", "memory_budget": (mib << 20) * 3 // 4}
resource.setrlimit(resource.RLIMIT_AS, (_address_space() + (mib << 20), resource.RLIM_INFINITY))
try:
    if call == "areas":
        out = _native.flood_areas(side, side, cells, 0)
    else:
        out = _native.solve((side, side, cells, 0), request)["status"]
except MemoryError as exc:
    out = f"MemoryError: {exc}"
print(out, flush=True)
"""


@pytest.mark.parametrize("side, mib, call", [
    (2000, 20, "areas"),   # the cells' copy fits, the area graph's tables do not (AreaGraph::new)
    (2000, 60, "areas"),
    (2000, 20, "solve"),
    (300, 40, "solve"),    # the graph fits; the domain's bitsets (areas x areas bits) do not
    (100, 3, "solve"),
    (24, 1, "solve"),      # a ColorFill-sized board: the Puchert memo's table
])
def test_the_native_engine_reports_running_out_of_memory(side, mib, call):
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(side), str(mib), call], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the native engine's own answer (not a MemoryError of Python's before the call)
    assert proc.stdout.strip() in ("MemoryError: flood: not enough memory for the board", "memory_limit"), proc.stdout
    assert "memory allocation" not in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("mib", [40, 60])
def test_a_search_whose_states_are_boxed_stops_at_the_memory_limit(tmp_path, mib):
    # A 40x40 board has more than 576 areas, so its states are boxed bitsets whose words live on the heap;
    # uncounted, the search ran past its budget until a small allocation (the Puchert estimate's) failed under
    # RLIMIT_AS: SIGABRT, "memory allocation of N bytes failed", the case `? (error)`.  Now each stored state's
    # words count (`Puzzle::state_heap_bytes`), and the budget says `memory_limit` first.
    rng = random.Random(1)
    rows = (" ".join(str(rng.randrange(6)) for _ in range(40)) for _ in range(40))
    board = tmp_path / "flood40.txt"
    board.write_text("40\n" + "\n".join(rows) + "\n0\n")
    proc = _searchkit("solve", "flood", "--engine", "native", "--memory-limit", str(mib), "--format", "jsonl",
                      str(board))
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["status"] for r in records] == ["memory_limit"], proc.stderr[-2000:]
    assert "SIGABRT" not in proc.stderr and "memory allocation" not in proc.stderr, proc.stderr[-2000:]
