"""Lower bounds for the sliding-tile puzzle.

Each factory takes a :class:`~sliding_tiles.puzzle.SlidingPuzzle`, precomputes
per-board-side tables (shared between instances of one side) and returns
``estimate(state) -> int``.  States are flat tuples whose first N*N entries are
the board; ``map`` over a table of N*N rows stops there, so the trailing
"last move" field is ignored.

All three are admissible and consistent with unit move costs: one move
lowers each by at most 1 (argued in each docstring).  The tests check both
properties on every 2x2 and 3x3 board against BFS, and |h(s) - h(s')| <= 1
on random 4x4 and 5x5 boards; ``searchkit check sliding-tiles -H all
--max-size 2`` checks them on 2x2 boards.
"""

from __future__ import annotations

from functools import lru_cache
from operator import getitem, ne, sub

from searchkit.limits import reserve, setup_check

#: Largest side whose Manhattan table (``N**4`` entries) is built: 4096 entries at 8, built in a few
#: milliseconds.  Larger boards use :func:`_manhattan_rows_cols` (``2 * N*N`` entries): a 100 x 100 table
#: would take 10**8 entries (800 MB, 25 s), a 300 x 300 one 8.1 * 10**9.
TABLE_MAX_SIDE = 8


@lru_cache(maxsize=None)
def _manhattan_table(n: int) -> tuple[tuple[int, ...], ...]:
    """``table[pos][tile]``: grid distance from ``pos`` to ``tile``'s goal cell (0 for the blank).

    Raises:
        searchkit.limits.LimitReached: the case's time or memory allowance runs out while it is built.
    """
    cells = n * n
    reserve(8 * cells * cells)  # a pointer an entry
    table = []
    for pos in range(cells):
        setup_check()
        r, c = divmod(pos, n)
        row = [0]
        for tile in range(1, cells):
            gr, gc = divmod(tile - 1, n)
            row.append(abs(r - gr) + abs(c - gc))
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=None)
def _manhattan_rows_cols(n: int):
    """``(rows, cols, goal_rows, goal_cols)``: each cell's row and column, and each tile's goal row and column
    (the blank's: the bottom-right corner), ``N*N`` entries each."""
    cells = n * n
    reserve(4 * 8 * cells)
    rows = tuple(pos // n for pos in range(cells))
    cols = tuple(pos % n for pos in range(cells))
    goal_rows = (n - 1,) + rows[:-1]  # tile t's goal cell is t - 1, the blank's the last one
    goal_cols = (n - 1,) + cols[:-1]
    return rows, cols, goal_rows, goal_cols


def _manhattan_estimate(n: int):
    """``estimate(state)``: the Manhattan sum, from the ``N**4`` table on small boards, else from rows and columns."""
    if n <= TABLE_MAX_SIDE:
        table = _manhattan_table(n)

        def estimate(state):
            return sum(map(getitem, table, state))

        return estimate
    rows, cols, goal_rows, goal_cols = _manhattan_rows_cols(n)

    def estimate(state):
        # every cell's |row - goal row| + |column - goal column|, the blank's distance to its goal corner taken
        # off again; rows first, so the map stops before the state's trailing field
        blank = state.index(0)
        blank_distance = (n - 1 - blank // n) + (n - 1 - blank % n)
        return (sum(map(abs, map(sub, rows, map(goal_rows.__getitem__, state))))
                + sum(map(abs, map(sub, cols, map(goal_cols.__getitem__, state)))) - blank_distance)

    return estimate


def manhattan(puzzle):
    """Sum over tiles of the grid distance to the tile's goal cell (the blank not counted).

    Source: the classic bound for the 8/15-puzzle (e.g. Korf 1985, the IDA*
    paper, where it is used on the 15-puzzle).  Admissible: a move shifts
    exactly one tile by one cell, so it lowers the sum by at most 1.
    Consistent for the same reason: one move changes h by exactly +-1.
    """
    return _manhattan_estimate(puzzle.n)


def misplaced(puzzle):
    """Number of tiles not on their goal cell (the blank not counted).

    Source: the textbook "h1" (Nilsson 1971; Russell & Norvig, ch. 3).
    Admissible: every misplaced tile moves at least once and a move moves one
    tile.  Consistent: one move changes the count by at most 1.

    Counted as the cells that differ from the goal board, less the blank's
    cell when the blank is off its goal cell (that cell differs, but holds no tile).
    """
    goal = puzzle.goal
    last = puzzle.cells - 1

    def estimate(state):
        return sum(map(ne, goal, state)) - (state[last] != 0)

    return estimate


def _line_extra(goal_slots: list[int]) -> int:
    """``2 * (k - LIS)``: the extra moves forced in one line.

    ``goal_slots`` are the goal offsets, in current order, of the k tiles of
    the line whose goal is in this line.  Tiles cannot pass each other inside
    a line, so those that never leave it keep their order: they form an
    increasing subsequence, and each of the other tiles leaves the line and
    comes back, 2 moves across the line that Manhattan does not count.
    """
    # longest strictly increasing subsequence, patience sorting (k <= N is small)
    tails: list[int] = []
    for x in goal_slots:
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(tails):
            tails.append(x)
        else:
            tails[lo] = x
    return 2 * (len(goal_slots) - len(tails))


class _LineTable(dict):
    """Lazily filled map: the tiles of one line (a tuple) -> extra moves of that line.

    It forgets everything once it holds :attr:`MAX_ENTRIES` lines: a 4 x 4 line has 43 680 contents and
    never gets there, but on a large board every move makes new lines of N tiles, and an unbounded
    memo would grow with the search (IDA*'s memory is meant to be its path).
    """

    MAX_ENTRIES = 1 << 16

    def __init__(self, n: int, index: int, is_row: bool):
        super().__init__()
        self.n, self.index, self.is_row = n, index, is_row

    def __missing__(self, tiles):
        n = self.n
        slots = []
        for tile in tiles:
            if tile == 0:
                continue
            gr, gc = divmod(tile - 1, n)
            if self.is_row and gr == self.index:
                slots.append(gc)
            elif not self.is_row and gc == self.index:
                slots.append(gr)
        if len(self) >= self.MAX_ENTRIES:
            self.clear()
        value = self[tiles] = _line_extra(slots)
        return value


@lru_cache(maxsize=None)
def _line_tables(n: int):
    """``(tables, slices)``: per row and per column, the extra-moves table and the slice of a board it reads."""
    cells = n * n
    tables = [_LineTable(n, r, True) for r in range(n)] + [_LineTable(n, c, False) for c in range(n)]
    slices = [slice(r * n, (r + 1) * n) for r in range(n)] + [slice(c, cells, n) for c in range(n)]
    return tuple(tables), tuple(slices)


def linear_conflict(puzzle):
    """Manhattan plus, per row and column, 2 for each tile that must leave the line.

    Source: Hansson, Mayer & Yung, "Criticizing solutions to relaxed models
    yields powerful admissible heuristics", Information Sciences 63 (1992).
    Two tiles are in *linear conflict* when both are in their goal row (or
    column) but in reversed order: one of them must leave the line and come
    back, 2 moves Manhattan does not count.  With three or more tiles the
    number of tiles that must leave is ``k - LIS`` (k tiles of the line in
    their goal line, LIS the longest run already in goal order), not the
    number of reversed pairs -- "2 per reversed pair" overestimates (e.g.
    a goal row holding ``3 2 1`` has 3 reversed pairs but two tiles leaving
    suffice), so it is **not** admissible and is not what is computed here.

    Admissible: the row extras are vertical moves and the column extras
    horizontal moves that Manhattan does not count, so they add up.
    Consistent: a move shifts one tile t.  Its Manhattan term changes by +-1;
    the line t moves along keeps its order; the line t leaves loses t, which
    lowers ``k - LIS`` by at most 1 (h - 2), and only if that line is t's goal
    line, in which case t's Manhattan term grows by 1; the line t enters only
    gains.  So h drops by at most 1 per move.
    """
    tables, slices = _line_tables(puzzle.n)
    if puzzle.n <= TABLE_MAX_SIDE:  # the common case written out: one call less a state
        table = _manhattan_table(puzzle.n)

        def estimate(state):
            # every loop runs in C: slice the 2N lines out, look each up in its table
            return sum(map(getitem, table, state)) + sum(map(getitem, tables, map(state.__getitem__, slices)))

        return estimate
    distance = _manhattan_estimate(puzzle.n)

    def estimate(state):
        return distance(state) + sum(map(getitem, tables, map(state.__getitem__, slices)))

    return estimate


def linear_conflict_pairs(puzzle):
    """The naive variant: Manhattan plus 2 per reversed pair in a goal line.

    Kept only so the tests can show it is *not* admissible (see
    :func:`linear_conflict`); it is not registered.
    """
    n = puzzle.n
    distance = _manhattan_estimate(n)

    def pairs(slots):
        return sum(1 for i in range(len(slots)) for j in range(i + 1, len(slots)) if slots[i] > slots[j])

    def estimate(state):
        h = distance(state)
        for r in range(n):
            row = state[r * n:(r + 1) * n]
            h += 2 * pairs([(t - 1) % n for t in row if t and (t - 1) // n == r])
            col = state[r:n * n:n]
            h += 2 * pairs([(t - 1) // n for t in col if t and (t - 1) % n == r])
        return h

    return estimate
