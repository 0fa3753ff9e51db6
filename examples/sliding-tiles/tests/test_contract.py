"""The searchkit contract suite (states, successors, round trip, replay, admissibility, pruning)."""

import pytest
from searchkit.testing import contract_checks

# Searches (replay, pruning) run on boards of side 1..3.  The admissibility
# contract explores whole state spaces and skips a board only after finding
# more than 50 000 reachable states -- a 3x3 board has 181 440, so each 3x3
# sample would cost ~0.3 s for nothing: it gets sides 1..2 (exhaustive), and
# tests/test_heuristics.py checks every 3x3 board against BFS instead.
# max_nodes: a search stopped at the limit is skipped, not failed; IDA* with
# no-undo switched off can need millions of nodes on a deep 3x3 board, and a
# low limit keeps each such skip under ~0.3 s.
SEARCH_CHECKS = [c for c in contract_checks("sliding-tiles", max_size=3, max_nodes=50_000)
                 if c.name != "heuristics-admissible"]
SMALL_CHECKS = [c for c in contract_checks("sliding-tiles", max_size=2) if c.name == "heuristics-admissible"]


@pytest.mark.parametrize("check", SEARCH_CHECKS + SMALL_CHECKS, ids=lambda c: c.name)
def test_contract(check):
    check()
