"""The typed plugin registry: loads plugins and records what each registered.

After tox 4's ``plugin/manager.py``: the rest of searchkit talks to a
:class:`Registry` with typed methods and never calls ``pm.hook`` itself.

Load order: searchkit's built-in plugin (the search algorithms), then the
entry points of group ``searchkit`` sorted by name, then any ``extra``
plugins passed by the caller (tests use this to add throwaway plugins).  The
environment variable ``SEARCHKIT_PLUGINS`` limits which entry points load: a
comma-separated list of entry-point names (empty: none).  A plugin that fails
to import or to register is reported with its name and the error; everything
else still loads.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import pluggy

from searchkit.errors import PluginError, UnknownNameError
from searchkit.plugin import spec

ENTRY_POINT_GROUP = "searchkit"
ENV_VAR = "SEARCHKIT_PLUGINS"
BUILTIN = "searchkit.builtin"

# hook name -> kind label used in listings
HOOKS = {
    "register_algorithms": "algorithms",
    "register_games": "games",
    "register_heuristics": "heuristics",
    "register_pruning_rules": "pruning rules",
    "register_generators": "generators",
}


@attrs.define
class PluginInfo:
    """What one plugin is and what it registered.

    Attributes:
        name: entry-point name (``searchkit.builtin`` for the core's own plugin).
        version: the distribution's version, or ``""`` when unknown.
        origin: ``"builtin"``, ``"entry point"`` or ``"extra"``.
        hooks: names of the hooks it implements.
        registered: kind (``"games"``, ...) -> names it registered.
        error: the load or registration error, or ``None``.
    """

    name: str
    version: str = ""
    origin: str = "entry point"
    hooks: list[str] = attrs.Factory(list)
    registered: dict[str, list[str]] = attrs.Factory(dict)
    error: str | None = None


class Registry:
    """Everything the loaded plugins registered, looked up by name.

    Games and algorithms are keyed by name; heuristics, pruning rules and
    generators by game name.  Raises :class:`~searchkit.errors.UnknownNameError`
    for a name nothing registered, listing the names that exist.
    """

    def __init__(self) -> None:
        self.games: dict[str, Any] = {}
        self.algorithms: dict[str, Any] = {}
        self.heuristics: dict[str, dict[str, Any]] = {}
        self.rules: dict[str, dict[str, Any]] = {}
        self.generators: dict[str, Any] = {}
        self.plugins: list[PluginInfo] = []
        self._owner: dict[tuple, str] = {}

    # -- typed look-ups -------------------------------------------------
    def game(self, name: str):
        """The :class:`~searchkit.game.Game` called ``name``."""
        try:
            return self.games[name]
        except KeyError:
            raise UnknownNameError(_unknown("game", name, self.games)) from None

    def algorithm(self, name: str):
        """The :class:`~searchkit.algorithm.Algorithm` called ``name``."""
        try:
            return self.algorithms[name]
        except KeyError:
            raise UnknownNameError(_unknown("algorithm", name, self.algorithms)) from None

    def heuristics_for(self, game: str) -> list:
        """The heuristics registered for ``game``, in registration order."""
        return list(self.heuristics.get(game, {}).values())

    def heuristic(self, game: str, name: str):
        """The :class:`~searchkit.heuristic.Heuristic` ``name`` of ``game``."""
        table = self.heuristics.get(game, {})
        try:
            return table[name]
        except KeyError:
            raise UnknownNameError(_unknown(f"heuristic for {game}", name, table)) from None

    def rules_for(self, game: str) -> list:
        """The pruning rules registered for ``game``, in registration order."""
        return list(self.rules.get(game, {}).values())

    def generator(self, game: str):
        """The :class:`~searchkit.generator.Generator` of ``game``."""
        try:
            return self.generators[game]
        except KeyError:
            raise UnknownNameError(_unknown("generator for game", game, self.generators)) from None

    def owner(self, kind: str, *key: str) -> str:
        """Name of the plugin that registered the item (``kind``, ``key...``)."""
        return self._owner[(kind, *key)]

    @property
    def failures(self) -> list[PluginInfo]:
        """The plugins that failed to load or register."""
        return [p for p in self.plugins if p.error]

    # -- registration callbacks -----------------------------------------
    def _claim(self, kind: str, key: tuple, plugin: str, what: str) -> None:
        other = self._owner.get((kind, *key))
        if other is not None:
            raise PluginError(f"{what} is registered by both plugin {other!r} and plugin {plugin!r}")
        self._owner[(kind, *key)] = plugin

    def _register_game(self, plugin: str, game) -> str:
        self._claim("game", (game.name,), plugin, f"game {game.name!r}")
        self.games[game.name] = game
        return game.name

    def _register_algorithm(self, plugin: str, algorithm) -> str:
        self._claim("algorithm", (algorithm.name,), plugin, f"algorithm {algorithm.name!r}")
        self.algorithms[algorithm.name] = algorithm
        return algorithm.name

    def _register_heuristic(self, plugin: str, heuristic) -> str:
        key = (heuristic.game, heuristic.name)
        self._claim("heuristic", key, plugin, f"heuristic {heuristic.name!r} of game {heuristic.game!r}")
        self.heuristics.setdefault(heuristic.game, {})[heuristic.name] = heuristic
        return f"{heuristic.game}:{heuristic.name}"

    def _register_rule(self, plugin: str, rule) -> str:
        key = (rule.game, rule.name)
        self._claim("rule", key, plugin, f"pruning rule {rule.name!r} of game {rule.game!r}")
        self.rules.setdefault(rule.game, {})[rule.name] = rule
        return f"{rule.game}:{rule.name}"

    def _register_generator(self, plugin: str, generator) -> str:
        self._claim("generator", (generator.game,), plugin, f"generator of game {generator.game!r}")
        self.generators[generator.game] = generator
        return generator.game


def _unknown(what: str, name: str, known: Iterable[str]) -> str:
    names = ", ".join(sorted(known)) or "none"
    return f"unknown {what} {name!r} (known: {names})"


def _default_report(message: str) -> None:
    print(f"searchkit: {message}", file=sys.stderr)


def _entry_points(only: set[str] | None):
    from searchkit.plugin.entry_points import find

    return [ep for ep in find(ENTRY_POINT_GROUP) if only is None or ep.name in only]


def load_registry(
    *,
    extra: Iterable[tuple[str, Any]] = (),
    use_entry_points: bool = True,
    report: Callable[[str], None] | None = _default_report,
) -> Registry:
    """Load every plugin and return the filled :class:`Registry`.

    Args:
        extra: ``(name, plugin)`` pairs registered after the entry points.
        use_entry_points: read the ``searchkit`` entry-point group (limited by
            ``SEARCHKIT_PLUGINS`` when set).
        report: called with a one-line message per plugin that fails to load
            or register (default: print to stderr); ``None`` to stay silent.

    Returns:
        The registry; failed plugins are in ``registry.failures``.
    """
    import importlib

    registry = Registry()
    pm = pluggy.PluginManager(spec.PROJECT)
    pm.add_hookspecs(spec)
    order: list[PluginInfo] = []

    def add(info: PluginInfo, load: Callable[[], Any]) -> None:
        registry.plugins.append(info)
        try:
            plugin = load()
            pm.register(plugin, name=info.name)
        except Exception as exc:  # a broken plugin must not take the host down
            info.error = f"{type(exc).__name__}: {exc}"
            if report:
                report(f"plugin {info.name!r} failed to load: {info.error}")
            return
        order.append(info)

    from searchkit import __version__

    add(PluginInfo(BUILTIN, __version__, "builtin"), lambda: importlib.import_module(BUILTIN))
    if use_entry_points:
        only_env = os.environ.get(ENV_VAR)
        only = None if only_env is None else {n.strip() for n in only_env.split(",") if n.strip()}
        eps = _entry_points(only)
        for name in sorted((only or set()) - {ep.name for ep in eps}):
            if report:
                report(f"{ENV_VAR} names {name!r}, but no installed plugin has that name")
        for ep in eps:
            add(PluginInfo(ep.name, getattr(ep, "version", ""), "entry point"), ep.load)
    for name, plugin in extra:
        add(PluginInfo(name, "", "extra"), lambda plugin=plugin: plugin)

    callbacks = {
        "register_algorithms": registry._register_algorithm,
        "register_games": registry._register_game,
        "register_heuristics": registry._register_heuristic,
        "register_pruning_rules": registry._register_rule,
        "register_generators": registry._register_generator,
    }
    for info in order:
        for hook_name, impl in _impls_of(pm, info.name):
            info.hooks.append(hook_name)
            kind = HOOKS[hook_name]
            names = info.registered.setdefault(kind, [])
            callback = callbacks[hook_name]

            def register(*args, _cb=callback, _plugin=info.name, _names=names, _info=info, _kind=kind):
                try:
                    _names.append(_cb(_plugin, *args))
                except PluginError as exc:  # rejected (a duplicate): the plugin's other items still count
                    _info.error = str(exc) if _info.error is None else f"{_info.error}; {exc}"
                    if report:
                        report(f"plugin {_plugin!r}: {_kind[:-1] if _kind.endswith('s') else _kind} rejected: {exc}")

            try:
                impl.function(*[{"register": register}[a] for a in impl.argnames])
            except Exception as exc:
                msg = f"{type(exc).__name__}: {exc}"
                info.error = msg if info.error is None else f"{info.error}; {msg}"
                if report:
                    report(f"plugin {info.name!r} failed to register {kind}: {msg}")
    return registry


def _impls_of(pm: pluggy.PluginManager, plugin_name: str):
    """Yield ``(hook_name, hookimpl)`` of one plugin, in :data:`HOOKS` order."""
    for hook_name in HOOKS:
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            if impl.plugin_name == plugin_name:
                yield hook_name, impl
