"""``solve``'s per-case formats (see :mod:`searchkit.formats`).

``text`` and ``json`` are written by :class:`searchkit.machinery.reporting.Reporter`
(engine code: the plain solve path runs it without importing click);
``jsonl`` by :class:`RecordReporter` here, the same records one a line, to
stdout or to a :class:`~searchkit.machinery.records.RecordFile`.
"""

from __future__ import annotations

import click

from searchkit.machinery.reporting import Reporter
from searchkit.result import CANCELLED


class RecordReporter(Reporter):
    """A :class:`Reporter` writing JSON Lines records (``--format jsonl``) to a file or stdout.

    Args:
        solver: the Solver (its game).
        sink: a :class:`~searchkit.machinery.records.RecordFile`, or ``None`` for stdout.
        quiet: say nothing on stderr (:class:`~searchkit.machinery.reporting.Reporter`).
    """

    def __init__(self, solver, fmt: str = "jsonl", stats: bool = False, headers: bool = False,
                 quiet: bool = False, sink=None) -> None:
        # statistics go to stderr beside the records (the batch run prints them), and no headers: one stream
        super().__init__(solver, "json", stats=False, headers=False, quiet=quiet)
        self.sink = sink

    def _write(self, record: dict) -> None:
        from searchkit.machinery.records import dumps

        if self.sink is None:
            click.echo(dumps(record))
        else:
            self.sink.write(record)

    def _record(self, source, case, status, *, error=None, line=None, outcome=None) -> None:
        self._write(self.make_record(source, case, status, error=error, line=line, outcome=outcome))

    def improvement(self, event: dict) -> None:
        """An improvement event (``anytime`` and seeded searches) as a line of its own, before the case's record."""
        self._write(event)

    def emit(self, outcome) -> None:
        if outcome.result.status == CANCELLED:
            return  # not finished: --resume solves it again
        case = outcome.case
        self._record(case.source, case.index, outcome.result.status, outcome=outcome, line=case.line)
