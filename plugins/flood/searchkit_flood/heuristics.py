"""Admissible Flood-It heuristics over the area graph.

Each factory takes a :class:`~searchkit_flood.areas.FloodPuzzle` and returns
``estimate(state) -> int`` for its packed states ``flooded | frontier <<
count`` (see :mod:`searchkit_flood.areas`).

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
        outside = everything & ~state
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
    everything, shift = g.all_areas, g.count

    def walk(state):
        flooded, layer = state & everything, state >> shift
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


def puchert(puzzle):
    """h = moves of a greedy relaxed play-out, after Aaron and Simon Puchert's ``floodit``.

    From the region R (and its frontier N(R), the areas adjacent to R outside
    it), repeat until R holds every area:

    * if some colours are *completing* -- they still have areas outside R and
      all of those lie in N(R) -- count one move per such colour and add just
      their areas to R;
    * otherwise count one move and add the whole frontier N(R) to R (a
      colour-blind step that absorbs every frontier colour at once).

    The count is h.  Cost: each area enters R once, and the neighbour union of
    the areas added at a step takes one table look-up per 8 area numbers
    (:meth:`~searchkit_flood.areas.AreaGraph.neighbour_byte_tables`).  The
    play-out from a region depends on the region alone, so the remaining
    count of every region a play-out passes through is memoised (per bound
    puzzle, at most :data:`MEMO_LIMIT` entries): on PC19 about 90% of
    play-outs meet an earlier one and stop there, saving about 40% of the
    steps.  About 10 us per state on a 14x14 board with 6 colours.  Above
    :data:`BYTE_TABLE_LIMIT` areas a play-out can take a second (0.75 s on a
    400x400 board), so there each step reads the case's time limit and may
    raise :class:`~searchkit.limits.LimitReached`.

    **Admissible** (h(R) <= opt(R), the fewest real moves from region R).
    Write flood(R, c) = R + (areas of colour c in N(R)) for a real move, and
    let R be any set of areas (the proof needs the game from arbitrary area
    sets, because the play-out leaves the real game's reachable regions).

    Lemma (monotone optimum): R <= R' (inclusion) implies opt(R') <= opt(R).
    flood is monotone: an area of colour c in N(R) is either in R' or adjacent
    to R <= R', hence in flood(R', c); so playing R's optimal sequence from R'
    keeps every region a superset and ends with all areas.

    The lemma is about opt, not about h.  The obvious induction (h(R + N(R))
    <= h(S_1) because S_1 <= R + N(R)) would need h itself monotone under
    inclusion; we do not know that it is (an exhaustive check over all
    connected area sets of 3000 small random boards found no counterexample),
    and the proof below does not use it: it goes through opt instead.

    Proof of h(R) <= opt(R), by induction on L = opt(R).  L = 0: R is
    everything and h = 0.  L >= 1, fix an optimal sequence c_1..c_L from R
    with regions S_0 = R, S_1, ..., S_L = all.

    * Completing case: K is the set of completing colours, k = |K| >= 1, and
      C is the union of their areas outside R (all in N(R)).  Every c in K
      occurs in the sequence (only picking c absorbs an area of colour c).
      At the first pick of c, say step j, no area of colour c outside R has
      been absorbed yet, and each is adjacent to R <= S_{j-1}, so that pick
      absorbs all of them.  Drop these k first picks and play the rest from
      R + C: by induction on the steps the new region contains S_i (kept
      steps by monotonicity of flood; at a dropped step S_j adds only areas
      of C, already present).  So opt(R + C) <= L - k, and h(R) = k +
      h(R + C) <= k + (L - k) = L by the induction hypothesis.
    * Colour-blind case: h(R) = 1 + h(R + N(R)).  S_1 = flood(R, c_1) <=
      R + N(R), so by the lemma opt(R + N(R)) <= opt(S_1) = L - 1, and the
      induction hypothesis gives h(R + N(R)) <= L - 1.

    Not claimed consistent (A* re-opens states, so optimality does not need
    it).  Property-tested against breadth-first search in
    ``plugins/flood/tests/test_large.py``.

    Measured for issue 13 (what a stronger bound could still gain): on the
    first 20 PC19 boards, 97.6% of the states A* expands have g + h < C*
    (25 660 of 26 287; the last f-layer is 2.4%, so tie-breaking cannot win
    much).  On the first 10, a one-move look-ahead min_c(1 + h(child)) would
    lift 33% of those to f >= C*, two moves 57%: the gap is structural, and
    even a bound as strong as a one-move look-ahead saves at most a third of
    the expansions.  ``layered`` and ``eccentricity`` exceed ``puchert`` on
    none of those states (0 of 25 660), so a max with them does not pay.
    Looking the start region up in the memo too (before the first step) gave
    the same counts and no measurable time (6.71/6.86 s vs 6.42/6.84 s CPU,
    150 PC19 boards, interleaved runs).
    """
    g = puzzle.graph
    everything, shift = g.all_areas, g.count
    colour_areas = tuple(a for a in g.colour_areas if a)
    nbrs = g.neighbours
    tails = None
    if g.count <= BYTE_TABLE_LIMIT:  # the tables grow with the square of the area count
        tables = g.neighbour_byte_tables()
        # tails[i] = tables[i:], so a union starting at byte i zips without slicing.
        tails = tuple(tables[i:] for i in range(len(tables)))
    # The play-out from a region depends on the region alone, and play-outs
    # from nearby regions often meet: memo maps the areas outside each region
    # reached inside a play-out to the moves the play-out counts from there.
    memo: dict[int, int] = {}
    get = memo.get
    from searchkit.limits import setup_check as check_time

    def estimate(state):
        region, frontier = state & everything, state >> shift
        if region == everything:
            return 0
        rest = everything ^ region  # areas outside the region
        n = 0
        seen = []
        while True:
            beyond = rest ^ frontier  # outside and not on the frontier
            if not beyond:
                # Everything left is on the frontier: each colour there completes.
                for areas in colour_areas:
                    if areas & frontier:
                        n += 1
                break
            new = 0
            for areas in colour_areas:
                if not areas & beyond and areas & frontier:
                    new |= areas
                    n += 1
            if new:
                new &= frontier
            else:
                new = frontier
                n += 1
            rest ^= new
            known = get(rest)
            if known is not None:
                n += known
                break
            seen.append((rest, n))
            if tails is not None:
                lo = ((new & -new).bit_length() - 1) >> 3
                for table, byte in zip(tails[lo],
                                       (new >> (lo << 3)).to_bytes(((new.bit_length() + 7) >> 3) - lo, "little")):
                    if byte:
                        frontier |= table[byte]
            else:  # a huge board (over BYTE_TABLE_LIMIT areas): a play-out can take a second
                check_time()  # so the case's time limit is read every step, not only between expansions
                while new:
                    low = new & -new
                    frontier |= nbrs[low.bit_length() - 1]
                    new ^= low
            frontier &= rest
        remember(memo, seen, n, MEMO_LIMIT)
        return n

    return estimate


def remember(memo: dict, seen: list, total: int, limit: int) -> None:
    """Store a finished play-out in its memo: each ``(key, moves so far)`` of ``seen`` maps to the moves left.

    The memo is cleared first once it holds more than ``limit`` entries,
    so it stays bounded whatever the search's length.
    """
    if len(memo) > limit:
        memo.clear()
    for key, at in seen:
        memo[key] = total - at


#: Above this many areas the Puchert heuristic unions neighbour sets area by
#: area instead of through byte tables, whose memory grows with the square of
#: the area count (about 0.8 GB at 20 000 areas, a 200x200 board).
BYTE_TABLE_LIMIT = 2048

#: Entries kept in a Puchert heuristic's play-out memo before it is cleared
#: (about 100 bytes each; 14x14 PC19 searches stay far below).
MEMO_LIMIT = 1_000_000
