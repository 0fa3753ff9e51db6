"""The plugin system, and the one import line a plugin author needs::

    from searchkit.plugin import hookimpl, Heuristic, PruningRule, Generator, GameOption, LazyGame

and, for a plugin's own code: ``run`` (a named algorithm on a puzzle, see
:mod:`searchkit.machinery.search`) and ``solution_text`` (a solution drawn move by move
as ``searchkit show`` draws it on a terminal).
(pattern databases: ``Abstraction``, ``load_or_build``, ``additive``, ``maximum``, ``reflected``, ``rank_array``,
``unrank_array``, and ``rank``/``unrank``, the same ranking for one state, which a heuristic's lookup needs;
for a native engine that reads table files itself, ``ensure_file``, ``finish_writes`` and ``make_folder``.)

Everything named here is re-exported from its home module on first use, so
importing this package costs nothing until a name is used.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "hookimpl": "searchkit.plugin.spec",
    "Heuristic": "searchkit.heuristic",
    "PruningRule": "searchkit.pruning",
    "Pruner": "searchkit.pruner",
    "failure_memo": "searchkit.pruning",
    "Generator": "searchkit.generator",
    "GameOption": "searchkit.game",
    "Option": "searchkit.game",
    "Case": "searchkit.game",
    "SearchPlan": "searchkit.game",
    "LazyGame": "searchkit.game",
    "InputError": "searchkit.errors",
    "PlanError": "searchkit.errors",
    "Algorithm": "searchkit.algorithm",
    "Param": "searchkit.algorithm",
    "parse_spec": "searchkit.algorithm",
    "UpperBound": "searchkit.bounds",
    "run": "searchkit.machinery.search",
    "solution_text": "searchkit.render.steps",
    "DEAD": "searchkit.heuristic",
    "DeadlockRule": "searchkit.helpers.deadlock",
    "Abstraction": "searchkit.machinery.pdb",
    "ExplicitAbstraction": "searchkit.machinery.pdb.abstraction",
    "load_or_build": "searchkit.machinery.pdb",
    "ensure_file": "searchkit.machinery.pdb",
    "finish_writes": "searchkit.machinery.pdb",
    "make_folder": "searchkit.machinery.pdb",
    "additive": "searchkit.machinery.pdb",
    "maximum": "searchkit.machinery.pdb",
    "reflected": "searchkit.machinery.pdb",
    "rank_array": "searchkit.machinery.pdb.ranking",
    "unrank_array": "searchkit.machinery.pdb.ranking",
    "rank": "searchkit.machinery.pdb.ranking",
    "unrank": "searchkit.machinery.pdb.ranking",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'searchkit.plugin' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
