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


def test_the_generator_stays_within_what_the_parser_reads_back(gen, searchkit_cli_run, tmp_path):
    """``--moves 1000`` and ``--width 101`` were generated with a header (``max-moves=1000``, ``width=101``)
    that the parser refuses (1..100): generate-then-parse was not the identity.  The generator's ranges are
    the parser's; at the largest moves the board parses and clears in exactly n."""
    from searchkit_mayan.game import _HEADER_LIMIT, SIDE_LIMIT

    ranges = {opt.name: opt.max for opt in gen.options}
    assert ranges["width"] == ranges["height"] == SIDE_LIMIT and ranges["moves"] == _HEADER_LIMIT
    for option in ("--moves", "--width", "--height"):
        over = searchkit_cli_run(["generate", "mayan", option, "101"])
        assert over.exit_code == 2 and "1<=x<=100" in over.output, over.output
    board = tmp_path / "m.txt"
    made = searchkit_cli_run(["generate", "mayan", "--moves", "100", "--seed", "3"])
    assert made.exit_code == 0, made.output
    board.write_text(made.output)
    solved = searchkit_cli_run(["solve", "mayan", str(board), "--format", "json"])
    assert solved.exit_code == 0, solved.output
    assert '"cost": 100' in solved.output or '"cost":100' in solved.output, solved.output[:400]
