"""Random Mayan boards for ``searchkit generate mayan``, ``check`` and the contract tests."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from searchkit_mayan.board import Shape, from_columns, successors
from searchkit_mayan.instance import MayanInstance


def random_instance(rng: random.Random, size: int, options: Mapping[str, Any]) -> MayanInstance:
    """A random board; with ``options["solvable"]`` (the default) one that clears in exactly n moves.

    Solvable boards are built by :func:`solvable_instance`; otherwise see
    :func:`random_board`.

    Raises:
        ValueError: for non-positive options, or (``solvable``) when no
            solvable board of that many blocks can be built.
    """
    if not options.get("solvable"):
        return random_board(rng, size, options)
    return solvable_instance(rng, size, options)


#: Attempts at building a solvable board before :func:`solvable_instance` gives up.
ATTEMPTS = 200
#: The run length of generated boards (NOIP 2011).
RUN = 3


def solvable_instance(rng: random.Random, size: int, options: Mapping[str, Any]) -> MayanInstance:
    """A board of ``max(size, 3)`` blocks that the NOIP rules clear in exactly n moves (runs of 3).

    Built backwards from the empty board: for each of the n moves, from the
    last to the first, the board before it is the board after it with (for
    some moves) a straight run of 3 or more blocks of one colour inserted,
    and then one block moved by one column (the inverse of a shift or a
    swap).  Each step is checked by playing the move forward with the
    plugin's own move rule (the board before it must have no run, and the
    move must give exactly the board after it), so the whole sequence is a
    solution of exactly n moves; the result is also checked with the
    plugin's search.  Three blocks are the fewest that can vanish, so a
    smaller ``size`` gives 3 blocks.

    Args:
        rng: the random source.
        size: number of blocks.
        options: ``colours`` (>= 1), ``moves`` (n, >= 1), ``width``, ``height``.

    Raises:
        ValueError: for non-positive options, a size that n runs cannot hold
            (more than n * max(width, height) blocks, or more than the
            board), or when no board was found in :data:`ATTEMPTS` attempts.
    """
    from searchkit import run
    from searchkit.plugin import failure_memo

    from searchkit_mayan.puzzle import MayanPuzzle

    colours, n = options.get("colours", 3), options.get("moves", 2)
    width, height = options.get("width", 5), options.get("height", 7)
    if min(colours, n, width, height) < 1:
        raise ValueError("colours, moves, width and height must be >= 1")
    blocks = max(size, RUN)
    longest = max(width, height)
    if longest < RUN or blocks > min(n * longest, width * height):
        raise ValueError(f"a solvable {width}x{height} board in {n} moves holds 3..{min(n * longest, width * height)} "
                         f"blocks, not {blocks}" if longest >= RUN else
                         f"no run of {RUN} fits on a {width}x{height} board")
    shape = Shape(width, height, RUN, max(4, colours.bit_length()))
    for _ in range(ATTEMPTS):
        columns = _build(rng, blocks, n, colours, shape)
        if columns is None:
            continue
        puzzle = MayanPuzzle(from_columns(columns, shape), shape)  # every rule on, as `searchkit solve` runs
        if run(puzzle, "bounded_dfs", max_cost=n, mode="exact", pruners=[failure_memo()]).solved:
            return MayanInstance(n, tuple(tuple(c) for c in columns), width, height, RUN)
    raise ValueError(f"could not build a {width}x{height} board of {blocks} blocks that clears in exactly {n} "
                     f"moves in {ATTEMPTS} attempts (try another number of colours, more moves or a larger board)")


def _groups(rng: random.Random, blocks: int, n: int, longest: int) -> list[int] | None:
    """Run lengths inserted before each move, last move first: the first >= 3, the others 0 or >= 3."""
    low, high = -(-blocks // longest), min(n, blocks // RUN)
    if low > high:
        return None
    k = rng.randint(low, high)
    sizes = [RUN] * k
    for _ in range(blocks - RUN * k):
        open_ = [i for i in range(k) if sizes[i] < longest]
        sizes[rng.choice(open_)] += 1
    rng.shuffle(sizes)
    steps = [sizes[0]] + [0] * (n - 1)
    for i, where in zip(range(1, k), rng.sample(range(1, n), k - 1)):
        steps[where] = sizes[i]
    return steps


def _build(rng, blocks, n, colours, shape) -> list[list[int]] | None:
    """Columns of a board with a solution of exactly n moves, or None when a step found no predecessor."""
    steps = _groups(rng, blocks, n, max(shape.width, shape.height))
    if steps is None:
        return None
    columns: list[list[int]] = [[] for _ in range(shape.width)]
    for length in steps:
        after = from_columns(columns, shape)
        for _ in range(100):
            cols = _insert_run(rng, columns, rng.randint(1, colours), length, shape) if length else columns
            cols = cols and _unmove(rng, cols, shape)
            if cols and _leads_to(cols, after, shape):
                columns = cols
                break
        else:
            return None
    return columns


def _insert_run(rng, columns, colour, length, shape) -> list[list[int]] | None:
    """``columns`` with a vertical or horizontal run of ``length`` blocks of ``colour`` pushed in, or None."""
    cols = [list(c) for c in columns]
    if rng.random() < 0.5:
        x = rng.randrange(shape.width)
        if len(cols[x]) + length > shape.height:
            return None
        y = rng.randint(0, len(cols[x]))
        cols[x][y:y] = [colour] * length
    else:
        if length > shape.width:
            return None
        x0 = rng.randrange(shape.width - length + 1)
        span = range(x0, x0 + length)
        if any(len(cols[x]) >= shape.height for x in span):
            return None
        y = rng.randint(0, min(len(cols[x]) for x in span))
        for x in span:
            cols[x].insert(y, colour)
    return cols


def _unmove(rng, columns, shape) -> list[list[int]] | None:
    """``columns`` with one block moved one column over (a swap or a shift), or None."""
    x = rng.randrange(shape.width)
    x2 = x + rng.choice((1, -1))
    if not columns[x] or not 0 <= x2 < shape.width:
        return None
    cols = [list(c) for c in columns]
    y = rng.randrange(len(cols[x]))
    if y < len(cols[x2]) and rng.random() < 0.5:
        cols[x][y], cols[x2][y] = cols[x2][y], cols[x][y]
    elif len(cols[x2]) < shape.height:
        cols[x2].append(cols[x].pop(y))
    else:
        return None
    return cols


def _leads_to(columns, after: int, shape) -> bool:
    """True when the board of ``columns`` has no run and one legal move turns it into ``after``."""
    board = from_columns(columns, shape)
    if shape.clear_runs(board) != board:
        return False
    return any(child == after for _, child in successors(board, shape))


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
