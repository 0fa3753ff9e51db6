"""The area graph of a Flood-It board and the search puzzle built on it.

An *area* is a maximal 4-connected same-colour set of cells.  Areas are
numbered once per board in breadth-first order from the pivot's area (area 0),
so low numbers lie near the pivot.  Each area's neighbour set and each
colour's area set are bitsets (Python ints over area numbers).

A search state is the pair ``(flooded, frontier)`` of area bitsets: the
flooded region (areas recoloured together with the pivot) and its frontier
(areas adjacent to the region but not in it) -- the "frontier marks" of the
seed solutions, kept with bit operations.  ``flooded`` alone determines the
state; ``frontier`` is carried so successors cost a few bit operations.
"""

from __future__ import annotations

from collections import deque

from searchkit_flood.board import Board

#: Pruning rules implemented in :meth:`FloodPuzzle.successors` (see plugin.py).
RULE_FRONTIER = "frontier-colours"
RULE_GROWTH = "no-growth"
RULE_COMPLETION = "completion"


class AreaGraph:
    """The areas of one board.

    Attributes:
        board: the :class:`~searchkit_flood.board.Board`.
        count: number of areas.
        colour: ``colour[a]`` is area ``a``'s colour index.
        cells: ``cells[a]`` is the bitset of area ``a``'s cells (bit = y*W + x).
        neighbours: ``neighbours[a]`` is the bitset of areas adjacent to area ``a``.
        colour_areas: ``colour_areas[c]`` is the bitset of areas of colour ``c``.
        all_areas: bitset of every area.
    """

    __slots__ = ("board", "count", "colour", "cells", "neighbours", "colour_areas", "all_areas", "_byte_tables")

    def __init__(self, board: Board) -> None:
        w, h, cells = board.width, board.height, board.cells
        area_of = [-1] * (w * h)
        self.board = board
        self.colour: list[int] = []
        self.cells: list[int] = []
        # Number areas in BFS order over the area graph, starting at the pivot.
        queue = deque([board.pivot])
        order_seeds = deque([board.pivot])
        adjacency: list[set[int]] = []
        while order_seeds:
            seed = order_seeds.popleft()
            if area_of[seed] >= 0:
                continue
            a = len(self.colour)
            col = cells[seed]
            self.colour.append(col)
            adjacency.append(set())
            mask = 0
            area_of[seed] = a
            queue = deque([seed])
            while queue:
                i = queue.popleft()
                mask |= 1 << i
                y, x = divmod(i, w)
                for j in _around(i, x, y, w, h):
                    if area_of[j] < 0 and cells[j] == col:
                        area_of[j] = a
                        queue.append(j)
                    elif cells[j] != col:
                        order_seeds.append(j)
            self.cells.append(mask)
        for i in range(w * h):
            y, x = divmod(i, w)
            for j in _around(i, x, y, w, h):
                if area_of[i] != area_of[j]:
                    adjacency[area_of[i]].add(area_of[j])
        self.count = len(self.colour)
        self.neighbours = [sum(1 << b for b in adj) for adj in adjacency]
        self.colour_areas = [0] * board.colours
        for a, col in enumerate(self.colour):
            self.colour_areas[col] |= 1 << a
        self.all_areas = (1 << self.count) - 1
        self._byte_tables = None

    def neighbour_byte_tables(self) -> tuple[list[int], ...]:
        """Tables for the neighbour union of an area set, one per 8 area numbers.

        ``tables[i][v]`` is the union of ``neighbours[8*i + j]`` over the bits
        ``j`` set in the byte ``v`` (0..255), so the neighbours of a set ``X``
        are the union of ``tables[i][byte i of X]`` -- one look-up per byte
        instead of one per area.  Built on first use (``ceil(count/8) * 256``
        entries, about 1 ms for 150 areas) and cached.
        """
        if self._byte_tables is None:
            nbrs, count = self.neighbours, self.count
            tables = []
            for i in range((count + 7) // 8):
                t = [0] * 256
                for v in range(1, 256):
                    low = v & -v
                    a = 8 * i + low.bit_length() - 1
                    t[v] = t[v ^ low] | (nbrs[a] if a < count else 0)
                tables.append(t)
            self._byte_tables = tuple(tables)
        return self._byte_tables

    def absorb(self, flooded: int, frontier: int, new: int) -> tuple[int, int]:
        """Add the areas ``new`` (a subset of ``frontier``) to the region.

        Returns:
            The new ``(flooded, frontier)`` pair.
        """
        flooded |= new
        nbrs = self.neighbours
        while new:
            low = new & -new
            frontier |= nbrs[low.bit_length() - 1]
            new ^= low
        return flooded, frontier & ~flooded

    def start(self) -> tuple[int, int]:
        """The initial state: the pivot's area flooded, its neighbours as frontier."""
        return 1, self.neighbours[0] & ~1


def _around(i, x, y, w, h):
    if y > 0:
        yield i - w
    if x > 0:
        yield i - 1
    if x + 1 < w:
        yield i + 1
    if y + 1 < h:
        yield i + w


class FloodPuzzle:
    """A Flood-It instance as a :class:`searchkit.puzzle.Puzzle`.

    States are ``(flooded, frontier)`` area bitsets; a move is a colour index;
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
      (flooding is monotone in the region), so it is no longer.
    """

    def __init__(self, board: Board, disabled: frozenset[str] = frozenset()) -> None:
        self.board = board
        self.graph = AreaGraph(board)
        self.frontier_only = RULE_FRONTIER not in disabled
        self.growth_only = RULE_GROWTH not in disabled
        self.completion = RULE_COMPLETION not in disabled
        self.successors = self._make_successors()

    def initial_state(self) -> tuple[int, int]:
        return self.graph.start()

    def is_goal(self, state) -> bool:
        return state[0] == self.graph.all_areas

    def _make_successors(self):
        g = self.graph
        colour_areas = list(enumerate(g.colour_areas))
        absorb = g.absorb
        frontier_only, growth_only, completion = self.frontier_only, self.growth_only, self.completion

        def successors(state):
            flooded, frontier = state
            if completion:
                outside = ~(flooded | frontier)
                for c, areas in colour_areas:
                    if areas & frontier and not areas & outside:
                        return ((c, absorb(flooded, frontier, areas & frontier), 1),)
            out = []
            for c, areas in colour_areas:
                new = areas & frontier
                if not new:
                    if frontier_only or growth_only:
                        continue
                    out.append((c, state, 1))
                    continue
                out.append((c, absorb(flooded, frontier, new), 1))
            return out

        return successors

    def tie_break(self, state) -> int:
        """Best-first tie-break among equal f and g: more flooded areas first (``-count``).

        On the PC19 boards it cuts Puchert A*'s expanded states by about a
        quarter (a larger region at the same cost is closer to a goal and
        dominates more of the states still to be popped).
        """
        return -state[0].bit_count()

    def region_cells(self, state) -> int:
        """Bitset of the board cells in the flooded region of ``state``."""
        flooded = state[0]
        cells = self.graph.cells
        mask = 0
        while flooded:
            low = flooded & -flooded
            mask |= cells[low.bit_length() - 1]
            flooded ^= low
        return mask
