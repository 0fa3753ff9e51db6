"""An option that takes one value, given twice, is refused naming it (two readings of one setting: click kept
the last one silently); options that collect values repeat as before."""

from __future__ import annotations

import click

from searchkit.cli import cli
from searchkit.cli.common import OnceCommand

from conftest import EXAMPLES

HDU = str(EXAMPLES / "flood" / "hdu4127-sample.txt")


def test_a_value_given_twice_is_refused_naming_the_option(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", HDU, "--time-limit", "0", "--time-limit", "100"])
    assert out.exit_code == 2 and out.stdout == ""
    assert "option --time-limit is given more than once" in out.stderr, out.stderr
    out = searchkit_cli_run(["solve", "flood", HDU, "-a", "astar", "--algorithm=ida_star"])
    assert out.exit_code == 2 and "option --algorithm / -a is given more than once" in out.stderr, out.stderr


def test_no_record_file_is_written_when_two_are_named(searchkit_cli_run, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    out = searchkit_cli_run(["solve", "flood", HDU, "-O", str(a), "-O", str(b)])
    assert out.exit_code == 2 and "option --output / -O" in out.stderr
    assert not a.exists() and not b.exists()


def test_a_switch_twice_and_options_that_collect_are_accepted(searchkit_cli_run):
    assert searchkit_cli_run(["solve", "flood", HDU, "--stats", "--stats"]).exit_code == 0
    out = searchkit_cli_run(["compare", "flood", HDU, "-H", "colours", "-H", "puchert"])
    assert out.exit_code == 0, out.stderr


def test_every_command_of_every_game_refuses_repeated_values(searchkit_registry):
    # registry-wide: each command the CLI can build, for every game, is a OnceCommand
    ctx = click.Context(cli, obj=searchkit_registry)
    checked = []
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        subs = [command]
        if isinstance(command, click.Group):
            sub_ctx = click.Context(command, parent=ctx, info_name=name, obj=searchkit_registry)
            subs = [command.get_command(sub_ctx, s) for s in command.list_commands(sub_ctx)]
        for sub in subs:
            assert isinstance(sub, OnceCommand), f"searchkit {name} {sub.name}"
            checked.append(f"{name} {sub.name}")
    assert {"solve flood", "compare flood", "verify flood", "show flood", "pdb build", "report report"} <= set(checked)
