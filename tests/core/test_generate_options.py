"""``generate`` and ``check``: a generator option is given once, as its ``--flag`` or as ``-o NAME=VALUE``."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("args, flag", [
    (["generate", "sliding-tiles", "--scramble", "2", "-o", "scramble=40", "--seed", "1"], "--scramble"),
    (["generate", "sliding-tiles", "-o", "scramble=2", "-o", "scramble=40", "--seed", "1"], "--scramble"),
    (["generate", "mayan", "-o", "moves=100", "--moves", "3"], "--moves"),
    (["generate", "mayan", "--no-solvable", "-o", "solvable=true"], "--solvable"),
    (["generate", "flood", "--colours", "2", "-o", "colours=9", "--size", "3"], "--colours"),
    (["generate", "flood", "-o", "colours=4", "-o", "--colours=4"], "--colours"),  # the same value: still twice
    (["check", "flood", "-H", "colours", "--colours", "2", "-o", "colours=9"], "--colours"),
    (["check", "flood", "-H", "colours", "-o", "width=2", "-o", "width=3"], "--width"),
])
def test_a_generator_option_given_twice_is_refused_naming_it(searchkit_cli_run, args, flag):
    out = searchkit_cli_run(args)
    assert out.exit_code == 2, out.output
    assert out.stdout == "" and f"option {flag} is given more than once" in out.stderr


def test_the_refusal_is_one_line_from_the_command(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "searchkit", "generate", "mayan", "-o", "moves=100", "--moves", "3"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()  # no traceback, no usage block
    assert line.startswith("searchkit: error: option --moves is given more than once"), line


def test_distinct_generator_options_by_o_and_flag_still_combine(searchkit_cli_run):
    both = searchkit_cli_run(["generate", "flood", "-o", "width=5", "--height", "2", "--colours", "3"])
    alone = searchkit_cli_run(["generate", "flood", "--width", "5", "--height", "2", "-o", "colours=3"])
    assert both.exit_code == 0 and both.output == alone.output
    assert both.output.splitlines()[1] == "5 2"
    default = searchkit_cli_run(["generate", "sliding-tiles", "-o", "scramble=40", "--seed", "1"])
    flag = searchkit_cli_run(["generate", "sliding-tiles", "--scramble", "40", "--seed", "1"])
    assert default.exit_code == 0 and default.output == flag.output
