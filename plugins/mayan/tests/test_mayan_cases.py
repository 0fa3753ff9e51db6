"""Every shared NOIP 2011 case gives its .out, and replaying the answer empties the board."""


import pytest

from mayan_paths import SHARED_CASES, shared
from searchkit_mayan.parse import parse
from mayan_search import format_moves, solve_columns

import mayan_reference as ref

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")

_MAYAN = SHARED_CASES / "mayan"
CASES = sorted(
    str(p.relative_to(_MAYAN)) for p in _MAYAN.glob("**/*.in")
) if _MAYAN.exists() else ["noip2011-sample.in"]


@pytest.mark.parametrize("name", CASES)
def test_case_gives_its_out(name):
    path = shared("mayan", name)
    n, columns = parse(path.read_text())
    out = solve_columns(columns, n)
    assert format_moves(out.moves) == path.with_suffix(".out").read_text().strip()
    if out.moves is not None:
        board = columns + [[]] * (5 - len(columns))
        for x, y, g in out.moves:
            assert any(board), "the board emptied before the last move"
            board = ref.move_unsettled(board, x, y, g)
            assert board is not None, f"illegal move {(x, y, g)}"
            board = ref.settle(board)
        assert not any(board)


def test_bound_cuts_nodes_twentyfold():
    # The claim that justifies the bound, on one crowded no-solution board.
    n, columns = parse(shared("mayan", "no-solution", "nosol-03.in").read_text())
    with_bound = solve_columns(columns, n)
    without = solve_columns(columns, n, lower_bound=False)
    assert with_bound.moves is None and without.moves is None
    assert with_bound.result.stats.expanded * 20 < without.result.stats.expanded


@pytest.mark.parametrize("name", [c for c in CASES if c.startswith("solvable")][:4])
def test_each_rule_is_optional(name):
    n, columns = parse(shared("mayan", name).read_text())
    expected = solve_columns(columns, n).moves
    for rule in ("skip_left_swaps", "colour_cut", "transposition"):
        assert solve_columns(columns, n, **{rule: False}).moves == expected, rule
