"""The :class:`SearchRequest`: everything a driver is handed besides the puzzle (the Python engine's drivers).

Its own module so that a search on the native engine, which makes none, does not create its class at start-up;
``searchkit.algorithm.SearchRequest`` names it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from searchkit.limits import Limiter, Limits

if TYPE_CHECKING:
    from searchkit.pruner import Pruner


@attrs.frozen
class SearchRequest:
    """Everything a driver needs besides the puzzle.

    Attributes:
        heuristic: ``estimate(state) -> int`` or ``None``.
        pruners: bound pruning rules that act under the algorithm, in registration order.
        limits: the case's :class:`~searchkit.limits.Limiter` (started when
            the case started) or plain :class:`~searchkit.limits.Limits`.
        max_cost: the cost bound: only solutions of cost <= ``max_cost`` are
            sought (``None``: unbounded; required by an algorithm with
            :attr:`Algorithm.needs_depth`, for which it is the depth).
        mode: ``"exact"``, ``"at_most"`` or ``"shortest"`` for bounded DFS.
        params: the algorithm's options (:attr:`Algorithm.params`), every
            declared one present.
        admissible: the heuristic never overestimates, so a driver may prune
            on g + h and derive lower bounds from it.
        incumbent: ``(moves, cost)`` of a known valid solution (a seed), or
            ``None``; an anytime driver starts from it.  ``max_cost`` is then at
            most ``cost - 1`` (the Solver asks only for cheaper solutions).
        on_improve: ``on_improve(cost, lower_bound)`` called by an anytime
            driver each time it finds a cheaper solution, or ``None``.
    """

    heuristic: Callable[[Any], int] | None = None
    pruners: Sequence[Pruner] = ()
    limits: Limits | Limiter = attrs.field(factory=Limits)
    max_cost: int | None = None
    mode: str = "at_most"
    params: Mapping[str, Any] = attrs.field(factory=dict)
    admissible: bool = True
    incumbent: tuple | None = None
    on_improve: Callable[[int, int | None], None] | None = None

    def needed_heuristic(self) -> Callable[[Any], int]:
        """:attr:`heuristic`, for a driver that cannot run without one.

        Raises:
            ValueError: the request carries none (the Solver and
                :func:`searchkit.run` refuse such a plan before).
        """
        if self.heuristic is None:
            raise ValueError("this algorithm needs a heuristic, and the request carries none")
        return self.heuristic

    def needed_max_cost(self) -> int:
        """:attr:`max_cost`, for a driver that cannot run without a bound (the depth of bounded DFS).

        Raises:
            ValueError: the request carries none.
        """
        if self.max_cost is None:
            raise ValueError("this algorithm needs a depth bound (max_cost), and the request carries none")
        return self.max_cost
