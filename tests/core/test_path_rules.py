"""A rule that keeps the path in the state is off under an algorithm that detects duplicates (issue 32 item 22).

"Never undo the last move" must keep the last move in the state, since rules see only the state; a
duplicate-detecting search (A*, IDA*-TT, beam, ...) then counts one position as several states (A*
expanded 12% more 8-puzzle states with sliding tiles' no-undo on), while its own duplicate detection already
drops every undo (it returns to the parent, reached at a lower g).  Such a rule declares ``path_in_state``
and acts only under the depth-first drivers without a table; the engines agree, as the native problem is
built with the rules the Solver switched off.
"""

from __future__ import annotations

import types

import pytest

import searchkit
from searchkit.game import Case
from searchkit.pruning import PruningRule
from searchkit.machinery.solver import Solver

BOARDS = [(8, 6, 7, 2, 5, 4, 3, 0, 1), (1, 2, 3, 4, 5, 6, 0, 7, 8), (5, 1, 3, 0, 2, 6, 4, 7, 8),
          (7, 2, 4, 5, 0, 6, 8, 3, 1)]


def _plain_run(board, algorithm):
    """The Python driver on the board with no-undo off: what a duplicate-detecting search must now do."""
    from sliding_tiles.heuristics import manhattan
    from sliding_tiles.puzzle import SlidingPuzzle

    puzzle = SlidingPuzzle(board, frozenset({"no-undo"}))
    return searchkit.run(puzzle, algorithm, heuristic=manhattan(puzzle))


@pytest.mark.parametrize("algorithm", ["astar", "ida_star_tt", "wastar", "gbfs", "beam", "anytime"])
def test_no_undo_is_off_where_duplicates_are_detected(searchkit_registry, algorithm):
    solver = Solver(searchkit_registry, "sliding-tiles", algorithm=algorithm, heuristic="manhattan")
    for board in BOARDS:
        result = solver.solve(Case.generated(board)).result
        plain = _plain_run(board, algorithm)
        assert "no-undo" not in dict(result.stats.rule_cuts), algorithm
        assert (result.status, result.cost, result.stats.expanded, result.stats.peak_stored) == \
            (plain.status, plain.cost, plain.stats.expanded, plain.stats.peak_stored), (algorithm, board)


def test_no_undo_still_cuts_under_plain_ida_star_and_switching_it_off_there_is_refused(searchkit_registry):
    solver = Solver(searchkit_registry, "sliding-tiles", algorithm="ida_star", heuristic="manhattan")
    result = solver.solve(Case.generated(BOARDS[0])).result
    assert result.cost == 31 and dict(result.stats.rule_cuts)["no-undo"] > 0
    from searchkit.errors import PlanError

    with pytest.raises(PlanError, match="'no-undo' does not act under astar"):
        Solver(searchkit_registry, "sliding-tiles", algorithm="astar", heuristic="manhattan",
               disabled=frozenset({"no-undo"}))
    listed = {r.name: r for r in searchkit.rules("sliding-tiles")}["no-undo"]
    assert set(listed.algorithms) == {"ida_star", "bounded_dfs"}


def test_a_path_rule_acts_only_without_duplicate_detection(searchkit_registry):
    rule = PruningRule("g", "no-undo", "never undo", path_in_state=True)
    plain = PruningRule("g", "other", "a state rule")
    for name, alg in searchkit_registry.algorithms.items():
        if "successors" not in alg.rule_hooks:
            continue
        assert rule.acts_under(alg) == (not alg.detects_duplicates), name
        assert plain.acts_under(alg), name
    assert not rule.acts_under(types.SimpleNamespace(name="x", rule_hooks=frozenset({"successors"}),
                                                     detects_duplicates=True))
