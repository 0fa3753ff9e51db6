"""Random Flood-It boards for ``searchkit generate flood``, ``check`` and the contract tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from searchkit_flood.board import Board


#: The largest board written (a 2000x2000 board; the solver's set-up is linear in the cells).
MAX_CELLS = 4_000_000


def random_board(rng: random.Random, size: int, options: Mapping[str, Any]) -> Board:
    """A board of independent uniformly random colours.

    Args:
        rng: the random source.
        size: the side of a square board, used when ``width``/``height`` are not given.
        options: ``width``, ``height`` (cells, or ``None`` for ``size``) and
            ``colours`` (number of colours drawn from, >= 1; values 1..colours).

    Raises:
        ValueError: for a non-positive size or colour count, or a board of
            more than :data:`MAX_CELLS` cells (checked before anything is allocated).
    """
    width = options.get("width") or size
    height = options.get("height") or size
    colours = options.get("colours") or 6
    if width < 1 or height < 1 or colours < 1:
        raise ValueError(f"width, height and colours must be >= 1, got {width}, {height}, {colours}")
    if width * height > MAX_CELLS:
        raise ValueError(f"a {width}x{height} board has {width * height} cells; at most {MAX_CELLS} are generated")
    values = [rng.randint(1, colours) for _ in range(width * height)]
    return Board.from_values(width, height, values)
