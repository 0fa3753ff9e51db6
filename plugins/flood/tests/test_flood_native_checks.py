"""The native Flood-It domain against this plugin's Python puzzle, as any plugin with a native twin tests its
own: ``searchkit.testing.native_checks`` (status, cost, moves, lower bound, counts, iterations and rule cuts on
random boards for every algorithm x heuristic x rule set the twin supports, with their options, node limits and
upper bounds; an expired time limit; Ctrl-C).

Skipped, saying so, without the native module.  ``SEARCHKIT_DIFFERENTIAL_EXAMPLES`` sets the examples (CI runs
3000).
"""

from hypothesis import strategies as st
from searchkit.api import generate
from searchkit.testing import native_checks
from searchkit_flood.board import Board


@st.composite
def boards(draw, max_side=6, max_colours=5):
    """A board of 1 to 6 cells a side (not only square), 1 to 5 colours, any start cell."""
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    k = draw(st.integers(1, max_colours))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    return Board.from_values(w, h, cells, draw(st.integers(0, w * h - 1)))


# Ctrl-C: a 30 x 30 board, which A* with puchert (the game's plan) takes minutes to solve.
test_native = native_checks("flood", cases=boards(), interrupt_case=generate("flood", size=30, seed=3))
