"""Random Mayan boards for ``searchkit generate mayan``, ``check`` and the contract tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from searchkit_mayan.board import Shape, from_columns
from searchkit_mayan.instance import MayanInstance


def random_instance(rng: random.Random, size: int, options: Mapping[str, Any]) -> MayanInstance:
    """A random board (see :func:`random_board`); with ``solvable`` set, one that can be cleared.

    With ``options["solvable"]`` true, boards are drawn until one can be
    cleared in exactly n moves (checked with the plugin's own search), up to
    200 draws; the last one drawn is returned if none can.
    """
    if not options.get("solvable"):
        return random_board(rng, size, options)
    from searchkit.drivers.bounded_dfs import bounded_dfs
    from searchkit.pruning import failure_memo

    from searchkit_mayan.puzzle import MayanPuzzle

    for _ in range(200):
        inst = random_board(rng, size, options)
        puzzle = MayanPuzzle.from_instance(inst)
        if puzzle.initial_state() and bounded_dfs(puzzle, inst.n, pruners=[failure_memo()]).solved:
            return inst
    return inst


def random_board(rng: random.Random, size: int, options: Mapping[str, Any]) -> MayanInstance:
    """A board of ``size`` blocks dropped into random columns, with no run on it.

    Each block gets a random colour among ``colours`` such that it makes no
    run of 3 where it lands (a block with no such colour is dropped
    elsewhere; after 50 tries the board stays smaller).

    Args:
        rng: the random source.
        size: number of blocks (at most width * height).
        options: ``colours`` (>= 1), ``moves`` (n, >= 1), ``width``, ``height``.

    Raises:
        ValueError: for non-positive options.
    """
    colours, n = options.get("colours", 3), options.get("moves", 2)
    width, height = options.get("width", 5), options.get("height", 7)
    if min(colours, n, width, height) < 1:
        raise ValueError("colours, moves, width and height must be >= 1")
    shape = Shape(width, height, 3, max(4, colours.bit_length()))
    columns: list[list[int]] = [[] for _ in range(width)]
    tries = 0
    while sum(map(len, columns)) < min(size, width * height) and tries < 50 * max(size, 1):
        tries += 1
        x = rng.randrange(width)
        if len(columns[x]) >= height:
            continue
        colour = rng.randint(1, colours)
        columns[x].append(colour)
        board = from_columns(columns, shape)
        if shape.clear_runs(board) != board:
            columns[x].pop()
    return MayanInstance(n, tuple(tuple(c) for c in columns), width, height, 3)
