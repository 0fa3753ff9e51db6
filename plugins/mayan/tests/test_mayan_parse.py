"""The input reader: good inputs and one test per error, with its line number."""

import pytest

from searchkit_mayan.parse import MayanInputError, parse

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")

SAMPLE = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n"


def error(text, **options):
    with pytest.raises(MayanInputError) as info:
        parse(text, **options)
    err = info.value
    assert str(err) == f"line {err.line}: {err.message}"
    return err


def test_sample():
    assert parse(SAMPLE) == (3, [[1], [2, 1], [2, 3, 4], [3, 1], [2, 4, 3, 4]])


def test_blank_lines_and_empty_columns():
    assert parse("\n2\n\n0\n0\n1 1 2 0\n0\n0\n\n") == (2, [[], [], [1, 1, 2], [], []])


def test_empty_input():
    err = error(" \n\n")
    assert err.line == 1 and "empty input" in err.message


@pytest.mark.parametrize("first, found", [("0", "0"), ("6", "6"), ("-1", "-1")])
def test_n_out_of_range(first, found):
    err = error(SAMPLE.replace("3", first, 1))
    assert err.line == 1 and found in err.message


def test_n_max_is_an_option():
    assert parse(SAMPLE.replace("3", "6", 1), max_moves=6)[0] == 6


def test_n_not_an_integer():
    err = error(SAMPLE.replace("3", "three", 1))
    assert err.line == 1 and "'three'" in err.message


def test_extra_tokens_after_n_are_the_first_column():
    # the judges read a token stream (scanf): "3 1 0" is n and the first column
    assert parse("3 1 0\n0\n0\n0\n0\n") == (3, [[1], [], [], [], []])


def test_too_few_column_lines():
    err = error("3\n1 0\n2 1 0\n")
    assert err.line == 4 and "expected 5 column lines" in err.message and "found 2" in err.message


def test_too_many_column_lines():
    err = error(SAMPLE + "1 0\n")
    assert err.line == 7 and "found 6" in err.message


def test_column_too_tall():
    err = error("3\n1 0\n1 2 1 2 1 2 1 2 0\n0\n0\n0\n")
    assert err.line == 3
    assert err.message == "column 2 (x=1) has 8 blocks, the board is 7 high (--height)"


def test_missing_terminating_zero():
    err = error("3\n1 0\n2 1\n0\n0\n0\n")
    assert err.line == 3 and "must end with 0" in err.message


def test_tokens_after_zero_start_the_next_column():
    # as a token stream this is columns [1], [2], [], [], []: what the judges' scanf reads
    assert parse("3\n1 0 2\n0\n0\n0\n0\n") == (3, [[1], [2], [], [], []])
    assert error("3\n1 0 2\n0\n0\n0\n0\n0\n").line == 7  # a sixth column line


def test_non_integer_colour():
    err = error("3\n1 0\n2 x 0\n0\n0\n0\n")
    assert err.line == 3 and "'x'" in err.message


def test_negative_colour():
    err = error("3\n1 0\n0\n0\n0\n-2 0\n")
    assert err.line == 6 and "negative" in err.message


def test_run_on_start_board():
    text = "1\n1 2 0\n1 3 0\n1 0\n2 0\n0\n"
    err = error(text)
    assert err.line == 2 and "run" in err.message and "settle" in err.message
    # Settling first: the 1s vanish and the 2 and 3 fall.
    assert parse(text, settle_start=True) == (1, [[2], [3], [], [2], []])


def test_other_sizes():
    assert parse("1\n1 1 2 0\n0\n0\n", width=3, height=3) == (1, [[1, 1, 2], [], []])
    assert error("1\n1 1 2 0\n0\n0\n", width=3, height=2).line == 2
