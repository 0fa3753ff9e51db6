"""A heuristic cache keyed by part of the state.

Many estimates depend on only part of a state: a Sokoban matching bound on
the boxes' squares, not on where the player stands; a sliding-tile pattern
database on the pattern's tiles.  :func:`cached` memoises such an estimate on
``key(state)``, so states that differ only elsewhere share one evaluation.

Claim: the cached estimate returns what ``estimate`` returns, provided
``estimate(s) == estimate(t)`` whenever ``key(s) == key(t)`` (the key holds
everything the estimate reads).  Admissibility and consistency carry over
unchanged, since every value is one ``estimate`` computed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, cast

import attrs

#: Entries a cache holds before it is emptied and refilled (about 100 MB of small keys).
DEFAULT_LIMIT = 1_000_000


@attrs.frozen
class CacheInfo:
    """How a cache fared: ``hits``, ``misses``, entries held now (``size``), times it was emptied (``clears``)."""

    hits: int
    misses: int
    size: int
    clears: int


class CachedEstimate(Protocol):
    """What :func:`cached` returns: the estimate, called as ``estimate(state)``, with ``cache_info()`` (a
    :class:`CacheInfo`) and ``cache_clear()`` (empties the table) as attributes, as :func:`functools.lru_cache`'s."""

    cache_info: Callable[[], CacheInfo]
    cache_clear: Callable[[], None]

    def __call__(self, state: Any, /) -> Any: ...


def cached(estimate: Callable[[Any], Any], key: Callable[[Any], Hashable], *,
           limit: int = DEFAULT_LIMIT) -> CachedEstimate:
    """``estimate`` memoised on ``key(state)``.

    Args:
        estimate: ``estimate(state) -> int`` (or :data:`searchkit.DEAD`).
        key: the part of the state the estimate depends on (hashable).
        limit: most entries held; the table is emptied when full (no
            per-hit bookkeeping, unlike an LRU), so memory stays bounded.

    Returns:
        The cached estimate; its ``cache_info()`` gives a :class:`CacheInfo`
        and ``cache_clear()`` empties it.

    Raises:
        ValueError: a ``limit`` below 1.
    """
    if limit < 1:
        raise ValueError(f"a cache needs room for at least one entry, got limit={limit}")
    memo: dict = {}
    counts = [0, 0]  # misses, clears (hits = calls - misses, counted without a per-hit increment)
    calls = [0]

    def estimate_cached(state):
        calls[0] += 1
        k = key(state)
        value = memo.get(k)
        if value is None:
            if len(memo) >= limit:
                memo.clear()
                counts[1] += 1
            value = memo[k] = estimate(state)
            counts[0] += 1
        return value

    def cache_info() -> CacheInfo:
        return CacheInfo(calls[0] - counts[0], counts[0], len(memo), counts[1])

    def cache_clear() -> None:
        memo.clear()

    # The closure itself, its two functions set as attributes (a plain function: no per-call method lookup).
    result = cast(CachedEstimate, estimate_cached)
    result.cache_info = cache_info
    result.cache_clear = cache_clear
    return result
