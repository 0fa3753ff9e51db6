"""The core drivers on small explicit puzzles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit.machinery.drivers.astar import astar
from searchkit.machinery.drivers.bfs import bfs
from searchkit.machinery.drivers.bounded_dfs import bounded_dfs
from searchkit.machinery.drivers.ida_star import ida_star
from searchkit.limits import Limits
from searchkit.pruning import Pruner, failure_memo
from searchkit.puzzle import replay

from toy import Graph, Line, line_h

ZERO = lambda s: 0  # noqa: E731


@pytest.mark.parametrize("goal", [0, 1, 2, 5, 7, 11])
def test_optimal_drivers_agree_on_line(goal):
    p = Line(0, goal)
    ref = bfs(p)
    assert ref.status == "solved"
    for result in (ida_star(p, line_h(goal)), astar(p, line_h(goal)), ida_star(p, line_h(goal), transposition=True)):
        assert result.status == "solved"
        assert result.cost == ref.cost
        assert replay(p, result.moves) == goal


def test_line_costs_by_hand():
    # 7 = 3 + 3 + 1: three moves; 5 = 3 + 3 - 1: three moves; 2 = 3 - 1: two moves
    assert bfs(Line(0, 7)).cost == 3
    assert bfs(Line(0, 5)).cost == 3
    assert bfs(Line(0, 2)).cost == 2


def test_weighted_costs_astar_and_ida_pick_cheaper_path():
    # the +3 move costs 5, so 3 unit steps are cheaper
    p = Line(0, 3, costs={"+": 1, "-": 1, "3": 5})
    h = lambda s: max(0, 3 - s)  # noqa: E731
    for result in (astar(p, h), ida_star(p, h)):
        assert result.cost == 3
        assert result.moves == ("+", "+", "+")
    with pytest.raises(ValueError):
        bfs(p)


def test_ida_star_records_each_bound():
    p = Line(0, 7)
    result = ida_star(p, ZERO)
    bounds = [it.bound for it in result.stats.iterations]
    assert bounds == [0, 1, 2, 3]
    assert result.stats.expanded == sum(it.expanded for it in result.stats.iterations)
    assert result.stats.generated == sum(it.generated for it in result.stats.iterations)


def test_exhausted_when_no_goal_reachable():
    g = Graph({"a": [("x", "b", 1)], "b": [("y", "a", 1)]}, "a", ["z"])
    assert ida_star(g, ZERO, transposition=True).status == "exhausted"
    assert astar(g, ZERO).status == "exhausted"
    assert bfs(g).status == "exhausted"
    assert bounded_dfs(g, 4).status == "exhausted"
    assert ida_star(Line(0, 50), ZERO, max_cost=3).status == "exhausted"


def test_node_and_time_limits():
    p = Line(0, 40)
    r = ida_star(p, ZERO, limits=Limits(max_nodes=100))
    assert r.status == "node_limit" and r.moves == () and r.cost is None
    assert r.stats.expanded == 100
    assert ida_star(p, ZERO, limits=Limits(max_nodes=0)).stats.expanded == 0
    assert astar(p, ZERO, limits=Limits(max_nodes=10)).status == "node_limit"
    assert bfs(p, limits=Limits(max_nodes=10)).status == "node_limit"
    assert bounded_dfs(p, 14, limits=Limits(max_nodes=10)).status == "node_limit"
    r = ida_star(p, ZERO, limits=Limits(time_limit=0.0))
    assert r.status == "time_limit"


def test_ctrl_c_is_cancelled():
    class Interrupting(Line):
        def successors(self, s):
            raise KeyboardInterrupt

    for result in (ida_star(Interrupting(), ZERO), astar(Interrupting(), ZERO), bfs(Interrupting()),
                   bounded_dfs(Interrupting(), 3)):
        assert result.status == "cancelled"


# --- bounded DFS -------------------------------------------------------------

TREE = Graph(
    {
        "r": [("a", "A", 1), ("b", "B", 1)],
        "A": [("c", "G1", 1), ("d", "C", 1)],
        "B": [("e", "G2", 1)],
        "C": [("f", "G3", 1)],
        "G1": [("g", "G4", 1)],
        "G4": [("h", "G5", 1)],
    },
    "r",
    ["G1", "G2", "G3", "G5"],
)


def test_bounded_dfs_exact_returns_first_in_move_order_at_that_depth():
    assert bounded_dfs(TREE, 2, mode="exact").moves == ("a", "c")
    assert bounded_dfs(TREE, 3, mode="exact").moves == ("a", "d", "f")
    assert bounded_dfs(TREE, 4, mode="exact").moves == ("a", "c", "g", "h")
    assert bounded_dfs(TREE, 1, mode="exact").status == "exhausted"


def test_bounded_dfs_at_most_and_shortest():
    assert bounded_dfs(TREE, 3, mode="at_most").moves == ("a", "c")
    r = bounded_dfs(TREE, 4, mode="shortest")
    assert r.moves == ("a", "c") and r.cost == 2
    assert [it.bound for it in r.stats.iterations] == [0, 1, 2]
    with pytest.raises(ValueError):
        bounded_dfs(TREE, 2, mode="nope")
    with pytest.raises(ValueError):
        bounded_dfs(TREE, -1)


def test_bounded_dfs_goes_deeper_than_the_recursion_limit():
    # Mayan's --max-moves lets n be any int: 5000 moves ended in a RecursionError traceback
    r = bounded_dfs(Line(0, 5000), 5000, mode="exact")
    assert r.status == "solved" and r.moves == ("+",) * 5000
    assert len(r.stats.per_depth) == 5001


def test_bounded_dfs_allocates_nothing_for_depths_never_reached():
    # per-depth figures were lists of depth + 1 entries made before the first
    # expansion: n = 2**31 - 1 asked for 16 GiB, past every limit of the case
    r = bounded_dfs(Line(0, -1), 10 ** 7, mode="exact", limits=Limits(max_nodes=50))
    assert r.status == "node_limit"
    assert len(r.stats.per_depth) == len(r.stats.per_depth_seconds) <= 52
    assert sum(r.stats.per_depth) == 50


def test_bounded_dfs_uses_successors_within_and_heuristic():
    calls = []

    class Bounded(Graph):
        def successors_within(self, s, remaining):
            calls.append((s, remaining))
            return self.successors(s)

    p = Bounded(TREE.edges, "r", TREE.goals)
    assert bounded_dfs(p, 2).moves == ("a", "c")
    assert calls[0] == ("r", 2)
    # a heuristic that rules out "A" makes the first exact-2 solution the one through "B"
    h = lambda s: 5 if s == "A" else 0  # noqa: E731
    assert bounded_dfs(TREE, 2, heuristic=h).moves == ("b", "e")


def test_pruners_cut_and_on_fail_are_called():
    seen = {"cut": 0, "fail": []}

    def cut(state, g, budget):
        seen["cut"] += 1
        return state == "A"

    r = bounded_dfs(TREE, 2, pruners=[Pruner(cut=cut, on_fail=lambda s, g, b: seen["fail"].append((s, b)))])
    assert r.moves == ("b", "e") and seen["cut"] > 0
    # two cut rules are folded together
    r4 = bounded_dfs(TREE, 3, pruners=[Pruner(cut=lambda s, g, b: s == "B"), Pruner(cut=lambda s, g, b: s == "C")])
    assert r4.status == "exhausted"


def test_a_pruner_has_cut_and_on_fail_and_no_filter():
    """Review 2026-12c defect 12: ``Pruner.filter`` (drop or reorder a state's successors) had no user, no native
    twin and no rule that asked for it; it is gone, with its hook, so a driver's loop has one test less."""
    from searchkit.pruning import ALL_HOOKS

    with pytest.raises(TypeError, match="filter"):
        Pruner(filter=lambda state, succs: succs)
    assert "filter" not in ALL_HOOKS and {"cut", "on_fail"} <= ALL_HOOKS


def test_failure_memo_is_keyed_by_budget():
    memo = failure_memo()
    memo.on_fail("s", 0, 3)
    assert memo.cut("s", 1, 3)
    assert not memo.cut("s", 1, 2)  # failing with 3 left says nothing about exactly 2 left
    assert not memo.cut("t", 1, 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=-6, max_value=12), st.integers(min_value=0, max_value=6))
def test_failure_memo_never_changes_first_solution(goal, depth):
    # a diamond-shaped space where states repeat at different depths
    p = Line(0, goal)
    plain = bounded_dfs(p, depth, mode="exact")
    memo = bounded_dfs(p, depth, mode="exact", pruners=[failure_memo()])
    assert (plain.status, plain.moves) == (memo.status, memo.moves)
    assert memo.stats.expanded <= plain.stats.expanded


def test_the_old_name_bounded_successors_is_refused_naming_the_new_one():
    # the shim is gone (issue 33); a puzzle with only the old name would silently lose its bound: refused
    class Old(Graph):
        def bounded_successors(self, s, budget):
            return self.successors(s)

    with pytest.raises(TypeError, match="bounded_successors is the old name of successors_within"):
        bounded_dfs(Old(TREE.edges, "r", TREE.goals), 2)
