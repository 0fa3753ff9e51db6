"""Pruning rules: named, switchable cuts applied during a search.

A rule is registered by a plugin for one game.  Before a search starts, each
enabled rule is *bound* to the puzzle instance, giving a :class:`Pruner` of
plain callables that the drivers call directly (never through the plugin
manager).  A rule whose ``factory`` is ``None`` is implemented inside the
game's own successor generation: the game receives the set of disabled rule
names when it builds the puzzle and switches the rule there.  Either way the
rule can be switched off by name (``--no-prune NAME``) so its effect can be
measured (after Fast Downward's pruning components).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Pruner:
    """A rule bound to one puzzle instance: any of three plain callables.

    Attributes:
        cut: ``cut(state, g, budget) -> bool``; ``True`` skips ``state`` before it
            is expanded.  ``g`` is the cost so far; ``budget`` is the cost still
            allowed (f-bound or depth minus ``g``), or ``None`` for unbounded
            drivers.
        filter: ``filter(state, successors) -> successors``; may drop or reorder
            the list of ``(move, child, cost)`` tuples of ``state``.
        on_fail: ``on_fail(state, g, budget) -> None``; called when ``state`` was
            fully searched with ``budget`` and held no solution (depth-first
            drivers), e.g. to fill a transposition table of failed states.
    """

    cut: Callable[[Any, int, int | None], bool] | None = None
    filter: Callable[[Any, list], list] | None = None
    on_fail: Callable[[Any, int, int | None], None] | None = None


@attrs.frozen
class PruningRule:
    """A named pruning rule registered for one game.

    Attributes:
        game: the game it applies to.
        name: short lowercase name used by ``--no-prune NAME``.
        summary: one line: what is cut and why it is sound.
        factory: ``factory(puzzle) -> Pruner``, called once per search; ``None``
            when the game implements the rule in its successor generation.
        sound_for: ``"optimal"`` (the default, the weaker claim) if the rule
            never changes an optimal cost; ``"first"`` if it also never changes
            which solution a first-solution driver returns.  The contract suite
            tests whichever is claimed.
    """

    game: str
    name: str
    summary: str
    factory: Callable[[Any], Pruner] | None = None
    sound_for: str = "optimal"


def failure_memo() -> Pruner:
    """A transposition table of states proven to fail with a given budget.

    For depth-first drivers: after ``state`` was fully searched with ``budget``
    left and held no solution, a later visit of ``state`` with the *same*
    budget is cut.  The key includes the budget because a state that fails
    with exactly 1 move left may succeed with 3 (and, in exact-depth search,
    one that fails with 3 may succeed with 2).  Sound for first-solution
    search too: a cut subtree holds no solution at all.

    Returns:
        A :class:`Pruner` whose ``cut`` and ``on_fail`` share one table
        (state -> bit set of failed budgets), fresh for every call.
    """
    failed: dict[Any, int] = {}
    get = failed.get

    def cut(state, g, budget):
        return budget is not None and (get(state, 0) >> budget) & 1 == 1

    def on_fail(state, g, budget):
        if budget is not None:
            failed[state] = get(state, 0) | (1 << budget)

    return Pruner(cut=cut, on_fail=on_fail)
