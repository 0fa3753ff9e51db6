"""searchkit.DEAD: a heuristic returning it prunes the state in every driver, and the Solver counts the prunes."""

from __future__ import annotations

import types

import pytest

from searchkit.heuristic import DEAD, DEAD_CUTS
from searchkit.plugin.manager import load_registry
from searchkit.machinery.search import run

from toy import Graph

REGISTRY = load_registry()
WITH_HEURISTIC = [name for name, alg in REGISTRY.algorithms.items() if alg.takes_heuristic]

#: a -> b looks cheapest (cost 1), but b leads only to the dead end c; the goal g costs 3 through x, y.
EDGES = {"a": [("to-b", "b", 1), ("to-x", "x", 1)], "b": [("to-c", "c", 1)], "x": [("to-y", "y", 1)],
         "y": [("to-g", "g", 1)]}


class Watched(Graph):
    """The toy graph, remembering every state whose successors were asked for."""

    def __init__(self):
        super().__init__(EDGES, "a", ["g"])
        self.expanded = []

    def successors(self, s):
        self.expanded.append(s)
        return super().successors(s)


def h(state):
    return DEAD if state in ("b", "c") else 0


@pytest.mark.parametrize("algorithm", WITH_HEURISTIC)
def test_every_driver_drops_a_dead_state(algorithm):
    alg = REGISTRY.algorithm(algorithm)
    puzzle = Watched()
    result = run(puzzle, algorithm, heuristic=h, max_cost=10 if alg.needs_depth else None, registry=REGISTRY)
    assert result.has_solution and result.cost == 3 and result.moves == ("to-x", "to-y", "to-g")
    assert "b" not in puzzle.expanded and "c" not in puzzle.expanded
    assert result.lower_bound is None or result.lower_bound <= 3


#: The estimates the test heuristics' factories returned, and what the spy algorithm was handed, in order.
MADE: list = []
HANDED: list = []


def _dead_plugin():
    """Flood heuristics that call states dead: every state but the start, or the start itself; and
    ``ida_star_spy``, IDA* remembering the estimate the Solver handed it."""
    import attrs

    from searchkit.heuristic import Heuristic
    from searchkit.plugin.spec import hookimpl

    def all_but_start(puzzle):
        start = puzzle.initial_state()
        MADE.append(lambda state: 0 if state == start else DEAD)
        return MADE[-1]

    def start_too(puzzle):
        return lambda state: DEAD

    mod = types.ModuleType("dead_test")

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("flood", "dead-after-start", all_but_start, summary="every state but the start is dead",
                           dead_states=True))
        register(Heuristic("flood", "dead-start", start_too, summary="every state is dead", dead_states=True))
        register(Heuristic("flood", "undeclared-dead", all_but_start, summary="returns DEAD, declares nothing"))

    ida = REGISTRY.algorithms["ida_star"]

    def spy(puzzle, request):
        HANDED.append(request.heuristic)
        return ida.run(puzzle, request)

    @hookimpl
    def register_algorithms(register):
        register(attrs.evolve(ida, name="ida_star_spy", run=spy, native=None))

    mod.register_heuristics = register_heuristics
    mod.register_algorithms = register_algorithms
    return mod


@pytest.fixture
def api_registry(monkeypatch):
    from searchkit.api import _registry as api

    monkeypatch.setattr(api, "_REGISTRY", [load_registry(extra=[("dead_test", _dead_plugin())])])


BOARD = "1122133244421112"  # 4 x 4, one row after the other


@pytest.mark.python_engine("the test plugin's heuristics and spy algorithm have no native twin")
@pytest.mark.parametrize("algorithm", ["astar", "ida_star", "wastar", "gbfs", "beam", "peastar"])
def test_the_solver_counts_the_dead_states(api_registry, algorithm):
    import searchkit

    o = searchkit.solve("flood", BOARD, algorithm=algorithm, heuristic="dead-after-start")
    cuts = dict(o.stats.rule_cuts)
    assert o.status in ("exhausted", "incomplete") and o.cost is None
    assert cuts[DEAD_CUTS] == o.stats.evaluated - 1 > 0  # every child of the start, the start itself not
    assert o.stats.expanded == 1


@pytest.mark.python_engine("the test plugin's heuristics and spy algorithm have no native twin")
def test_a_dead_start_is_exhausted_without_a_search(api_registry):
    import searchkit

    o = searchkit.solve("flood", BOARD, algorithm="astar", heuristic="dead-start")
    assert o.status == "exhausted" and o.stats.expanded == 0 and dict(o.stats.rule_cuts)[DEAD_CUTS] == 1
    assert o.lower_bound is None


@pytest.mark.python_engine("the test plugin's heuristics and spy algorithm have no native twin")
def test_only_a_heuristic_declaring_dead_states_is_wrapped(api_registry):
    """Issue 32 item 25: the counting wrapper cost 13% of a Python IDA* search, for every heuristic."""
    import searchkit

    MADE.clear()
    HANDED.clear()
    plain = searchkit.solve("flood", BOARD, algorithm="ida_star_spy", heuristic="undeclared-dead")
    assert HANDED[-1] is MADE[-1]  # the factory's own estimate: no wrapper call per state
    # its DEAD states are still dropped (never expanded), only not counted
    assert plain.status in ("exhausted", "incomplete") and plain.stats.expanded == 1
    assert DEAD_CUTS not in dict(plain.stats.rule_cuts)
    declared = searchkit.solve("flood", BOARD, algorithm="ida_star_spy", heuristic="dead-after-start")
    assert HANDED[-1] is not MADE[-1]  # wrapped, and so counted
    assert dict(declared.stats.rule_cuts)[DEAD_CUTS] == declared.stats.evaluated - 1 > 0
    assert (declared.status, declared.stats.expanded) == (plain.status, plain.stats.expanded)
