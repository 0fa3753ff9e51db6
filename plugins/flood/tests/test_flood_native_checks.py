"""The native Flood-It domain against this plugin's Python puzzle, as any plugin with a native twin tests its
own: ``searchkit.testing.native_checks`` (status, cost, moves, lower bound, counts, iterations and rule cuts on
random boards for every algorithm x heuristic x rule set the twin supports; an expired time limit; Ctrl-C).

Skipped, saying so, without the native module.  ``SEARCHKIT_DIFFERENTIAL_EXAMPLES`` sets the examples.
"""

from searchkit.api import generate
from searchkit.testing import native_checks

# Boards of side 1 to 5 (6 colours).  Ctrl-C: a 30 x 30 board, which A* with puchert (the game's plan) takes
# minutes to solve.
test_native = native_checks("flood", max_size=5, interrupt_case=generate("flood", size=30, seed=3))
