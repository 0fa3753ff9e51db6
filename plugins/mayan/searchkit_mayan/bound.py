"""An admissible lower bound on the moves a Mayan board still needs (column-count transport).

The bound looks only at how many blocks of each colour stand in each column,
so it can be evaluated on a child right after the swap or shift and before
the child is settled (settling never moves a block to another column).

Proof of admissibility
----------------------
Fix a colour c and follow a play from the current board to the empty board.
Let u(t) be c's *column-count vector* after t moves: u_j(t) is the number of
c-blocks in column j, where a block that has already vanished is still counted
in the column where it vanished.

1. Gravity and vanishing never move a block to another column, so only moves
   change u.  A shift moves one block by one column; a swap moves two blocks,
   one each way.  If they have different colours, each colour sees one unit
   moved by one column; if they have the same colour (a legal move only under
   the AcWing ``same_colour_swaps`` option) u does not change.  So one move
   changes u of at most two colours, each by moving one unit to an adjacent
   column.
2. At the end every c-block has vanished, so V = u(end) records the columns
   in which the c-blocks vanished.  At each vanishing moment the c-blocks that
   vanish form a union of runs of >= R.  Look at their count w_j per column: if
   w_j < R, no vertical run meets column j, so each of these blocks lies in a
   horizontal run, and different horizontal runs hold different blocks; a
   horizontal run is an interval of >= R consecutive columns with one block in
   each.  Hence w is *feasible*: some multiset of intervals of length >= R
   covers every column with w_j < R (including w_j = 0) exactly w_j times,
   while columns with w_j >= R may be covered any number of times (relaxing
   the heights and what the other colours do only enlarges the feasible set,
   which keeps the bound admissible).  Feasible vectors are closed under
   addition (a column whose sum is < R has both parts < R, each exactly
   covered), so V, the sum over all vanishing moments, is feasible, and it has
   the same total as u(now).
3. The 1-D earth mover's distance EMD(p, q) = sum_j |P_j - Q_j| (prefix sums)
   is the least number of unit moves between adjacent columns turning p into
   q.  By 1, the number of moves that change u is at least EMD(u(now), V) >=
   D_c(u(now)), where D_c(u) is the distance from u to the nearest feasible
   vector with the same total: 0 for a colour with no block, and infinite for
   a total of 1 .. R-1 (intervals have >= R blocks, so a total below R is
   feasible only if it is 0), which subsumes the classic "a colour with 1 or 2
   blocks left" cut.
4. Every move counts for at most two colours, so the number M of moves still
   needed satisfies M >= D_c for every c and 2M >= sum_c D_c:

       bound = max(max_c D_c, ceil(sum_c D_c / 2)).

Computation
-----------
D depends only on the count vector (entries 0..H for W columns), packed as a
*key*: entry j in bits ``j * digit_bits`` with ``digit_bits = H.bit_length()``
(3 bits for H = 7, so 8**5 = 32768 keys for the NOIP board).  A
:class:`BoundTable` maps keys to D; it is a dict that fills itself one total
at a time on first use (a multi-source breadth-first search from all feasible
vectors of that total, over all compositions of the total into W parts,
moving one unit between adjacent columns per step), so importing this module
and building a table cost nothing, and a search only pays for the totals its
colours actually have.  Measured per total (first one in a process): 3 ms for
6 blocks, 7 ms for 8, 17 ms for 12, 55 ms for 20, 0.4 s for 35 (the whole
5 x 7 board in one colour).

A total with more than :data:`MAX_VECTORS` compositions (a wide board: 30
columns and 20 blocks of a colour have 10**13) is not tabled: its keys get
the weaker bound 0 (a total of 1 .. R-1: infinite, exactly as above), which
is still a lower bound on D_c.  Filling a total checks the case's time limit
every few thousand vectors and charges its memory first
(:func:`searchkit.limits.reserve`).
"""

from __future__ import annotations

from math import comb

from searchkit.limits import reserve, setup_check

__all__ = ["INFINITE", "BoundTable", "table_for", "colour_keys", "board_bound", "is_feasible"]

INFINITE = 1 << 20
"""The bound of a board that can never be emptied (some colour has 1..R-1 blocks)."""

MAX_VECTORS = 1 << 18
"""Totals with more compositions than this are not tabled (see the module docstring): 262 144 vectors take
about 1.3 s and 50 MB to fill; the whole 5 x 7 board in one colour has 82 251."""

#: Bytes a composition holds while a total is filled: its tuple of W ints (56 + 8 W), a dict entry and a key.
BYTES_PER_VECTOR = 160


def is_feasible(counts, run: int) -> bool:
    """True when a per-column count vector can be the vanishing columns of one colour.

    Args:
        counts: non-negative counts, one per column.
        run: the minimum run length R (>= 2).

    A column with a count >= R absorbs any cover; every other column must be
    covered by exactly its count of intervals of >= R consecutive columns.
    """
    pattern = tuple(c if c < run else run for c in counts)
    return _pattern_feasible(pattern, run)


_PATTERN_CACHE: dict[tuple, bool] = {}


def _pattern_feasible(pattern: tuple, run: int) -> bool:
    """Feasibility of a pattern: entries 0..R-1 are exact covers, R is 'absorbs any'."""
    key = (pattern, run)
    hit = _PATTERN_CACHE.get(key)
    if hit is not None:
        return hit
    # An interval through an absorbing column may be assumed to reach an exact
    # column with a positive count on its left or right (else drop it), so at
    # most 2(R-1) intervals pass through an absorbing column.
    free = range(2 * (run - 1) + 1)
    w = len(pattern)
    seen = set()

    def walk(j: int, ages: tuple) -> bool:
        # ages: sorted ages (capped at run) of the intervals covering column j-1.
        if j == w:
            return all(a >= run for a in ages)
        if (j, ages) in seen:
            return False
        seen.add((j, ages))
        choices = free if pattern[j] == run else (pattern[j],)
        n = len(ages)
        for c in choices:
            if c >= n:
                nxt = tuple(sorted([min(a + 1, run) for a in ages] + [1] * (c - n)))
            else:
                # Close the n - c oldest intervals, ages[c:]; each must be >= R long.
                if ages[c] < run:
                    continue
                nxt = tuple(min(a + 1, run) for a in ages[:c])
            if walk(j + 1, nxt):
                return True
        return False

    result = walk(0, ())
    _PATTERN_CACHE[key] = result
    return result


class BoundTable(dict):
    """Key -> D_c (moves a colour needs), filled lazily one colour total at a time.

    Args:
        width, height, run: the board's W, H and R.

    Index it with a packed count key (see the module docstring and
    :meth:`key`); a missing key triggers the computation of every key with
    the same total.  Values are ints, :data:`INFINITE` when no feasible vector
    exists.  Raises KeyError for an int that is not a key (a digit above H,
    or bits beyond the W digits).
    """

    def __init__(self, width: int, height: int, run: int) -> None:
        super().__init__()
        self.width = width
        self.height = height
        self.run = run
        self.digit_bits = height.bit_length()
        self.powers = [1 << (j * self.digit_bits) for j in range(width)]

    def key(self, counts) -> int:
        """Pack a per-column count vector (W entries 0..H) into a key; ValueError otherwise."""
        if len(counts) != self.width or not all(0 <= c <= self.height for c in counts):
            raise ValueError(f"expected {self.width} counts in 0..{self.height}, got {counts!r}")
        return sum(c << (j * self.digit_bits) for j, c in enumerate(counts))

    def counts(self, key: int) -> tuple[int, ...]:
        """Unpack a key into its per-column counts."""
        mask = (1 << self.digit_bits) - 1
        return tuple((key >> (j * self.digit_bits)) & mask for j in range(self.width))

    def __missing__(self, key: int) -> int:
        counts = self.counts(key)
        if key >> (self.width * self.digit_bits) or max(counts) > self.height:
            raise KeyError(key)
        total = sum(counts)
        if comb(total + self.width - 1, self.width - 1) > MAX_VECTORS:  # too many to table: the weak bound
            value = self[key] = INFINITE if 0 < total < self.run else 0
            return value
        self._fill(total)
        return self[key]

    def _fill(self, total: int) -> None:
        w, h, r = self.width, self.height, self.run
        if total == 0:
            self[0] = 0
            return
        reserve(comb(total + w - 1, w - 1) * (BYTES_PER_VECTOR + 8 * w))
        comps = []
        for v in _compositions(total, w):
            if not len(comps) & 4095:
                setup_check()
            comps.append(v)
        if total < r:
            dist = dict.fromkeys(comps, INFINITE)
        else:
            dist = {}
            frontier = []
            for v in comps:
                if _pattern_feasible(tuple(c if c < r else r for c in v), r):
                    dist[v] = 0
                    frontier.append(v)
            d = 0
            while frontier:
                d += 1
                nxt = []
                for i, v in enumerate(frontier):
                    if not i & 1023:
                        setup_check()
                    for j in range(w - 1):
                        for src, dst in ((j, j + 1), (j + 1, j)):
                            if v[src]:
                                u = list(v)
                                u[src] -= 1
                                u[dst] += 1
                                u = tuple(u)
                                if u not in dist:
                                    dist[u] = d
                                    nxt.append(u)
                frontier = nxt
        shifts = [j * self.digit_bits for j in range(w)]
        for v, d in dist.items():
            if max(v) <= h:
                self[sum(c << s for c, s in zip(v, shifts))] = d


def _compositions(total: int, parts: int):
    """All tuples of ``parts`` non-negative ints summing to ``total``."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


_TABLES: dict[tuple[int, int, int], BoundTable] = {}


def table_for(width: int, height: int, run: int) -> BoundTable:
    """The shared (per process) :class:`BoundTable` of a W x H board with runs of R."""
    key = (width, height, run)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = BoundTable(width, height, run)
    return table


def colour_keys(board: int, shape) -> list[int]:
    """Per-colour packed per-column count keys of a board.

    Args:
        board: a packed board (settled or not: only columns matter).
        shape: its :class:`~searchkit_mayan.board.Shape`.

    Returns:
        A list indexed by colour (length ``shape.max_colour + 1``); entry c is
        the key of colour c's column counts (0 for a colour not on the board,
        and for index 0, the empty cell).
    """
    powers = table_for(shape.width, shape.height, shape.run).powers
    keys = [0] * (shape.max_colour + 1)
    cb, cm = shape.cell_bits, shape.cell_mask
    for x in range(shape.width):
        col = shape.column(board, x)
        p = powers[x]
        while col:
            c = col & cm
            if c:
                keys[c] += p
            col >>= cb
    return keys


def board_bound(board: int, shape) -> int:
    """Lower bound on the moves needed to empty ``board`` (0 for the empty board).

    Returns ``max(max_c D_c, ceil(sum_c D_c / 2))`` (see the module
    docstring), or a value >= :data:`INFINITE` when some colour has 1..R-1
    blocks.  Valid before or after settling.
    """
    table = table_for(shape.width, shape.height, shape.run)
    ds = [table[k] for k in colour_keys(board, shape)]
    return max(max(ds), (sum(ds) + 1) // 2)


def column_steps(puzzle):
    """The ``column-steps`` heuristic of a :class:`~searchkit_mayan.puzzle.MayanPuzzle`: :func:`board_bound`.

    Admissible (see the module docstring); 0 on the empty board.
    """
    shape = puzzle.shape

    def estimate(board):
        return board_bound(board, shape) if board else 0

    return estimate
