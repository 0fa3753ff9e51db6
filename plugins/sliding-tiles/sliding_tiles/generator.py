"""Random sliding-tile boards for ``searchkit generate``, ``check`` and the tests."""

from __future__ import annotations

from sliding_tiles.puzzle import goal_board, is_solvable, neighbours


#: The most tiles a generated board has (a side of 1000): larger boards fill memory before a search could start.
MAX_TILES = 1_000_000


def generate(rng, size, options):
    """A board of side ``size`` as a row-major tuple (0 = blank).

    ``options["scramble"] > 0``: that many random blank moves from the goal,
    never straight back (the optimal length is at most ``scramble``).
    ``0``: a uniformly random solvable board -- a shuffled board whose parity
    is wrong gets its first two tiles swapped, a bijection between unsolvable
    and solvable boards, so solvable ones stay uniform.

    Raises:
        ValueError: a board of more than :data:`MAX_TILES` tiles.
    """
    n = size
    if n * n > MAX_TILES:
        raise ValueError(f"a board of side {n} has {n * n} tiles; at most {MAX_TILES} are generated")
    scramble = options.get("scramble") or 0
    if scramble > 0:
        board = list(goal_board(n))
        table = neighbours(n)
        blank, last = n * n - 1, -1
        for _ in range(scramble):
            choices = [pos for _, pos in table[blank] if pos != last] or [last]
            if choices == [-1]:
                break  # a 1x1 board has no moves
            pos = rng.choice(choices)
            board[blank], board[pos] = board[pos], 0
            last, blank = blank, pos
        return tuple(board)
    board = list(range(n * n))
    rng.shuffle(board)
    if not is_solvable(board):
        i, j = [k for k, t in enumerate(board) if t != 0][:2]
        board[i], board[j] = board[j], board[i]
    return tuple(board)
