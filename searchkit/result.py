"""Result values returned by every search driver.

All are frozen attrs classes, so a result can be inspected, compared and
serialised (``to_dict``) instead of being read back from log lines.
"""

from __future__ import annotations

from typing import Any

import attrs

#: Status values a driver can return.
SOLVED = "solved"  #: a solution was found (optimal for optimal drivers)
EXHAUSTED = "exhausted"  #: proven: no solution within the bound / depth
NODE_LIMIT = "node_limit"  #: stopped at the node limit
TIME_LIMIT = "time_limit"  #: stopped at the time limit
CANCELLED = "cancelled"  #: stopped by Ctrl-C (KeyboardInterrupt)
MEMORY_LIMIT = "memory_limit"  #: stopped at the per-case memory limit (``--memory-limit``)
ERROR = "error"  #: the case could not be finished (its worker process died); the message names the case
STATUSES = (SOLVED, EXHAUSTED, NODE_LIMIT, TIME_LIMIT, CANCELLED, MEMORY_LIMIT, ERROR)


@attrs.frozen
class IterationRecord:
    """One iteration of an iterative driver.

    Attributes:
        bound: the f-bound (IDA*) or depth (bounded DFS) of the iteration.
        expanded: states whose successors were generated in this iteration.
        generated: successors produced in this iteration (after filters).
        elapsed: wall-clock seconds spent in this iteration.
        evaluated: heuristic evaluations in this iteration.

    For A*, one record per f-layer: ``bound`` is the f of the states popped,
    and the counts are those of the layer (Fast Downward's "f = ..." progress
    lines); the last record is the layer in which the goal was popped, so the
    sum of the others is the tie-break-free "expanded before the last
    f-layer".
    """

    bound: int
    expanded: int
    generated: int
    elapsed: float
    evaluated: int = 0

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class SearchStats:
    """Counters of one search.

    Attributes:
        expanded: states whose successors were generated.
        generated: successors produced (after pruning filters).
        evaluated: heuristic evaluations (Fast Downward's "evaluated states";
            in A* a child already reached with a smaller g is not evaluated).
        elapsed: wall-clock seconds of the whole search.
        iterations: per-iteration records (IDA*, iterative bounded DFS); empty otherwise.
        per_depth: states expanded at each depth g = 0, 1, ... (bounded DFS).
        per_depth_seconds: seconds spent expanding the states of each depth,
            their subtrees excluded (bounded DFS).
        peak_stored: most states held in memory at once (open + closed lists,
            transposition tables); 0 where the driver stores none.
        rule_cuts: pruning-rule name -> how often it cut (a state or a
            successor), for every rule that acted in the search.
    """

    expanded: int = 0
    generated: int = 0
    elapsed: float = 0.0
    iterations: tuple[IterationRecord, ...] = ()
    per_depth: tuple[int, ...] = ()
    per_depth_seconds: tuple[float, ...] = ()
    peak_stored: int = 0
    evaluated: int = 0
    rule_cuts: tuple[tuple[str, int], ...] = ()

    def before_last_layer(self) -> int | None:
        """States expanded before the last f-layer (A*), the tie-break-free figure; ``None`` without layers."""
        if not self.iterations:
            return None
        return self.expanded - self.iterations[-1].expanded

    def to_dict(self) -> dict[str, Any]:
        return {
            "expanded": self.expanded,
            "generated": self.generated,
            "evaluated": self.evaluated,
            "elapsed": round(self.elapsed, 6),
            "iterations": [it.to_dict() for it in self.iterations],
            "per_depth": list(self.per_depth),
            "per_depth_seconds": [round(t, 6) for t in self.per_depth_seconds],
            "peak_stored": self.peak_stored,
            "rule_cuts": dict(self.rule_cuts),
        }


@attrs.frozen
class SearchResult:
    """What a driver returns.

    Attributes:
        status: one of :data:`STATUSES`.
        moves: the solution's moves in order (empty unless ``status == "solved"``).
        cost: the solution's total step cost, or ``None`` when not solved.
        stats: the :class:`SearchStats` of the search.
    """

    status: str
    moves: tuple[Any, ...] = ()
    cost: int | None = None
    stats: SearchStats = attrs.field(factory=SearchStats)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED
