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

        columns = [TextColumn("[bold]solving"), BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn()]
        if total is not None:
            from rich.progress import TimeRemainingColumn

            columns.append(TimeRemainingColumn())
        columns.append(TextColumn("{task.fields[status]}"))
        tty = sys.stderr is not None and sys.stderr.isatty()
        # On a terminal the bar goes away at the end; forced onto a file, rich draws it once, when done.
        # rich's default redirect_stdout=True would capture the answers written to sys.stdout while the bar
        # lives and print them on the bar's console (stderr): stdout must carry the answers, the bar stays
        # on stderr alone.
        self.bar = Bar(*columns, console=Console(file=sys.stderr), transient=tty, refresh_per_second=4,
                       redirect_stdout=False, redirect_stderr=False)
        self.task = self.bar.add_task("solving", total=total, status="")
        # columns the other parts take: "solving", the 20-column bar, M/N, elapsed, ETA, the spaces between
        self.fixed = 40 + len(f"{total or 0}/{total or 0}") + (8 if total is not None else 0) + 2
        self.counts: Counter = Counter()
        self.running: dict = {}  # (source, index) -> start time
        self.memory: dict = {}  # (source, index) -> resident KiB of its worker, last heard
        self.last = 0.0

    def __enter__(self):
        import threading

        self.bar.__enter__()
        self._stop = threading.Event()
        # A single long case keeps the main thread in the search: this thread refreshes the live line.
        threading.Thread(target=self._tick, daemon=True, name="searchkit-progress").start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            self.last = 0.0
            try:
                self.refresh()
            except RuntimeError:  # a dict changed size while read: the next tick draws it
                pass

    def __exit__(self, *exc):
        self._stop.set()
        self.last = 0.0
        self.refresh()  # the final counts, not the last throttled ones
        return self.bar.__exit__(*exc)

    def start(self, item) -> None:
        self.running[(item.source, item.value.index)] = time.perf_counter()

    def beat(self, item, figures) -> None:
        """The running case's figures from its worker: a dict (``rss_kb``, ``bound``, ``expanded``, ``seconds``)."""
        if not isinstance(figures, dict):
            figures = {"rss_kb": figures}
        self.memory[(item.source, item.value.index)] = figures

    def done(self, item, result) -> None:
        self.running.pop((item.source, item.value.index), None)
        self.memory.pop((item.source, item.value.index), None)
        status = "refused" if result.outcome is None else result.outcome.result.status
        self.counts[status] += 1
        self.bar.advance(self.task)
        self.refresh()

    @staticmethod
    def _here() -> dict:
        """Live figures of a case running in this process (``--jobs 1``), with this process's memory."""
        from searchkit.machinery.batch.executors import resident_kb
        from searchkit.limits import live_figures

        figures = live_figures()
        return {} if figures is None else {"rss_kb": resident_kb(), **figures}

    def refresh(self) -> None:
        now = time.perf_counter()
        if now - self.last < 0.25:
            return
        self.last = now
        text = " ".join(f"{status} {n}" for status, n in sorted(self.counts.items()))
        if self.running:
            (source, index), since = min(list(self.running.items()), key=lambda kv: kv[1])
            if now - since >= 1.0:
                figures = self.memory.get((source, index)) or self._here()
                room = self.bar.console.width - self.fixed - len(text)
                text += fit_longest(source, index, now - since, figures, room)
        self.bar.update(self.task, status=text)



def live_text(figures: dict) -> str:
    """``, f-bound 31, 120,000 expanded, 40,000/s, 812 MiB`` from a figures dict (empty parts left out)."""
    return "".join(", " + p for p in live_parts(figures))


def live_parts(figures: dict) -> list:
    """The parts of :func:`live_text`, in its order."""
    parts = []
    if figures.get("bound") is not None:
        parts.append(f"bound {figures['bound']}")
    expanded, seconds = figures.get("expanded"), figures.get("seconds")
    if expanded:
        parts.append(f"{expanded:,} expanded")
        if seconds:
            parts.append(f"{expanded / seconds:,.0f}/s")
    if figures.get("rss_kb"):
        parts.append(f"{figures['rss_kb'] / 1024:.0f} MiB")
    return parts


def fit_longest(source: str, index, seconds: float, figures: dict, room: int) -> str:
    """``  longest: FILE case N (12 s, 812 MiB, bound 31, ...)`` in at most ``room`` columns.

    The memory figure comes first after the time, the file is named by its
    base name, and what does not fit is left out: the other figures from
    the end, then the file's name, then the memory; so the line never runs
    past the terminal's width (rich cut it there, and the memory was what
    it cut).
    """
    import os

    parts = [f"{seconds:.0f} s"]
    if figures.get("rss_kb"):
        parts.append(f"{figures['rss_kb'] / 1024:.0f} MiB")
    parts += live_parts(dict(figures, rss_kb=None))
    least = 2 if figures.get("rss_kb") else 1  # the time and the memory go before the file's name
    name = os.path.basename(source)
    tries = [(name, keep) for keep in range(len(parts), least - 1, -1)]
    tries += [(None, keep) for keep in range(len(parts), 0, -1)]
    for name, keep in tries:
        head = f"  longest: {name} case {index}" if name else f"  longest: case {index}"
        text = f"{head} ({', '.join(parts[:keep])})"
        if len(text) <= room:
            return text
    return ""


def make_progress(show: bool | None, total: int | None = None):
    """A :class:`Progress` if ``show`` (``None``: stderr is a terminal), else a :class:`NoProgress`."""
    if show is None:
        show = sys.stderr is not None and sys.stderr.isatty()
    if not show:
        return NoProgress()
    from searchkit.limits import track_live

    track_live()  # drivers keep their expanded count current for the live line
    return Progress(total)
