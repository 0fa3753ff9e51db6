"""The reference Flood-It model for tests: plain flood fill on the cell grid.

Independent of the area graph the solver uses, so the tests compare two
separate implementations of the rules.
"""

from __future__ import annotations

from searchkit_flood.board import Board


def _neighbours(i: int, w: int, h: int):
    y, x = divmod(i, w)
    for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= nx < w and 0 <= ny < h:
            yield ny * w + nx


def flood_cells(board: Board, colour: int, grid: list[int]) -> list[int]:
    """Recolour the pivot's 4-connected region of ``grid`` to ``colour``; return the new grid."""
    w, h = board.width, board.height
    old = grid[board.pivot]
    grid = list(grid)
    if old == colour:
        return grid
    stack, seen = [board.pivot], {board.pivot}
    while stack:
        i = stack.pop()
        grid[i] = colour
        for j in _neighbours(i, w, h):
            if j not in seen and grid[j] == old:
                seen.add(j)
                stack.append(j)
    return grid


def replay_cells(board: Board, moves) -> list[int]:
    """Play ``moves`` (colour indices) from the start by flood fill; return the final grid."""
    grid = list(board.cells)
    for m in moves:
        grid = flood_cells(board, m, grid)
    return grid


def grow(board: Board, region: set[int], colour: int) -> set[int]:
    """The region (a set of cells) after picking ``colour``: add the 4-connected cells of that colour touching it."""
    w, h, cells = board.width, board.height, board.cells
    region = set(region)
    stack = list(region)
    while stack:
        i = stack.pop()
        for j in _neighbours(i, w, h):
            if j not in region and cells[j] == colour:
                region.add(j)
                stack.append(j)
    return region


def start_region(board: Board) -> set[int]:
    """The pivot's region on the starting board."""
    return grow(board, {board.pivot}, board.cells[board.pivot])


def bfs_from(board: Board, region: set[int]) -> int:
    """Fewest moves from ``region`` to the whole board, by breadth-first search over regions."""
    everything = board.width * board.height
    start = frozenset(region)
    if len(start) == everything:
        return 0
    layer, seen, depth = [start], {start}, 0
    while layer:
        depth += 1
        nxt = []
        for reg in layer:
            for c in range(board.colours):
                child = frozenset(grow(board, reg, c))
                if len(child) == everything:
                    return depth
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        layer = nxt
    raise AssertionError("unreachable")


def bfs_optimum(board: Board) -> int:
    """Fewest moves for the whole board (no area graph, no pruning)."""
    return bfs_from(board, start_region(board))


def boards(max_side: int = 5, max_colours: int = 4, any_pivot: bool = False):
    """A hypothesis strategy of small random boards (sides 1..``max_side``, up to ``max_colours`` colours).

    ``any_pivot``: the pivot is a random cell instead of the top-left one.
    """
    from hypothesis import strategies as st

    @st.composite
    def draw_board(draw):
        w = draw(st.integers(1, max_side))
        h = draw(st.integers(1, max_side))
        k = draw(st.integers(1, max_colours))
        cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
        board = Board.from_values(w, h, cells)
        if any_pivot:
            board = Board(w, h, board.cells, board.palette, draw(st.integers(0, w * h - 1)))
        return board

    return draw_board()
