"""A deliberately plain model of the Mayan rules, written independently of searchkit_mayan.

Boards are lists of W column lists (bottom-up, 0 for an empty cell that has
a block above it).  Everything is done cell by cell, the way the rules are
worded, so the tests can compare the packed, bit-parallel engine against it.
"""

from __future__ import annotations


def fall(cols):
    """Every block falls: drop the holes of each column."""
    return [[c for c in col if c] for col in cols]


def marked_cells(cols, width, height, run):
    """All cells in a horizontal or vertical run of >= run equal colours."""
    grid = {(x, y): c for x, col in enumerate(cols) for y, c in enumerate(col) if c}
    marked = set()
    for (x, y), c in grid.items():
        if all(grid.get((x + i, y)) == c for i in range(run)):
            marked.update((x + i, y) for i in range(run))
        if all(grid.get((x, y + i)) == c for i in range(run)):
            marked.update((x, y + i) for i in range(run))
    return marked


def settle(cols, width=5, height=7, run=3):
    """Fall, then clear all runs at once and fall again, while anything vanishes."""
    cols = fall(cols)
    while True:
        marked = marked_cells(cols, width, height, run)
        if not marked:
            return cols
        cols = fall([[0 if (x, y) in marked else c for y, c in enumerate(col)]
                     for x, col in enumerate(cols)])


def move_unsettled(cols, x, y, g, width=5, height=7, same_colour_swaps=False):
    """The columns after move (x, y, g) with gravity but before any run clears; None if illegal."""
    if g not in (1, -1) or not 0 <= x < width or not 0 <= x + g < width:
        return None
    if y >= len(cols[x]):
        return None
    cols = [list(col) for col in cols]
    a = cols[x][y]
    t = x + g
    if y < len(cols[t]):
        if cols[t][y] == a and not same_colour_swaps:
            return None
        cols[x][y], cols[t][y] = cols[t][y], a
        return cols
    del cols[x][y]  # the source column closes up
    cols[t].append(a)  # ... and the block falls onto the target column
    assert len(cols[t]) <= height
    return cols


def moves(cols, width=5, height=7, same_colour_swaps=False):
    """Legal moves with their settled results, in (x, y, g=1 before -1) order."""
    out = []
    for x in range(width):
        for y in range(len(cols[x])):
            for g in (1, -1):
                moved = move_unsettled(cols, x, y, g, width, height, same_colour_swaps)
                if moved is not None:
                    out.append(((x, y, g), moved))
    return out


def exhaustive(cols, n, width=5, height=7, run=3, same_colour_swaps=False):
    """The first sequence of exactly n moves that empties the board, in move order; None if none."""
    if n == 0:
        return [] if not any(cols) else None
    if not any(cols):
        return None  # the empty board has no moves
    for move, moved in moves(cols, width, height, same_colour_swaps):
        rest = exhaustive(settle(moved, width, height, run), n - 1, width, height, run,
                          same_colour_swaps)
        if rest is not None:
            return [move] + rest
    return None


def fewest_moves(cols, limit, width=5, height=7, run=3, same_colour_swaps=False):
    """The fewest moves d <= limit after which the board is empty, or None (breadth-first)."""
    level = {tuple(map(tuple, cols))}
    for d in range(limit + 1):
        if ((),) * width in level:
            return d
        nxt = set()
        for board in level:
            if any(board):
                for _, moved in moves([list(c) for c in board], width, height, same_colour_swaps):
                    nxt.add(tuple(map(tuple, settle(moved, width, height, run))))
        level = nxt
    return None
