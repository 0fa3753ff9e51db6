"""The output formats sit in one table of writers keyed by name (searchkit.formats.WRITERS, issue 20 item 7)."""

from __future__ import annotations

import click
import pytest

from searchkit.formats import WRITERS, WriteError, choices, writer


def _format_choices(command: click.Command) -> list[str]:
    for param in command.params:
        if param.name == "fmt":
            return list(param.type.choices)
    raise AssertionError(f"{command.name} has no --format")


def test_every_named_format_is_in_the_table_and_resolves():
    assert list(WRITERS) == ["text", "json", "jsonl", "csv", "svg", "png", "gif", "html"]
    for name, entry in WRITERS.items():
        for command in entry.by_command:
            assert callable(writer(name, command)), (name, command)


def test_the_commands_offer_what_the_table_says():
    from searchkit.cli.show import FORMATS
    from searchkit.cli.solve import make_solve_command
    from searchkit.cli.tools import make_compare_command
    from searchkit.plugin.manager import load_registry

    reg = load_registry()
    game = sorted(reg.games)[0]
    assert _format_choices(make_solve_command(reg, game)) == choices("solve") == ["text", "json", "jsonl"]
    assert _format_choices(make_compare_command(reg, game)) == choices("compare") == ["text", "json", "jsonl", "csv"]
    assert FORMATS == (".svg", ".png", ".gif", ".html")


def test_a_picture_writer_says_in_one_line_why_it_cannot_write(tmp_path):
    from searchkit.formats.pictures import _save_text

    with pytest.raises(WriteError, match="cannot write .*dir.svg"):
        _save_text(str(tmp_path / "no" / "such" / "dir.svg"), "<svg/>")


def test_an_unknown_pairing_is_a_key_error():
    with pytest.raises(KeyError):
        writer("csv", "solve")
