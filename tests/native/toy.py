"""The Python twin of the native engine's toy domain (``native/testgame/src/lib.rs``): the sliding-tile
puzzle of width 2 to 4, blank moves ``U``, ``D``, ``L``, ``R`` in that order, unit costs, the heuristics
``manhattan``, ``misplaced`` and ``zero``, the driver rule ``corner`` and the tie-break "more tiles home
first".  The differential tests run both and compare everything the drivers report."""

from __future__ import annotations

from searchkit.pruning import Pruner


class ToyPuzzle:
    def __init__(self, width: int, tiles) -> None:
        self.width = width
        self.start = tuple(tiles)
        self.goal = tuple(range(1, width * width)) + (0,)

    def initial_state(self):
        return self.start

    def is_goal(self, state) -> bool:
        return state == self.goal

    def successors(self, state):
        w = self.width
        b = state.index(0)
        r, c = divmod(b, w)
        out = []
        for move, ok, to in (("U", r > 0, b - w), ("D", r < w - 1, b + w), ("L", c > 0, b - 1),
                             ("R", c < w - 1, b + 1)):
            if ok:
                t = list(state)
                t[b], t[to] = t[to], t[b]
                out.append((move, tuple(t), 1))
        return out

    def tie_break(self, state) -> int:
        return -sum(1 for a, g in zip(state, self.goal) if a == g and a != 0)


def heuristic(puzzle: ToyPuzzle, name: str):
    w, goal = puzzle.width, puzzle.goal
    if name == "zero":
        return lambda s: 0
    if name == "misplaced":
        return lambda s: sum(1 for a, g in zip(s, goal) if a != g and a != 0)

    def manhattan(s):
        h = 0
        for i, t in enumerate(s):
            if t:
                j = t - 1
                h += abs(i // w - j // w) + abs(i % w - j % w)
        return h

    return manhattan


def corner(puzzle: ToyPuzzle) -> Pruner:
    start = puzzle.start
    return Pruner(cut=lambda s, g, remaining: s[0] == 0 and s != start, name="corner")


def scramble(width: int, moves: int, seed: int) -> tuple:
    """A state ``moves`` random blank moves from the goal (a simple LCG, so both engines see the same)."""
    import random

    rng = random.Random(seed)
    p = ToyPuzzle(width, tuple(range(1, width * width)) + (0,))
    s = p.goal
    for _ in range(moves):
        succ = p.successors(s)
        s = succ[rng.randrange(len(succ))][1]
    return s


class ToyWithin(ToyPuzzle):
    """The toy puzzle with the optional hook ``successors_within``: the successors less those whose Manhattan
    distance exceeds what is left after the move (``toy_solve(..., within=True)`` natively)."""

    def successors_within(self, state, remaining):
        h = heuristic(self, "manhattan")
        return [(m, c, cost) for m, c, cost in self.successors(state) if cost <= remaining and h(c) <= remaining - cost]
