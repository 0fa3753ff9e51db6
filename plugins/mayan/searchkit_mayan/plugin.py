"""searchkit plugin module of the Mayan puzzle: game, heuristic, pruning rules and generator."""

from __future__ import annotations

from searchkit.game import GameOption
from searchkit.generator import Generator
from searchkit.heuristic import Heuristic
from searchkit.plugin.spec import hookimpl
from searchkit.pruning import PruningRule

GAME = "mayan"


@hookimpl
def register_games(register):
    from searchkit_mayan.game import MayanGame

    register(MayanGame())


def _column_steps(puzzle):
    from searchkit_mayan.bound import board_bound

    shape = puzzle.shape

    def estimate(board):
        return board_bound(board, shape) if board else 0

    return estimate


@hookimpl
def register_heuristics(register):
    register(Heuristic(GAME, "column-steps", _column_steps, admissible=True, consistent=False,
                       summary="fewest column steps to a vanishing layout, per colour (max, and half the sum)"))


def _memo(puzzle):
    from searchkit.pruning import failure_memo

    return failure_memo()


@hookimpl
def register_pruning_rules(register):
    register(PruningRule(GAME, "left-swap",
                         "skip a left move onto an occupied cell: the left neighbour's right move gives the "
                         "same board and sorts first", sound_for="first"))
    register(PruningRule(GAME, "few-blocks", "cut a board with a colour of 1..R-1 blocks (it can never vanish)",
                         sound_for="first"))
    register(PruningRule(GAME, "transposition",
                         "cut a board already proven to fail with the same number of moves left", factory=_memo,
                         sound_for="first"))
    register(PruningRule(GAME, "lower-bound",
                         "cut a child whose column-step lower bound exceeds the moves left, before settling it",
                         sound_for="first"))


def _generate(rng, size, options):
    from searchkit_mayan.generate import random_instance

    return random_instance(rng, size, options)


@hookimpl
def register_generators(register):
    register(Generator(
        GAME, _generate,
        options=(
            GameOption("colours", "number of colours", int, 3, min=1),
            GameOption("moves", "n, the number of moves of the answer", int, 2, min=1),
            GameOption("width", "board width", int, 5, min=1),
            GameOption("height", "board height", int, 7, min=1),
            GameOption("solvable", "build the board backwards from n moves, so that it clears in exactly n "
                       "(checked by the search; at least 3 blocks)", bool, True),
        ),
        size_help="number of blocks", default_size=9, check_size=6,
        summary="blocks dropped into random columns, no starting run",
    ))
