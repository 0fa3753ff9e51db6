"""searchkit plugin module of Flood-It: registers the game, its heuristics and pruning rules."""

from __future__ import annotations

from searchkit.heuristic import Heuristic
from searchkit.plugin.spec import hookimpl
from searchkit.pruning import PruningRule

GAME = "flood"


@hookimpl
def register_games(register):
    from searchkit_flood.game import FloodGame

    register(FloodGame())


def _lazy(name):
    def factory(puzzle):
        from searchkit_flood import heuristics

        return getattr(heuristics, name)(puzzle)

    return factory


@hookimpl
def register_heuristics(register):
    register(Heuristic(GAME, "colours", _lazy("colours"), admissible=True, consistent=True,
                       summary="colours with areas outside the region (the seeds' h)"))
    register(Heuristic(GAME, "eccentricity", _lazy("eccentricity"), admissible=True, consistent=True,
                       summary="BFS layers of the area graph until every area is reached"))
    register(Heuristic(GAME, "layered", _lazy("layered"), admissible=True, consistent=True,
                       summary="max over t of t + colours beyond distance t (dominates both above)"))
    register(Heuristic(GAME, "puchert", _lazy("puchert"), admissible=True, consistent=False,
                       summary="greedy play-out: take completing colours, else the whole frontier "
                               "(after A. and S. Puchert's floodit)"))


@hookimpl
def register_generators(register):
    from searchkit.game import GameOption
    from searchkit.generator import Generator

    def generate(rng, size, options):
        from searchkit_flood.generate import random_board

        return random_board(rng, size, options)

    register(Generator(
        GAME, generate,
        options=(
            GameOption("width", "board width (default: size)", int, None, min=1),
            GameOption("height", "board height (default: size)", int, None, min=1),
            GameOption("colours", "number of colours", int, 6, min=1),
        ),
        size_help="side of a square board", default_size=8, check_size=4,
        summary="uniformly random colours",
    ))


@hookimpl
def register_pruning_rules(register):
    register(PruningRule(GAME, "frontier-colours",
                         "try only colours present on the frontier (others leave the region unchanged)"))
    register(PruningRule(GAME, "no-growth", "cut a move that does not grow the flooded region"))
    register(PruningRule(GAME, "completion",
                         "if picking a frontier colour removes it from the board, take that move alone "
                         "(always part of some optimal solution)", sound_for="optimal"))
    register(PruningRule(GAME, "exposure",
                         "while areas lie beyond the frontier, generate only moves that reach past it "
                         "(a move that exposes nothing new can be put off without loss)", sound_for="optimal"))
    register(PruningRule(GAME, "dominance",
                         "A* only: skip a popped state whose region lies inside a region already expanded "
                         "at the same g (it cannot need fewer moves)", factory=_dominance,
                         sound_for="optimal"))


def _dominance(puzzle):
    from searchkit_flood.dominance import dominance_pruner

    return dominance_pruner(puzzle)
