"""Mayan inputs: a token stream as the judges read it, ASCII integers only, bounded run lengths (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from searchkit.errors import InputError
from searchkit.game import Case, option_defaults
from searchkit_mayan.board import Shape
from searchkit_mayan.game import MayanGame
from searchkit_mayan.parse import MayanInputError, parse

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")

SAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "mayan" / "noip2011-sample.in").read_text()
GAME = MayanGame()


def items(text, **options):
    opts = option_defaults(GAME.options)
    opts.update(options)
    return list(GAME.parse(text, "t", opts))


# --- item 17: the NOIP format is a token stream ----------------------------------------------

def test_the_sample_on_one_line_is_the_sample():
    assert parse(" ".join(SAMPLE.split())) == parse(SAMPLE) == (3, [[1], [2, 1], [2, 3, 4], [3, 1], [2, 4, 3, 4]])


def test_any_layout_is_read_as_scanf_does():
    assert parse("3\n1 0 2 1\n0 2 3 4 0\n3 1 0 2\t4 3 4 0\r\n") == parse(SAMPLE)


def test_stream_errors_still_name_a_line():
    with pytest.raises(MayanInputError) as info:
        parse("3 1 0 2 1 0\n2 3 4 0 3 1 0 2 4 3 4\n")
    assert info.value.line == 2 and "ends in column 5" in info.value.message
    with pytest.raises(MayanInputError) as info:
        parse("3 1 0 2 1 0 2 3 4 0\n3 1 0 2 4 3 4 0\n7 0\n")
    assert info.value.line == 3 and "found more tokens from '7'" in info.value.message
    with pytest.raises(MayanInputError) as info:
        parse("3 1 0 1 2 1 2 1 2 1 2 0 0 0 0\n")
    assert info.value.line == 1 and "more than 7 blocks" in info.value.message


def test_the_cli_solves_the_one_line_sample(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "mayan", "-"], input=" ".join(SAMPLE.split()) + "\n")
    assert out.exit_code == 0 and out.output.splitlines() == ["2 1 1", "3 1 1", "3 0 1"]


# --- item 18: ASCII -?[0-9]+ only ------------------------------------------------------------

@pytest.mark.parametrize("token", ["1_0", "+3", "\uff13", "\u0663", "3.0", "9" * 5000])
def test_tokens_a_judge_rejects_are_errors(token):
    for text in (SAMPLE.replace("2 3 4 0", f"2 {token} 4 0"), SAMPLE.replace("3", token, 1)):
        (err,) = items(text)
        assert isinstance(err, InputError) and err.line in (1, 4) and len(str(err)) < 200


# --- item 12: a run longer than the board can never vanish -------------------------------------

def test_a_huge_run_length_builds_no_table_of_that_size():
    shape = Shape(5, 7, 10 ** 9)  # used to build a list of 10**9 shifts
    assert shape.run_mask(0) == 0


@pytest.mark.parametrize("run", [8, 10 ** 9])
def test_a_run_longer_than_the_board_answers_minus_1(searchkit_cli_run, run):
    out = searchkit_cli_run(["solve", "mayan", "--run-length", str(run), "-"], input=SAMPLE)
    assert out.exit_code == 0 and out.output.splitlines() == ["-1"]


def test_a_run_as_long_as_the_board_still_vanishes(searchkit_cli_run):
    text = "1\n1 0\n1 0\n1 0\n1 1 0\n0\n"  # (3,0) moved right: five 1s in the bottom row
    out = searchkit_cli_run(["solve", "mayan", "--run-length", "5", "-"], input=text)
    assert out.exit_code == 0 and out.output.splitlines() == ["3 0 1"]


def test_parse_yields_cases_for_good_input():
    (case,) = items(SAMPLE)
    assert isinstance(case, Case) and case.data.n == 3


# --- item 2 for Mayan: other sizes read back without options ----------------------------------

def test_other_sizes_are_written_under_a_header_that_parse_honours():
    from searchkit_mayan.instance import MayanInstance

    inst = MayanInstance(6, ((1, 2), (1, 2), (2, 1), (), (), ()), 6, 4, 3)
    text = GAME.format_input([inst])
    assert text.startswith("# searchkit mayan width=6 height=4 max-moves=6\n6\n")
    (case,) = items(text)
    assert case.data == inst
    (err,) = items(text, width=7)
    assert "the header says width=6, but --width 7 was given" in err.message
    (err,) = items(text, width=5)  # the NOIP size, given by hand: as much a conflict as any other
    assert "the header says width=6, but --width 5 was given" in err.message
    (case,) = items(text, width=6)
    assert case.data == inst
    assert GAME.format_input([MayanInstance(3, ((1,),) * 5)]) == "3\n1 0\n1 0\n1 0\n1 0\n1 0\n"


@pytest.mark.parametrize("header", ["# searchkit mayan width=1000000", "# searchkit mayan colours=3", "# hello"])
def test_bad_headers_are_one_line_errors(header):
    (err,) = items(header + "\n" + SAMPLE)
    assert err.line == 1 and len(str(err)) < 200


def test_huge_sides_are_refused_before_anything_is_built():
    (err,) = items(SAMPLE, height=10 ** 9)
    assert "at most 100" in err.message


def test_a_header_against_the_default_width_given_on_the_command_line_is_refused(searchkit_cli_run, tmp_path):
    """``--width 5`` equals the default, but the user gave it: a 6-wide header must not silently win."""
    from searchkit_mayan.instance import MayanInstance

    path = tmp_path / "w6.in"
    path.write_text(GAME.format_input([MayanInstance(6, ((1, 2), (1, 2), (2, 1), (), (), ()), 6, 4, 3)]))
    assert searchkit_cli_run(["solve", "mayan", str(path)]).exit_code == 0
    refused = searchkit_cli_run(["solve", "mayan", "--width", "5", str(path)])
    assert refused.exit_code == 2 and "the header says width=6, but --width 5 was given" in refused.output
    assert searchkit_cli_run(["solve", "mayan", "--width", "6", str(path)]).exit_code == 0
