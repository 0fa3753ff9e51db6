"""Helpers shared by the drivers (not public)."""

from __future__ import annotations

from collections.abc import Sequence

from searchkit.pruning import Pruner


def split_pruners(pruners: Sequence[Pruner]):
    """Return ``(cut, filter, on_fail)`` plain callables or ``None`` each.

    Several rules of a kind are folded into one callable, so a driver makes at
    most one call per kind per node.
    """
    cuts = [p.cut for p in pruners if p.cut is not None]
    filters = [p.filter for p in pruners if p.filter is not None]
    fails = [p.on_fail for p in pruners if p.on_fail is not None]

    cut = None
    if len(cuts) == 1:
        cut = cuts[0]
    elif cuts:
        def cut(state, g, budget, _cuts=tuple(cuts)):
            for c in _cuts:
                if c(state, g, budget):
                    return True
            return False

    filt = None
    if len(filters) == 1:
        filt = filters[0]
    elif filters:
        def filt(state, succs, _filters=tuple(filters)):
            for f in _filters:
                succs = f(state, succs)
            return succs

    on_fail = None
    if len(fails) == 1:
        on_fail = fails[0]
    elif fails:
        def on_fail(state, g, budget, _fails=tuple(fails)):
            for f in _fails:
                f(state, g, budget)

    return cut, filt, on_fail


def path_to(parent: dict, goal) -> tuple:
    """Moves from the root to ``goal`` through ``parent`` (state -> ``(parent_state, move)``, root -> ``None``)."""
    moves = []
    node = goal
    while parent[node] is not None:
        node, move = parent[node]
        moves.append(move)
    moves.reverse()
    return tuple(moves)
