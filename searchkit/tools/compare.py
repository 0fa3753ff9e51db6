"""Heuristics side by side: every case solved with every chosen heuristic.

The effective branching factor b* of a search that generated N nodes and
found a solution at depth d solves N + 1 = 1 + b* + b*^2 + ... + b*^d
(Russell and Norvig, "Artificial Intelligence: A Modern Approach", 3.6.1).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs


def effective_branching_factor(generated: int, depth: int | None, tol: float = 1e-6) -> float | None:
    """b* with ``1 + b* + ... + b*^depth == generated + 1``, by bisection.

    Returns ``None`` when undefined (no solution, depth 0 or nothing generated).
    """
    if not depth or generated <= 0:
        return None
    target = generated + 1

    def total(b):
        return depth + 1 if b == 1 else (b ** (depth + 1) - 1) / (b - 1)

    lo, hi = 0.0, max(1.0, float(generated))
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if total(mid) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@attrs.frozen
class Row:
    """One case solved with one heuristic.

    Attributes:
        source, case: where the case came from (file, 1-based number).
        heuristic: the heuristic's name.
        status: the driver's status.
        cost: the solution cost (``None`` unless solved).
        depth: the number of moves (``None`` unless solved).
        expanded, generated: node counts.
        seconds: the search's wall-clock time.
        ebf: effective branching factor, or ``None``.
    """

    source: str
    case: int
    heuristic: str
    status: str
    cost: int | None
    depth: int | None
    expanded: int
    generated: int
    seconds: float
    ebf: float | None

    def to_dict(self) -> dict:
        return attrs.asdict(self)


@attrs.frozen
class Comparison:
    """All rows of a comparison and the cases where the costs disagree.

    Attributes:
        algorithm: the algorithm used.
        optimal: whether that algorithm is optimal (so admissible heuristics must agree).
        heuristics: heuristic names in column order.
        rows: one :class:`Row` per case and heuristic, case by case.
        disagreements: ``(source, case, {heuristic: cost})`` for each case whose
            solved costs differ.
        cancelled: the comparison was stopped by Ctrl-C (the rows are partial).
    """

    algorithm: str
    optimal: bool
    heuristics: tuple[str, ...]
    rows: tuple[Row, ...]
    disagreements: tuple
    cancelled: bool = False

    def totals(self) -> dict[str, dict]:
        """Per heuristic: summed cost, expanded, generated, seconds and mean EBF over solved cases."""
        out = {}
        for name in self.heuristics:
            rows = [r for r in self.rows if r.heuristic == name]
            ebfs = [r.ebf for r in rows if r.ebf is not None]
            out[name] = {
                "solved": sum(r.status == "solved" for r in rows),
                "cases": len(rows),
                "cost": sum(r.cost or 0 for r in rows),
                "expanded": sum(r.expanded for r in rows),
                "generated": sum(r.generated for r in rows),
                "seconds": sum(r.seconds for r in rows),
                "ebf": sum(ebfs) / len(ebfs) if ebfs else None,
            }
        return out


def compare(solvers: Sequence, cases: Sequence, heuristics: Sequence[str], algorithm: str, optimal: bool) -> Comparison:
    """Solve every case with every solver (one per heuristic, same order) and collect the rows.

    A search cancelled with Ctrl-C ends the comparison there: the rows so far
    are returned and ``Comparison.cancelled`` is set.

    Raises:
        ValueError, SearchkitError: as :meth:`searchkit.runner.Solver.solve`.
    """
    rows = []
    disagreements = []
    for case in cases:
        costs = {}
        for name, solver in zip(heuristics, solvers):
            result = solver.solve(case)
            depth = len(result.moves) if result.solved else None
            rows.append(Row(case.source, case.index, name, result.status, result.cost, depth,
                            result.stats.expanded, result.stats.generated, result.stats.elapsed,
                            effective_branching_factor(result.stats.generated, depth)))
            if result.solved:
                costs[name] = result.cost
            if result.status == "cancelled":
                return Comparison(algorithm, optimal, tuple(heuristics), tuple(rows), tuple(disagreements), True)
        if len(set(costs.values())) > 1:
            disagreements.append((case.source, case.index, costs))
    return Comparison(algorithm, optimal, tuple(heuristics), tuple(rows), tuple(disagreements))
