"""The native sliding-tile domain against this plugin's Python puzzle, as any plugin with a native twin tests
its own: ``searchkit.testing.native_checks`` (status, cost, moves, lower bound, counts, iterations and rule cuts
on random boards of side 1 to 3, for every algorithm, each heuristic with a native twin -- manhattan,
linear-conflict, pdb -- and no-undo on or off; an expired time limit; Ctrl-C).

Skipped, saying so, without the native module.  ``SEARCHKIT_DIFFERENTIAL_EXAMPLES`` sets the examples.
"""

import pytest
from searchkit.testing import native_checks

pytest.importorskip("numpy", reason="the pdb heuristic's Python twin needs numpy")

# Ctrl-C: a 15-puzzle far from the goal, which IDA* with Manhattan distance takes minutes to solve.
HARD15 = "15 14 13 12\n11 10 9 8\n7 6 5 4\n3 1 2 0\n"

test_native = native_checks("sliding-tiles", max_size=3, interrupt_case=HARD15,
                            interrupt_search=("ida_star", "manhattan"))
