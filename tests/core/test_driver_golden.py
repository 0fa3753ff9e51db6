"""Every driver's exact results on fixed boards, against ``tests/golden/drivers.json`` (see ``driver_golden.py``).

Status, cost, moves, lower bound and every clock-free statistic must match:
a refactor of the drivers or the Solver may not change a count, the order of
expansion or a bound.  The native engine is held to the same figures.
"""

from __future__ import annotations

import json

import pytest

import driver_golden

GOLDEN = json.loads(driver_golden.GOLDEN.read_text())


@pytest.mark.parametrize("label", [label for label, _, _ in driver_golden.RUNS])
def test_driver_matches_golden(label, searchkit_registry):
    if not driver_golden.SHARED.exists() and not label.endswith("puzzle.txt", 0, label.index(":")):
        pytest.skip("../shared/cases not present (shared/ is not beside the repository)")
    got = driver_golden.run_one(searchkit_registry, label)
    want = GOLDEN[label]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w, f"{label}: {w['case']}"


def test_every_run_is_recorded():
    assert sorted(GOLDEN) == sorted(label for label, _, _ in driver_golden.RUNS)
