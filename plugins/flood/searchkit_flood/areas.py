"""The area graph of a Flood-It board and the search puzzle built on it.

An *area* is a maximal 4-connected same-colour set of cells.  Areas are
numbered once per board in breadth-first order from the pivot's area (area 0),
so low numbers lie near the pivot.  Each area's neighbour set and each
colour's area set are bitsets (Python ints over area numbers).

A search state is one int packing two area bitsets: the flooded region
(areas recoloured together with the pivot) in the low ``count`` bits and its
frontier (areas adjacent to the region but not in it) above them, i.e.
``flooded | frontier << count`` -- the "frontier marks" of the seed
solutions, kept with bit operations.  ``flooded`` alone determines the state;
``frontier`` is carried so successors cost a few bit operations.  One int
instead of a tuple of two: a state costs one object, not three (on a 24x24
board with 6 colours, about 130 bytes instead of 215), and hashes once.
:meth:`FloodPuzzle.unpack` gives the pair.
"""

from __future__ import annotations

from array import array

from searchkit.helpers.grid import label_regions, region_pairs
from searchkit.limits import setup_check

from searchkit_flood.board import Board

#: Pruning rules implemented in :meth:`FloodPuzzle.successors` (see plugin.py).
RULE_FRONTIER = "frontier-colours"
RULE_GROWTH = "no-growth"
RULE_COMPLETION = "completion"
RULE_EXPOSURE = "exposure"


class AreaGraph:
    """The areas of one board.

    Set-up is linear in the board's size (cells plus area adjacencies): an
    area label per cell in one ``array('i')``, the area graph as compressed
    sparse rows, and per-area neighbour bitsets built eagerly only for graphs
    of at most :data:`EAGER_NEIGHBOURS` areas (a bitset over area numbers
    costs up to ``count / 8`` bytes, so eager sets grow with the square of the
    count: 1 MB at that limit), lazily per area above it.  Measured on a
    random 1000x1000 board with 6 colours (671 557 areas): the old per-area
    cell and neighbour bitsets were killed at 22 GB; now set-up plus the
    Puchert factory take 5.5 s and 74 MB of resident memory over the board.

    Attributes:
        board: the :class:`~searchkit_flood.board.Board`.
        count: number of areas.
        colour: ``colour[a]`` is area ``a``'s colour index.
        area_of: ``area_of[i]`` is the area of cell ``i`` (``i = y*W + x``), an ``array('i')``.
        adjacency_start, adjacency: the area graph in compressed sparse rows:
            the neighbours of area ``a`` are ``adjacency[adjacency_start[a]:adjacency_start[a + 1]]``
            (ascending area numbers; ``array('i')`` each).
        neighbours: ``neighbours[a]`` is the bitset of areas adjacent to area ``a``
            (a list, or above :data:`EAGER_NEIGHBOURS` areas a dict filled on first use).
        colour_areas: ``colour_areas[c]`` is the bitset of areas of colour ``c``.
        all_areas: bitset of every area.
    """

    __slots__ = ("board", "count", "colour", "area_of", "adjacency_start", "adjacency", "neighbours",
                 "colour_areas", "all_areas", "_byte_tables")

    def __init__(self, board: Board) -> None:
        w, cells = board.width, board.cells
        # 1. Label the areas: the shared same-value flood fill (areas numbered in scan order for now).
        label, first = label_regions(cells, w)
        colour = [cells[i] for i in first]
        count = len(colour)
        # 2. The area graph as compressed sparse rows (counting sort of the
        #    cross-area cell adjacencies, then duplicates removed per area).
        src, dst = region_pairs(label, w)
        start, targets = _csr(count, src, dst)
        del src, dst
        # 3. Renumber the areas in breadth-first order from the pivot's area,
        #    so low numbers lie near the pivot (and bitsets stay short there).
        new = array("i", [-1]) * count
        order = array("i")
        root = label[board.pivot]
        new[root] = 0
        order.append(root)
        k = 0
        while k < len(order):
            a = order[k]
            k += 1
            if not k & 4095:
                _setup_check()  # setup-check: every 4096 areas
            for b in targets[start[a]:start[a + 1]]:
                if new[b] < 0:
                    new[b] = len(order)
                    order.append(b)
        # Areas unreachable from the pivot cannot exist (the board is
        # 4-connected), so ``order`` is a permutation of 0..count-1.
        for i in range(len(label)):
            if not i & 4095:
                _setup_check()  # setup-check: every 4096 cells
            label[i] = new[label[i]]
        # The renumbered rows: row k is old row order[k] mapped through new
        # (no duplicates left, so a sort per row replaces a second counting sort).
        adjacency_start, adjacency = array("i", [0]) * (count + 1), array("i")
        for k, a in enumerate(order):
            if not k & 4095:
                _setup_check()  # setup-check: every 4096 areas
            adjacency.extend(sorted([new[b] for b in targets[start[a]:start[a + 1]]]))
            adjacency_start[k + 1] = len(adjacency)
        del targets, start
        self.adjacency_start, self.adjacency = adjacency_start, adjacency
        self.board = board
        self.count = count
        self.colour = [colour[a] for a in order]
        self.area_of = label
        if count <= EAGER_NEIGHBOURS:
            self.neighbours = [self._neighbour_bits(a) for a in range(count)]
        else:
            self.neighbours = _LazyNeighbours(self._neighbour_bits, count)
        # Colour bitsets from a '0'/'1' string (linear; OR-ing bits one by one is quadratic).
        self.colour_areas = []
        for c in range(board.colours):
            flags = bytearray(b"0") * count
            for a, col in enumerate(self.colour):
                if col == c:
                    flags[count - 1 - a] = 49  # ord("1")
            self.colour_areas.append(int(flags, 2) if count else 0)
        self.all_areas = (1 << count) - 1
        self._byte_tables = None

    def _neighbour_bits(self, a: int) -> int:
        """The bitset of areas adjacent to area ``a`` (built from the sparse rows)."""
        start = self.adjacency_start
        bits = 0
        for b in self.adjacency[start[a]:start[a + 1]]:
            bits |= 1 << b
        return bits

    def split(self, state: int) -> tuple[int, int]:
        """The ``(flooded, frontier)`` area bitsets of a packed state."""
        return state & self.all_areas, state >> self.count

    def area_sizes(self) -> list[int]:
        """``sizes[a]``: the number of cells of area ``a`` (one pass over the cells)."""
        sizes = [0] * self.count
        for a in self.area_of:
            sizes[a] += 1
        return sizes

    def area_cells(self, areas: int) -> int:
        """Bitset of the board cells (bit ``y*W + x``) that lie in the area bitset ``areas``.

        Linear in cells plus areas: the area bitset is read as a string of
        flags once, then every cell looks up its area's flag.
        """
        count = self.count
        flags = format(areas & self.all_areas, "b").zfill(count)[::-1] if count else ""
        bits = "".join([flags[a] for a in self.area_of])
        return int(bits[::-1], 2) if bits else 0

    def neighbour_byte_tables(self) -> tuple[list[int], ...]:
        """Tables for the neighbour union of an area set, one per 8 area numbers.

        ``tables[i][v]`` is the union of ``neighbours[8*i + j]`` over the bits
        ``j`` set in the byte ``v`` (0..255), so the neighbours of a set ``X``
        are the union of ``tables[i][byte i of X]`` -- one look-up per byte
        instead of one per area.  Built on first use (``ceil(count/8) * 256``
        entries, about 0.3 ms for 136 areas) and cached.
        """
        if self._byte_tables is None:
            nbrs, count = self.neighbours, self.count
            # Each table is the OR of two 16-entry nibble tables (byte v = hi << 4 | lo),
            # built by one comprehension: about a third of the time of filling
            # 255 entries one bit at a time (0.6 -> 0.2 ms on a 14x14 board).
            padded = list(nbrs[:count]) if isinstance(nbrs, list) else [nbrs[a] for a in range(count)]
            padded += [0] * (-count % 8)
            tables = []
            for i in range(0, len(padded), 8):
                nib = []
                for base in (i, i + 4):
                    n0, n1, n2, n3 = padded[base:base + 4]
                    n01 = n0 | n1
                    n23 = n2 | n3
                    nib.append([0, n0, n1, n01, n2, n0 | n2, n1 | n2, n01 | n2,
                                n3, n0 | n3, n1 | n3, n01 | n3, n23, n0 | n23, n1 | n23, n01 | n23])
                lo, hi = nib
                tables.append([x | y for y in hi for x in lo])
            self._byte_tables = tuple(tables)
        return self._byte_tables

    def absorb(self, flooded: int, frontier: int, new: int) -> int:
        """Add the areas ``new`` (a subset of ``frontier``) to the region.

        Returns:
            The new state, packed (``flooded | frontier << count``).
        """
        flooded |= new
        nbrs = self.neighbours
        while new:
            low = new & -new
            frontier |= nbrs[low.bit_length() - 1]
            new ^= low
        return flooded | (frontier & ~flooded) << self.count

    def start(self) -> int:
        """The initial state (packed): the pivot's area flooded, its neighbours as frontier."""
        return 1 | (self.neighbours[0] & ~1) << self.count


#: Up to this many areas, :attr:`AreaGraph.neighbours` is a list built at
#: set-up; above it, a dict filled per area on first use (eager bitsets cost
#: about ``count**2 / 16`` bytes: 1 MB here, 30 GB at 700 000 areas).
EAGER_NEIGHBOURS = 4096

#: Bytes of neighbour bitsets a lazy :attr:`AreaGraph.neighbours` keeps
#: cached before it starts over (each entry is about ``count / 16`` bytes).
LAZY_CACHE_BYTES = 64 << 20


class _LazyNeighbours(dict):
    """``neighbours[a]`` computed on first use and cached (a dict, so hits cost what a list index does).

    The cache is emptied when it holds more than ``limit`` entries, so its
    memory stays near :data:`LAZY_CACHE_BYTES`.
    """

    __slots__ = ("_build", "_limit")

    def __init__(self, build, count: int) -> None:
        super().__init__()
        self._build = build
        self._limit = max(1024, LAZY_CACHE_BYTES * 16 // max(count, 1))

    def __missing__(self, a: int) -> int:
        if len(self) >= self._limit:
            self.clear()
        bits = self[a] = self._build(a)
        return bits


def _csr(count: int, src, dst):
    """Compressed sparse rows of the pairs ``(src[k], dst[k])``, duplicates removed, rows ascending.

    Returns:
        ``(start, targets)``, ``array('i')`` each: row ``a`` is
        ``targets[start[a]:start[a + 1]]``.
    """
    degree = array("i", [0]) * (count + 1)
    for k, a in enumerate(src):
        if not k & 4095:
            _setup_check()  # setup-check: every 4096 pairs
        degree[a + 1] += 1
    for a in range(count):
        if not a & 4095:
            _setup_check()  # setup-check: every 4096 areas
        degree[a + 1] += degree[a]
    fill = array("i", degree)
    raw = array("i", [0]) * len(src)
    for k in range(len(src)):
        if not k & 4095:
            _setup_check()  # setup-check: every 4096 pairs
        a = src[k]
        raw[fill[a]] = dst[k]
        fill[a] += 1
    del fill
    start = array("i", [0]) * (count + 1)
    targets = array("i")
    for a in range(count):
        if not a & 4095:
            _setup_check()  # setup-check: every 4096 areas
        row = raw[degree[a]:degree[a + 1]]
        if len(row) > 1:
            row = sorted(set(row))
        targets.extend(row)
        start[a + 1] = len(targets)
    return start, targets


def _setup_check() -> None:
    """Called every few thousand cells or areas during set-up: the case's time limit holds there too.

    Raises:
        searchkit.limits.LimitReached: once the running case's time limit
            has passed (the core's :func:`searchkit.limits.setup_check`).
    """
    setup_check()


class FloodPuzzle:
    """A Flood-It instance as a :class:`searchkit.puzzle.Puzzle`.

    States are packed ``flooded | frontier << count`` area bitsets (see the module); a move is a colour index;
    every step costs 1.  The successor generator applies the plugin's pruning
    rules unless they are in ``disabled``:

    * ``frontier-colours``: only colours present on the frontier are tried
      (any other colour leaves the region unchanged);
    * ``no-growth``: a move that does not grow the region is cut;
    * ``completion``: if a frontier colour has no areas outside the frontier
      (picking it removes the colour from the board), that move alone is
      generated -- it is part of some optimal solution: with S an optimal
      sequence whose first pick of that colour c is step j, c followed by S
      without step j reaches, step by step, a superset of S's regions
      (flooding is monotone in the region), so it is no longer;
    * ``exposure``: while some area lies *beyond* the frontier (outside the
      region and not adjacent to it), only moves that *expose* an area -- whose
      new frontier holds an area outside the old region plus frontier -- are
      generated.  Claim: if areas lie beyond, some optimal solution starts with
      an exposing move.  Proof: take an optimal c_1..c_L from region R with
      regions S_0 = R, ..., S_L = all, and let m be the first step whose move
      exposes an area from S_{m-1} (it exists: while no move exposes, the set
      S_i + N(S_i) stays R + N(R), which misses the areas beyond, so S_i never
      covers them).  Steps 1..m-1 only absorb areas of N(R), so S_{m-1} <=
      R + N(R), and c_m absorbs A, the c_m-areas of N(S_{m-1}), all inside
      N(R).  Play c_m first: flood(R, c_m) contains A, and then c_1..c_{m-1}
      reach supersets of S_1..S_{m-1} (flooding is monotone), so after m steps
      the region contains S_{m-1} + A = S_m; the rest of the sequence then
      finishes within L moves.  This sequence is optimal, and its first move
      exposes at R the area that c_m exposed at S_{m-1} (it lies outside
      S_{m-1} + N(S_{m-1}) = R + N(R)).  On the first 150 PC19 boards it
      cuts 2% of the generated states (718 411 -> 702 835; expanded 154 036
      -> 153 605).
    """

    def __init__(self, board: Board, disabled: frozenset[str] = frozenset()) -> None:
        self.board = board
        self.graph = AreaGraph(board)
        self.frontier_only = RULE_FRONTIER not in disabled
        self.growth_only = RULE_GROWTH not in disabled
        self.completion = RULE_COMPLETION not in disabled
        self.exposure = RULE_EXPOSURE not in disabled
        self.successors = self._make_successors()

    def initial_state(self) -> int:
        return self.graph.start()

    def is_goal(self, state) -> bool:
        return state == self.graph.all_areas  # the whole board flooded, so no frontier

    def solvable(self, state) -> bool:
        """Always ``True``: every Flood-It board can be flooded, from every state.

        Proof: the areas (maximal one-coloured connected cell sets) of a board
        form a connected graph, since the grid of cells is connected.  While the
        pivot's region is not the whole board, some area outside it is
        adjacent to it (else the region and the rest would be disconnected),
        so the frontier is not empty; picking the colour of a frontier area, a
        successor under every rule setting (the rules only cut colours absent
        from the frontier, or keep one exposing or completing move), absorbs at
        least that area.  The region only grows, so the whole board is flooded
        within (areas - 1) moves, and searchkit's ``verify`` fails any record
        calling a Flood-It case unsolvable (one under ``--upper-bound`` claims
        only that nothing is cheaper).
        """
        return True

    def _make_successors(self):
        g = self.graph
        colour_areas = list(enumerate(g.colour_areas))
        absorb = g.absorb
        frontier_only, growth_only, completion = self.frontier_only, self.growth_only, self.completion
        exposure = self.exposure
        everything = g.all_areas

        nbrs = g.neighbours
        shift = g.count
        cuts = self._cuts = [0, 0, 0]  # successors cut by: frontier-colours/no-growth, completion, exposure

        def successors(state):
            flooded = state & everything
            frontier = state >> shift
            beyond = everything & ~(flooded | frontier)  # outside, not on the frontier
            if completion:
                for c, areas in colour_areas:
                    if areas & frontier and not areas & beyond:
                        cuts[1] += sum(1 for _, a in colour_areas if a & frontier) - 1
                        return ((c, absorb(flooded, frontier, areas & frontier), 1),)
            out = []
            # exposure: with areas beyond the frontier, keep only moves whose
            # new frontier reaches past the old one.
            if not exposure:
                beyond = 0
            for c, areas in colour_areas:
                new = areas & frontier
                if not new:
                    if frontier_only or growth_only:
                        cuts[0] += 1
                        continue
                    out.append((c, state, 1))
                    continue
                # absorb(flooded, frontier, new), inlined: one call less per child
                region = flooded | new
                reach = 0
                while new:
                    low = new & -new
                    reach |= nbrs[low.bit_length() - 1]
                    new ^= low
                if beyond and not reach & beyond:
                    cuts[2] += 1
                    continue
                out.append((c, region | ((frontier | reach) & ~region) << shift, 1))
            return out

        return successors

    @property
    def rule_cuts(self) -> dict[str, int]:
        """Successors cut so far by each rule fused into :meth:`successors` (read by the Solver after a search).

        A colour absent from the frontier is counted for ``frontier-colours``
        when it is on, else for ``no-growth`` (both cut that move).
        """
        lost, completion, exposure = self._cuts
        out = {}
        if self.frontier_only:
            out[RULE_FRONTIER] = lost
        elif self.growth_only:
            out[RULE_GROWTH] = lost
        if self.completion:
            out[RULE_COMPLETION] = completion
        if self.exposure:
            out[RULE_EXPOSURE] = exposure
        return out

    def tie_break(self, state) -> int:
        """Best-first tie-break among equal f and g: more flooded areas first (``-count``).

        On the PC19 boards it cuts Puchert A*'s expanded states by about a
        quarter (a larger region at the same cost is closer to a goal and
        dominates more of the states still to be popped).
        """
        return -(state & self.graph.all_areas).bit_count()

    def region_cells(self, state) -> int:
        """Bitset of the board cells in the flooded region of ``state``."""
        return self.graph.area_cells(state & self.graph.all_areas)

    def unpack(self, state) -> tuple[int, int]:
        """The ``(flooded, frontier)`` area bitsets of a packed state."""
        return state & self.graph.all_areas, state >> self.graph.count

    def pack(self, flooded: int, frontier: int) -> int:
        """The state of region ``flooded`` with frontier ``frontier`` (area bitsets)."""
        return flooded | frontier << self.graph.count
