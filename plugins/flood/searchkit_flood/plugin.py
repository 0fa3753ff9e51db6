"""searchkit plugin module of Flood-It: registers the game, its heuristics, pruning rules and generator.

Everything is named by ``"module:attr"`` strings, so loading the plugin
imports none of the game's modules; ``searchkit solve flood`` imports them
on first use.
"""

from __future__ import annotations

from searchkit.plugin import GameOption, Generator, Heuristic, LazyGame, PruningRule, UpperBound, hookimpl

GAME = "flood"
#: The game's native module: the optional package built from ``plugins/flood/native`` (``pip install
#: ./plugins/flood/native``, a Rust toolchain needed) or installed from its wheel.
NATIVE_MODULE = "searchkit_flood_native"
_H = "searchkit_flood.heuristics:"


@hookimpl
def register_games(register):
    register(LazyGame(GAME, "searchkit_flood.game:FloodGame",
                      "Flood-It (HDU 4127 / NKOJ 2440): fewest recolourings to make the board one colour",
                      native_module=NATIVE_MODULE))


@hookimpl
def register_heuristics(register):
    # ``native``: the same heuristic in the native engine (searchkit_flood_native, crate searchkit-flood), same values.
    register(Heuristic(GAME, "colours", _H + "colours", admissible=True, consistent=True,
                       summary="colours with areas outside the region (the seeds' h)"))
    register(Heuristic(GAME, "eccentricity", _H + "eccentricity", admissible=True, consistent=True,
        summary="BFS layers of the area graph until every area is reached"))
    register(Heuristic(GAME, "layered", _H + "layered", admissible=True, consistent=True,
                       summary="max over t of t + colours beyond distance t (dominates both above)"))
    register(Heuristic(GAME, "puchert", _H + "puchert", admissible=True, consistent=False,
                       summary="greedy play-out: take completing colours, else the whole frontier "
                               "(after A. and S. Puchert's floodit)"))
    register(Heuristic(GAME, "greedy", "searchkit_flood.greedy:greedy", admissible=False, consistent=False,
                       summary="moves of a real greedy play-out (completing colours, else the most areas): "
                               "an upper bound, inadmissible; for gbfs/wastar"))
    register(Heuristic(GAME, "two-best", "searchkit_flood.greedy:two_best", admissible=False, consistent=False,
                       summary="Puchert's play-out whose colour-blind step floods only the two colours reaching "
                               "the most new cells (after terminal-flood's idea); inadmissible, near-optimal"))


@hookimpl
def register_upper_bounds(register):
    # native: greedy_solution's beam (width SEED_WIDTH on puchert), run by the native engine without Python
    register(UpperBound(GAME, "greedy", "searchkit_flood.greedy:greedy_solution",
                        "four greedy play-outs side by side (a beam of width 4 on puchert), about 4 ms "
                        "on 14x14", native=("beam(width=4)", "puchert")))


@hookimpl
def register_generators(register):
    register(Generator(
        GAME, "searchkit_flood.generate:random_board",
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
    # The names are the constants of searchkit_flood.areas (not imported here, to keep loading free);
    # ``native``: the same rule in the native engine (fused into its successors, or its dominance pruner).
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
                         "skip a popped state whose region lies inside a region already expanded at the same g "
                         "(it cannot need fewer moves); sound where states are cut as a best-first search pops them",
                         factory="searchkit_flood.dominance:dominance_pruner",
                         sound_for="optimal", needs={"cut_on_pop"}))
