"""Every registered component under test, found through the registry (after pyperplan's coverage test).

Adding a game, heuristic, rule or algorithm puts it here without editing
this file: the contract suite runs over every game the loaded registry
holds, and every optimal algorithm is compared with ``bfs`` on the core's
toy puzzles.
"""

from __future__ import annotations

import pytest

from searchkit.algorithm import SearchRequest
from searchkit.plugin.manager import load_registry
from searchkit.testing import contract_checks

from toy import Graph, Line, line_h

REGISTRY = load_registry(report=None)
GAMES = sorted(REGISTRY.games)
OPTIMAL = sorted(name for name, alg in REGISTRY.algorithms.items() if alg.guarantee.solved_is_optimal)


def _contracts():
    for game in GAMES:
        for check in contract_checks(game, registry=REGISTRY, max_examples=15, max_nodes=100_000):
            yield pytest.param(check, id=f"{game}-{check.name}")


@pytest.mark.parametrize("check", list(_contracts()))
def test_every_game_keeps_the_contract(check):
    check()


def test_the_builtin_games_are_registered():
    assert {"flood", "mayan", "sliding-tiles"} <= set(GAMES)


TOYS = [
    ("line-7", lambda: Line(0, 7), line_h(7)),
    ("line-11", lambda: Line(0, 11), line_h(11)),
    ("line-weighted", lambda: Line(0, 6, {"+": 1, "-": 1, "3": 5}), lambda s: 0),
    ("graph", lambda: Graph({"a": [("x", "b", 1), ("y", "c", 4)], "b": [("z", "c", 1)], "c": [("w", "d", 1)]},
                            "a", ["d"]), lambda s: 0),
]


@pytest.mark.parametrize("algorithm", OPTIMAL)
@pytest.mark.parametrize("toy", TOYS, ids=[t[0] for t in TOYS])
def test_every_optimal_algorithm_matches_bfs_or_dijkstra(algorithm, toy):
    name, make, h = toy
    alg = REGISTRY.algorithm(algorithm)
    puzzle = make()
    reference = REGISTRY.algorithm("astar").run(puzzle, SearchRequest(heuristic=lambda s: 0))  # uniform cost
    if name != "line-weighted" and name != "graph":
        reference_bfs = REGISTRY.algorithm("bfs").run(puzzle, SearchRequest())
        assert reference_bfs.cost == reference.cost
    if algorithm == "bfs" and name in ("line-weighted", "graph"):
        pytest.skip("bfs needs unit step costs")
    from searchkit.algorithm import bind_params

    request = SearchRequest(heuristic=h if alg.takes_heuristic else None, max_cost=20, params=bind_params(alg, {}))
    result = alg.run(puzzle, request)
    assert result.solved and result.cost == reference.cost
    from searchkit.puzzle import replay

    assert puzzle.is_goal(replay(puzzle, result.moves))
    assert sum(c for m, _, c in _walk(puzzle, result.moves)) == result.cost


def _walk(puzzle, moves):
    state = puzzle.initial_state()
    for move in moves:
        step = next(s for s in puzzle.successors(state) if s[0] == move)
        state = step[1]
        yield step


@pytest.mark.parametrize("game", GAMES)
def test_every_heuristic_and_rule_reference_resolves(game):
    from searchkit._refs import resolve

    for h in REGISTRY.heuristics_for(game):
        assert callable(resolve(h.factory)), h.name
    for rule in REGISTRY.rules_for(game):
        if rule.factory is not None:
            assert callable(resolve(rule.factory)), rule.name
        assert any(rule.acts_under(a) for a in REGISTRY.algorithms.values()), f"{rule.name} acts nowhere"
