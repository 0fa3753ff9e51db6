"""searchkit hooks of the sliding-tile plugin: game, heuristics, pruning rule, generator.

Components are named by ``"module:attr"`` strings, imported on first use.
"""

from __future__ import annotations

from searchkit.plugin import GameOption, Generator, Heuristic, LazyGame, Param, PruningRule, hookimpl

GAME = "sliding-tiles"
#: The game's native module: the optional package built from ``plugins/sliding-tiles/native``.
NATIVE_MODULE = "sliding_tiles_native"
_H = "sliding_tiles.heuristics:"


@hookimpl
def register_games(register):
    register(LazyGame(GAME, "sliding_tiles.game:SlidingTilesGame",
                      "N x N sliding-tile puzzle (8-puzzle, 15-puzzle): fewest moves to 1..N*N-1, blank last",
                      native_module=NATIVE_MODULE))


@hookimpl
def register_heuristics(register):
    register(Heuristic(GAME, "manhattan", _H + "manhattan", admissible=True, consistent=True,
                       summary="sum of the tiles' grid distances to their goal cells"))
    register(Heuristic(GAME, "linear-conflict", _H + "linear_conflict", admissible=True, consistent=True,
                       summary="Manhattan + 2 per tile that must leave its goal row/column (Hansson et al. 1992)"))
    register(Heuristic(GAME, "misplaced", _H + "misplaced", admissible=True, consistent=True,
                       summary="number of tiles off their goal cell"))
    # Admissible: Korf and Felner 2002 (disjoint groups, only the group's own moves counted); the mirror's
    # lookup is as admissible (Felner, Korf and Hanan 2004).  Not consistent: the blank's cell is folded away
    # by min (`searchkit check` finds a counter-example on the 8-puzzle); see sliding_tiles/pdb.py.
    register(Heuristic(
        GAME, "pdb", "sliding_tiles.pdb:pdb", admissible=True, consistent=False,
        summary="additive pattern databases (Korf & Felner 2002), max with the main-diagonal mirror",
        params=(Param("partition", str, "auto", "tile groups: 6-6-6-6, 3-3-3-3-3-3-3-3 (5x5); 5-5-5, 6-6-3, 7-8 "
                      "(4x4); 4-4, 8 (3x3); auto: 4-4 on 3x3, 6-6-3 on 4x4, 6-6-6-6 on 5x5, exact on 2x2",
                      choices=("auto", "6-6-6-6", "3-3-3-3-3-3-3-3", "5-5-5", "6-6-3", "7-8", "4-4", "8")),
                # the choices are sliding_tiles.pdb.PARTITIONS
                Param("reflect", int, 1, "1: also look up the board mirrored in the main diagonal, keep the max",
                      min=0, max=1),
                Param("blank", int, 0, "1: tables keep the blank's cell (N*N-k times larger; consistent)",
                      min=0, max=1)),
        databases="sliding_tiles.pdb:abstractions",
        # blank=1 tables are Python-only (the native builder and lookup fold the blank)
        claims=lambda blank, **_: {"consistent": True, "native": False} if blank else {}))


@hookimpl
def register_pruning_rules(register):
    # In SlidingPuzzle.successors, which honours `disabled`.
    # sound_for="optimal": a bounded DFS allowed a longer-than-optimal path may
    # first find one that undoes a move, so the first solution can change.
    register(PruningRule(GAME, "no-undo",
                         "never move the blank straight back (the pair of moves is a no-op, never in an optimal path)",
                         sound_for="optimal",
                         # the last move lives in the state: off under A*, IDA*-TT, beam... (their duplicate
                         # detection drops an undo anyway, and the field would split each position's states)
                         path_in_state=True))


@hookimpl
def register_generators(register):
    register(Generator(
        GAME, "sliding_tiles.generator:generate",
        # at most 10^8 moves (about a minute): a longer walk is no more random (0 draws uniformly)
        options=(GameOption("scramble", "random blank moves from the goal (no immediate undo); "
                            "0: a uniformly random solvable board", int, 0, min=0, max=10**8),),
        size_help="board side N (3: 8-puzzle, 4: 15-puzzle)",
        default_size=3,
        check_size=2,  # a 3x3 board has 181 440 states: too many for exhaustive checks
        summary="uniform random solvable boards, or random walks from the goal",
    ))
