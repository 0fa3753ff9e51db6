"""Heuristics: named lower-bound estimators registered by plugins.

Modelled on Fast Downward's heuristic properties: each heuristic declares
whether it is *admissible* (never above the true remaining cost) and
*consistent* (h(s) <= c(s, s') + h(s') for every successor s'), and tools such
as the comparison and checking commands rely on these flags.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

Estimator = Callable[[Any], int]


@attrs.frozen
class Heuristic:
    """A heuristic registered for one game.

    Attributes:
        game: name of the game it applies to.
        name: short lowercase name, the command-line choice (``--heuristic NAME``).
        factory: ``factory(puzzle) -> estimate`` where ``estimate(state) -> int``
            is a lower bound on the cost still needed from ``state``, or a
            ``"package.module:attr"`` string naming the factory (imported on
            first use, so registering costs no import).  The factory may
            precompute per-instance tables; ``estimate`` runs in the search
            loop and must be cheap.
        admissible: the estimate never exceeds the true remaining cost.
        consistent: h(s) <= c(s, s') + h(s') for every successor s'.
        summary: one line for listings.
        native: the name under which the native engine implements the same
            estimate (same values on every state), or ``None``.
    """

    game: str
    name: str
    factory: Callable[[Any], Estimator] | str
    admissible: bool = True
    consistent: bool = False
    summary: str = ""
    native: str | None = None

    def bind(self, puzzle: Any) -> Estimator:
        """Return the plain ``estimate(state) -> int`` callable for ``puzzle``.

        This is the one way to build an estimator: it resolves a string
        factory on first use.

        Raises:
            ImportError, AttributeError: a string factory that names nothing.
        """
        from searchkit._refs import resolve

        return resolve(self.factory)(puzzle)
