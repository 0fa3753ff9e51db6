"""searchkit.helpers: grids, flood fill, the heuristic cache, deadlock rules and min-cost assignment."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit.errors import InputError
from searchkit.heuristic import DEAD
from searchkit.helpers import assignment, grid
from searchkit.helpers.cache import cached
from searchkit.helpers.deadlock import DeadlockRule, with_deadlocks

from toy import Graph


# -- grid ---------------------------------------------------------------------------

def test_char_grid_parsing_pads_or_names_the_short_row():
    level = "\n  ####\n###  #\n# $ .#\n######\n\n"
    g = grid.parse_char_grid(level, pad=" ", allowed=" #$.@")
    assert (g.width, g.height) == (6, 4) and g[0, 0] == " " and g[2, 2] == "$" and g.rows()[0] == tuple("  ####")
    assert g.find("$") == [g.index(2, 2)] and g.coords(g.index(4, 2)) == (4, 2)
    with pytest.raises(InputError, match=r"level.txt:4: row 2 has 3 cells, the longest has 4"):
        grid.parse_char_grid("abcd\nabc\n", source="level.txt", line=3)
    with pytest.raises(InputError, match=r":2: column 2: unexpected 'x'"):
        grid.parse_char_grid("##\n#x\n", allowed="#.")


def test_int_grid_parsing():
    g = grid.parse_int_grid("1 2 3\n4 5 6\n")
    assert (g.width, g.height, g.cells) == (3, 2, (1, 2, 3, 4, 5, 6))
    assert grid.parse_int_grid("1 2 3 4 5 6", width=2).rows() == [(1, 2), (3, 4), (5, 6)]
    with pytest.raises(InputError, match=r":2: expected an integer, got 'x'"):
        grid.parse_int_grid("1 2\n3 x\n")
    with pytest.raises(InputError, match="this row has 1 values"):
        grid.parse_int_grid("1 2\n3\n")


def test_neighbour_and_step_tables_agree():
    n4 = grid.neighbour_table(4, 3)
    steps = grid.step_table(4, 3)
    assert n4[0] == (4, 1) and n4[5] == (1, 9, 4, 6)
    for i in range(12):
        assert n4[i] == tuple(j for j in steps[i] if j >= 0)
    assert len(grid.neighbour_table(3, 3, grid.STEPS8)[4]) == 8


def _regions_by_bfs(cells, w):
    """Reference: each cell's region as a frozenset, by plain BFS with coordinates."""
    h = len(cells) // w
    out = {}
    for s in range(len(cells)):
        if s in out:
            continue
        seen, todo = {s}, deque([s])
        while todo:
            i = todo.popleft()
            x, y = i % w, i // w
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                j = ny * w + nx
                if 0 <= nx < w and 0 <= ny < h and j not in seen and cells[j] == cells[s]:
                    seen.add(j)
                    todo.append(j)
        region = frozenset(seen)
        for i in region:
            out[i] = region
    return out


boards = st.integers(1, 7).flatmap(lambda w: st.tuples(st.just(w), st.lists(st.integers(0, 2), min_size=w,
                                                                            max_size=w * 6)
                                                       .map(lambda c: c[:len(c) - len(c) % w])))


@settings(max_examples=150, deadline=None)
@given(boards)
def test_label_regions_matches_a_plain_bfs(board):
    w, cells = board
    label, first = grid.label_regions(cells, w)
    reference = _regions_by_bfs(cells, w)
    for i in range(len(cells)):
        assert {j for j in range(len(cells)) if label[j] == label[i]} == reference[i]
    assert sorted(first) == list(first) and all(label[f] == r for r, f in enumerate(first))
    src, dst = grid.region_pairs(label, w)
    pairs = set(zip(src, dst))
    expected = set()
    for i in range(len(cells)):
        for j in (i + 1 if (i + 1) % w else None, i + w if i + w < len(cells) else None):
            if j is not None and label[i] != label[j]:
                expected |= {(label[i], label[j]), (label[j], label[i])}
    assert pairs == expected


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.data())
def test_bitmask_flood_fill_matches_a_plain_bfs(w, h, data):
    open_cells = data.draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    start = data.draw(st.integers(0, w * h - 1))
    masks = grid.masks(w, h)
    open_mask = grid.mask_of(i for i, ok in enumerate(open_cells) if ok)
    reach = grid.flood_fill(1 << start, open_mask, masks)
    layers = grid.distances(1 << start, open_mask, masks)
    # reference: BFS distances over the open cells
    dist = {}
    if open_cells[start]:
        dist[start] = 0
        todo = deque([start])
        table = grid.neighbour_table(w, h)
        while todo:
            i = todo.popleft()
            for j in table[i]:
                if open_cells[j] and j not in dist:
                    dist[j] = dist[i] + 1
                    todo.append(j)
    assert grid.cells_of(reach) == sorted(dist)
    assert [grid.cells_of(layer) for layer in layers] == [sorted(i for i, d in dist.items() if d == k)
                                                         for k in range(len(layers))]
    assert len(layers) == (max(dist.values()) + 1 if dist else 0)


# -- the heuristic cache ------------------------------------------------------------

def test_cache_shares_evaluations_by_key_and_stays_bounded():
    calls = []

    def estimate(state):
        calls.append(state)
        return state[0] * 10

    h = cached(estimate, key=lambda s: s[0], limit=2)
    assert [h((1, "a")), h((1, "b")), h((2, "a")), h((1, "c"))] == [10, 10, 20, 10]
    assert len(calls) == 2 and h.cache_info().hits == 2 and h.cache_info().misses == 2
    h((3, "a"))  # the table is full: emptied, then refilled
    info = h.cache_info()
    assert info.clears == 1 and info.size == 1
    dead = cached(lambda s: DEAD, key=lambda s: 0)
    assert dead(1) == DEAD and dead(2) == DEAD and dead.cache_info().misses == 1
    with pytest.raises(ValueError):
        cached(estimate, key=len, limit=0)


# -- deadlock rules -----------------------------------------------------------------

class DeadEnds(DeadlockRule):
    """States with no successors that are not goals (and every state that leads only to them)."""

    name = "dead-ends"
    summary = "states from which no goal is reachable in the toy graph"

    def __init__(self, puzzle):
        super().__init__(puzzle)
        self.dead = {"b", "c"}

    def is_dead(self, state):
        return state in self.dead


EDGES = {"a": [("to-b", "b", 1), ("to-x", "x", 1)], "b": [("to-c", "c", 1)], "x": [("to-g", "g", 1)]}


def test_a_deadlock_rule_prunes_and_is_counted_in_every_driver_with_cuts():
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.search import run

    registry = load_registry()
    rule = DeadEnds.pruning_rule("toy")
    assert rule.name == "dead-ends" and rule.where == "driver" and rule.sound_for == "first"
    tried = 0
    for name, alg in registry.algorithms.items():
        if not rule.acts_under(alg):
            continue
        tried += 1
        puzzle = Graph(EDGES, "a", ["g"])
        result = run(puzzle, name, heuristic=(lambda s: 0) if alg.takes_heuristic else None,
                     pruners=[rule.bind(puzzle)], max_cost=5 if alg.needs_depth else None, registry=registry)
        assert result.cost == 2 and dict(result.stats.rule_cuts)["dead-ends"] >= 1, name
    assert tried >= 5


def test_with_deadlocks_makes_an_estimate_return_dead():
    h = with_deadlocks(lambda s: 1, [DeadEnds(Graph(EDGES, "a", ["g"]))])
    assert h("b") == DEAD and h("x") == 1
    with pytest.raises(ValueError, match="no name"):
        type("Nameless", (DeadlockRule,), {}).pruning_rule("toy")
    with pytest.raises(NotImplementedError):
        DeadlockRule(None).is_dead(0)


# -- min-cost assignment ------------------------------------------------------------

def _brute(cost):
    n, m = len(cost), len(cost[0]) if cost else 0
    best = math.inf
    for cols in itertools.permutations(range(m), n):
        best = min(best, sum(cost[i][c] for i, c in enumerate(cols)))
    return best


matrices = st.integers(1, 5).flatmap(lambda n: st.integers(n, 6).flatmap(
    lambda m: st.lists(st.lists(st.one_of(st.integers(0, 20), st.just(math.inf)), min_size=m, max_size=m),
                       min_size=n, max_size=n)))


@settings(max_examples=300, deadline=None)
@given(matrices)
def test_assignment_python_and_scipy_agree_with_brute_force(cost):
    pytest.importorskip("scipy")
    expected = _brute(cost)
    for method in ("python", "scipy"):
        total, columns = assignment.min_cost_assignment(cost, method=method)
        assert total == expected, method
        if total == math.inf:
            assert columns is None
        else:
            assert len(set(columns)) == len(cost) and sum(cost[i][c] for i, c in enumerate(columns)) == total
            assert isinstance(total, int)


def test_assignment_edges(monkeypatch):
    assert assignment.min_cost_assignment([]) == (0, ())
    assert assignment.min_cost_assignment([[1.5, 2.5], [0.5, 4.0]], method="python") == (3.0, (1, 0))
    with pytest.raises(ValueError, match="2 rows cannot go"):
        assignment.min_cost_assignment([[1], [2]])
    with pytest.raises(ValueError, match="same number of columns"):
        assignment.min_cost_assignment([[1, 2], [3]])
    with pytest.raises(ValueError, match="NaN"):
        assignment.min_cost_assignment([[float("nan")]])
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    assert assignment.min_cost_assignment([[4, 1], [2, 8]]) == (3, (1, 0))  # the fallback, without SciPy
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'searchkit-puzzles\[scipy\]'"):
        assignment.min_cost_assignment([[1]], method="scipy")


# -- layering -----------------------------------------------------------------------

def test_the_helpers_import_nothing_of_the_engine_or_the_faces():
    code = ("import sys\nimport searchkit.helpers.grid, searchkit.helpers.cache, searchkit.helpers.deadlock, "
            "searchkit.helpers.assignment\n"
            "bad = [m for m in sys.modules if m.startswith(('searchkit.machinery', 'searchkit.cli', "
            "'searchkit.render', 'searchkit.api', 'searchkit.tools', 'click', 'rich', 'scipy'))]\nprint(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
