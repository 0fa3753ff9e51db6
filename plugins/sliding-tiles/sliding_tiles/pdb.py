"""Additive pattern databases for the sliding-tile puzzle (Korf and Felner 2002).

The tiles are split into disjoint groups (a *partition*).  For a group of k
tiles the abstraction keeps where those k tiles and the blank are and forgets
which other tile is where; moving the blank over a tile of the group costs 1,
over any other tile 0.  Its table, built by searchkit's 0-1 BFS, is indexed
by the k tiles' cells alone (the blank's cell is folded away by min), so it
has ``P(N*N, k)`` entries: 524,160 for 5 tiles, 5,765,760 for 6, 57,657,600
for 7 and 518,918,400 for 8 on the 4x4 board; 127,512,000 for 6 on the 5x5
board (the 24-puzzle's ``6-6-6-6``).

Heuristic ``pdb(partition=P, reflect=R)``: the sum over the partition's
groups of their table values; with ``reflect=1`` also the same sum for the
board mirrored in the main diagonal, and the larger of the two.

Admissible (Korf and Felner 2002, section 4): a solution path of c moves maps,
for each group, onto an abstract path whose cost is the number of moves of
that group's tiles; every move moves one tile of one group, so the group
costs sum to c, and each table value is at most its group's cost.  The
mirror board (cell (r, c) -> (c, r), tile t -> the tile whose goal cell is
the mirror of t's) has the same distance to the goal, since the mirror maps
the goal onto itself and moves onto moves (Culberson and Schaeffer 1998;
Felner, Korf and Hanan, "Additive pattern database heuristics", JAIR 22,
2004, section 5.1 use it on these boards); the max of admissible bounds is
admissible.

Consistency is not claimed by default: forgetting the blank's cell (the min
over the blank's cells) can make the bound drop by more than 1 on one move, when the
move cuts the blank's region in two; ``searchkit check`` shows it on the
8-puzzle (``3 1 2 / 0 4 5 / 6 7 8``: h = 19 with ``4-4`` and the mirror, 16
after the blank moves R; docs/pdb.md).  IDA*
needs only admissibility for optimal answers.  With ``blank=1`` each table
keeps the blank's cell (``N*N - k`` times larger, for small boards): then
the abstraction maps every move onto one abstract move of cost 1 (a move of
the group's tile) or 0, so each table, their sum (one group pays per move)
and the mirror's max are consistent (Felner, Korf and Hanan 2004, section 2:
PDB heuristics of such homomorphic abstractions are consistent).
"""

from __future__ import annotations

from functools import lru_cache
from math import perm

from searchkit.plugin import Abstraction, PlanError, load_or_build, rank_array, unrank_array

#: Partitions by name: board side -> tuple of tile groups (goal: 1 .. N*N-1 row-major, blank last).
PARTITIONS = {
    # 4x4:  1  2  3  4 /  5  6  7  8 /  9 10 11 12 / 13 14 15  _
    "5-5-5": (4, ((1, 2, 3, 5, 6), (4, 7, 8, 11, 12), (9, 10, 13, 14, 15))),
    # Korf and Felner's 6-6-3 and 7-8 for their goal (blank first) turned by 180 degrees, tile t -> 16 - t,
    # the same map that turns Korf's boards into this plugin's (the heuristic values are the same).
    "6-6-3": (4, ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15))),
    "7-8": (4, ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15))),
    # 5x5:  1  2  3  4  5 /  6  7  8  9 10 / 11 12 13 14 15 / 16 17 18 19 20 / 21 22 23 24  _
    # Korf and Felner's 6-6-6-6 (2002, figure 5: 1 5 6 10 11 12 / 2 3 4 7 8 9 / 15 16 17 20 21 22 /
    # 13 14 18 19 23 24 for their goal, blank first) turned by 180 degrees, tile t -> 25 - t: two 3x2 blocks on
    # the top rows, a 2x3 block bottom left, and the L of six around the blank's corner.  A 6-tile table has
    # P(25, 6) = 127,512,000 entries.
    "6-6-6-6": (5, ((1, 2, 6, 7, 11, 12), (3, 4, 5, 8, 9, 10), (16, 17, 18, 21, 22, 23), (13, 14, 15, 19, 20, 24))),
    # eight groups of three (13,800 entries each): weak, but built in a blink, for tests of the 5x5 path
    "3-3-3-3-3-3-3-3": (5, tuple(tuple(range(t, t + 3)) for t in range(1, 25, 3))),
    # 3x3:  1 2 3 / 4 5 6 / 7 8 _
    "4-4": (3, ((1, 2, 3, 4), (5, 6, 7, 8))),
    "8": (3, ((1, 2, 3, 4, 5, 6, 7, 8),)),
}
DEFAULT = {3: "4-4", 4: "6-6-3", 5: "6-6-6-6"}  # auto; 1x1 and 2x2 boards: see groups()


def groups(partition: str, n: int | None = None) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """``(side, groups)`` of a partition name (``auto``: the default for side ``n``, else 4x4's;
    on 2x2 boards one group of all three tiles, on 1x1 none).

    Raises:
        ValueError: an unknown name, or one made for another board side than ``n``.
    """
    if partition == "auto" and n is not None and n <= 2:  # tiny boards: one table of every tile (exact), or none
        return n, (tuple(range(1, n * n)),) if n == 2 else ()
    if partition == "auto":
        partition = DEFAULT.get(n if n is not None else 4, "")
        if not partition:
            raise ValueError(f"no pattern database partition for {n}x{n} boards (partitions: {', '.join(PARTITIONS)})")
    if partition not in PARTITIONS:
        raise ValueError(f"unknown partition {partition!r} (known: {', '.join(PARTITIONS)})")
    side, tiles = PARTITIONS[partition]
    if n is not None and side != n:
        raise ValueError(f"partition {partition} is for {side}x{side} boards, not {n}x{n}")
    return side, tiles


def mirror(n: int):
    """``(cell_map, tile_map)`` of the main-diagonal mirror: cell (r, c) -> (c, r); tile t -> the goal tile there."""
    cell = tuple((p % n) * n + p // n for p in range(n * n))
    tile = (0,) + tuple(cell[t - 1] + 1 for t in range(1, n * n))
    return cell, tile


class TileAbstraction(Abstraction):
    """One group of tiles on the N x N board: states are the group's cells then the blank's, ranked.

    A (k+1)-permutation of the N*N cells, ranked by
    :func:`searchkit.machinery.pdb.ranking.rank`; the blank is the last digit, so the
    table folds the ``N*N - k`` blank cells of each tile placement, unless
    ``blank`` keeps them (a table ``N*N - k`` times larger).
    """

    game = "sliding-tiles"

    def __init__(self, n: int, tiles, blank: bool = False):
        self.n = n
        self.cells = n * n
        self.pattern = tuple(tiles)
        self.k = len(self.pattern)
        self.blank = bool(blank)
        self.options = {"side": n, "goal": "blank-last"}
        self.size = perm(self.cells, self.k + 1)
        self.fold = 1 if blank else self.cells - self.k

    def label(self) -> str:
        also = " and the blank" if self.blank else ""
        return f"sliding-tiles {self.n}x{self.n} tiles {'-'.join(map(str, self.pattern))}{also}"

    def native_builder(self):
        """The native engine's builder (``sliding_tiles_native`` installed), for the folded tables only."""
        from sliding_tiles.native import pdb_builder

        return None if self.blank else pdb_builder()

    def goals(self):
        return rank_array([[t - 1 for t in self.pattern] + [self.cells - 1]], self.cells)

    def predecessors(self, ranks):
        import numpy as np

        n, k = self.n, self.k
        cells = unrank_array(ranks, self.cells, k + 1)
        blank = cells[:, k]
        row, col = np.divmod(blank, n)
        for step, ok in ((-n, row > 0), (n, row < n - 1), (-1, col > 0), (1, col < n - 1)):
            target = blank + step
            moved = cells.copy()
            moved[:, k] = target
            cost = np.zeros(blank.shape, dtype=np.int64)
            for i in range(k):
                hit = cells[:, i] == target
                moved[hit, i] = blank[hit]
                cost |= hit
            preds = rank_array(moved, self.cells)
            preds[~ok] = -1
            yield preds, cost


def abstractions(partition: str = "auto", reflect: int = 1, blank: int = 0, n: int | None = None
                 ) -> list[TileAbstraction]:
    """The abstractions of a partition (what ``searchkit pdb build sliding-tiles 'pdb(...)'`` builds).

    ``n``: the board's side, known when a case is solved.  ``searchkit pdb build|info|clear`` name no board,
    so there (``n`` None) ``auto`` is refused: it means 4-4 on 3x3 boards, 6-6-3 on 4x4 and 6-6-6-6 on 5x5,
    and building one of them for a user who meant another would be a silent wrong guess.

    Raises:
        ValueError: ``auto`` without ``n``; or as :func:`groups`.
    """
    if partition == "auto" and n is None:
        named = ", ".join(f"{DEFAULT[side]} for {side}x{side}" for side in sorted(DEFAULT))
        raise ValueError(f"partition auto depends on the board's size, which is not known here: name the "
                         f"partition, e.g. 'pdb(partition={DEFAULT[4]})' ({named})")
    side, tiles = groups(partition, n)
    return [TileAbstraction(side, group, blank=bool(blank)) for group in tiles]


@lru_cache(maxsize=None)
def _popcount_below() -> bytes:
    """``table[mask]``: the number of set bits of a 16-bit mask (cells used so far below a cell)."""
    return bytes(bin(m).count("1") for m in range(1 << 16))


class _Popcount:
    """``pop[mask]``: the set bits of a mask of up to 32 cells (the 5x5 board's 25), by two look-ups in the
    16-bit table; a mask above 16 bits indexed that table directly, which was the 24-puzzle's bug."""

    __slots__ = ("low",)

    def __init__(self):
        self.low = _popcount_below()

    def __getitem__(self, mask: int) -> int:
        return self.low[mask & 0xFFFF] + self.low[mask >> 16]


def _lookup(db, n: int, tiles, tile_map=None, cell_map=None):
    """``value(where)``: db's entry for the cells ``where[t]`` of the group's tiles (optionally mirrored)."""
    cells = n * n
    weights = [perm(cells - 1 - i, len(tiles) - 1 - i) for i in range(len(tiles))]
    table = db.table
    pop = _popcount_below() if cells <= 16 else _Popcount()
    source = tuple(tile_map[t] for t in tiles) if tile_map else tuple(tiles)
    plan = tuple(zip(source, weights))

    if cell_map is None:
        def value(where):
            used = 0
            index = 0
            for t, w in plan:
                p = where[t]
                index += (p - pop[used & ((1 << p) - 1)]) * w
                used |= 1 << p
            return table[index]
    else:
        def value(where):
            used = 0
            index = 0
            for t, w in plan:
                p = cell_map[where[t]]
                index += (p - pop[used & ((1 << p) - 1)]) * w
                used |= 1 << p
            return table[index]
    return value


def databases(partition: str, n: int, blank: int = 0):
    """The loaded (or built and cached) tables of a partition, in group order."""
    return [load_or_build(a) for a in abstractions(partition, blank=blank, n=n)]


def pdb(puzzle, partition: str = "auto", reflect: int = 1, blank: int = 0):
    """``pdb(partition=..., reflect=0|1)``: additive pattern databases (see the module docstring).

    Raises:
        PlanError: a partition unknown or made for another board side (the case's one error line).
    """
    n = puzzle.n
    try:
        side, tiles = groups(partition, n)
    except ValueError as exc:
        raise PlanError(f"heuristic pdb: {exc}") from None
    dbs = databases(partition, n, blank)
    cells = n * n
    order = range(cells)
    keys = [group + (0,) if blank else group for group in tiles]  # the blank (tile 0) is the last rank digit
    direct = [_lookup(db, n, key) for db, key in zip(dbs, keys)]
    if reflect:
        cell_map, tile_map = mirror(n)
        mirrored = [_lookup(db, n, key, tile_map, cell_map) for db, key in zip(dbs, keys)]

        def estimate(state):
            where = sorted(order, key=state.__getitem__)
            a = sum(f(where) for f in direct)
            b = sum(f(where) for f in mirrored)
            return a if a >= b else b
    else:
        def estimate(state):
            where = sorted(order, key=state.__getitem__)
            return sum(f(where) for f in direct)

    estimate.databases = dbs
    return estimate


__all__ = ["PARTITIONS", "TileAbstraction", "abstractions", "databases", "groups", "mirror", "pdb"]
