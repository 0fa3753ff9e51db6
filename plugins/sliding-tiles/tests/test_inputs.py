"""Tile numbers a judge's scanf would reject are errors, not tiles (searchkit issue 9, item 18)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from searchkit.errors import InputError
from searchkit.game import Case

from sliding_tiles.game import SlidingTilesGame


GAME = SlidingTilesGame()


def parse(text):
    return list(GAME.parse(text, "in.txt", {"moves": False}))


@pytest.mark.parametrize("token", ["+8", "8_0", "\uff18", "\u0668", "8.0", "9" * 5000])
def test_non_ascii_or_signed_or_underscored_tiles_are_errors(token):
    (err, good) = parse(f"1 2 3\n4 5 6\n7 {token} 0\n\n1 0\n3 2\n")
    assert isinstance(err, InputError) and err.line == 3 and err.case == 1 and len(err.message) < 120
    assert isinstance(good, Case)


def test_ascii_whitespace_only_separates_tiles():
    (err,) = parse("1 2\u00a03\n4 5 6\n7 8 0\n")  # a no-break space is not whitespace to scanf
    assert isinstance(err, InputError) and "'2\\xa03'" in err.message
    assert [type(i) for i in parse("1 2 3\r\n4 5 6\r\n7 8 0\r\n")] == [Case]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["1", " ", "\t", "\r", "\v", "\f", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "x", "é"]),
                max_size=12).map("".join))
def test_a_line_holds_a_token_exactly_when_the_token_pattern_finds_one(line):
    # the fast test (str.isspace) counts \x1c-\x1f and non-ASCII spaces as space; here they are tokens
    from sliding_tiles.game import _TOKEN, _has_token

    assert _has_token(line) == bool(_TOKEN.search(line))


def test_generate_refuses_a_board_too_large_to_hold(searchkit_cli_run):
    """A tester's defect: `generate sliding-tiles --size 100000` ended in a MemoryError traceback (Flood-It
    refuses such sizes in one line); now one line and exit status 2, before anything is allocated."""
    out = searchkit_cli_run(["generate", "sliding-tiles", "--size", "100000"])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.splitlines() == ["searchkit: error: cannot generate sliding-tiles instances: a board of side "
                                       "100000 has 10000000000 tiles; at most 1000000 are generated"]
