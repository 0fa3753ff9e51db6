"""The one reader behind every command: files and standard input to cases, bad input reported one way."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from searchkit.errors import InputError


def source_name(path: str) -> str:
    """How ``path`` is named in messages (``-`` is ``<stdin>``)."""
    return "<stdin>" if path == "-" else path


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8 with or without a byte-order mark.

    Raises:
        InputError: (fatal) when the file cannot be read or is not UTF-8 text,
            naming the file and the reason in one line.
    """
    source = source_name(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise OSError("no standard input")
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x} at offset {exc.start}",
                         source=source) from None


@attrs.frozen
class Item:
    """One thing read: a case or an input error.

    Attributes:
        file: 0-based index of the file in the command line.
        source: the file's name in messages.
        value: a :class:`~searchkit.game.Case` or an :class:`~searchkit.errors.InputError`.
        started: ``time.perf_counter()`` when reading this item began (the
            case's time limit counts from it).
    """

    file: int
    source: str
    value: Any
    started: float


def iter_cases(game, paths: Sequence[str], options: Mapping[str, Any]) -> Iterator[Item]:
    """Every case and input error of ``paths`` in order, as :class:`Item` values.

    An unreadable, non-UTF-8 or empty file gives one fatal
    :class:`~searchkit.errors.InputError` item naming it; the other files are
    still read.  The game's parser is iterated lazily, so a huge file's first
    case is solved before its last is read.
    """
    for index, path in enumerate(paths):
        source = source_name(path)
        started = time.perf_counter()
        try:
            text = read_input(path)
        except InputError as exc:
            yield Item(index, source, exc, started)
            continue
        if not text.strip():
            yield Item(index, source, InputError("empty input, expected at least one case", source=source), started)
            continue
        items = iter(game.parse(text, source, options))
        while True:
            started = time.perf_counter()
            try:
                value = next(items)
            except StopIteration:
                break
            yield Item(index, source, value, started)
