"""Property tests: the packed engine, the search and the bound against the plain reference model."""

from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from searchkit_mayan.board import Shape, from_columns, run_cells, settle, successors, to_columns
from searchkit_mayan.bound import INFINITE, board_bound, is_feasible, table_for
from mayan_search import solve

import mayan_reference as ref

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")

SHAPES = [(5, 7, 3), (4, 5, 3), (4, 4, 2)]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pack(cols, shape):
    """Pack columns that may hold holes (0) -- from_columns only takes stacks."""
    board = 0
    for x, col in enumerate(cols):
        for y, c in enumerate(col):
            board |= c << shape.offset(x, y)
    return board


def stacks(board, shape):
    return [[c for c in col] for col in to_columns(board, shape)]


@st.composite
def grids(draw, colours=4):
    """Any cell pattern on any of the shapes: floating blocks and runs allowed."""
    w, h, r = draw(st.sampled_from(SHAPES))
    cols = [draw(st.lists(st.integers(0, colours), max_size=h)) for _ in range(w)]
    return Shape(w, h, r), cols


@st.composite
def puzzles(draw, max_blocks=9):
    """A settled, non-empty start board with few blocks, most colours having about R blocks.

    Blocks go to three neighbouring columns, so that about a quarter of the
    boards can be emptied in at most three moves.
    """
    w, h, r = draw(st.sampled_from(SHAPES))
    blocks = []
    for colour in range(1, draw(st.integers(1, 3)) + 1):
        blocks += [colour] * draw(st.sampled_from([r, r, r, r + 1, r - 1]))
    blocks = draw(st.permutations(blocks[:max_blocks]))
    cols = [[] for _ in range(w)]
    left = draw(st.integers(0, w - 3))
    for colour in blocks:
        x = draw(st.integers(left, left + 2))
        if len(cols[x]) < h:
            cols[x].append(colour)
    cols = ref.settle(cols, w, h, r)
    assume(any(cols))
    return (w, h, r), cols


@FAST
@given(grids())
def test_settle_matches_reference(case):
    shape, cols = case
    w, h, r = shape.width, shape.height, shape.run
    got = settle(pack(cols, shape), shape)
    assert stacks(got, shape) == ref.settle(cols, w, h, r)
    assert all(0 not in col for col in to_columns(got, shape))  # no floating block
    assert run_cells(got, shape) == []  # no run


@FAST
@given(puzzles(), st.booleans())
def test_moves_match_reference(case, same):
    (w, h, r), cols = case
    shape = Shape(w, h, r)
    got = [(m, stacks(b, shape)) for m, b in successors(from_columns(cols, shape), shape,
                                                        same_colour_swaps=same)]
    want = [(m, ref.settle(b, w, h, r)) for m, b in ref.moves(cols, w, h, same)]
    assert got == want


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(), st.integers(1, 3), st.booleans())
def test_search_equals_exhaustive(case, n, same):
    (w, h, r), cols = case
    shape = Shape(w, h, r)
    board = from_columns(cols, shape)
    want = ref.exhaustive(cols, n, w, h, r, same)
    out = solve(board, n, shape, same_colour_swaps=same)
    assert out.moves == want
    plain = solve(board, n, shape, same_colour_swaps=same, skip_left_swaps=False,
                  colour_cut=False, transposition=False, lower_bound=False)
    assert plain.moves == want
    if want is not None:  # replaying the answer empties the board exactly at move n
        for x, y, g in want:
            assert any(cols)
            cols = ref.settle(ref.move_unsettled(cols, x, y, g, w, h, same), w, h, r)
        assert not any(cols)
    start = stacks(board, shape)
    shortest = solve(board, n, shape, mode="shortest", same_colour_swaps=same).moves
    fewest = ref.fewest_moves(start, n, w, h, r, same)
    assert (shortest is None) == (fewest is None)
    if fewest is not None:
        assert shortest == ref.exhaustive(start, fewest, w, h, r, same)


@FAST
@given(puzzles(), st.booleans())
def test_bound_is_admissible(case, same):
    (w, h, r), cols = case
    shape = Shape(w, h, r)
    fewest = ref.fewest_moves(cols, 3, w, h, r, same)
    if fewest is not None:
        assert board_bound(from_columns(cols, shape), shape) <= fewest
    # ... also on a child right after the move, before it settles.
    for _, moved in ref.moves(cols, w, h, same):
        rest = ref.fewest_moves(ref.settle(moved, w, h, r), 2, w, h, r, same)
        if rest is not None:
            assert board_bound(from_columns(moved, shape), shape) <= rest


def brute_feasible(v, run):
    """Some multiset of intervals of >= run columns covers each column with v_j < run exactly v_j times."""
    w = len(v)
    intervals = [(i, j) for i in range(w) for j in range(i + run - 1, w)]
    for mult in product(range(run), repeat=len(intervals)):
        cover = [0] * w
        for (i, j), m in zip(intervals, mult):
            for k in range(i, j + 1):
                cover[k] += m
        if all(c == x for c, x in zip(cover, v) if x < run):
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=3, max_size=4))
def test_feasibility_matches_brute_force(v):
    assert is_feasible(v, 3) == brute_feasible(v, 3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=4, max_size=4).filter(lambda v: sum(v) <= 6))
def test_table_is_the_distance_to_the_feasible_set(u):
    def compositions(total, parts):
        if parts == 1:
            yield (total,)
            return
        for first in range(total + 1):
            for rest in compositions(total - first, parts - 1):
                yield (first,) + rest

    def emd(p, q):
        out = acc = 0
        for a, b in zip(p, q):
            acc += a - b
            out += abs(acc)
        return out

    table = table_for(4, 7, 3)
    best = min((emd(u, v) for v in compositions(sum(u), 4) if brute_feasible(v, 3)), default=INFINITE)
    assert table[table.key(u)] == best


def test_table_values():
    table = table_for(5, 7, 3)
    assert table[0] == 0
    assert table[table.key((1, 1, 0, 0, 0))] == INFINITE  # two blocks never vanish
    assert table[table.key((3, 0, 0, 0, 0))] == 0
    assert table[table.key((1, 0, 1, 0, 1))] == 2
    assert table[table.key((7, 2, 0, 0, 0))] == 1  # (6, 3, 0, 0, 0) is feasible
    with pytest.raises(ValueError):
        table.key((8, 0, 0, 0, 0))
    with pytest.raises(KeyError):
        table[1 << 15]
