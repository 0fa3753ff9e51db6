"""Perfect hashing of partial permutations: the index of a pattern database.

A pattern of ``k`` distinct pieces on ``n`` cells is the tuple of the cells
they occupy, ``(p_0, ..., p_{k-1})`` (piece order fixed by the pattern): a
*k-permutation* of ``range(n)``.  There are ``P(n, k) = n! / (n - k)!`` of
them, and :func:`rank` numbers them ``0 .. P(n, k) - 1`` in lexicographic
order:

    rank = sum_i d_i * P(n - 1 - i, k - 1 - i),   d_i = p_i - #{j < i : p_j < p_i}

(``d_i`` is ``p_i``'s index among the cells still free after ``p_0 .. p_{i-1}``;
Myrvold and Ruskey, "Ranking and unranking permutations in linear time",
IPL 79 (2001), give the unordered variant; this lexicographic one is the
classical mixed-radix form, Knuth TAOCP 4A, 7.2.1.2).

Because the last digit has weight 1 and radix ``n - k + 1``, the ranks of
``(p_0 .. p_{k-2}, x)`` for all free ``x`` are the consecutive block
``rank(p_0 .. p_{k-2}) * (n - k + 1) + 0 .. n - k``.  A pattern database
built over "pattern + blank" folds that block with ``min`` to get a table
indexed by the pattern alone (:attr:`searchkit.machinery.pdb.Abstraction.fold`).

The scalar functions are the specification; the numpy ones compute the same
numbers on arrays (rows are states) and are what the builder uses.
"""

from __future__ import annotations

from math import perm


def count(n: int, k: int) -> int:
    """``P(n, k)``: the number of k-permutations of n cells (the table size)."""
    return perm(n, k)


def weights(n: int, k: int) -> tuple[int, ...]:
    """The digit weights ``P(n - 1 - i, k - 1 - i)`` for ``i = 0 .. k-1``."""
    return tuple(perm(n - 1 - i, k - 1 - i) for i in range(k))


def rank(cells, n: int) -> int:
    """The lexicographic rank of the k-permutation ``cells`` of ``range(n)``.

    Raises:
        ValueError: a repeated cell or a cell outside ``0 .. n-1``.
    """
    k = len(cells)
    if len(set(cells)) != k or any(not 0 <= c < n for c in cells):
        raise ValueError(f"not a {k}-permutation of range({n}): {tuple(cells)}")
    total = 0
    for i, (c, w) in enumerate(zip(cells, weights(n, k))):
        total += (c - sum(1 for j in range(i) if cells[j] < c)) * w
    return total


def unrank(r: int, n: int, k: int) -> tuple[int, ...]:
    """The k-permutation of ``range(n)`` whose :func:`rank` is ``r``.

    Raises:
        ValueError: ``r`` outside ``0 .. P(n, k) - 1``.
    """
    if not 0 <= r < perm(n, k):
        raise ValueError(f"rank {r} outside 0..{perm(n, k) - 1}")
    free = list(range(n))
    out = []
    for w in weights(n, k):
        d, r = divmod(r, w)
        out.append(free.pop(d))
    return tuple(out)


def rank_array(cells, n: int):
    """:func:`rank` of every row of the integer array ``cells`` (shape ``(m, k)``), as int64."""
    import numpy as np

    cells = np.asarray(cells, dtype=np.int64)
    k = cells.shape[1]
    out = np.zeros(cells.shape[0], dtype=np.int64)
    for i, w in enumerate(weights(n, k)):
        d = cells[:, i].copy()
        for j in range(i):
            d -= cells[:, j] < cells[:, i]
        out += d * w
    return out


def unrank_array(ranks, n: int, k: int):
    """:func:`unrank` of every entry of the int64 array ``ranks``: an int64 array of shape ``(m, k)``."""
    import numpy as np

    r = np.asarray(ranks, dtype=np.int64).copy()
    out = np.empty((r.shape[0], k), dtype=np.int64)
    for i, w in enumerate(weights(n, k)):
        d, r = np.divmod(r, w)
        # the d-th free cell: step over the cells already used, smallest first
        if i:
            for used in np.sort(out[:, :i], axis=1).T:
                d += d >= used
        out[:, i] = d
    return out
