"""Search algorithms as named, registered components with declared capabilities."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import SearchResult

#: The rule hooks a driver may call (see :mod:`searchkit.pruning`).
ALL_HOOKS = frozenset({"successors_within", "cut", "filter", "on_fail"})


@attrs.frozen
class SearchRequest:
    """Everything a driver needs besides the puzzle.

    Attributes:
        heuristic: ``estimate(state) -> int`` or ``None``.
        pruners: bound pruning rules that act under the algorithm, in registration order.
        limits: the case's :class:`~searchkit.limits.Limiter` (started when
            the case started) or plain :class:`~searchkit.limits.Limits`.
        depth: cost/depth bound (``None``: unbounded; required by bounded DFS).
        mode: ``"exact"``, ``"at_most"`` or ``"shortest"`` for bounded DFS.
    """

    heuristic: Callable[[Any], int] | None = None
    pruners: Sequence[Pruner] = ()
    limits: Limits | Limiter = attrs.field(factory=Limits)
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
        takes_heuristic: can use one if given (default: ``uses_heuristic``;
            bounded DFS takes an optional one to cut children).
        summary: one line for listings.
        modes: the :class:`~searchkit.game.SearchPlan` modes it can honour
            (an optimal algorithm finds the least cost within the bound, which
            is what ``"at_most"`` and ``"shortest"`` ask; only a depth-first
            driver searches ``"exact"`` depths).
        needs_depth: it cannot run without ``SearchPlan.depth``.
        rule_hooks: the pruning hooks it calls: any of ``"successors_within"``,
            ``"cut"``, ``"filter"``, ``"on_fail"`` (rules fused into plain
            ``successors`` act under every algorithm that is not plain).
        plain: it runs with every pruning rule off (a test reference).
        keeps_order: among the solutions it may return (least-cost ones for
            an optimal algorithm), it returns the first in the puzzle's move
            order -- what a game asking for the lexicographically smallest
            answer needs (:attr:`searchkit.game.SearchPlan.first_in_order`).
    """

    name: str
    run: Callable[[Any, SearchRequest], SearchResult]
    optimal: bool
    uses_heuristic: bool
    summary: str = ""
    modes: tuple[str, ...] = ("at_most", "shortest")
    needs_depth: bool = False
    rule_hooks: frozenset[str] = attrs.field(default=frozenset({"cut", "filter", "on_fail"}), converter=frozenset)
    plain: bool = False
    keeps_order: bool = False
    takes_heuristic: bool = attrs.field(default=attrs.Factory(lambda self: self.uses_heuristic, takes_self=True))
