"""Search algorithms as named, registered components."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from searchkit.limits import Limits
from searchkit.pruning import Pruner
from searchkit.result import SearchResult


@attrs.frozen
class SearchRequest:
    """Everything a driver needs besides the puzzle.

    Attributes:
        heuristic: ``estimate(state) -> int`` or ``None``.
        pruners: bound pruning rules, in registration order.
        limits: node and time limits.
        depth: cost/depth bound (``None``: unbounded; required by bounded DFS).
        mode: ``"exact"``, ``"at_most"`` or ``"shortest"`` for bounded DFS.
    """

    heuristic: Callable[[Any], int] | None = None
    pruners: Sequence[Pruner] = ()
    limits: Limits = attrs.field(factory=Limits)
    depth: int | None = None
    mode: str = "at_most"


@attrs.frozen
class Algorithm:
    """A registered search algorithm.

    Attributes:
        name: short lowercase name, the ``--algorithm`` choice.
        run: ``run(puzzle, request) -> SearchResult``.
        optimal: returns a least-cost solution (given an admissible heuristic).
        uses_heuristic: needs a heuristic (``--heuristic``).
        summary: one line for listings.
        modes: the :class:`~searchkit.game.SearchPlan` modes it can honour
            (an optimal algorithm finds the least cost within the bound, which
            is what ``"at_most"`` and ``"shortest"`` ask; only a depth-first
            driver searches ``"exact"`` depths).
        needs_depth: it cannot run without ``SearchPlan.depth``.
    """

    name: str
    run: Callable[[Any, SearchRequest], SearchResult]
    optimal: bool
    uses_heuristic: bool
    summary: str = ""
    modes: tuple[str, ...] = ("at_most", "shortest")
    needs_depth: bool = False
