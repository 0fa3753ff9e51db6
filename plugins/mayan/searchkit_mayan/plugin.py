"""searchkit plugin module of the Mayan puzzle: game, heuristic, pruning rules and generator.

Everything is named by ``"module:attr"`` strings, so loading the plugin
imports none of the game's modules.
"""

from __future__ import annotations

from searchkit.plugin import GameOption, Generator, Heuristic, LazyGame, PruningRule, hookimpl

GAME = "mayan"


@hookimpl
def register_games(register):
    register(LazyGame(GAME, "searchkit_mayan.game:MayanGame",
                      "Mayan puzzle (NOIP 2011, Luogu P1312): clear the board in exactly n moves, smallest answer"))


@hookimpl
def register_heuristics(register):
    register(Heuristic(GAME, "column-steps", "searchkit_mayan.bound:column_steps", admissible=True,
                       consistent=False,
                       summary="fewest column steps to a vanishing layout, per colour (max, and half the sum)"))


@hookimpl
def register_pruning_rules(register):
    register(PruningRule(GAME, "left-swap",
                         "skip a left move onto an occupied cell: the left neighbour's right move gives the "
                         "same board and sorts first", sound_for="first"))
    register(PruningRule(GAME, "few-blocks", "cut a board with a colour of 1..R-1 blocks (it can never vanish)",
                         sound_for="first", where="successors_within"))
    register(PruningRule(GAME, "transposition",
                         "cut a board already proven to fail with the same number of moves left",
                         factory="searchkit.pruning:failure_memo_for", sound_for="first",
                         needs={"cut", "on_fail"}))
    register(PruningRule(GAME, "lower-bound",
                         "cut a child whose column-step lower bound exceeds the moves left, before settling it",
                         sound_for="first", where="successors_within"))


@hookimpl
def register_generators(register):
    register(Generator(
        GAME, "searchkit_mayan.generate:random_instance",
        options=(
            GameOption("colours", "number of colours", int, 3, min=1),
            # at most 100: what the input's header may say (searchkit_mayan.game's SIDE_LIMIT and _HEADER_LIMIT),
            # so that every generated board parses back
            GameOption("moves", "n, the number of moves of the answer", int, 2, min=1, max=100),
            GameOption("width", "board width", int, 5, min=1, max=100),
            GameOption("height", "board height", int, 7, min=1, max=100),
            GameOption("solvable", "build the board backwards from n moves, so that it clears in exactly n "
                       "(checked by the search; at least 3 blocks)", bool, True),
        ),
        size_help="number of blocks", default_size=9, check_size=6,
        summary="blocks dropped into random columns, no starting run",
    ))
