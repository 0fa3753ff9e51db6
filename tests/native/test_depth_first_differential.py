"""The native ``bounded_dfs`` and the optional hook ``successors_within`` against the Python drivers on the
toy domain: the same status, moves, cost, counts, per-depth counts, iteration records and rule cuts.

Needs the native modules (``pip install ./plugins/flood/native ./plugins/sliding-tiles/native
./native/testgame``); skipped without them.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.native.toy import ToyPuzzle, ToyWithin, corner, heuristic, scramble

pytest.importorskip("searchkit_testgame")
from tests.native.modules import toy_solve  # noqa: E402

from searchkit.machinery.drivers import bounded_dfs, ida_star  # noqa: E402
from searchkit.limits import Limits  # noqa: E402

EXAMPLES = int(os.environ.get("SEARCHKIT_DIFFERENTIAL_EXAMPLES", "150"))


def summary_python(r):
    s = r.stats
    return dict(status=r.status, moves=list(r.moves), cost=r.cost, lower_bound=r.lower_bound, expanded=s.expanded,
                generated=s.generated, evaluated=s.evaluated, peak_stored=s.peak_stored, per_depth=list(s.per_depth),
                per_depth_seconds=len(s.per_depth_seconds),
                iterations=[(i.bound, i.expanded, i.generated, i.evaluated, i.kind) for i in s.iterations],
                rule_cuts=dict(s.rule_cuts))


def summary_native(d):
    s = d["stats"]
    return dict(status=d["status"], moves=list(d["moves"]), cost=d["cost"], lower_bound=d["lower_bound"],
                expanded=s["expanded"], generated=s["generated"], evaluated=s["evaluated"],
                peak_stored=s["peak_stored"], per_depth=list(s["per_depth"]),
                per_depth_seconds=len(s["per_depth_seconds"]),
                iterations=[(b, e, g, v, k) for b, e, g, _, v, k in s["iterations"]], rule_cuts=dict(s["rule_cuts"]))


def compare_dfs(width, tiles, mode, depth, hname, rules, within, max_nodes):
    puzzle = (ToyWithin if within else ToyPuzzle)(width, tiles)
    h = None if hname is None else heuristic(puzzle, hname)
    expected = summary_python(bounded_dfs.bounded_dfs(puzzle, depth, mode=mode, heuristic=h,
                                                      pruners=[corner(puzzle)] if rules else [],
                                                      limits=Limits(max_nodes=max_nodes)))
    request = {"algorithm": "bounded_dfs", "mode": mode, "heuristic": hname, "pruners": ["corner"] if rules else [],
               "max_cost": depth, "max_nodes": max_nodes}
    got = summary_native(toy_solve(width, list(tiles), request, within=within))
    assert got == expected, (width, tiles, mode, depth, hname, rules, within, max_nodes)
    return got


def test_shortest_mode_finds_the_optimum_of_a_hard_eight_puzzle():
    got = compare_dfs(3, (8, 6, 7, 2, 5, 4, 3, 0, 1), "shortest", 31, "manhattan", False, True, None)
    assert got["status"] == "solved" and got["cost"] == 31
    assert [it[0] for it in got["iterations"]] == list(range(32))


@settings(max_examples=EXAMPLES, deadline=None)
@given(width=st.sampled_from([2, 3, 3]), moves=st.integers(0, 30), seed=st.integers(0, 10 ** 6),
       mode=st.sampled_from(["exact", "at_most", "shortest"]), depth=st.integers(0, 16),
       hname=st.sampled_from([None, "manhattan", "misplaced", "zero"]), rules=st.booleans(),
       within=st.booleans(), max_nodes=st.one_of(st.none(), st.integers(0, 400)))
def test_bounded_dfs_same_behaviour_as_python(width, moves, seed, mode, depth, hname, rules, within, max_nodes):
    compare_dfs(width, scramble(width, moves, seed), mode, depth, hname, rules, within,
                max_nodes if max_nodes is not None else 20000)


@settings(max_examples=EXAMPLES, deadline=None)
@given(width=st.sampled_from([2, 3, 3]), moves=st.integers(0, 30), seed=st.integers(0, 10 ** 6),
       transposition=st.booleans(), max_cost=st.one_of(st.none(), st.integers(0, 25)),
       hname=st.sampled_from(["manhattan", "misplaced"]), rules=st.booleans(),
       max_nodes=st.one_of(st.none(), st.integers(0, 400)))
def test_ida_star_with_successors_within_same_behaviour_as_python(width, moves, seed, transposition, max_cost,
                                                                   hname, rules, max_nodes):
    puzzle = ToyWithin(width, scramble(width, moves, seed))
    max_nodes = max_nodes if max_nodes is not None else 5000
    expected = summary_python(ida_star.ida_star(puzzle, heuristic(puzzle, hname), transposition=transposition,
                                                pruners=[corner(puzzle)] if rules else [],
                                                limits=Limits(max_nodes=max_nodes), max_cost=max_cost))
    request = {"algorithm": "ida_star_tt" if transposition else "ida_star", "heuristic": hname,
               "pruners": ["corner"] if rules else [], "max_cost": max_cost, "max_nodes": max_nodes}
    got = summary_native(toy_solve(width, list(puzzle.start), request, within=True))
    assert got == expected


def test_the_hook_changes_the_search():
    """``successors_within`` is used: the same case generates fewer states with it (so the test above
    compares two searches that differ from the plain one)."""
    tiles = scramble(3, 30, 7)
    request = {"algorithm": "ida_star", "heuristic": "misplaced", "max_cost": 30}
    plain = toy_solve(3, list(tiles), request)
    within = toy_solve(3, list(tiles), request, within=True)
    assert within["cost"] == plain["cost"]
    assert within["stats"]["generated"] < plain["stats"]["generated"]


def test_a_bad_mode_is_refused():
    with pytest.raises(ValueError, match="mode"):
        toy_solve(3, list(scramble(3, 5, 1)), {"algorithm": "bounded_dfs", "mode": "deepest", "max_cost": 5})
