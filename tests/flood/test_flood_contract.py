"""The Flood-It plugin keeps the searchkit.testing contract."""

import pytest

from searchkit.testing import contract_checks


@pytest.mark.parametrize("check", contract_checks("flood", max_size=4), ids=lambda c: c.name)
def test_flood_contract(check):
    check()
