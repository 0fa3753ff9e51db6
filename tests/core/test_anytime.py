"""The bounded-suboptimal and anytime drivers on toy puzzles, against exact optima.

Random weighted graphs (Dijkstra gives the optimum and an admissible,
inconsistent h = a random fraction of the true distance) check the claims
each driver makes: w-admissibility of ``wastar``, ``anytime`` ends
``solved`` at the optimum when unlimited, and no driver's ``lower_bound``
ever exceeds the optimum, limited or not.  No wall-clock assertions.
"""

from __future__ import annotations

import heapq
import math
import random

import pytest
from toy import Graph, Line, line_h

from searchkit.algorithm import bind_params, parse_spec
from searchkit.machinery.drivers.anytime import anytime
from searchkit.machinery.drivers.astar import astar
from searchkit.machinery.drivers.beam import beam
from searchkit.machinery.drivers.gbfs import gbfs
from searchkit.machinery.drivers.ida_star import ida_star
from searchkit.machinery.drivers.wastar import wastar
from searchkit.limits import Limits
from searchkit.result import EXHAUSTED, FEASIBLE, SOLVED


def random_graph(rng: random.Random, n: int = 40, degree: int = 3, unit: bool = False):
    edges = {}
    for a in range(n):
        edges[a] = [(f"{a}>{b}", b, 1 if unit else rng.randint(1, 9)) for b in rng.sample(range(n), degree)]
    goals = set(rng.sample(range(1, n), 2))
    return edges, goals


def distances_to_goal(edges, goals):
    reverse = {}
    for a, succ in edges.items():
        for _, b, c in succ:
            reverse.setdefault(b, []).append((a, c))
    dist = {}
    heap = [(0, g) for g in goals]
    while heap:
        d, s = heapq.heappop(heap)
        if s in dist:
            continue
        dist[s] = d
        for p, c in reverse.get(s, ()):
            if p not in dist:
                heapq.heappush(heap, (d + c, p))
    return dist


def instance(seed: int, unit: bool = False):
    rng = random.Random(seed)
    edges, goals = random_graph(rng, unit=unit)
    dist = distances_to_goal(edges, goals)
    frac = {s: rng.random() for s in edges}
    h = {s: int(dist[s] * frac[s]) if s in dist else 0 for s in edges}  # admissible, usually inconsistent
    return Graph(edges, 0, goals), (lambda s: h[s]), dist.get(0)


def path_cost(graph, moves):
    state, cost = graph.initial_state(), 0
    for move in moves:
        (_, state, c), = [e for e in graph.successors(state) if e[0] == move]
        cost += c
    assert graph.is_goal(state)
    return cost


SEEDS = range(60)


@pytest.mark.parametrize("weight", [1.0, 1.5, 2.0, 4.0])
def test_wastar_is_w_admissible_and_its_bound_holds(weight):
    for seed in SEEDS:
        graph, h, opt = instance(seed)
        r = wastar(graph, h, weight=weight)
        if opt is None:
            assert r.status == EXHAUSTED
            continue
        assert r.status in (SOLVED, FEASIBLE)
        assert path_cost(graph, r.moves) == r.cost
        assert opt <= r.cost <= weight * opt
        assert r.lower_bound <= opt
        assert r.lower_bound >= math.ceil(r.cost / weight - 1e-9)
        if r.status == SOLVED:
            assert r.cost == opt


def test_anytime_unlimited_ends_solved_at_the_optimum():
    for seed in SEEDS:
        graph, h, opt = instance(seed)
        improvements = []
        r = anytime(graph, h, weight=3.0, step=0.5, ara=seed % 2 == 0,
                    on_improve=lambda c, lb: improvements.append((c, lb)))
        if opt is None:
            assert r.status == EXHAUSTED
            continue
        assert r.status == SOLVED and r.cost == opt == r.lower_bound
        assert path_cost(graph, r.moves) == opt
        costs = [c for c, _ in improvements]
        assert costs == sorted(costs, reverse=True) and len(set(costs)) == len(costs)
        assert all(lb is None or lb <= opt for _, lb in improvements)


@pytest.mark.parametrize("nodes", [0, 1, 2, 3, 5, 8, 13])
def test_no_lower_bound_exceeds_the_optimum_at_any_node_limit(nodes):
    limits = Limits(max_nodes=nodes)
    for seed in SEEDS:
        graph, h, opt = instance(seed)
        results = [
            anytime(graph, h, limits=limits), anytime(graph, h, weight=1.0, step=0.0, limits=limits),
            anytime(graph, h, weight=3.0, ara=False, limits=limits),
            wastar(graph, h, weight=2.0, limits=limits), gbfs(graph, h, limits=limits),
            astar(graph, h, limits=limits), ida_star(graph, h, limits=limits),
        ]
        for r in results:
            if opt is None:
                continue
            if r.lower_bound is not None:
                assert r.lower_bound <= opt, (seed, r)
            if r.status in (SOLVED, FEASIBLE):
                assert r.cost >= opt and path_cost(graph, r.moves) == r.cost
            if r.status == SOLVED:
                assert r.cost == opt


@pytest.mark.parametrize("width", [1, 2, 4, 64])
def test_beam_bound_and_cost_on_unit_graphs(width):
    for seed in SEEDS:
        graph, h, opt = instance(seed, unit=True)
        r = beam(graph, h, width=width)
        if opt is None:
            assert r.status in (EXHAUSTED, "incomplete")
            continue
        if r.status in (SOLVED, FEASIBLE):
            assert r.cost >= opt and path_cost(graph, r.moves) == r.cost
        if r.lower_bound is not None:
            assert r.lower_bound <= opt
        if r.status == SOLVED:
            assert r.cost == opt


def test_anytime_keeps_a_seed_it_cannot_beat_and_proves_it():
    line = Line(0, 7)
    opt = astar(line, line_h(7))
    seed = (opt.moves, opt.cost)
    r = anytime(line, line_h(7), incumbent=seed)
    assert r.status == SOLVED and r.moves == opt.moves and r.lower_bound == r.cost == opt.cost


def test_max_cost_below_the_optimum_is_exhausted_with_that_bound():
    line = Line(0, 7)  # optimum 3: 3, 3, +
    for run in (lambda **k: anytime(line, line_h(7), **k), lambda **k: wastar(line, line_h(7), **k),
                lambda **k: gbfs(line, line_h(7), **k), lambda **k: astar(line, line_h(7), **k)):
        r = run(max_cost=2)
        assert r.status == EXHAUSTED and r.lower_bound == 3


def test_ida_star_lower_bound_from_exhausted_iterations():
    line = Line(0, 20)
    r = ida_star(line, lambda s: 0, limits=Limits(max_nodes=40))
    assert r.status == "node_limit"
    assert 1 <= r.lower_bound <= 7  # the optimum is 7 moves
    assert r.lower_bound == r.stats.iterations[-1].bound


def test_algorithm_spelling_is_parsed_against_declared_options(searchkit_registry):
    assert parse_spec("wastar") == ("wastar", {})
    assert parse_spec(" wastar( weight = 2 ) ") == ("wastar", {"weight": "2"})
    alg = searchkit_registry.algorithm("anytime")
    assert bind_params(alg, {"weight": "3"}) == {"weight": 3.0, "step": 0.5, "ara": 0}
    with pytest.raises(ValueError, match="no option 'width'.*weight, step, ara"):
        bind_params(alg, {"width": "3"})
    with pytest.raises(ValueError, match="at least 1"):
        bind_params(searchkit_registry.algorithm("wastar"), {"weight": "0.5"})
    for bad in ("wastar(weight=2", "wastar(weight)", "wastar(weight=1, weight=2)", "wastar(,)",
                "wastar(weight=2,)", "wastar(, weight=2)"):
        with pytest.raises(ValueError):
            parse_spec(bad)
    assert parse_spec("wastar()") == ("wastar", {})
    with pytest.raises(ValueError, match="at most 1"):
        bind_params(alg, {"ara": "2"})


@pytest.mark.parametrize("text", ["inf", "-inf", "nan", "1e999", "1_0", "\u0662", "\uff12", "0x2", "2 3", "", "two"])
def test_option_numbers_are_plain_ascii_decimals(searchkit_registry, text):
    """int()/float() would read these too (as infinity, ten, Arabic-Indic two, ...): refused, not guessed."""
    with pytest.raises(ValueError, match="expects float"):
        bind_params(searchkit_registry.algorithm("wastar"), {"weight": text})
    with pytest.raises(ValueError, match="expects int"):
        bind_params(searchkit_registry.algorithm("beam"), {"width": text})


def test_option_numbers_in_plain_decimal_are_read(searchkit_registry):
    assert bind_params(searchkit_registry.algorithm("wastar"), {"weight": "1.5"}) == {"weight": 1.5}
    assert bind_params(searchkit_registry.algorithm("wastar"), {"weight": "2"}) == {"weight": 2.0}
    assert bind_params(searchkit_registry.algorithm("wastar"), {"weight": "1e0"}) == {"weight": 1.0}
    assert bind_params(searchkit_registry.algorithm("beam"), {"width": "+8"}) == {"width": 8}
    with pytest.raises(ValueError, match="expects int"):
        bind_params(searchkit_registry.algorithm("beam"), {"width": "8.0"})
