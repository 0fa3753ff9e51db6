"""Small puzzles for driver tests, independent of any plugin."""

from __future__ import annotations


class Line:
    """Walk on the integers from ``start`` to ``goal`` with steps +1 (move "+"), -1 ("-") and +3 ("3")."""

    def __init__(self, start=0, goal=7, costs=None):
        self.start, self.goal = start, goal
        self.costs = costs or {"+": 1, "-": 1, "3": 1}

    def initial_state(self):
        return self.start

    def is_goal(self, s):
        return s == self.goal

    def successors(self, s):
        return [("+", s + 1, self.costs["+"]), ("-", s - 1, self.costs["-"]), ("3", s + 3, self.costs["3"])]


class Graph:
    """Explicit directed graph: ``edges`` maps a node to ``[(move, child, cost), ...]``."""

    def __init__(self, edges, start, goals):
        self.edges, self.start, self.goals = edges, start, set(goals)

    def initial_state(self):
        return self.start

    def is_goal(self, s):
        return s in self.goals

    def successors(self, s):
        return list(self.edges.get(s, ()))


def line_h(goal):
    """Admissible, consistent heuristic for :class:`Line` with unit costs."""
    return lambda s: max(0, -(-(goal - s) // 3)) if s <= goal else s - goal
