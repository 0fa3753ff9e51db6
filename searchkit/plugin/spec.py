"""Hook specifications of searchkit's plugin system (pluggy project ``searchkit``).

A plugin is a module (or object) with functions decorated by :data:`hookimpl`.
Each hook hands the plugin a ``register`` callback (after llm and datasette):
the host names, checks and records what was registered, so duplicates and
errors are reported with the plugin that caused them.

Third-party plugins are found through the entry-point group ``searchkit``::

    [project.entry-points.searchkit]
    mygame = "mygame_package.plugin"
"""

from __future__ import annotations

import pluggy

PROJECT = "searchkit"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_games(register):
    """Register games: call ``register(game)`` with a :class:`searchkit.game.Game` for each."""


@hookspec
def register_heuristics(register):
    """Register heuristics: call ``register(heuristic)`` with a :class:`searchkit.heuristic.Heuristic`."""


@hookspec
def register_pruning_rules(register):
    """Register pruning rules: call ``register(rule)`` with a :class:`searchkit.pruning.PruningRule`."""


@hookspec
def register_algorithms(register):
    """Register search algorithms: call ``register(algorithm)`` with a :class:`searchkit.algorithm.Algorithm`."""


@hookspec
def register_generators(register):
    """Register random-instance generators: call ``register(generator)`` with a
    :class:`searchkit.generator.Generator`.  The game must also implement
    ``format_input`` so generated instances can be written out."""
