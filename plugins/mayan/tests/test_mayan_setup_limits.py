"""The Mayan bound table holds its case's limits (tester defect 10).

On a 30-column board a colour of 20 blocks has C(49, 29), about 2.8 * 10**13, count vectors: filling
that total of the :class:`~searchkit_mayan.bound.BoundTable` ran for minutes into gigabytes under
``--time-limit 2`` or ``--max-nodes 50``.
"""

from __future__ import annotations

from math import comb

import pytest

from searchkit.limits import Limiter, LimitReached, Limits, active

from searchkit_mayan.bound import INFINITE, MAX_VECTORS, BoundTable

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")


def _key(table: BoundTable, total: int) -> int:
    """The key of ``total`` blocks spread over the columns from the left, at most H a column."""
    counts, left = [], total
    for _ in range(table.width):
        counts.append(min(left, table.height))
        left -= counts[-1]
    return table.key(counts)


def test_a_total_with_too_many_vectors_gets_the_weak_bound_without_filling():
    table = BoundTable(30, 30, 3)
    assert comb(20 + 29, 29) > MAX_VECTORS
    assert table[_key(table, 20)] == 0
    assert len(table) == 1  # only the key asked for
    assert table[_key(table, 2)] == INFINITE  # 1 .. R-1 blocks: never cleared, as ever


def test_filling_a_total_checks_the_clock():
    table = BoundTable(6, 7, 3)
    with active(Limiter(Limits(time_limit=0))), pytest.raises(LimitReached) as stop:
        table[_key(table, 12)]
    assert stop.value.status == "time_limit"


def test_filling_a_total_is_charged_first():
    table = BoundTable(8, 20, 3)
    total = 20  # the largest total still tabled (C(26, 7) = 657 800 vectors at 19 is over the cap)
    while comb(total + 7, 7) > MAX_VECTORS:
        total -= 1
    with active(Limiter(Limits(memory_mb=1))), pytest.raises(LimitReached) as stop:
        table[_key(table, total)]
    assert stop.value.status == "memory_limit"


def test_a_wide_board_stops_at_its_node_limit():
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    text = "5\n" + "".join(" ".join(str(1 + (c + i) % 7) for i in range(20)) + " 0\n" for c in range(30))
    solver = Solver(load_registry(), "mayan", options={"width": 30, "height": 30}, limits=Limits(max_nodes=50))
    (case,) = solver.game.parse(text, "m30.txt", solver.options)
    assert solver.solve(case).result.status == "node_limit"
