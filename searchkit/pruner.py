"""The :class:`Pruner`: a pruning rule (:class:`searchkit.pruning.PruningRule`) bound to one puzzle.

Its own module so that a search that binds no rule (the native engine's) does not create its class at start-up;
``searchkit.pruning.Pruner`` and ``searchkit.plugin.Pruner`` name it too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Pruner:
    """A rule bound to one puzzle instance: any of three plain callables.

    Attributes:
        cut: ``cut(state, g, remaining) -> bool``; ``True`` skips ``state``
            before it is expanded.  ``g`` is the cost so far; ``remaining`` is
            the cost still allowed (f-bound or depth minus ``g``), or ``None``
            for unbounded (best-first) drivers.
        on_fail: ``on_fail(state, g, remaining) -> None``; called when ``state``
            was fully searched with ``remaining`` and held no solution
            (depth-first drivers), e.g. to fill a table of failed states.
        name: the rule's name (set by the Solver), used to count cuts.
    """

    cut: Callable[[Any, int, int | None], bool] | None = None
    on_fail: Callable[[Any, int, int | None], None] | None = None
    name: str = ""
