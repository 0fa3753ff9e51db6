"""Every output format in one table of writers keyed by name (issue 20 item 7).

=========  ========================  =============================================================
name       commands                  what it writes
=========  ========================  =============================================================
text       solve, compare            solve: the game's answer line per case; compare: rich tables
json       solve, compare            solve: one record per case (``docs/records.md``); compare: one
                                     document (rows, totals, disagreements)
jsonl      solve, compare            the same records, one a line, to stdout or ``--output`` (compare:
                                     one per case and strategy, written as each finishes)
csv        compare                   one row per case and strategy, then the totals
svg        show                      the solution's frames in one SVG file
png        show                      the frames in one PNG image (Pillow)
gif        show                      the frames as an animated GIF (Pillow)
html       show                      a self-contained page stepping through the frames
=========  ========================  =============================================================

A face: ``solve`` and ``compare`` take their ``--format`` choices, and
``show`` the suffixes ``-o`` accepts, from :data:`WRITERS`; each writer is a
``"module:attr"`` reference, imported only when that format is written.
Every ``solve`` writer, on every path (one case at a time, ``--jobs``, the
Python API's records), is made by :func:`solve_writer` from this table,
behind one protocol: ``Writer(solver, fmt, stats, headers, quiet=, sink=)``
with ``report``, ``improvement``, ``code`` and ``extra``
(:class:`searchkit.machinery.reporting.Reporter`'s); ``text`` and ``json`` are that
class, ``jsonl`` its :class:`~searchkit.formats.cases.RecordReporter`.
The others live in this package: :mod:`searchkit.formats.comparison`,
:mod:`searchkit.formats.pictures`.  Adding a format is one entry here and
one function or class beside its kind.
"""

from __future__ import annotations

import importlib


class WriteError(Exception):
    """A writer could not write (the message is the one line to print: a missing library, an unwritable path)."""


class Writer:
    """One output format: its ``name`` and, for each command that offers it, the writer's ``"module:attr"``."""

    __slots__ = ("name", "writes", "by_command")

    def __init__(self, name: str, writes: str, by_command: dict[str, str]) -> None:
        self.name, self.writes, self.by_command = name, writes, by_command

    def __repr__(self) -> str:
        return f"Writer({self.name!r}, commands={sorted(self.by_command)})"


_REPORTER = "searchkit.machinery.reporting:Reporter"
_COMPARISON = "searchkit.formats.comparison"
_PICTURES = "searchkit.formats.pictures"

#: The output formats by name, in the order the commands list them.
WRITERS: dict[str, Writer] = {w.name: w for w in (
    Writer("text", "a line per case (solve); tables (compare)",
           {"solve": _REPORTER, "compare": f"{_COMPARISON}:write_text"}),
    Writer("json", "a record per case (solve); one document (compare)",
           {"solve": _REPORTER, "compare": f"{_COMPARISON}:write_json"}),
    Writer("jsonl", "JSON Lines records, resumable", {"solve": "searchkit.formats.cases:RecordReporter",
                                                      "compare": "searchkit.cli.tools:CompareRecords"}),
    Writer("csv", "a row per case and strategy", {"compare": f"{_COMPARISON}:write_csv"}),
    Writer("svg", "the frames in one SVG file", {"show": f"{_PICTURES}:write_svg"}),
    Writer("png", "the frames in one PNG image", {"show": f"{_PICTURES}:write_png"}),
    Writer("gif", "the frames as an animated GIF", {"show": f"{_PICTURES}:write_gif"}),
    Writer("html", "a page stepping through the frames", {"show": f"{_PICTURES}:write_html"}),
)}


def choices(command: str) -> list[str]:
    """The format names ``command`` (``solve``, ``compare`` or ``show``) offers, in table order."""
    return [name for name, w in WRITERS.items() if command in w.by_command]


def writer(name: str, command: str):
    """The writer of format ``name`` for ``command``, imported now.

    Raises:
        KeyError: ``command`` does not offer ``name`` (the CLI's choices keep this from happening).
    """
    module, _, attr = WRITERS[name].by_command[command].partition(":")
    return getattr(importlib.import_module(module), attr)


def solve_writer(fmt: str, solver, *, stats: bool = False, headers: bool = False, quiet: bool = False, sink=None):
    """The ``solve`` writer of format ``fmt`` (``text``, ``json``, ``jsonl``) for ``solver``, from :data:`WRITERS`.

    Raises:
        KeyError: ``solve`` offers no format ``fmt``.
        ValueError: a ``sink`` (a record file) for a format that prints to stdout.
    """
    return writer(fmt, "solve")(solver, fmt, stats, headers, quiet=quiet, sink=sink)
