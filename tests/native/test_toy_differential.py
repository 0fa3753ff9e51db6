"""The native drivers against the Python drivers on the toy domain: the same status, moves, cost, lower
bound, expanded/generated/evaluated counts, peak_stored, iteration records and rule cuts.

Needs the native modules (``pip install ./plugins/flood/native ./plugins/sliding-tiles/native
./native/testgame``); skipped without them.  CI runs more examples
(``SEARCHKIT_DIFFERENTIAL_EXAMPLES``, default 150).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.native.toy import ToyPuzzle, corner, heuristic, scramble

pytest.importorskip("searchkit_testgame")
from tests.native.modules import toy_solve  # noqa: E402

from searchkit.limits import Limits  # noqa: E402


def python_run(algorithm, puzzle, hname, rules, max_cost, max_nodes, params):
    from searchkit.machinery.drivers import anytime, astar, beam, bfs, gbfs, ida_star, peastar, wastar

    h = heuristic(puzzle, hname)
    pruners = [corner(puzzle)] if rules else []
    limits = Limits(max_nodes=max_nodes)
    common = dict(pruners=pruners, limits=limits, max_cost=max_cost)
    if algorithm == "astar":
        return astar.astar(puzzle, h, **common)
    if algorithm == "peastar":
        return peastar.peastar(puzzle, h, **common)
    if algorithm in ("ida_star", "ida_star_tt"):
        return ida_star.ida_star(puzzle, h, transposition=algorithm == "ida_star_tt", **common)
    if algorithm == "wastar":
        return wastar.wastar(puzzle, h, weight=params.get("weight", 2.0), **common)
    if algorithm == "gbfs":
        return gbfs.gbfs(puzzle, h, **common)
    if algorithm == "bfs":
        return bfs.bfs(puzzle, limits=limits, max_cost=max_cost)
    if algorithm == "beam":
        return beam.beam(puzzle, h, width=params.get("width", 64), **common)
    if algorithm == "anytime":
        return anytime.anytime(puzzle, h, weight=params.get("weight", 2.0), step=params.get("step", 0.5),
                               ara=bool(params.get("ara", 0)), **common)
    raise AssertionError(algorithm)


def summary_python(r):
    s = r.stats
    return dict(status=r.status, moves=list(r.moves), cost=r.cost, lower_bound=r.lower_bound, expanded=s.expanded,
                generated=s.generated, evaluated=s.evaluated, peak_stored=s.peak_stored,
                iterations=[(i.bound, i.expanded, i.generated, i.evaluated, i.kind) for i in s.iterations],
                rule_cuts=dict(s.rule_cuts))


def summary_native(d):
    s = d["stats"]
    return dict(status=d["status"], moves=list(d["moves"]), cost=d["cost"], lower_bound=d["lower_bound"],
                expanded=s["expanded"], generated=s["generated"], evaluated=s["evaluated"],
                peak_stored=s["peak_stored"], iterations=[(b, e, g, v, k) for b, e, g, _, v, k in s["iterations"]],
                rule_cuts=dict(s["rule_cuts"]))


def compare(algorithm, width, tiles, hname="manhattan", rules=False, max_cost=None, max_nodes=None, params=None):
    params = params or {}
    puzzle = ToyPuzzle(width, tiles)
    expected = summary_python(python_run(algorithm, puzzle, hname, rules, max_cost, max_nodes, params))
    request = {"algorithm": algorithm, "heuristic": hname, "pruners": ["corner"] if rules else [],
               "max_cost": max_cost, "max_nodes": max_nodes, "params": params}
    got = summary_native(toy_solve(width, list(tiles), request))
    assert got == expected, (algorithm, width, tiles, hname, rules, max_cost, max_nodes, params)
    return got


ALGORITHMS = ["astar", "peastar", "ida_star", "ida_star_tt", "wastar", "gbfs", "bfs", "beam", "anytime"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_hard_eight_puzzle(algorithm):
    got = compare(algorithm, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1), max_nodes=20000)
    if algorithm in ("astar", "peastar", "ida_star", "ida_star_tt", "bfs") and got["status"] == "solved":
        assert got["cost"] == 31


EXAMPLES = int(os.environ.get("SEARCHKIT_DIFFERENTIAL_EXAMPLES", "150"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(algorithm=st.sampled_from(ALGORITHMS), width=st.sampled_from([2, 3, 3, 3]), moves=st.integers(0, 40),
       seed=st.integers(0, 10 ** 6), hname=st.sampled_from(["manhattan", "misplaced", "zero"]),
       rules=st.booleans(), max_cost=st.one_of(st.none(), st.integers(0, 25)),
       max_nodes=st.one_of(st.none(), st.integers(0, 300)),
       weight=st.sampled_from([1.0, 1.5, 2.0, 3.0, 1.2, 1.1, 2.7]), width_beam=st.integers(1, 8))
def test_same_behaviour_as_python(algorithm, width, moves, seed, hname, rules, max_cost, max_nodes, weight,
                                  width_beam):
    if algorithm == "bfs":
        rules, hname = False, "zero"
    if algorithm in ("ida_star", "ida_star_tt") and hname == "zero" and max_nodes is None:
        max_nodes = 3000  # IDA* without an estimate on a deep case: keep it short
    params = {"weight": weight} if algorithm in ("wastar", "anytime") else {}
    if algorithm == "beam":
        params = {"width": width_beam}
    compare(algorithm, width, scramble(width, moves, seed), hname, rules, max_cost,
            max_nodes if max_nodes is not None else 5000, params)
