"""Minimum-cost assignment, for matching heuristics (each box to its own goal, each tile to its own slot).

Given an ``n x m`` cost matrix with ``n <= m``, pick one column per row, no
column twice, with the least total cost.  Sokoban's classic lower bound is
this matching over push distances: each box needs at least its distance to
the goal it ends on, and boxes end on different goals, so the least total
over all one-to-one matchings is admissible (Junghanns and Schaeffer,
"Sokoban: enhancing general single-agent search methods using domain
knowledge", Artificial Intelligence 129, 2001).

SciPy's ``scipy.optimize.linear_sum_assignment`` is used when SciPy is
installed (``pip install 'searchkit-puzzles[scipy]'``); otherwise an exact
Hungarian algorithm in Python (Kuhn 1955; the shortest-augmenting-path form
with row and column potentials, O(n^2 m)), which is fast enough for the
dozen or two rows of a heuristic.  Both give the same total (a test checks
them against each other and against brute force).

A cost of ``math.inf`` forbids a pair; when no assignment avoids every
forbidden pair the total is ``math.inf`` (which is :data:`searchkit.DEAD`:
a matching heuristic can return it as it is).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Accepted values of ``method``.
METHODS = ("auto", "scipy", "python")


def _scipy():
    try:
        from scipy.optimize import linear_sum_assignment
    except ImportError:
        return None
    return linear_sum_assignment


def min_cost_assignment(cost: Sequence[Sequence[float]], *, method: str = "auto"
                        ) -> tuple[float, tuple[int, ...] | None]:
    """The least-cost assignment of rows to distinct columns.

    Args:
        cost: ``n`` rows of ``m >= n`` costs each (ints or floats, ``math.inf``: forbidden).
        method: ``"auto"`` (SciPy when installed), ``"scipy"`` or ``"python"``.

    Returns:
        ``(total, columns)``: ``columns[i]`` is row ``i``'s column; ``(0, ())``
        for no rows; ``(math.inf, None)`` when every assignment uses a
        forbidden pair.  ``total`` is an int when every cost is.

    Raises:
        ValueError: rows of different lengths, more rows than columns, a NaN
            or ``-inf`` cost, or an unknown ``method``.
        ModuleNotFoundError: ``method="scipy"`` without SciPy (saying what to install).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    rows = [list(r) for r in cost]
    n = len(rows)
    if n == 0:
        return 0, ()
    m = len(rows[0])
    if any(len(r) != m for r in rows):
        raise ValueError("every row of the cost matrix needs the same number of columns")
    if n > m:
        raise ValueError(f"{n} rows cannot go to distinct columns among {m}")
    finite = [v for r in rows for v in r if v != math.inf]
    if any(v != v or v == -math.inf for v in finite):
        raise ValueError("costs must be numbers or math.inf (no NaN, no -inf)")
    integral = all(isinstance(v, int) for v in finite)
    # inf -> a cost larger than any assignment of finite pairs: the optimum avoids it whenever it can.
    big = (sum(abs(v) for v in finite) + 1) * (n + 1)
    matrix = [[big if v == math.inf else v for v in r] for r in rows]
    solve = _scipy() if method != "python" else None
    if method == "scipy" and solve is None:
        raise ModuleNotFoundError("min_cost_assignment(method='scipy') needs SciPy: pip install "
                                  "'searchkit-puzzles[scipy]'", name="scipy")
    if solve is not None:
        row_ind, col_ind = solve(matrix)
        columns = [0] * n
        for r, c in zip(row_ind.tolist(), col_ind.tolist()):
            columns[r] = c
    else:
        columns = _hungarian(matrix, n, m)
    if any(rows[i][columns[i]] == math.inf for i in range(n)):
        return math.inf, None
    total = sum(rows[i][columns[i]] for i in range(n))
    return (int(total) if integral else total), tuple(columns)


def _hungarian(a: list[list[float]], n: int, m: int) -> list[int]:
    """Row i's column in a least-cost assignment of the ``n x m`` matrix ``a`` (``n <= m``, finite costs).

    Rows are added one at a time; each addition finds a shortest augmenting
    path (Dijkstra over reduced costs ``a[i][j] - u[i] - v[j] >= 0``) from the
    new row to a free column and flips it, then updates the potentials so the
    reduced costs of the matched pairs stay 0.  Linear-programming duality
    (the potentials are feasible and complementary) proves the result optimal.
    """
    inf = math.inf
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    match = [0] * (m + 1)  # match[j]: the row (1-based) in column j (1-based), 0 for free
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        least = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            delta, j1 = inf, 0
            row = a[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < least[j]:
                        least[j] = cur
                        way[j] = j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    columns = [0] * n
    for j in range(1, m + 1):
        if match[j]:
            columns[match[j] - 1] = j - 1
    return columns
