"""Seed solutions (``--seed-solution``): moves given by hand or read from an earlier run's output.

A seed is a list of moves in the form the game prints them (``--moves`` text
or the ``moves`` of a ``--format json`` record); the Solver matches each
against the printed form of the legal moves, so no game needs a move parser.
"""

from __future__ import annotations

import json
import os

import attrs

from searchkit.errors import InputError


@attrs.frozen
class Seeds:
    """Known solutions by case.

    Attributes:
        every: moves used for every case (a seed given on the command line), or ``None``.
        by_case: case number (1-based, per file) -> moves, from a record file.
        hashes: case number -> the data hash of the record its moves came from, where the record has one:
            the board the moves were found for (:func:`searchkit.machinery.records.data_hash`).
    """

    every: tuple | None = None
    by_case: dict = attrs.field(factory=dict)
    #: case number -> the ``data_hash`` of the record its moves came from (records that carry one)
    hashes: dict = attrs.field(factory=dict)

    def for_case(self, case) -> tuple | None:
        """The seed's moves for ``case`` (a :class:`~searchkit.game.Case`), or ``None`` when there is none."""
        if self.every is not None:
            return self.every
        return self.by_case.get(case.index)


def _split(text: str) -> tuple:
    return tuple(t for t in text.replace(",", " ").split() if t)


def load_seeds(spec: str) -> Seeds:
    """Read ``--seed-solution SPEC``: a file of records, else the moves themselves.

    A file holds either JSON records, one per line (``--format json`` /
    ``jsonl`` output: the ``moves`` of each record with a ``case`` number and
    a solution; improvement events are skipped; a later record of a case
    wins), or text lines, one per case in order (``--moves`` output such as
    ``19: 6 3 4 5 ...``: the moves after the colon; ``==> FILE <==`` headers
    and blank lines skipped; a line of ``?`` or without moves gives no seed).
    Anything that is not a file is read as moves separated by spaces or
    commas, used for every case.

    Raises:
        InputError: a record line that is not JSON, a text line that is
            neither ``COST: MOVES`` nor ``?``, a file with no line at all, a
            directory, or an unreadable file.
    """
    if os.path.isdir(spec):
        raise InputError("is a directory; expected a file of records or --moves lines, or the moves themselves",
                         source=spec)
    if not os.path.isfile(spec):
        return Seeds(every=_split(spec))
    try:
        with open(spec, encoding="utf-8-sig") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the seed solutions: {exc}", source=spec) from None
    by_case: dict = {}
    hashes: dict = {}
    index = 0
    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("==>"):
            continue
        if text.startswith("{"):
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"not a JSON record: {exc.msg}", source=spec, line=lineno) from None
            except RecursionError:
                raise InputError("not a JSON record: nested too deeply", source=spec, line=lineno) from None
            if record.get("event") is None and record.get("moves") and isinstance(record.get("case"), int):
                by_case[record["case"]] = tuple(record["moves"])
                if isinstance(record.get("data_hash"), str):
                    hashes[record["case"]] = record["data_hash"]
                else:
                    hashes.pop(record["case"], None)
            continue
        index += 1
        head, colon, rest = text.partition(":")
        if not colon and head == "0":  # a board already solved: --moves prints its cost alone (sliding tiles)
            colon = ":"
        if not colon and not head.startswith("?"):  # e.g. an answer printed without --moves, or bare moves
            raise InputError(f"expected COST: MOVES as --moves prints them, '?', or a json record, got {text[:40]!r}",
                             source=spec, line=lineno)
        moves = _split(rest if colon else "")
        if moves and not head.startswith("?"):
            by_case[index] = moves
    if not index and not any(t.strip().startswith("{") for t in lines):
        raise InputError("holds no seed solutions (expected json records or --moves lines, one per case)",
                         source=spec)
    return Seeds(by_case=by_case, hashes=hashes)
