"""Hook specifications of searchkit's plugin system (pluggy project ``searchkit``).

A plugin is a module (or object) with functions decorated by :data:`hookimpl`.
Each hook hands the plugin a ``register`` callback (after llm and datasette):
the host names, checks and records what was registered, so duplicates and
errors are reported with the plugin that caused them.  A function decorated
with :data:`hookimpl` whose name matches no hook below (a typo such as
``register_game``) is reported as an error of its plugin.

Third-party plugins are found through the entry-point group ``searchkit``::

    [project.entry-points.searchkit]
    mygame = "mygame_package.plugin"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from searchkit.algorithm import Algorithm
    from searchkit.bounds import UpperBound
    from searchkit.game import Game, LazyGame
    from searchkit.generator import Generator
    from searchkit.heuristic import Heuristic
    from searchkit.pruning import PruningRule

PROJECT = "searchkit"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_games(register: Callable[["Game | LazyGame"], None]) -> None:
    """Register games: call ``register(game)`` with a :class:`searchkit.game.Game`, or with a
    :class:`searchkit.game.LazyGame` naming it by ``"module:attr"`` so that the game's
    modules are imported only when a command uses it."""


@hookspec
def register_heuristics(register: Callable[["Heuristic"], None]) -> None:
    """Register heuristics: call ``register(heuristic)`` with a :class:`searchkit.heuristic.Heuristic`."""


@hookspec
def register_pruning_rules(register: Callable[["PruningRule"], None]) -> None:
    """Register pruning rules: call ``register(rule)`` with a :class:`searchkit.pruning.PruningRule`."""


@hookspec
def register_algorithms(register: Callable[["Algorithm"], None]) -> None:
    """Register search algorithms: call ``register(algorithm)`` with a :class:`searchkit.algorithm.Algorithm`."""


@hookspec
def register_generators(register: Callable[["Generator"], None]) -> None:
    """Register random-instance generators: call ``register(generator)`` with a
    :class:`searchkit.generator.Generator`.  The game must also implement
    ``format_input`` so generated instances can be written out."""


@hookspec
def register_upper_bounds(register: Callable[["UpperBound"], None]) -> None:
    """Register upper-bound providers: call ``register(provider)`` with a
    :class:`searchkit.bounds.UpperBound` (a cheap solution of a game's cases,
    used by ``--upper-bound auto`` and to seed ``anytime``).  A provider that
    finds no solution returns ``None``: the case is then searched with no
    upper bound (an empty sequence claims the start is a goal)."""
