"""Flood-It without a proof: a greedy play-out (an upper bound) and a fast inadmissible heuristic.

Both play real moves on the area graph of :mod:`searchkit_flood.areas`, so
the number of moves they count is the length of an actual solution: an
**upper bound** on the optimum from the state they start at, never a lower
bound.  That is what makes the solution a valid seed (``--upper-bound auto``,
the ``anytime`` driver) and the count an *inadmissible* heuristic.

Each play-out step takes, in order of preference:

1. a *completing* colour (one whose areas outside the region all lie on the
   frontier: picking it removes it from the board; some optimal solution
   makes that move, see :class:`~searchkit_flood.areas.FloodPuzzle`), else
2. the colour that the step's ``choose`` rule ranks best:

   * :func:`play_out`: the move whose child has the least ``puchert``
     estimate, ties to more areas flooded -- a one-step look-ahead on the
     admissible heuristic, about 1.6 ms on a 14x14 board (the seed,
     :func:`greedy_solution`, runs a few such play-outs side by side);
   * :func:`greedy` (the heuristic): the colour absorbing the most areas,
     ties to the lowest colour index -- no look-ahead, about ten cheap bit
     operations per step.
"""

from __future__ import annotations


#: States kept per layer by :func:`greedy_solution`'s beam: on the first 100
#: PC19 boards, width 1 (the plain play-out) is 16% above the optimum at about
#: 1.6 ms a board, width 2 about 10% at 2.5 ms, width 4 about 5% at 3.7 ms.
SEED_WIDTH = 4


def greedy_solution(puzzle, width: int = SEED_WIDTH) -> list[int]:
    """A solution of the :class:`~searchkit_flood.areas.FloodPuzzle`: ``width`` greedy play-outs side by side.

    That is the core's beam search (``searchkit.run(puzzle, "beam(width=W)")``)
    ranked by ``puchert``, keeping ``width`` states a move; should the beam
    run dry (every child seen before), the single play-out of
    :func:`play_out` is returned instead.

    Returns:
        The moves (colour indices) from the initial state to a one-colour
        board; their number is an upper bound on the optimum.

    Raises:
        searchkit.limits.LimitReached: the running case's time limit passed
            (checked at every evaluation: on a 150x150 board the seed alone
            takes seconds, and it runs inside the case's limit).
    """
    if width > 1:
        from searchkit import run
        from searchkit.limits import setup_check
        from searchkit_flood.heuristics import puchert

        estimate = puchert(puzzle)

        def timed(state):
            setup_check()
            return estimate(state)

        result = run(puzzle, f"beam(width={width})", heuristic=timed)
        if result.has_solution:
            return list(result.moves)
    return play_out(puzzle)


def play_out(puzzle) -> list[int]:
    """One greedy play-out (module docstring): completing colours first, else the least ``puchert`` child.

    Returns:
        The moves (colour indices) from the initial state to a one-colour board.

    Raises:
        searchkit.limits.LimitReached: the running case's time limit passed (checked every move).
    """
    from searchkit.limits import setup_check
    from searchkit_flood.heuristics import puchert

    g = puzzle.graph
    estimate = puchert(puzzle)
    absorb = g.absorb
    everything = g.all_areas
    colour_areas = list(enumerate(g.colour_areas))
    split = g.split
    flooded, frontier = split(g.start())
    moves: list[int] = []
    while flooded != everything:
        setup_check()
        outside = ~(flooded | frontier)
        for c, areas in colour_areas:  # the first completing colour, as the puzzle's completion rule takes
            if areas & frontier and not areas & outside:
                flooded, frontier = split(absorb(flooded, frontier, areas & frontier))
                moves.append(c)
                break
        else:
            c = None
        if c is not None:
            continue
        best = None
        for c, areas in colour_areas:
            new = areas & frontier
            if not new:
                continue
            child = absorb(flooded, frontier, new)
            rank = (estimate(child), -(child & everything).bit_count())
            if best is None or rank < best[0]:
                best = (rank, c, child)
        _, c, child = best
        flooded, frontier = split(child)
        moves.append(c)
    return moves


def greedy(puzzle):
    """h = moves of the no-look-ahead greedy play-out from the state (module docstring).

    **Not admissible**: it is the length of a real solution from the state,
    so h >= h* (an upper bound), usually above it.  Not consistent either.
    Registered with ``admissible=False``: drivers that derive bounds from h
    get none from it, and the Solver reports their answers ``feasible``.
    Meant for ``gbfs`` and ``wastar``.
    """
    g = puzzle.graph
    everything = g.all_areas
    colour_areas = tuple(a for a in g.colour_areas if a)
    absorb, split = g.absorb, g.split

    def estimate(state):
        flooded, frontier = split(state)
        n = 0
        while flooded != everything:
            outside = ~(flooded | frontier)
            new = 0
            for areas in colour_areas:
                if areas & frontier and not areas & outside:
                    new |= areas & frontier
                    n += 1
            if not new:
                most = -1
                for areas in colour_areas:
                    k = (areas & frontier).bit_count()
                    if k > most:
                        most, new = k, areas & frontier
                n += 1
            flooded, frontier = split(absorb(flooded, frontier, new))
        return n

    return estimate


def two_best(puzzle):
    """h = moves of a relaxed play-out whose colour-blind step floods only the two best colours.

    The idea is Florian Fischer's (``terminal-flood``, its inadmissible
    strategies), as ColorFill's ``AStarFlolleStrategy`` uses it; this is an
    independent implementation over the area graph.  It is Puchert's
    play-out (:func:`searchkit_flood.heuristics.puchert`: count one move per
    completing colour, else one colour-blind step) with one change: the
    colour-blind step expands the reach only through the frontier areas of
    the two colours that give access to the most new cells, not through the
    whole frontier.  Once more than a third of the areas are flooded it
    returns the admissible ``puchert`` estimate instead.

    **Not admissible** (a step that floods two colours but only part of the
    frontier can overcount), not consistent; registered ``admissible=False``.
    A* and ``wastar`` with it find optimal or near-optimal solutions while
    expanding far fewer states than with ``puchert``.
    """
    from searchkit_flood.heuristics import puchert, remember

    g = puzzle.graph
    admissible = puchert(puzzle)
    cells = g.area_sizes()
    colour_areas = [a for a in g.colour_areas if a]
    everything = g.all_areas
    limit = g.count // 3

    tables = g.neighbour_byte_tables()  # per byte of area numbers: the union of their neighbours
    width = len(tables)
    # The play-out from (reach, layer) depends on nothing else (the colours
    # left are those with areas outside the reach): remaining counts are memoised.
    memo: dict = {}

    # tails[i] = tables[i:]: a union reads only the bytes from the set's
    # lowest to its highest area, not all ``width`` of them (the sets here
    # are a few frontier areas).
    tails = tuple(tables[i:] for i in range(width))

    def reach(areas, visited):
        if not areas:
            return 0
        lo = ((areas & -areas).bit_length() - 1) >> 3
        out = 0
        for table, byte in zip(tails[lo], (areas >> (lo << 3)).to_bytes(((areas.bit_length() + 7) >> 3) - lo,
                                                                          "little")):
            if byte:
                out |= table[byte]
        return out & ~visited

    def cells_of(areas):  # a few areas: summed bit by bit (per-byte size tables were no faster)
        n = 0
        while areas:
            low = areas & -areas
            n += cells[low.bit_length() - 1]
            areas ^= low
        return n

    split = g.split

    def estimate(state):
        region, frontier = split(state)
        if region == everything:
            return 0
        if region.bit_count() > limit:
            return admissible(state)
        visited = region
        current = frontier
        left = [a for a in colour_areas if a & ~region]
        n = 0
        seen = []
        while True:
            key = (visited, current)  # the colours left are those with areas outside ``visited``
            known = memo.get(key)
            if known is not None:
                n += known
                break
            seen.append((key, n))
            visited |= current
            done = [a for a in left if not a & ~visited]
            if done:
                n += len(done)
                left = [a for a in left if a & ~visited]
                if len(left) <= 1:
                    n += len(left)
                    break
                gone = 0
                for a in done:
                    gone |= a
                current = (current & ~gone) | reach(current & gone, visited)
                continue
            n += 1
            best = second = (0, 0, 0)  # (new cells, colour areas, new areas)
            for a in left:
                through = current & a
                if not through:
                    continue
                new = reach(through, visited)
                size = cells_of(new)
                if size > best[0]:
                    best, second = (size, a, new), best
                elif size > second[0]:
                    second = (size, a, new)
            if not best[0]:
                n += len(left)  # nothing new to reach: the rest is on the frontier
                break
            current = (current & ~(best[1] | second[1])) | best[2] | second[2]
        remember(memo, seen, n, MEMO_LIMIT)
        return n

    return estimate


#: Entries kept in a ``two-best`` play-out memo before it is cleared.
MEMO_LIMIT = 500_000
