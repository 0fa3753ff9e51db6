"""The progress bar on stderr: cases done, counts by status, elapsed time, the case running longest.

Shown when stderr is a terminal (or with ``--progress``); never on stdout.
``rich`` is imported only when the bar is shown.
"""

from __future__ import annotations

import sys
import time
from collections import Counter


class NoProgress:
    """The silent stand-in (``--no-progress``, or stderr is not a terminal)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def start(self, item) -> None:
        pass

    def done(self, item, result) -> None:
        pass

    def refresh(self) -> None:
        pass

    def beat(self, item, rss_kb) -> None:
        pass


class Progress(NoProgress):
    """A rich progress bar on stderr, refreshed at most about four times a second.

    Args:
        total: the number of cases if known, else ``None`` (no ETA then).
    """

    def __init__(self, total: int | None = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

        columns = [TextColumn("[bold]solving"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
        if total is not None:
            from rich.progress import TimeRemainingColumn

            columns.append(TimeRemainingColumn())
        columns.append(TextColumn("{task.fields[status]}"))
        tty = sys.stderr is not None and sys.stderr.isatty()
        # On a terminal the bar goes away at the end; forced onto a file, rich draws it once, when done.
        self.bar = Bar(*columns, console=Console(file=sys.stderr), transient=tty, refresh_per_second=4)
        self.task = self.bar.add_task("solving", total=total, status="")
        self.counts: Counter = Counter()
        self.running: dict = {}  # (source, index) -> start time
        self.memory: dict = {}  # (source, index) -> resident KiB of its worker, last heard
        self.last = 0.0

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        self.last = 0.0
        self.refresh()  # the final counts, not the last throttled ones
        return self.bar.__exit__(*exc)

    def start(self, item) -> None:
        self.running[(item.source, item.value.index)] = time.perf_counter()

    def beat(self, item, rss_kb) -> None:
        if rss_kb is not None:
            self.memory[(item.source, item.value.index)] = rss_kb

    def done(self, item, result) -> None:
        self.running.pop((item.source, item.value.index), None)
        self.memory.pop((item.source, item.value.index), None)
        status = "refused" if result.outcome is None else result.outcome.result.status
        self.counts[status] += 1
        self.bar.advance(self.task)
        self.refresh()

    def refresh(self) -> None:
        now = time.perf_counter()
        if now - self.last < 0.25:
            return
        self.last = now
        text = " ".join(f"{status} {n}" for status, n in sorted(self.counts.items()))
        if self.running:
            (source, index), since = min(self.running.items(), key=lambda kv: kv[1])
            if now - since >= 1.0:
                rss = self.memory.get((source, index))
                mem = f", worker {rss / 1024:.0f} MiB" if rss else ""
                text += f"  longest: {source} case {index} ({now - since:.0f} s{mem})"
        self.bar.update(self.task, status=text)


def make_progress(show: bool | None, total: int | None = None):
    """A :class:`Progress` if ``show`` (``None``: stderr is a terminal), else a :class:`NoProgress`."""
    if show is None:
        show = sys.stderr is not None and sys.stderr.isatty()
    return Progress(total) if show else NoProgress()
