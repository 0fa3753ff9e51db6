"""``generate mayan`` gives boards that clear in exactly n moves, or fails loudly (issue 9, item 5)."""

from __future__ import annotations

import random

import pytest

from mayan_search import solve

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")


@pytest.fixture(scope="module")
def gen(searchkit_registry):
    return searchkit_registry.generator("mayan")


def test_seeds_1_to_50_with_the_defaults_all_solve(gen):
    for seed in range(1, 51):
        inst = gen(random.Random(seed), gen.default_size)
        board, shape = inst.packed()
        assert sum(map(len, inst.columns)) == gen.default_size
        assert solve(board, inst.n, shape).moves is not None, f"seed {seed}: {inst}"


@pytest.mark.parametrize("options", [{"moves": 1}, {"moves": 4, "colours": 5}, {"width": 3, "height": 4},
                                     {"colours": 2, "moves": 3}])
def test_other_options_solve_in_exactly_n(gen, options):
    for seed in range(10):
        inst = gen(random.Random(seed), 3 * options["moves"] if "moves" in options else 6, options)
        board, shape = inst.packed()
        answer = solve(board, inst.n, shape)
        assert answer.moves is not None and len(answer.moves) == inst.n


def test_sizes_no_solvable_board_has_are_an_error(gen):
    with pytest.raises(ValueError, match="holds 3..7 blocks, not 9"):
        gen(random.Random(1), 9, {"moves": 1})
    with pytest.raises(ValueError, match="no run of 3 fits"):
        gen(random.Random(1), 3, {"width": 2, "height": 2})


def test_unsolvable_boards_on_request_are_still_random(gen):
    inst = gen(random.Random(1), 9, {"solvable": False})
    assert sum(map(len, inst.columns)) == 9


def test_the_cli_reports_an_impossible_request_in_one_line(searchkit_cli_run):
    out = searchkit_cli_run(["generate", "mayan", "--size", "30", "-o", "moves=1"])
    assert out.exit_code == 2 and "holds 3..7 blocks, not 30" in out.output and "Traceback" not in out.output
