"""Heuristics side by side: every case solved with every chosen heuristic.

The effective branching factor b* of a search that generated N nodes and
found a solution at depth d solves N + 1 = 1 + b* + b*^2 + ... + b*^d
(Russell and Norvig, "Artificial Intelligence: A Modern Approach", 3.6.1).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from searchkit.errors import SearchkitError, failure_message
from searchkit.result import CANCELLED, F_LAYER, SOLVED, WITH_SOLUTION

#: ``compare``'s per-case time limit in seconds when none is given (``--time-limit``): one hopeless strategy
#: must not hold the whole table back (a trial run waited 22 minutes for it).  The table states it.
DEFAULT_TIME_LIMIT = 60.0


def effective_branching_factor(generated: int, depth: int | None, tol: float = 1e-6) -> float | None:
    """b* with ``1 + b* + ... + b*^depth == generated + 1``, by bisection.

    Returns ``None`` when undefined (no solution, depth 0 or nothing generated).

    The root lies in ``[0, max(1, (generated + 1) ** (1 / depth))]``: the sum
    is at least ``b*^depth``, so ``b*^depth <= generated + 1``.  Searching
    there (not up to ``generated``) keeps ``b ** (depth + 1)`` a finite float
    for any depth (a 97-move solution overflowed it); a sum too large for a
    float counts as above the target.
    """
    if not depth or generated <= 0:
        return None
    target = generated + 1

    def total(b):
        if b == 1:
            return depth + 1
        try:
            return (b ** (depth + 1) - 1) / (b - 1)
        except OverflowError:
            return float("inf")

    lo, hi = 0.0, max(1.0, float(target) ** (1.0 / depth))
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if total(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


from searchkit.result import ERROR, INPUT_ERROR  # noqa: E402  (a row's statuses beside the search's)


@dataclasses.dataclass(frozen=True)
class Row:
    """One case solved with one heuristic (or one case that could not be read): a plain dataclass.

    Attributes:
        source, case: where the case came from (file, 1-based number; ``None`` for a file-wide error).
        heuristic: the heuristic's name (``None`` for an input error or a search without one).
        algorithm: the algorithm that ran (``None`` when none did).
        status: the driver's status, ``"input_error"``, or ``"error"`` (the search raised).
        cost: the solution cost (``None`` unless solved).
        depth: the number of moves (``None`` unless solved).
        expanded, generated, evaluated: node counts.
        before_last_layer: states expanded before the last f-layer (A*, PEA*: drivers whose iteration
            records are f-layers; ``None`` for the others).
        seconds: the case's wall-clock time, set-up included.
        ebf: effective branching factor, or ``None``.
        error: the input error's or the exception's message, or ``None``.
        lower_bound: the proven lower bound on the case's optimum, or ``None``.
        strategy: the column the row belongs to (the heuristic's name, or
            ``ALGORITHM/HEURISTIC`` when several algorithms are compared).
        position: the case's 1-based place among everything read (a file
            named twice gives its cases twice, at two positions).
        engine: ``"python"`` or ``"native"``, the engine that searched (``None`` when none did).
    """

    source: str
    case: int | None
    heuristic: str | None
    algorithm: str | None
    status: str
    cost: int | None = None
    depth: int | None = None
    expanded: int = 0
    generated: int = 0
    evaluated: int = 0
    before_last_layer: int | None = None
    seconds: float = 0.0
    ebf: float | None = None
    error: str | None = None
    lower_bound: int | None = None
    strategy: str | None = None
    engine: str | None = None
    position: int | None = None

    def key(self) -> tuple:
        """What tells cases apart: the position when known, else source and case number."""
        return (self.position,) if self.position is not None else (self.source, self.case)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_record(cls, record: Mapping, strategy: str, position: int | None = None) -> "Row":
        """The row a ``compare --output`` record holds (``--resume`` shows it without solving again).

        ``record`` is a JSON Lines record (``docs/records.md``) of one case and
        strategy; its counts come from its ``stats``.
        """
        stats = record.get("stats") or {}
        iterations = stats.get("iterations") or []
        expanded = stats.get("expanded") or 0
        last = iterations[-1] if iterations and isinstance(iterations[-1], Mapping) else {}
        before = expanded - last.get("expanded", 0) if last.get("kind") == F_LAYER else None
        depth = record.get("length")
        generated = stats.get("generated") or 0
        return cls(record.get("source"), record.get("case"), record.get("heuristic"), record.get("algorithm"),
                   record.get("status"), record.get("cost"), depth, expanded, generated,
                   stats.get("evaluated") or 0, before, record.get("seconds") or 0.0,
                   effective_branching_factor(generated, depth), error=record.get("error"),
                   lower_bound=record.get("lower_bound"), strategy=strategy, engine=record.get("engine"),
                   position=position)


@attrs.frozen
class Comparison:
    """All rows of a comparison and the cases where the costs disagree.

    Attributes:
        heuristics: heuristic names in column order.
        rows: one :class:`Row` per case and heuristic, case by case (one row
            for a case that could not be read).
        disagreements: ``(source, case, {heuristic: cost})`` for each case whose
            solved costs differ.
        cancelled: the comparison was stopped by Ctrl-C (the rows are partial).
        time_limit: each case's time limit in seconds (``None``: none), which
            the table states.
        recorded: the rows taken from a records file (``--resume``) instead of solved.
    """

    heuristics: tuple[str, ...]
    rows: tuple[Row, ...]
    disagreements: tuple
    cancelled: bool = False
    time_limit: float | None = None
    recorded: int = 0

    def totals(self) -> dict[str, dict]:
        """Per strategy: cases, solved, summed cost, counts, seconds, mean EBF, and the quality columns.

        The quality columns are summed over the **common** cases, those every
        strategy found a solution for (``solved`` or ``feasible``), so that
        they compare like with like: ``cost`` sums the strategy's costs there
        (``None`` when there is no common case); ``gap_to_best`` the cost
        minus the least cost any strategy found for the case; ``proven_gap``
        the cost minus the best lower bound any strategy proved for the case
        (``None`` when a common case has no bound): how far from optimal the
        strategy's total may be, at most.  ``common`` counts those cases,
        ``unanswered`` the cases the strategy found no solution for, and
        ``feasible`` its unproven solutions.  Node counts and seconds sum
        every row (the work done).  Cases are told apart by their position in
        the input, so a file named twice counts twice.
        """
        cases = {r.key() for r in self.rows}
        best, bound, answered_by = self._per_case()
        common = set.intersection(*(answered_by[name] for name in self.heuristics)) if self.heuristics else set()
        return {name: self._column([r for r in self.rows if (r.strategy or r.heuristic) == name], cases, common,
                                   best, bound)
                for name in self.heuristics}

    def _per_case(self) -> tuple[dict, dict, dict]:
        """``(best, bound, answered_by)``: each case's least cost found and best lower bound proven by any
        strategy, and each strategy's set of cases it found a solution for."""
        best: dict = {}
        bound: dict = {}
        answered_by: dict = {name: set() for name in self.heuristics}
        for r in self.rows:
            key = r.key()
            if r.status in WITH_SOLUTION and r.cost is not None:
                best[key] = min(best.get(key, r.cost), r.cost)
                answered_by.setdefault(r.strategy or r.heuristic, set()).add(key)
            if r.lower_bound is not None:
                bound[key] = max(bound.get(key, r.lower_bound), r.lower_bound)
        return best, bound, answered_by

    @staticmethod
    def _column(rows: list, cases: set, common: set, best: dict, bound: dict) -> dict:
        """One strategy's totals (:meth:`totals`) from its ``rows``."""
        solved = [r for r in rows if r.status == SOLVED]
        answered = [r for r in rows if r.status in WITH_SOLUTION]
        shared = [r for r in answered if r.key() in common]
        ebfs = [r.ebf for r in rows if r.ebf is not None]
        unbounded = any(r.key() not in bound for r in shared)
        return {
            "solved": len(solved),
            "feasible": len(answered) - len(solved),
            "cases": len(cases),
            "common": len(common),
            "unanswered": len(cases) - len({r.key() for r in answered}),
            "cost": sum(r.cost for r in shared) if shared else None,
            "gap_to_best": sum(r.cost - best[r.key()] for r in shared),
            "proven_gap": None if unbounded else sum(r.cost - bound[r.key()] for r in shared),
            "expanded": sum(r.expanded for r in rows),
            "generated": sum(r.generated for r in rows),
            "evaluated": sum(r.evaluated for r in rows),
            "seconds": sum(r.seconds for r in rows),
            "ebf": sum(ebfs) / len(ebfs) if ebfs else None,
        }


def compare(solvers: Sequence, items: Iterable, names: Sequence[str] | None = None,
            on_input_error: Callable | None = None, outcomes: Mapping | None = None, *,
            recorded: Callable | None = None, on_start: Callable | None = None,
            on_outcome: Callable | None = None) -> Comparison:
    """Solve every case with every solver (or read the outcomes given) and collect the rows.

    Args:
        solvers: :class:`~searchkit.machinery.solver.Solver` objects, one per strategy
            (their ``heuristic`` fixed), in column order.
        outcomes: the outcomes computed elsewhere (``compare --jobs``: in
            worker processes), by ``(solver index, source, case index)``: an
            :class:`~searchkit.machinery.solver.Outcome`, or a
            :class:`~searchkit.errors.SearchkitError` to raise; ``None``:
            each solver solves each case here.
        names: the strategies' column names (default: the heuristics' names).
        items: what the reader produced (:class:`searchkit.machinery.reading.Item`-like
            objects with ``source`` and ``value``, a Case or an InputError).
        on_input_error: called with each :class:`~searchkit.errors.InputError`
            read, warnings included, as it is read (the CLI prints it with its
            file, line and case).
        recorded: ``recorded(k, case) -> Row | None``: the row of solver ``k``
            on ``case`` already recorded (``compare --resume``), used instead
            of solving; ``None``: nothing is recorded.
        on_start: called ``on_start(item)`` before each search made here (a progress bar).
        on_outcome: called ``on_outcome(k, item, outcome, row)`` after each
            search made here (``outcome`` ``None`` when the search raised; the
            row says why): the CLI writes the record and moves the progress bar.

    The time limit the table states is the first solver's (``limits.time_limit``).

    A search cancelled with Ctrl-C ends the comparison there: the rows so far
    are returned and ``Comparison.cancelled`` is set.

    Raises:
        SearchkitError: as :meth:`searchkit.machinery.solver.Solver.solve`.
    """
    from searchkit.errors import InputError

    names = tuple(names) if names is not None else tuple(s.heuristic.name for s in solvers)
    limits = getattr(getattr(solvers[0], "config", None), "limits", None) if solvers else None  # a stand-in has none
    time_limit = getattr(limits, "time_limit", None)
    rows: list[Row] = []
    disagreements = []
    position = 0
    reused = 0
    for item in items:
        value = item.value
        if isinstance(value, InputError):
            if on_input_error is not None:
                on_input_error(value)
            if not getattr(value, "warning", False):
                position += 1
                rows.append(Row(item.source, value.case, None, None, INPUT_ERROR, error=value.message,
                                position=position))
            continue
        position += 1
        costs = {}
        started = getattr(item, "started", None)
        reading = 0.0 if started is None else time.perf_counter() - started
        for k, (name, solver) in enumerate(zip(names, solvers)):
            # Each strategy's clock starts at the case's first byte, as in solve: reading the case
            # counts, the strategies before it on this case do not.
            old = recorded(k, value) if recorded is not None else None
            if old is not None:
                rows.append(dataclasses.replace(old, position=position))
                reused += 1
                if old.status == SOLVED and old.cost is not None:
                    costs[name] = old.cost
                continue
            try:
                if outcomes is not None:
                    outcome = outcomes[(k, value.source, value.index)]
                    if isinstance(outcome, SearchkitError):
                        raise outcome
                else:
                    if on_start is not None:
                        on_start(item)
                    outcome = solver.solve(value, started=None if started is None else time.perf_counter() - reading)
            except SearchkitError:
                raise
            except Exception as exc:  # a heuristic or rule with a defect: its row says so, the others go on
                heuristic, algorithm = getattr(solver, "heuristic", None), getattr(solver, "algorithm", None)
                rows.append(Row(value.source, value.index, getattr(heuristic, "name", None),
                                getattr(algorithm, "name", None), ERROR, error=failure_message(exc), strategy=name,
                                position=position))
                if on_outcome is not None and outcomes is None:
                    on_outcome(k, item, None, rows[-1])
                continue
            result = outcome.result
            depth = len(result.moves) if result.has_solution else None
            stats = result.stats
            rows.append(Row(value.source, value.index, outcome.heuristic, outcome.algorithm, result.status,
                            result.cost, depth, stats.expanded, stats.generated, stats.evaluated,
                            stats.before_last_layer(), outcome.seconds,
                            effective_branching_factor(stats.generated, depth), lower_bound=result.lower_bound,
                            strategy=name, position=position,
                            engine=getattr(outcome, "engine", None)))
            if on_outcome is not None and outcomes is None:
                on_outcome(k, item, outcome, rows[-1])
            if result.solved:
                costs[name] = result.cost
            if result.status == CANCELLED:
                return Comparison(names, tuple(rows), tuple(disagreements), True, time_limit, reused)
        if len(set(costs.values())) > 1:
            disagreements.append((value.source, value.index, costs))
    return Comparison(names, tuple(rows), tuple(disagreements), time_limit=time_limit, recorded=reused)
