"""An independent reference model of the puzzle (plain BFS over boards), for the tests to check against.

A plain module, not ``conftest.py``: the tests import it by name, and a second ``conftest`` would take the
place of the core suite's in ``sys.modules`` when every suite runs together from the repository's root.
"""

from collections import deque
from functools import lru_cache


@lru_cache(maxsize=None)
def bfs_distances(n: int) -> dict[tuple[int, ...], int]:
    """True distance to the goal of every solvable n x n board, by BFS from the goal.

    Written independently of sliding_tiles.puzzle (its own move generation) so
    the plugin's rules, heuristics and searches are checked against it.  Moves
    are reversible, so BFS from the goal gives distances *to* the goal.
    """
    return rect_distances(n, n)


@lru_cache(maxsize=None)
def rect_distances(width: int, height: int) -> dict[tuple[int, ...], int]:
    """:func:`bfs_distances` on a board of ``width`` columns and ``height`` rows (row-major, the blank last in
    the goal): the plugin's boards are square, but the parity rule is stated for any width."""
    cells = width * height
    goal = tuple(range(1, cells)) + (0,)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        board = queue.popleft()
        d = dist[board] + 1
        z = board.index(0)
        r, c = divmod(z, width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                p = rr * width + cc
                child = list(board)
                child[z], child[p] = child[p], 0
                child = tuple(child)
                if child not in dist:
                    dist[child] = d
                    queue.append(child)
    return dist
