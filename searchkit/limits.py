"""Node and time limits shared by the drivers."""

from __future__ import annotations

import time

import attrs

from searchkit.result import NODE_LIMIT, TIME_LIMIT


@attrs.frozen
class Limits:
    """Resource limits of one search.

    Attributes:
        max_nodes: stop after this many expanded states (``None``: no limit).
        time_limit: stop after this many wall-clock seconds (``None``: no limit).
    """

    max_nodes: int | None = attrs.field(default=None)
    time_limit: float | None = attrs.field(default=None)

    @max_nodes.validator
    def _check_nodes(self, _attr, value):
        if value is not None and value < 0:
            raise ValueError(f"max_nodes must be >= 0, got {value}")

    @time_limit.validator
    def _check_time(self, _attr, value):
        if value is not None and not value >= 0:  # also rejects NaN
            raise ValueError(f"time_limit must be >= 0, got {value}")


class LimitReached(Exception):
    """Raised inside a driver to unwind the search; ``status`` says which limit."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


class Budget:
    """Checks limits cheaply from a driver's inner loop.

    A driver keeps an integer ``checkpoint`` and, before expanding a state,
    calls ``checkpoint = budget.checkpoint(expanded)`` when its count of
    states expanded so far has reached it.  An unlimited search pays one
    integer comparison per node, a node limit stops after exactly that many
    expansions, and a time limit reads the clock every ``clock_every`` nodes
    (16: cheap next to a Python expansion, and prompt on huge states).

    Raises:
        LimitReached: from :meth:`checkpoint`, when the node or time limit is exceeded.
    """

    __slots__ = ("max_nodes", "deadline", "clock_every", "start")

    clock = staticmethod(time.perf_counter)

    def __init__(self, limits: Limits | None = None, clock_every: int = 16) -> None:
        limits = limits or Limits()
        self.start = time.perf_counter()
        self.max_nodes = limits.max_nodes
        self.deadline = None if limits.time_limit is None else self.start + limits.time_limit
        self.clock_every = clock_every

    def first_checkpoint(self) -> int | float:
        """The count at which a driver checks first (0 with a time limit, the node limit, or never)."""
        if self.deadline is not None:
            return 0
        return float("inf") if self.max_nodes is None else self.max_nodes

    def checkpoint(self, done: int) -> int | float:
        """Check the limits before expanding one more state, ``done`` being expanded already.

        Returns:
            The count at which to check next.

        Raises:
            LimitReached: when ``done`` reaches the node limit or the time is up.
        """
        if self.max_nodes is not None and done >= self.max_nodes:
            raise LimitReached(NODE_LIMIT)
        nxt: int | float = float("inf")
        if self.deadline is not None:
            if time.perf_counter() > self.deadline:
                raise LimitReached(TIME_LIMIT)
            nxt = done + self.clock_every
        if self.max_nodes is not None:
            nxt = min(nxt, self.max_nodes)
        return nxt

    def elapsed(self) -> float:
        """Seconds since the budget was created."""
        return time.perf_counter() - self.start
