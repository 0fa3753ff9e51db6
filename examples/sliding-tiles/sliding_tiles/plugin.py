"""searchkit hooks of the sliding-tile plugin: game, heuristics, pruning rule, generator."""

from __future__ import annotations

from searchkit.game import GameOption
from searchkit.generator import Generator
from searchkit.heuristic import Heuristic
from searchkit.plugin.spec import hookimpl
from searchkit.pruning import PruningRule

GAME = "sliding-tiles"


@hookimpl
def register_games(register):
    from sliding_tiles.game import SlidingTilesGame

    register(SlidingTilesGame())


def _manhattan(puzzle):
    from sliding_tiles.heuristics import manhattan

    return manhattan(puzzle)


def _linear_conflict(puzzle):
    from sliding_tiles.heuristics import linear_conflict

    return linear_conflict(puzzle)


def _misplaced(puzzle):
    from sliding_tiles.heuristics import misplaced

    return misplaced(puzzle)


@hookimpl
def register_heuristics(register):
    register(Heuristic(GAME, "manhattan", _manhattan, admissible=True, consistent=True,
                       summary="sum of the tiles' grid distances to their goal cells"))
    register(Heuristic(GAME, "linear-conflict", _linear_conflict, admissible=True, consistent=True,
                       summary="Manhattan + 2 per tile that must leave its goal row/column (Hansson et al. 1992)"))
    register(Heuristic(GAME, "misplaced", _misplaced, admissible=True, consistent=True,
                       summary="number of tiles off their goal cell"))


@hookimpl
def register_pruning_rules(register):
    # factory=None: SlidingPuzzle.successors implements it and honours `disabled`.
    # sound_for="optimal": a bounded DFS allowed a longer-than-optimal path may
    # first find one that undoes a move, so the first solution can change.
    register(PruningRule(GAME, "no-undo",
                         "never move the blank straight back (the pair of moves is a no-op, never in an optimal path)",
                         sound_for="optimal"))


def _generate(rng, size, options):
    from sliding_tiles.generator import generate

    return generate(rng, size, options)


@hookimpl
def register_generators(register):
    register(Generator(
        GAME, _generate,
        options=(GameOption("scramble", "random blank moves from the goal (no immediate undo); "
                            "0: a uniformly random solvable board", int, 0),),
        size_help="board side N (3: 8-puzzle, 4: 15-puzzle)",
        default_size=3,
        check_size=2,  # a 3x3 board has 181 440 states: too many for exhaustive checks
        summary="uniform random solvable boards, or random walks from the goal",
    ))
