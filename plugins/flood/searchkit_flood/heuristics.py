"""Admissible Flood-It heuristics over the area graph.

Each factory takes a :class:`~searchkit_flood.areas.FloodPuzzle` and returns
``estimate(state) -> int`` for states ``(flooded, frontier)``.

Two facts carry every proof here:

1. *Only picked colours are absorbed*: a move picking colour c adds to the
   region exactly the areas of colour c on its frontier.  So each colour that
   still has areas outside the region must be picked at least once more.
2. *The region grows by at most one layer per move*: after a move the region
   is within the old region plus its frontier.  So after t moves it lies
   within the areas at distance <= t (distance: BFS layers over the area
   graph, the frontier being layer 1).
"""

from __future__ import annotations


def colours(puzzle):
    """h = number of colours with areas outside the region (the seeds' h; HDU 4127).

    Admissible by fact 1.  Consistent: a move absorbs areas of one colour
    only, so h falls by at most 1 per move.
    """
    g = puzzle.graph
    colour_areas = tuple(g.colour_areas)
    everything = g.all_areas

    def estimate(state):
        outside = everything & ~state[0]
        n = 0
        for areas in colour_areas:
            if areas & outside:
                n += 1
        return n

    return estimate


def _layer_walker(puzzle):
    """Return ``walk(state) -> list of colour bitmasks``, one per BFS layer.

    Entry d-1 is the set of colours (bit c for colour c) of the areas at
    distance d from the region; the list's length is the eccentricity.
    """
    g = puzzle.graph
    nbrs = g.neighbours
    colour_bit = [1 << c for c in g.colour]

    def walk(state):
        flooded, layer = state
        seen = flooded | layer
        out = []
        while layer:
            nxt = 0
            cols = 0
            rest = layer
            while rest:
                low = rest & -rest
                a = low.bit_length() - 1
                nxt |= nbrs[a]
                cols |= colour_bit[a]
                rest ^= low
            out.append(cols)
            layer = nxt & ~seen
            seen |= layer
        return out

    return walk


def eccentricity(puzzle):
    """h = the region's eccentricity in the area graph: BFS layers until every area is reached.

    The moves needed if every move could flood all frontier colours at once.
    Admissible by fact 2 (the last area, at distance e, needs e moves).
    Consistent: after a move every distance falls by at most 1.
    """
    walk = _layer_walker(puzzle)

    def estimate(state):
        return len(walk(state))

    return estimate


def layered(puzzle):
    """h = max over t of (t + number of colours among the areas at distance > t).

    Dominates ``colours`` (t = 0) and ``eccentricity`` (t = e - 1 gives at
    least e - 1 + 1).  Admissible: in any solution of L >= e moves, after t < e
    moves the region lies within distance <= t (fact 2), so every colour of an
    area at distance > t is still outside and must be picked again (fact 1):
    L >= t + that count.  Consistent: a move lowers each distance by at most 1
    (so the term for t becomes at least the old term for t + 1, minus 1) and
    removes at most one colour from the outside (the t = 0 term).
    """
    walk = _layer_walker(puzzle)

    def estimate(state):
        layers = walk(state)
        best = len(layers)
        suffix = 0
        for t in range(len(layers) - 1, -1, -1):
            suffix |= layers[t]
            v = t + suffix.bit_count()
            if v > best:
                best = v
        return best

    return estimate
