"""Node and time limits shared by the drivers, counted from a case's first byte.

A :class:`Limiter` is started when a case starts (the :class:`~searchkit.machinery.solver.Solver`
starts it before the game builds the puzzle), so the time limit covers the
game's set-up as well as the search.  Set-up code that may run long (building
tables for a huge board) calls :func:`setup_check` every few thousand steps;
it raises :class:`LimitReached` once the active case's time is up.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import attrs

from searchkit.result import MEMORY_LIMIT, NODE_LIMIT, TIME_LIMIT


#: The largest node limit: the native engine counts in 64 bits (signed, as Python's C conversions take it);
#: a larger value was an OverflowError reported as every case's defect.
MAX_NODES = 2**63 - 1
#: The largest time limit in seconds (about 31 years): ``inf`` or ``1e300`` cannot become a clock's deadline in
#: every engine; no search of a case runs longer.
MAX_SECONDS = 10**9
#: The largest memory limit in MiB (1 EiB): its bytes must fit the signed 64 bits ``setrlimit`` takes.
MAX_MEMORY_MB = 2**40
#: The largest upper bound on a cost: the native engine keeps costs in 32 bits.
MAX_COST = 2**32 - 1
#: The most threads one search may be given (``--threads``): a mistyped ``--threads 20000`` is refused rather
#: than starting that many threads for every case.
MAX_THREADS = 1024


@attrs.frozen
class Limits:
    """Resource limits of one case.

    Attributes:
        max_nodes: stop after this many expanded states (``None``: no limit).
        time_limit: stop after this many wall-clock seconds, set-up included
            (``None``: no limit; ``0`` stops at once).
        memory_mb: MiB of address space the case may add to its process
            (``None``: no limit); enforced around the process by the batch
            executors (``--memory-limit``), not by the :class:`Limiter`.
    """

    max_nodes: int | None = attrs.field(default=None)
    time_limit: float | None = attrs.field(default=None)
    memory_mb: float | None = attrs.field(default=None)

    @memory_mb.validator
    def _check_memory(self, _attr, value):
        if value is not None and not value > 0:
            raise ValueError(f"memory_mb must be a number > 0, got {value}")

    @max_nodes.validator
    def _check_nodes(self, _attr, value):
        if value is not None and value < 0:
            raise ValueError(f"max_nodes must be >= 0, got {value}")

    @time_limit.validator
    def _check_time(self, _attr, value):
        if value is not None and not value >= 0:  # also rejects NaN
            raise ValueError(f"time_limit must be a number >= 0, got {value}")


class LimitReached(Exception):
    """Raised inside a driver (or set-up) to unwind; ``status`` says which limit."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status
        self.engine: str | None = None  #: the engine the case ran on when it stopped (set by the Solver)


class Limiter:
    """Checks limits cheaply from a driver's inner loop.

    A driver keeps an integer ``checkpoint`` and, before expanding a state,
    calls ``checkpoint = limiter.checkpoint(expanded)`` when its count of
    states expanded so far has reached it.  An unlimited search pays one
    integer comparison per node, a node limit stops after exactly that many
    expansions, and a time limit reads the clock every ``clock_every`` nodes
    (16: cheap next to a Python expansion), or more often when expansions
    are slow: the gap between checks starts at 1 and doubles up to
    ``clock_every`` while the expansions since the last check took under
    :attr:`CLOCK_INTERVAL` seconds; slower ones shrink it to what fits in
    that interval (at least 1), so a 400x400 Flood-It board, at about 0.8 s
    an expansion, stops within a few expansions of its limit, not 16.

    The clock starts when the limiter is made, or at ``start`` (a
    ``time.perf_counter()`` reading, e.g. when reading the case began, so the
    time limit counts its parsing too); :meth:`of` passes an already started
    limiter through, so a driver handed the Solver's limiter counts time from
    the start of the case.

    ``threads`` is how many threads the case's search may use (``--threads``; 1 by default): not a limit
    the limiter checks, but what a native step of the case that can split its work (a table build) is
    given, read through :func:`threads` as the deadline is through :func:`remaining`.

    Raises:
        LimitReached: from :meth:`checkpoint`, when the node or time limit is exceeded.
    """

    __slots__ = ("max_nodes", "deadline", "memory", "clock_every", "start", "done", "bound", "threads", "_checked")

    clock = staticmethod(time.perf_counter)
    #: Seconds of expansions between two clock readings, at most (see the class docstring).
    CLOCK_INTERVAL = 0.01

    def __init__(self, limits: Limits | None = None, clock_every: int = 16, *, start: float | None = None,
                 threads: int = 1) -> None:
        limits = limits or Limits()
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, got {threads!r}")
        self.threads = threads
        self.start = time.perf_counter() if start is None else start
        self.max_nodes = limits.max_nodes
        self.deadline = None if limits.time_limit is None else self.start + limits.time_limit
        self.memory = None if limits.memory_mb is None else int(limits.memory_mb * 2**20)  # bytes (reserve)
        self.clock_every = clock_every
        self.done = 0  # states expanded at the last checkpoint (live figures)
        self.bound: int | float | None = None  # the f-bound or depth searched, as the driver says (live figures)
        self._checked: tuple[float, int] | None = None  # (clock, done) at the last time check: the pace

    @classmethod
    def of(cls, limits: "Limits | Limiter | None") -> "Limiter":
        """``limits`` itself if it is a started :class:`Limiter`, else a new one started now."""
        return limits if isinstance(limits, Limiter) else cls(limits)

    def first_checkpoint(self) -> int | float:
        """The count at which a driver checks first (0 with a time limit or live figures, the node limit, or never)."""
        if self.deadline is not None or _live[0]:
            return 0
        return float("inf") if self.max_nodes is None else self.max_nodes

    def checkpoint(self, done: int) -> int | float:
        """Check the limits before expanding one more state, ``done`` being expanded already.

        Returns:
            The count at which to check next.

        Raises:
            LimitReached: when ``done`` reaches the node limit or the time is up.
        """
        self.done = done
        if self.max_nodes is not None and done >= self.max_nodes:
            raise LimitReached(NODE_LIMIT)
        nxt: int | float = float("inf")
        if self.deadline is not None:
            now = time.perf_counter()
            if now > self.deadline:
                raise LimitReached(TIME_LIMIT)
            last = self._checked
            step = 1  # the first steps measure the pace
            if last is not None and done > last[1]:
                step = min(self.clock_every, 2 * (done - last[1]))  # fast so far: double, up to clock_every
                per_node = (now - last[0]) / (done - last[1])
                if per_node * step > self.CLOCK_INTERVAL:
                    step = max(1, int(self.CLOCK_INTERVAL / per_node))
            self._checked = (now, done)
            nxt = done + step
        elif _live[0]:
            nxt = done + 256
        if self.max_nodes is not None:
            nxt = min(nxt, self.max_nodes)
        return nxt

    def check_time(self) -> None:
        """Raise :class:`LimitReached` if the time limit has passed (for set-up code)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReached(TIME_LIMIT)

    def restart(self) -> None:
        """Start the clock again now, the time limit with it (see :func:`case_starts`)."""
        now = time.perf_counter()
        if self.deadline is not None:
            self.deadline = now + (self.deadline - self.start)
        self.start = now

    def check_memory(self, nbytes: int) -> None:
        """Raise :class:`LimitReached` (``memory_limit``) if ``nbytes`` is more than the case's whole allowance."""
        if self.memory is not None and nbytes > self.memory:
            raise LimitReached(MEMORY_LIMIT)

    def elapsed(self) -> float:
        """Seconds since the limiter was started."""
        return time.perf_counter() - self.start


_active: list[Limiter] = []
_live = [False]
_memory: list[int | None] = [None]


def set_memory_allowance(nbytes: int | None) -> None:
    """Record the running case's ``--memory-limit`` allowance in bytes (``None``: none), for engines that
    budget their own tables (the native engine stops at part of it with ``memory_limit``)."""
    _memory[0] = nbytes


def memory_allowance() -> int | None:
    """The running case's memory allowance in bytes set by :func:`set_memory_allowance`, or ``None``."""
    return _memory[0]


def track_live(on: bool = True) -> None:
    """Keep live figures of the running search (for a progress display): every limiter made
    afterwards records its expanded count at least every 256 states, even without limits."""
    _live[0] = on


def live_tracked() -> bool:
    """Whether live figures are kept (:func:`track_live`)."""
    return _live[0]


def live_figures() -> dict | None:
    """``{"bound", "expanded", "seconds"}`` of the case running in this process, or ``None``.

    ``bound`` is the f-bound (IDA*, A*'s f-layer) or depth (bounded DFS)
    the driver reported, ``expanded`` the states expanded at its last
    checkpoint (see :func:`track_live`); read from another thread.
    """
    if not _active:
        return None
    limiter = _active[-1]
    return {"bound": limiter.bound, "expanded": limiter.done, "seconds": round(limiter.elapsed(), 3)}


@contextmanager
def active(limiter: Limiter):
    """Make ``limiter`` the one :func:`setup_check` consults while the block runs."""
    _active.append(limiter)
    try:
        yield limiter
    finally:
        _active.pop()


def reserve(nbytes: int) -> None:
    """Raise :class:`LimitReached` (``memory_limit``) if the running case may not allocate ``nbytes`` bytes.

    For a parser or set-up step about to build something whose size it knows
    in advance (a W x H board: ``W * H`` times its bytes a cell): a case whose
    one step needs more than its whole ``--memory-limit`` allowance stops
    before allocating anything, instead of running into the limit later, and
    a case being read is stopped while it is read (see
    :meth:`searchkit.game.Case.unread`).  It is a check of one step against
    the allowance, not an account: the limit itself is enforced around the
    process.  Free when no case is running or it has no memory limit.
    """
    if _active:
        _active[-1].check_memory(nbytes)


def case_starts() -> None:
    """Say that the case being read starts now: its clock (and time limit) starts again.

    For a parser whose passes over the whole file (format detection, a
    count of its tokens) run before it reads its first case: call it after
    them, so that work is not charged to the first case.  Free when no case
    is being read under limits.
    """
    if _active:
        _active[-1].restart()


def remaining() -> float | None:
    """Seconds left of the running case's time limit (negative once it has passed), or ``None`` when no case
    is running or it has no time limit: what a native step that checks the clock itself (a table build) is
    given as its deadline, counted from the same clock as :func:`setup_check`."""
    if _active and _active[-1].deadline is not None:
        return _active[-1].deadline - time.perf_counter()
    return None


def threads() -> int:
    """The threads the running case's search may use (``--threads``: its :class:`Limiter`'s ``threads``), or 1
    when no case is running: what a native step of the case that can split its work (a pattern database
    build) runs on.  ``searchkit pdb build --threads`` sets it for its builds the same way."""
    return _active[-1].threads if _active else 1


def setup_check() -> None:
    """Raise :class:`LimitReached` (``time_limit``) if the running case is out of time.

    For a game's set-up loops (building a puzzle or heuristic tables), and
    its parser's loops over a large case (the reader makes the case being
    read the running one, its clock started at the case's first byte), called
    every few thousand steps; free when no case is running or it has no time
    limit.
    """
    if _active:
        _active[-1].check_time()
