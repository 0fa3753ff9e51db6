"""The rules of the N x N sliding-tile puzzle (8-puzzle, 15-puzzle, ...).

Board: a tuple of the N*N cells in row-major order, tile numbers 1 .. N*N-1
and 0 for the blank.  Goal: 1 .. N*N-1 in row-major order, then the blank.

Moves are named by the direction **the blank** moves: ``U``, ``D``, ``L``,
``R`` (``U`` swaps the blank with the tile above it, so that tile slides
down).  Successors come in that order: U, D, L, R.  Every move costs 1.

State: a flat tuple of N*N + 1 ints, the board followed by the position the
blank came from on the last move (``-1``: none).  That last field is how the
``no-undo`` pruning rule knows the last move -- drivers only ever pass a state
around, never its parent.  When ``no-undo`` is disabled the field is always
``-1``, so the plain state space is exactly the set of boards (what exhaustive
checks explore).  Heuristics read only the first N*N entries.
"""

from __future__ import annotations

from math import isqrt

from searchkit.limits import setup_check

NO_PREV = -1
MOVES = ("U", "D", "L", "R")


def side_of(tiles) -> int:
    """N for a board of N*N cells (ValueError if the length is not a square)."""
    n = isqrt(len(tiles))
    if n * n != len(tiles) or n < 1:
        raise ValueError(f"a board of {len(tiles)} cells is not square")
    return n


def goal_board(n: int) -> tuple[int, ...]:
    """1 .. n*n-1 in row-major order, then the blank."""
    return tuple(range(1, n * n)) + (0,)


def neighbours(n: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """For each blank position, the legal ``(move, new_blank_position)`` pairs in U, D, L, R order."""
    table = []
    for pos in range(n * n):
        if pos % n == 0:
            setup_check()  # a 300 x 300 board has 90 000 cells
        r, c = divmod(pos, n)
        moves = []
        if r > 0:
            moves.append(("U", pos - n))
        if r < n - 1:
            moves.append(("D", pos + n))
        if c > 0:
            moves.append(("L", pos - 1))
        if c < n - 1:
            moves.append(("R", pos + 1))
        table.append(tuple(moves))
    return tuple(table)


def is_solvable(tiles, width: int | None = None) -> bool:
    """Whether ``tiles`` can reach the goal: 1 .. cells-1 in row-major order, then the blank.

    Args:
        tiles: the board, row-major, 0 for the blank.
        width: its number of columns (default: a square board).  The plugin's
            boards are square; other widths are for the tests, which check the
            rule on 2x3 and 3x2 boards too.

    Raises:
        ValueError: the length is not a square (no ``width``) or not a
            multiple of ``width``; or the board is a single row or column of
            more than one cell, where tiles cannot pass each other and the rule
            below is necessary but not sufficient.

    The rule (Johnson & Story 1879), in its textbook form for a board of w
    columns: with I the inversions among the tiles (pairs, the blank left out,
    in the wrong order in row-major reading) and r the blank's row distance
    from the goal's bottom row, the board is solvable iff I is even (odd w) or
    I + r is even (even w).  The code computes the equivalent form (1).

    Proof.  (1) Necessity: let P be the permutation of the cells taking each
    cell to the goal cell of what stands on it (blank included), and d the
    blank's taxicab distance from its goal cell (bottom right).  A move swaps
    the blank with a neighbour: P is composed with one transposition, so its
    parity flips, and d changes by exactly 1.  So ``parity(P) - d`` mod 2 never
    changes, and it is 0 at the goal: a board where ``parity(P) != d mod 2``
    never reaches it (Johnson 1879).
    (2) The textbook form: move the blank right to the last column, then down
    to the bottom row (r moves).  Moves along a row leave the row-major order
    of the tiles, so I, unchanged; a vertical move carries one tile past the
    w - 1 tiles between the two cells in row-major order, changing I by an
    amount of the parity of w - 1.  Now the blank is home (d = 0) and parity(P)
    is the parity of the tiles' permutation, that is I + r(w - 1) mod 2; these
    moves preserve (1)'s invariant, so (1) holds iff I + r(w - 1) is even:
    I even for odd w, I + r even for even w.
    (3) Sufficiency (Story 1879; Archer, "A modern treatment of the 15
    puzzle", Amer. Math. Monthly 106 (1999) 793-799, whose proof this
    outlines), for boards of at least 2 rows and 2 columns: the boards with the blank home that the goal reaches
    form a group of permutations of the tiles (move sequences from home to
    home compose and reverse), even ones by (1); running the blank around a
    2x2 square is a 3-cycle of its three tiles, and carrying three tiles
    along a snake path through the board into such a square, cycling them and
    carrying them back gives a 3-cycle of any three consecutive tiles of the
    path's order; those generate every even permutation.  So every board
    meeting (1) is reached.  The tests check (1)'s answer against a
    breadth-first search from the goal on every board of 2x2, 2x3, 3x2 and on
    3x3 boards drawn by hypothesis (tests/test_puzzle.py).
    A 1x1 board is its own goal (I = r = 0).
    """
    if width is None:
        w = h = side_of(tiles)
    else:
        if width < 1 or len(tiles) % width:
            raise ValueError(f"a board of {len(tiles)} cells has no rows of {width}")
        w, h = width, len(tiles) // width
    if min(w, h) == 1 and w * h > 1:
        raise ValueError(f"a {w}x{h} board is one line: its tiles cannot pass each other, so parity does not decide")
    cells = w * h
    # where each tile stands in the goal (1 .. cells-1, then the blank): tile t at t - 1, the blank last
    perm = [t - 1 if t else cells - 1 for t in tiles]
    # parity of a permutation = (length - number of cycles) mod 2
    seen = bytearray(cells)
    cycles = 0
    for i in range(cells):
        if not seen[i]:
            cycles += 1
            j = i
            while not seen[j]:
                seen[j] = 1
                j = perm[j]
    parity = (cells - cycles) % 2
    blank = tiles.index(0)
    distance = (h - 1 - blank // w) + (w - 1 - blank % w)
    return parity == distance % 2


class SlidingPuzzle:
    """One sliding-tile instance, ready to search.

    Args:
        tiles: the start board (row-major tuple, 0 = blank).
        disabled: names of the pruning rules switched off; this class
            implements ``no-undo`` (never move the blank straight back).
    """

    def __init__(self, tiles: tuple[int, ...], disabled: frozenset[str] = frozenset()):
        self.n = side_of(tiles)
        self.cells = self.n * self.n
        self.tiles = tuple(tiles)
        self.goal = goal_board(self.n)
        self.no_undo = "no-undo" not in disabled
        self.rule_cuts = {"no-undo": 0} if self.no_undo else {}
        self._neighbours = neighbours(self.n)

    def initial_state(self) -> tuple[int, ...]:
        return self.tiles + (NO_PREV,)

    def is_goal(self, state) -> bool:
        return state[:-1] == self.goal

    def solvable(self, state) -> bool:
        """Whether the goal is reachable from ``state`` (a board and its last-move field): decided exactly by
        the parity rule, :func:`is_solvable` (its docstring has the proof), in time linear in the cells.

        The goal here is always blank-last: a board read under ``--goal blank-first`` reaches the puzzle
        turned (``sliding_tiles.game.to_blank_last``: moves map onto moves, so solvability is kept), so
        the answer is for the goal the user asked for.  Never ``None``.
        """
        return is_solvable(state[: self.cells])

    def successors(self, state):
        blank = state.index(0)
        last = state[-1]
        mark = blank if self.no_undo else NO_PREV
        out = []
        for move, pos in self._neighbours[blank]:
            if pos == last:  # no-undo: the blank would go straight back (last is -1 when the rule is off)
                self.rule_cuts["no-undo"] += 1
                continue
            child = list(state)
            child[blank] = state[pos]
            child[pos] = 0
            child[-1] = mark
            out.append((move, tuple(child), 1))
        return out


#: The goals of the boards the native engine takes (a replay is asked for each of its answers).
_GOALS = {n: goal_board(n) for n in range(1, 5)}
#: The blank's step for each move, as (row, column) offsets.
_STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


class Replay:
    """The sliding-tile rules on the board alone, to check a native solution before it is reported (the game's
    ``replay_puzzle``): state the board tuple, every move legal that keeps the blank on the board, cost 1.

    It shares nothing with the searched puzzle but the rules: no neighbour table is built (for a 3x3 board that
    table was most of a native search's cost on the Python side), and :meth:`successor` moves the blank
    directly, so a replay costs a few microseconds a move.
    """

    __slots__ = ("n", "tiles", "goal")

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.n = side_of(tiles)
        self.tiles = tuple(tiles)
        self.goal = _GOALS.get(self.n) or goal_board(self.n)

    def initial_state(self) -> tuple[int, ...]:
        return self.tiles

    def is_goal(self, state) -> bool:
        return state == self.goal

    def successor(self, state, move):
        """``(child, 1)`` after the blank moves ``move``, or ``None`` for a move off the board or not a move."""
        step = _STEP.get(move) if isinstance(move, str) else None
        if step is None:
            return None
        n = self.n
        blank = state.index(0)
        r, c = divmod(blank, n)
        r, c = r + step[0], c + step[1]
        if not (0 <= r < n and 0 <= c < n):
            return None
        to = r * n + c
        child = list(state)
        child[blank], child[to] = child[to], 0
        return tuple(child), 1

    def successors(self, state):
        """Every legal move in U, D, L, R order (as the searched puzzle with every rule off gives them)."""
        out = []
        for move in MOVES:
            step = self.successor(state, move)
            if step is not None:
                out.append((move, *step))
        return out
