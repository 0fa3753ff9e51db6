"""The native sliding-tile domain against this plugin's Python puzzle, as any plugin with a native twin tests
its own: ``searchkit.testing.native_checks`` (status, cost, moves, lower bound, counts, iterations and rule cuts
on boards of side 1 to 3, for every algorithm with its options, each heuristic with a native twin --
manhattan, linear-conflict, pdb with each partition, with and without the mirror -- and no-undo on or off,
with node limits and upper bounds; an expired time limit; Ctrl-C).

Skipped, saying so, without the native module.  ``SEARCHKIT_DIFFERENTIAL_EXAMPLES`` sets the examples (CI runs
3000).
"""

import random

import pytest
from hypothesis import strategies as st
from searchkit.testing import native_checks
from sliding_tiles.puzzle import goal_board, neighbours

pytest.importorskip("numpy", reason="the pdb heuristic's Python twin needs numpy")


@st.composite
def boards(draw):
    """A board of side 1 to 3: any permutation on 2x2 (half unsolvable: decided without a search), a random
    walk of up to 24 moves on 3x3 (near the goal as often as far from it)."""
    n = draw(st.integers(1, 3))
    if n < 3:
        return tuple(draw(st.permutations(range(n * n)))) if n == 2 else (0,)
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    board = list(goal_board(3))
    blank = 8
    for _ in range(draw(st.integers(0, 24))):
        _, to = rng.choice(neighbours(3)[blank])
        board[blank], board[to] = board[to], 0
        blank = to
    return tuple(board)


# Ctrl-C: a 15-puzzle far from the goal, which IDA* with Manhattan distance takes minutes to solve.
HARD15 = "15 14 13 12\n11 10 9 8\n7 6 5 4\n3 1 2 0\n"

# Deep 3x3 boards (up to 31 moves) cost the Python engine seconds each without a node limit; the 31-move one is
# tests/native/test_tiles_differential.py's.
test_native = native_checks("sliding-tiles", cases=boards(), interrupt_case=HARD15,
                            interrupt_search=("ida_star", "manhattan"))


@st.composite
def boards25(draw):
    """A 24-puzzle a random walk of up to 18 moves from the goal (the native engine's own 5x5 board)."""
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    board = list(goal_board(5))
    blank = 24
    for _ in range(draw(st.integers(0, 18))):
        _, to = rng.choice(neighbours(5)[blank])
        board[blank], board[to] = board[to], 0
        blank = to
    return tuple(board)


# The 5x5 board: Manhattan distance, linear conflict and the 3-tile groups' tables (6-6-6-6's are 127.5 MB each;
# the same builder, files and lookups serve both), with and without the mirror; threads equal one thread in
# native/tests/threads25.rs.
test_native_5x5 = native_checks(
    "sliding-tiles", cases=boards25(), max_examples=40,
    heuristics=("manhattan", "linear-conflict", "pdb(partition=3-3-3-3-3-3-3-3, reflect=0)",
                "pdb(partition=3-3-3-3-3-3-3-3, reflect=1)"))
