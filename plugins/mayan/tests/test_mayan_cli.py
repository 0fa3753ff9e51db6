"""The Mayan puzzle through ``searchkit solve mayan``: judge output, options and bad input."""

from __future__ import annotations

import json

import pytest

from mayan_paths import EXAMPLES, SHARED_CASES, shared

pytestmark = pytest.mark.python_engine("the Mayan puzzle has no native domain")

SAMPLE = EXAMPLES / "mayan" / "noip2011-sample.in"
RULES = ("left-swap", "few-blocks", "transposition", "lower-bound")


def test_sample_prints_the_judges_answer(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "mayan", str(SAMPLE)])
    assert out.exit_code == 0
    assert out.output == "2 1 1\n3 1 1\n3 0 1\n"


def test_every_shared_case_in_one_call(searchkit_cli_run):
    shared("mayan")
    cases = sorted(SHARED_CASES.glob("mayan/**/*.in"))
    assert len(cases) == 31
    out = searchkit_cli_run(["solve", "mayan", *map(str, cases)])
    assert out.exit_code == 0
    blocks = out.output.split("==> ")[1:]
    assert len(blocks) == len(cases)
    for case, block in zip(cases, blocks):
        header, _, body = block.partition(" <==\n")
        assert header == str(case)
        assert body.split() == case.with_suffix(".out").read_text().split(), case.name


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_off_keeps_the_answer(searchkit_cli_run, rule):
    for name in ("solvable/solvable-08.in", "solvable/solvable-12.in", "no-solution/nosol-05.in"):
        path = shared("mayan", *name.split("/"))
        out = searchkit_cli_run(["solve", "mayan", "--no-prune", rule, str(path)])
        assert out.output.split() == path.with_suffix(".out").read_text().split(), (rule, name)


def test_json_and_stats(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "mayan", "--format", "json", str(SAMPLE)])
    record = json.loads(out.output)
    assert record["moves"] == [[2, 1, 1], [3, 1, 1], [3, 0, 1]]
    assert record["status"] == "solved" and record["algorithm"] == "bounded_dfs"
    assert len(record["stats"]["per_depth"]) == 4 and record["stats"]["per_depth"][0] == 1
    nosol = shared("mayan", "no-solution", "nosol-01.in")
    record = json.loads(searchkit_cli_run(["solve", "mayan", "--format", "json", str(nosol)]).output)
    assert record["status"] == "exhausted" and record["moves"] == []


def test_show_draws_each_board(searchkit_cli_run):
    """--show draws as `searchkit show mayan` does: the same replay and boards (issue 20 item 8)."""
    out = searchkit_cli_run(["solve", "mayan", "--show", str(SAMPLE)])
    lines = out.output.splitlines()
    assert lines[:3] == ["2 1 1", "3 1 1", "3 0 1"]
    assert "start" in lines and "move 3: 3 0 1" in lines and "move 1: 2 1 1 (swap)" in lines
    assert lines[-1] == "(empty)"
    assert "\x1b[" not in out.output  # no colour codes when not on a terminal
    shown = searchkit_cli_run(["show", "mayan", str(SAMPLE)]).output.splitlines()

    def labels(text_lines):
        return [line for line in text_lines if line.startswith(("start", "move "))]

    assert labels(lines) == labels(shown)  # the same steps (--show leaves out the empty top rows)


def test_shortest_mode_and_exact_padding(searchkit_cli_run):
    # 1 1 . 1 : one left move of the last block clears it; exactly 2 moves needs a detour
    text = "2\n1 0\n1 0\n0\n1 0\n0\n"
    exact = searchkit_cli_run(["solve", "mayan", "-"], input=text)
    assert exact.output == "1 0 1\n0 0 1\n"
    shortest = searchkit_cli_run(["solve", "mayan", "--shortest", "-"], input=text)
    assert shortest.output == "3 0 -1\n"


def test_same_colour_swap_option(searchkit_cli_run):
    text = "2\n1 0\n1 0\n0\n1 0\n0\n"
    out = searchkit_cli_run(["solve", "mayan", "--same-colour-swaps", "-"], input=text)
    assert out.output == "0 0 1\n3 0 -1\n"  # the swap of the two left 1s now counts as a move


def test_board_size_and_run_length_options(searchkit_cli_run):
    # a 3-wide board where runs of 2 vanish
    out = searchkit_cli_run(["solve", "mayan", "--width", "3", "--height", "4", "--run-length", "2", "-"],
                            input="1\n1 0\n0\n1 0\n")
    assert out.exit_code == 0 and out.output == "0 0 1\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "<stdin>: empty input"),
        ("3\n1 1 2 2 1 1 2 2 0\n0\n0\n0\n0\n", "<stdin>:2: column 1 (x=0) has 8 blocks, the board is 7 high"),
        ("3\n1 2\n0\n0\n0\n0\n", "<stdin>:2:"),
        ("3\n1 x 0\n0\n0\n0\n0\n", "<stdin>:2:"),
        ("3\n1 -2 0\n0\n0\n0\n0\n", "<stdin>:2:"),
        ("6\n1 0\n0\n0\n0\n0\n", "<stdin>:1: the number of moves n must be in 1..5, found 6"),
        ("99999999999\n1 0\n0\n0\n0\n0\n", "<stdin>:1: the number of moves n must be in 1..5, found 99999999999"),
        ("3\n1 0\n0\n0\n", "<stdin>:5: expected 5 column lines after n, found 3"),
        ("3\n1 1 1 0\n0\n0\n0\n0\n", "<stdin>:"),
    ],
)
def test_bad_input_is_one_line_exit_2(searchkit_cli_run, text, message):
    out = searchkit_cli_run(["solve", "mayan", "-"], input=text)
    assert out.exit_code == 2
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("searchkit: error: ")
    assert message in lines[0]
    # the one case still has its output line; an empty file, which holds no case, still has its one line (as
    # its one JSON record): every input, one line out
    assert out.stdout == "? (input error)\n"
    assert "Traceback" not in out.output


def test_starting_run_can_be_settled_first(searchkit_cli_run):
    text = "1\n1 1 1 2 0\n2 0\n2 0\n0\n0\n"
    assert searchkit_cli_run(["solve", "mayan", "-"], input=text).exit_code == 2
    out = searchkit_cli_run(["solve", "mayan", "--settle-start", "-"], input=text)
    # settling clears the 1 1 1, then the row 2 2 2: the board starts empty, and an empty board has no move
    assert out.exit_code == 0 and out.output == "-1\n"


def test_generated_instances_solve(searchkit_cli_run):
    gen = searchkit_cli_run(["generate", "mayan", "--count", "1", "--seed", "3", "--size", "6"])
    assert gen.exit_code == 0
    out = searchkit_cli_run(["solve", "mayan", "-"], input=gen.output)
    assert out.exit_code == 0


