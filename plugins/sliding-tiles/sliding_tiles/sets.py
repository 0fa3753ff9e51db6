"""The sliding-tile table by sets of cells: the readable twin of the native builder
``plugins/sliding-tiles/native/src/sets.rs`` (same names, same numbers), in numpy.

It gives the table :class:`sliding_tiles.pdb.TileAbstraction` defines (entry ``rank(cells)``: the least
number of moves of the group's tiles that bring it home, the blank anywhere), searched another way:

* a placement of the group's ``k`` tiles is a *set* ``A`` of ``k`` cells (colex rank) and an *order*
  ``q``, ``q[t]`` the position of tile ``t``'s cell among ``A``'s cells in cell order (Lehmer rank, one of
  ``k!``);
* the blank's region (a connected component of the cells outside ``A``) depends on ``A`` alone, so the
  states are (``A``, region), and for each the orders reached are a row of ``k!`` booleans;
* a tile moving sideways passes no cell: every tile keeps its position, the row is carried over as it is;
  moving up or down it passes ``n - 1`` cells, and its position shifts by the number of ``A``'s cells among
  them (the tiles passed shift back by one): a fixed permutation of the orders;
* breadth-first, pulled: a state's layer ``d + 1`` is the union over its moves of the neighbours' layer ``d``
  under the reverse move's permutation, less what was seen.  Moves are their own reverse, so these are the
  exact distances (breadth-first search on an undirected graph; the blank's free moves stay inside a state).
  A placement's entry is the first layer in which any of its regions is reached.

Only for tests and for reading: the Python engine builds with the generic builder
(``searchkit.machinery.pdb.build.build``), which is the table's definition.
"""

from __future__ import annotations

from math import comb, factorial, perm

UNREACHED = 255


def takes(n: int, k: int) -> bool:
    """The groups this builder takes: 3 to 8 tiles on a board of at most 25 cells."""
    return 3 <= k <= 8 and n * n <= 25 and k < n * n


def lehmer_rank(q) -> int:
    """The rank of the order ``q`` (a permutation of ``0 .. k-1``) among the ``k!`` orders, lexicographic."""
    k = len(q)
    return sum((p - sum(1 for u in q[:t] if u < p)) * factorial(k - 1 - t) for t, p in enumerate(q))


def lehmer_unrank(r: int, k: int) -> list[int]:
    """The order of rank ``r`` (the inverse of :func:`lehmer_rank`)."""
    left, q = list(range(k)), []
    for t in range(k):
        d, r = divmod(r, factorial(k - 1 - t))
        q.append(left.pop(d))
    return q


class Space:
    """The sets, their regions (the states) and moves, and the order permutations of ``n`` x ``n``'s group
    ``tiles`` (tile numbers; goal ``1 .. n*n-1`` row-major, blank last)."""

    def __init__(self, n: int, tiles):
        import numpy as np

        self.n, self.cells, self.k = n, n * n, len(tiles)
        cells, k = self.cells, self.k
        self.orders = factorial(k)
        # the sets in colex order (increasing as numbers)
        self.combos = [m for m in range(1 << cells) if bin(m).count("1") == k]
        self.rank = {m: i for i, m in enumerate(self.combos)}
        assert len(self.combos) == comb(cells, k)
        nbr = [sum(1 << d for d in range(cells) if abs(d // n - c // n) + abs(d % n - c % n) == 1)
               for c in range(cells)]

        def spread(x):
            return _or(nbr[c] for c in range(cells) if x >> c & 1)

        full = (1 << cells) - 1
        self.base, self.region_of, regions = [], {}, []
        for a in self.combos:
            self.base.append(len(regions))
            free, left = full & ~a, full & ~a
            while left:
                reg = left & -left
                while (grown := (reg | spread(reg)) & free) != reg:
                    reg = grown
                for c in range(cells):
                    if reg >> c & 1:
                        self.region_of[a, c] = len(regions)
                regions.append((a, reg))
                left &= ~reg
        self.base.append(len(regions))
        self.regions = regions
        # the permutations: the tile at position i moved to position j (|i - j| < n), the ones between shifted
        self.perms = {}
        for i in range(k):
            for j in range(k):
                if i != j and abs(i - j) < n:
                    table = np.empty(self.orders, dtype=np.int64)
                    for o in range(self.orders):
                        q = lehmer_unrank(o, k)
                        table[o] = lehmer_rank([_moved(x, i, j) for x in q])
                    self.perms[i, j] = table
        # every state's moves, pulled: (the neighbour, the reverse move's permutation or None for the same order)
        self.moves = []
        for a, reg in regions:
            out = []
            for c in range(cells):
                if not a >> c & 1 or not nbr[c] & reg:
                    continue
                for r in range(cells):
                    if nbr[c] >> r & 1 and reg >> r & 1:
                        b = a ^ 1 << c ^ 1 << r
                        i, j = bin(a & ((1 << c) - 1)).count("1"), bin(b & ((1 << r) - 1)).count("1")
                        out.append((self.region_of[b, c], None if i == j else self.perms[j, i]))
            self.moves.append(out)
        goal = _or(1 << (t - 1) for t in tiles)
        q = [bin(goal & ((1 << (t - 1)) - 1)).count("1") for t in tiles]
        self.goal = (self.region_of[goal, cells - 1], lehmer_rank(q))


def _or(xs) -> int:
    out = 0
    for x in xs:
        out |= x
    return out


def _moved(x: int, i: int, j: int) -> int:
    """Position ``x`` after the tile at position ``i`` moved to ``j`` (the ones between shift by one)."""
    if x == i:
        return j
    if i < j and i < x <= j:
        return x - 1
    if j < i and j <= x < i:
        return x + 1
    return x


def build(n: int, tiles):
    """The table of the group ``tiles`` on the ``n`` x ``n`` board (a numpy ``uint8`` array of ``P(n*n, k)``
    entries), equal to :func:`searchkit.machinery.pdb.build.build` of
    :class:`sliding_tiles.pdb.TileAbstraction` (module docs).

    Raises:
        ValueError: a group it does not take (:func:`takes`).
    """
    import numpy as np

    from searchkit.plugin import rank_array

    if not takes(n, len(tiles)):
        raise ValueError("3 to 8 tiles on a board of at most 25 cells")
    space = Space(n, tiles)
    states, orders = len(space.regions), space.orders
    cur = np.zeros((states, orders), dtype=bool)
    seen = np.zeros((states, orders), dtype=bool)
    entry = np.full((len(space.combos), orders), UNREACHED, dtype=np.uint8)
    combo_of = np.repeat(np.arange(len(space.combos)), np.diff(space.base))
    gs, gq = space.goal
    cur[gs, gq] = seen[gs, gq] = True
    entry[combo_of[gs], gq] = 0
    d = 0
    while cur.any():
        nxt = np.zeros_like(cur)
        for t, moves in enumerate(space.moves):
            for s, table in moves:
                if table is None:
                    nxt[t] |= cur[s]
                else:
                    nxt[t, table[cur[s]]] = True
        cur = nxt & ~seen
        seen |= cur
        by_set = np.logical_or.reduceat(cur, space.base[:-1], axis=0)
        entry[by_set & (entry == UNREACHED)] = d + 1
        d += 1
    # the file's ranks: tile t stands on the set's cell at position q[t]
    set_cells = np.array([[c for c in range(space.cells) if a >> c & 1] for a in space.combos], dtype=np.int64)
    q = np.array([lehmer_unrank(o, space.k) for o in range(orders)], dtype=np.int64)
    table = np.full(perm(space.cells, space.k), UNREACHED, dtype=np.uint8)
    for ci in range(len(space.combos)):
        table[rank_array(set_cells[ci][q], space.cells)] = entry[ci]
    return table
