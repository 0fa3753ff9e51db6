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

   * :func:`greedy_solution` (the seed): the move whose child has the least
     ``puchert`` estimate, ties to more areas flooded -- a one-step look-ahead
     on the admissible heuristic, about 1 ms on a 14x14 board;
   * :func:`greedy` (the heuristic): the colour absorbing the most areas,
     ties to the lowest colour index -- no look-ahead, about ten cheap bit
     operations per step.
"""

from __future__ import annotations


def greedy_solution(puzzle) -> list[int]:
    """A solution of the :class:`~searchkit_flood.areas.FloodPuzzle` by greedy play-out (module docstring).

    Returns:
        The moves (colour indices) from the initial state to a one-colour
        board; their number is an upper bound on the optimum.
    """
    from searchkit_flood.heuristics import puchert

    g = puzzle.graph
    estimate = puchert(puzzle)
    absorb = g.absorb
    everything = g.all_areas
    colour_areas = list(enumerate(g.colour_areas))
    flooded, frontier = g.start()
    moves: list[int] = []
    while flooded != everything:
        outside = ~(flooded | frontier)
        for c, areas in colour_areas:  # the first completing colour, as the puzzle's completion rule takes
            if areas & frontier and not areas & outside:
                flooded, frontier = absorb(flooded, frontier, areas & frontier)
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
            rank = (estimate(child), -child[0].bit_count())
            if best is None or rank < best[0]:
                best = (rank, c, child)
        _, c, (flooded, frontier) = best
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
    absorb = g.absorb

    def estimate(state):
        flooded, frontier = state
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
            flooded, frontier = absorb(flooded, frontier, new)
        return n

    return estimate
