"""The searchkit contract suite (states, successors, round trip, replay, admissibility, pruning)."""

import pytest
from searchkit.testing import contract_checks


# Searches (replay, pruning) run on boards of side 1..3.  The admissibility
# contract explores whole state spaces, so it draws sides up to the
# generator's check_size (2: a 3x3 board has 181 440 states);
# tests/test_heuristics.py checks every 3x3 board against BFS instead.
# max_nodes: a search stopped at the limit is skipped, not failed; IDA* with
# no-undo switched off can need millions of nodes on a deep 3x3 board, and a
# low limit keeps each such skip under ~0.3 s.
CHECKS = contract_checks("sliding-tiles", max_size=3, max_nodes=50_000)


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.name)
def test_contract(check):
    check()
