"""Result values returned by every search driver.

All are frozen attrs classes, so a result can be inspected, compared and
serialised (``to_dict``) instead of being read back from log lines.
"""

from __future__ import annotations

from typing import Any

import attrs

#: Status values a driver can return.
SOLVED = "solved"  #: a solution was found (proven optimal for optimal drivers)
EXHAUSTED = "exhausted"  #: proven: no solution within the bound / depth
NODE_LIMIT = "node_limit"  #: stopped at the node limit
TIME_LIMIT = "time_limit"  #: stopped at the time limit
CANCELLED = "cancelled"  #: stopped by Ctrl-C (KeyboardInterrupt)
#: a valid solution whose optimality is not proven (a bounded-suboptimal or
#: anytime driver, or one stopped at a limit holding a solution); its
#: ``lower_bound`` says how far from optimal it may be
FEASIBLE = "feasible"
#: the search ended without a solution and without a proof that none exists
#: (a beam that dropped states and then ran dry)
INCOMPLETE = "incomplete"
MEMORY_LIMIT = "memory_limit"  #: stopped at the per-case memory limit (``--memory-limit``)
#: the case could not be finished: the Solver refused its plan, its search raised (a defect), or its worker
#: process died; the record's or row's ``error`` says which
ERROR = "error"
#: not a search's status: the status of a record, row or outcome whose case could not be read (``error`` says
#: why); the one definition the records, the reporter, ``compare`` and the Python API share
INPUT_ERROR = "input_error"
#: Kinds of :class:`IterationRecord`: what its ``bound`` is.
F_LAYER = "f-layer"  #: best-first: the f of the states popped in the layer (A*, PEA*)
F_BOUND = "f-bound"  #: iterative deepening: the iteration's f-bound (IDA*)
DEPTH = "depth"  #: iterative deepening on cost alone: the iteration's depth (bounded DFS, ``shortest`` mode)
ITERATION_KINDS = (F_LAYER, F_BOUND, DEPTH)
STATUSES = (SOLVED, EXHAUSTED, NODE_LIMIT, TIME_LIMIT, CANCELLED, FEASIBLE, INCOMPLETE, MEMORY_LIMIT, ERROR)
#: statuses whose result carries a solution (``moves`` and ``cost``)
WITH_SOLUTION = (SOLVED, FEASIBLE)


@attrs.frozen
class IterationRecord:
    """One iteration of an iterative driver, or one f-layer of a best-first one.

    Attributes:
        bound: the f-bound (IDA*), the depth (bounded DFS) or the layer's f
            (A*, PEA*), as ``kind`` says.
        expanded: states whose successors were generated in this iteration.
        generated: successors produced in this iteration (after filters).
        elapsed: wall-clock seconds spent in this iteration.
        evaluated: heuristic evaluations in this iteration.
        kind: what ``bound`` is: ``"f-layer"``, ``"f-bound"`` or ``"depth"``
            (:data:`ITERATION_KINDS`); readers say so from it, never from the
            algorithm's name.

    For A* and PEA*, one record per f-layer: ``bound`` is the f of the states
    popped, and the counts are those of the layer (Fast Downward's "f = ..."
    progress lines); the last record is the layer in which the goal was
    popped, so the sum of the others is the tie-break-free "expanded before
    the last f-layer".
    """

    bound: int
    expanded: int
    generated: int
    elapsed: float
    evaluated: int = 0
    kind: str = attrs.field(default=F_BOUND, validator=attrs.validators.in_(ITERATION_KINDS))

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
        threads: the threads the search ran on (1 unless a parallel native
            search used more; the Python engine always runs on 1, whatever
            ``--threads`` asked for).  :meth:`to_dict` writes it only when it
            is not 1, so a one-thread search's record is what it was before
            threads existed; a record without it ran on 1.
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
    threads: int = 1

    def before_last_layer(self) -> int | None:
        """States expanded before the last f-layer (A*, PEA*), the tie-break-free figure; ``None`` without f-layers."""
        if not self.iterations or self.iterations[-1].kind != F_LAYER:
            return None
        return self.expanded - self.iterations[-1].expanded

    def to_dict(self) -> dict[str, Any]:
        """The stats as a record holds them (docs/records.md): ``threads`` only when it is not 1."""
        out = {
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
        if self.threads != 1:
            out["threads"] = self.threads
        return out


@attrs.frozen
class SearchResult:
    """What a driver returns.

    Attributes:
        status: one of :data:`STATUSES`.
        moves: the solution's moves in order (empty unless the status is
            ``"solved"`` or ``"feasible"``).
        cost: the solution's total step cost, or ``None`` without a solution.
        stats: the :class:`SearchStats` of the search.
        lower_bound: a proven lower bound on the optimal cost of the case, or
            ``None`` when none is known.  Claim: every solution costs at least
            this much.  ``solved`` results of optimal drivers carry
            ``lower_bound == cost``; a ``feasible`` one carries what its driver
            proved (each driver's docstring gives the argument); an
            ``exhausted`` one under a cost bound B carries B + 1 (no solution
            costs B or less); a stopped search carries what it proved before
            it stopped (IDA*: the f-bound of the iteration it was in; A*: the
            largest f popped).  The Solver drops it when the heuristic that
            proved it is not admissible.
    """

    status: str
    moves: tuple[Any, ...] = ()
    cost: int | None = None
    stats: SearchStats = attrs.field(factory=SearchStats)
    lower_bound: int | None = None

    @property
    def solved(self) -> bool:
        """Proven optimal (for optimal drivers) -- not merely feasible."""
        return self.status == SOLVED

    @property
    def has_solution(self) -> bool:
        """The result carries a valid solution (``solved`` or ``feasible``)."""
        return self.status in WITH_SOLUTION

    @property
    def gap(self) -> int | None:
        """``cost - lower_bound``: how much cheaper an optimal solution may be (0: proven optimal).

        ``None`` without a solution or without a bound.
        """
        if self.cost is None or self.lower_bound is None or not self.has_solution:
            return None
        return max(0, self.cost - self.lower_bound)
