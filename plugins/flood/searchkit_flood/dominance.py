"""Dominance pruning for best-first search: skip regions inside an expanded region.

If the region F of a state popped with cost g lies inside (is a subset of) the
region F2 of a state already *expanded* with the same g, F is skipped.
Reported for Flood-It A* by the ColorFill and terminal-flood authors; on the
PC19 14x14 boards it cuts Puchert A*'s expanded states by about three
quarters (first 20 boards: 136916 -> 35546; ``benchmarks/flood_pc19.py
--no-prune dominance`` measures it).

Soundness (A* with an admissible h, any tie-breaking).  Let C* be the optimum
and call a heap entry (s, g) *good* when g + opt(s) = C*.  Claim: until a goal
is popped, some good entry is in the heap; its key f <= C*, so no goal of
cost > C* is popped first.  Suppose not, and take the good entry (s, g)
pushed with the largest g (the start is good).  It was popped and

* skipped because a smaller g was recorded for s: impossible, that g plus
  opt(s) would be < C*;
* skipped by this rule: F <= F2 expanded with g, and opt(F2) <= opt(F)
  (opt is monotone under inclusion, proved in
  :func:`searchkit_flood.heuristics.puchert`), so (F2, g) is good and was
  expanded -- the next case;
* expanded: an optimal first move from s is generated (the completion and
  exposure rules keep a move that starts an optimal solution, see
  :class:`~searchkit_flood.areas.FloodPuzzle`; the other rules only drop
  moves that do not grow the region, never optimal), giving a child with
  g + 1 + opt(child) = C*.  It was pushed with g + 1, or an entry with
  g' <= g + 1 was recorded before, and g' < g + 1 is impossible: either way a
  good entry with a larger g was pushed, contradicting the choice.

Only the same g is compared (the argument above holds for any g2 <= g): on
the first 8 PC19 boards every dominating expanded state with g2 <= g had
g2 = g, and one level keeps the index small.  Checking children when they
are generated (before their h is computed) was also measured: 16% fewer
heuristic calls, but no faster overall, so it is not done.

Index: per cost level g, for every area a, an int whose bit i is set when
the i-th state expanded at level g contains a.  The states containing all of
F are the AND of those ints over the areas of F; taken from the highest area
down (far areas are in few regions), it usually reaches 0 after a few ANDs.
Memory: count * expanded bits in all.
"""

from __future__ import annotations

from searchkit.pruning import Pruner


#: ``_BITS_DOWN[v]``: the set bit positions of the byte ``v``, highest first.
_BITS_DOWN = tuple(tuple(j for j in range(7, -1, -1) if v >> j & 1) for v in range(256))


def dominance_pruner(puzzle) -> Pruner:
    """The ``dominance`` rule bound to a :class:`~searchkit_flood.areas.FloodPuzzle`.

    Returns:
        A :class:`~searchkit.pruning.Pruner` whose ``cut(state, g, remaining)``
        answers for a state about to be expanded by a best-first driver (the
        rule is registered for ``astar`` and the best-first drivers only, so
        the Solver never binds it under a depth-first one): ``True`` if its
        region lies inside a region expanded before at cost ``g``; otherwise
        it records the region as expanded and returns ``False``.  The table
        is fresh per call.
    """
    count = puzzle.graph.count
    everything = puzzle.graph.all_areas
    levels: dict[int, list] = {}  # g -> [number of states, all-states mask, per-area ints]
    desc = _BITS_DOWN

    def cut(state, g, remaining):
        flooded = state & everything
        level = levels.get(g)
        if level is None:
            level = levels[g] = [0, 0, [0] * count]
        n, acc, maps = level
        # The areas of F are read byte by byte from a bytes copy (highest
        # first for the check), not by peeling bits off F: that made two new
        # big ints per area.  Same decisions, about 17% less time in this rule.
        nbytes = (flooded.bit_length() + 7) >> 3
        data = flooded.to_bytes(nbytes, "little")
        if acc:
            for i in range(nbytes - 1, -1, -1):
                byte = data[i]
                if byte:
                    base = i << 3
                    for j in desc[byte]:
                        acc &= maps[base + j]
                    if not acc:
                        break
            else:
                return True
        bit = 1 << n
        level[0] = n + 1
        level[1] |= bit
        for i in range(nbytes):
            byte = data[i]
            if byte:
                base = i << 3
                for j in desc[byte]:
                    maps[base + j] |= bit
        return False

    return Pruner(cut=cut)
