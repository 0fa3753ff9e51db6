"""The rules and bounds added for issue 13, against breadth-first optima on small boards.

Reference: breadth-first search (``searchkit.machinery.drivers.bfs.bfs``) on a puzzle
built with every successor rule disabled, and the plain cell-grid simulator
of ``cellref`` -- neither uses the rule under test.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.machinery.drivers.astar import astar
from searchkit.machinery.drivers.bfs import bfs
from searchkit_flood.areas import RULE_COMPLETION, RULE_EXPOSURE, RULE_FRONTIER, RULE_GROWTH, FloodPuzzle
from searchkit_flood.board import Board
from searchkit_flood.dominance import dominance_pruner
from searchkit_flood.heuristics import puchert

from cellref import bfs_from, replay_cells, start_region  # noqa: E402
from cellref import boards as _boards  # noqa: E402

ALL_OFF = frozenset({RULE_FRONTIER, RULE_GROWTH, RULE_COMPLETION, RULE_EXPOSURE})


def boards(max_side=5, max_colours=4):
    """Small boards with the pivot on any cell."""
    return _boards(max_side, max_colours, any_pivot=True)


def slow(n: int):
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class _From:
    """The plain puzzle (every rule off) started at a given state, for BFS optima of any state."""

    def __init__(self, puzzle, state):
        self.puzzle, self.state = puzzle, state
        self.successors = puzzle.successors
        self.is_goal = puzzle.is_goal

    def initial_state(self):
        return self.state


def _opt(plain, state) -> int:
    result = bfs(_From(plain, state))
    assert result.status == "solved"
    return result.cost


@slow(150)
@given(boards(), st.randoms(use_true_random=False))
def test_exposure_keeps_an_optimal_first_move(board, rnd):
    """At states along a random play, the exposure-filtered moves include one starting an optimal solution."""
    plain = FloodPuzzle(board, ALL_OFF)
    only_exposure = FloodPuzzle(board, ALL_OFF - {RULE_EXPOSURE, RULE_FRONTIER, RULE_GROWTH})
    state = plain.initial_state()
    for _ in range(4):
        if plain.is_goal(state):
            break
        opt = _opt(plain, state)
        kids = list(only_exposure.successors(state))
        assert kids, "the rule must never leave a non-goal state without moves"
        assert min(_opt(plain, child) for _, child, _ in kids) == opt - 1
        _, state, _ = rnd.choice(list(plain.successors(state)))


@pytest.mark.parametrize("rules", [
    frozenset({RULE_EXPOSURE}),
    frozenset({RULE_EXPOSURE, RULE_COMPLETION}),
    frozenset({RULE_EXPOSURE, RULE_COMPLETION, RULE_FRONTIER, RULE_GROWTH}),
], ids=lambda r: "+".join(sorted(r)))
@slow(60)
@given(board=boards(max_side=5, max_colours=4))
def test_astar_with_exposure_equals_bfs(rules, board):
    puzzle = FloodPuzzle(board, ALL_OFF - rules)
    result = astar(puzzle, puchert(puzzle), pruners=[dominance_pruner(puzzle)])
    assert result.cost == bfs_from(board, start_region(board)) == len(result.moves)
    assert len(set(replay_cells(board, result.moves))) == 1


@pytest.mark.parametrize("seed", range(8))
def test_exposure_on_random_6x6_boards(seed):
    """Full-size cases (hypothesis favours small boards): default rules with exposure vs BFS."""
    rng = random.Random(100 + seed)
    board = Board.from_values(6, 6, [rng.randint(0, 4) for _ in range(36)])
    puzzle = FloodPuzzle(board)
    result = astar(puzzle, puchert(puzzle), pruners=[dominance_pruner(puzzle)])
    assert result.cost == bfs_from(board, start_region(board))


@pytest.mark.python_engine("bounded_dfs")
def test_bounded_dfs_takes_the_upper_bound_as_its_depth_bound(searchkit_cli_run, tmp_path):
    """Issue 19.20: bounded_dfs ignored --upper-bound ('needs a depth bound', once per case).

    Its first solution under the bound is not a least-cost one, so it is ``feasible``, never ``solved``.
    """
    import json

    boards = tmp_path / "b.txt"
    boards.write_text(searchkit_cli_run(["generate", "flood", "--count", "4", "--seed", "2", "--size", "5",
                                         "--colours", "4"]).output)
    optimal = [json.loads(line) for line in
               searchkit_cli_run(["solve", "flood", "--format", "json", str(boards)]).output.splitlines()]
    out = searchkit_cli_run(["solve", "flood", "-a", "bounded_dfs", "-H", "layered", "--upper-bound", "14", "--format",
                             "json", str(boards)])
    assert out.exit_code == 0, out.output
    got = [json.loads(line) for line in out.output.splitlines()]
    assert len(got) == 4
    for record, best in zip(got, optimal):
        assert record["algorithm"] == "bounded_dfs" and record["cost"] < 14
        assert record["cost"] >= best["cost"]
        assert record["status"] == ("solved" if record["lower_bound"] == record["cost"] else "feasible")
    tight = searchkit_cli_run(["solve", "flood", "-a", "bounded_dfs", "--upper-bound", str(optimal[0]["cost"]),
                               "--format", "json", str(boards)])
    assert json.loads(tight.output.splitlines()[0])["status"] == "exhausted"  # nothing cheaper than the optimum
    none = searchkit_cli_run(["solve", "flood", "-a", "bounded_dfs", str(boards)])
    assert none.exit_code == 2 and "give one with --upper-bound N" in none.output
