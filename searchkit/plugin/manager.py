"""The typed plugin registry: loads plugins and records what each registered.

After tox 4's ``plugin/manager.py``: the rest of searchkit talks to a
:class:`Registry` with typed methods and never calls ``pm.hook`` itself.

Load order: searchkit's built-in plugin (the search algorithms), then the
entry points of group ``searchkit`` sorted by name, then any ``extra``
plugins passed by the caller (tests use this to add throwaway plugins).  The
environment variable ``SEARCHKIT_PLUGINS`` limits which entry points load: a
comma-separated list of entry-point names (empty: none).  A plugin that fails
to import (any exception, ``SystemExit`` included, but not Ctrl-C), that
implements a hook no specification knows (pluggy's ``check_pending``) or that
registers something malformed is reported with its name and the error;
everything else still loads.  The first plugin to register a name keeps it;
a second registration is rejected and reported, naming both plugins, and so
are the second plugin's heuristics, rules and generator for that game.  A
game's heuristics, rules, generator and upper bounds are claimed after every
plugin's games and algorithms, the game's own plugin first: a plugin that
loads earlier (entry points load sorted by name) cannot take a name such as
``flood:layered`` from the game that plans with it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs
import pluggy

from searchkit.errors import PluginError, UnknownNameError
from searchkit.plugin import spec

if TYPE_CHECKING:
    from searchkit.algorithm import Algorithm
    from searchkit.game import Game, LazyGame
    from searchkit.generator import Generator
    from searchkit.heuristic import Heuristic
    from searchkit.pruning import PruningRule

ENTRY_POINT_GROUP = "searchkit"
ENV_VAR = "SEARCHKIT_PLUGINS"
BUILTIN = "searchkit.builtin"
BUILTIN_MODULE = "searchkit.machinery.drivers.builtin"


@attrs.define
class PluginInfo:
    """What one plugin is and what it registered.

    Attributes:
        name: entry-point name (``searchkit.builtin`` for the core's own plugin).
        version: the distribution's version, or ``""`` when unknown.
        origin: ``"builtin"``, ``"entry point"`` or ``"extra"``.
        hooks: names of the hooks it implements.
        registered: kind (``"games"``, ...) -> names it registered.
        error: the load or registration errors, or ``None``.
    """

    name: str
    version: str = ""
    origin: str = "entry point"
    hooks: list[str] = attrs.Factory(list)
    registered: dict[str, list[str]] = attrs.Factory(dict)
    error: str | None = None

    def add_error(self, message: str) -> None:
        self.error = message if self.error is None else f"{self.error}; {message}"


class Registry:
    """Everything the loaded plugins registered, looked up by name.

    Games and algorithms are keyed by name; heuristics, pruning rules and
    generators by game name.  Raises :class:`~searchkit.errors.UnknownNameError`
    for a name nothing registered, listing the names that exist.

    Attributes:
        games: game name -> the registered :class:`~searchkit.game.Game` or
            :class:`~searchkit.game.LazyGame` (use :meth:`game` to get the game).
        algorithms: name -> :class:`~searchkit.algorithm.Algorithm`.
        heuristics, rules: game -> name -> item.
        generators: game -> :class:`~searchkit.generator.Generator`.
        plugins: the :class:`PluginInfo` of every plugin, in load order.
    """

    def __init__(self) -> None:
        self.games: dict[str, Game | LazyGame] = {}
        self.algorithms: dict[str, Algorithm] = {}
        self.heuristics: dict[str, dict[str, Heuristic]] = {}
        self.rules: dict[str, dict[str, PruningRule]] = {}
        self.generators: dict[str, Generator] = {}
        self.upper_bounds: dict[str, dict[str, Any]] = {}  # game -> name -> searchkit.bounds.UpperBound
        self.plugins: list[PluginInfo] = []
        self._owner: dict[tuple, str] = {}
        self._resolved: dict[str, Game] = {}
        self._lost_games: dict[str, set[str]] = {}  # plugin -> game names whose registration was rejected

    # -- typed look-ups -------------------------------------------------
    def game(self, name: str) -> Game:
        """The :class:`~searchkit.game.Game` called ``name`` (a lazy one is imported now).

        Raises:
            UnknownNameError: nothing registered that name.
            PluginError: a lazy game that cannot be imported or is not a Game.
        """
        try:
            return self._resolved[name]
        except KeyError:
            pass
        try:
            entry = self.games[name]
        except KeyError:
            raise UnknownNameError(_unknown("game", name, self.games)) from None
        from searchkit.game import LazyGame

        game: Any = entry
        if isinstance(entry, LazyGame):
            from searchkit._refs import resolve

            plugin = self._owner.get(("game", name), "?")
            try:
                game = resolve(entry.ref)
                if isinstance(game, type):
                    game = game()
            except Exception as exc:
                raise PluginError(f"plugin {plugin!r}: game {name!r} ({entry.ref}) cannot be loaded: "
                                  f"{type(exc).__name__}: {exc}") from None
            _check_game(game, plugin, name)
        self._resolved[name] = game
        return game

    def game_summary(self, name: str) -> str:
        """The game's one-line summary, without importing a lazy game."""
        return self.games[name].summary

    def game_ref(self, name: str) -> Any:
        """The ``"module:attr"`` string of a lazy game, else the game object."""
        entry = self.games[name]
        return getattr(entry, "ref", entry)

    def algorithm(self, name: str) -> Algorithm:
        """The :class:`~searchkit.algorithm.Algorithm` called ``name``."""
        try:
            return self.algorithms[name]
        except KeyError:
            raise UnknownNameError(_unknown("algorithm", name, self.algorithms)) from None

    def heuristics_for(self, game: str) -> list[Heuristic]:
        """The heuristics registered for ``game``, in registration order."""
        return list(self.heuristics.get(game, {}).values())

    def heuristic(self, game: str, name: str) -> Heuristic:
        """The :class:`~searchkit.heuristic.Heuristic` ``name`` of ``game``.

        ``name`` may carry options, ``NAME(KEY=VALUE, ...)`` (see
        :func:`searchkit.algorithm.parse_spec`): the heuristic is returned
        with them bound (:meth:`~searchkit.heuristic.Heuristic.with_options`).

        Raises:
            UnknownNameError: no such heuristic, or options it does not take.
        """
        from searchkit.algorithm import parse_spec

        table = self.heuristics.get(game, {})
        try:
            base, raw = parse_spec(name, kind="heuristic") if "(" in name else (name, {})
        except ValueError as exc:
            raise UnknownNameError(str(exc)) from None
        try:
            heuristic = table[base]
        except KeyError:
            raise UnknownNameError(_unknown(f"heuristic for {game}", base, table)) from None
        if not raw:
            return heuristic
        try:
            return heuristic.with_options(raw)
        except ValueError as exc:
            raise UnknownNameError(str(exc)) from None

    def rules_for(self, game: str) -> list[PruningRule]:
        """The pruning rules registered for ``game``, in registration order."""
        return list(self.rules.get(game, {}).values())

    def upper_bounds_for(self, game: str) -> list:
        """The :class:`~searchkit.bounds.UpperBound` providers registered for ``game``, in registration order."""
        return list(self.upper_bounds.get(game, {}).values())

    def generator(self, game: str) -> Generator:
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
        """The plugins that failed to load or had something rejected."""
        return [p for p in self.plugins if p.error]

    # -- registration callbacks -----------------------------------------
    def _claim(self, kind: str, key: tuple, plugin: str, what: str) -> None:
        if kind not in ("game", "algorithm") and key[0] in self._lost_games.get(plugin, ()):
            raise _LostGameItem(key[0])
        other = self._owner.get((kind, *key))
        if other is not None:
            raise PluginError(f"{what} is registered by both plugin {other!r} and plugin {plugin!r}; "
                              f"{other!r} keeps it")
        self._owner[(kind, *key)] = plugin

    def _register_game(self, plugin: str, game) -> str:
        from searchkit.game import LazyGame

        name = getattr(game, "name", None)
        if not isinstance(name, str) or not name:
            raise PluginError(f"a game must have a name (a non-empty str), got {type(game).__name__}")
        try:
            self._claim("game", (name,), plugin, f"game {name!r}")
        except PluginError:
            self._lost_games.setdefault(plugin, set()).add(name)
            raise
        if not isinstance(game, LazyGame):
            _check_game(game, plugin, name)
            self._resolved[name] = game
        self.games[name] = game
        return name

    def _register_algorithm(self, plugin: str, algorithm) -> str:
        self._claim("algorithm", (algorithm.name,), plugin, f"algorithm {algorithm.name!r}")
        self.algorithms[algorithm.name] = algorithm
        return algorithm.name

    def _register_per_game(self, kind: str, label: str, table: dict, plugin: str, item) -> str:
        """Claim ``item`` (with ``game`` and ``name``) for ``plugin`` and file it in ``table[game][name]``."""
        self._claim(kind, (item.game, item.name), plugin, f"{label} {item.name!r} of game {item.game!r}")
        table.setdefault(item.game, {})[item.name] = item
        return f"{item.game}:{item.name}"

    def _register_heuristic(self, plugin: str, heuristic) -> str:
        return self._register_per_game("heuristic", "heuristic", self.heuristics, plugin, heuristic)

    def _register_rule(self, plugin: str, rule) -> str:
        return self._register_per_game("rule", "pruning rule", self.rules, plugin, rule)

    def _register_generator(self, plugin: str, generator) -> str:
        self._claim("generator", (generator.game,), plugin, f"generator of game {generator.game!r}")
        self.generators[generator.game] = generator
        return generator.game

    def _register_upper_bound(self, plugin: str, provider) -> str:
        return self._register_per_game("upper bound", "upper bound", self.upper_bounds, plugin, provider)


#: hook name -> (kind label in listings, singular, Registry method)
HOOKS: dict[str, tuple[str, str, Callable]] = {
    "register_algorithms": ("algorithms", "algorithm", Registry._register_algorithm),
    "register_games": ("games", "game", Registry._register_game),
    "register_heuristics": ("heuristics", "heuristic", Registry._register_heuristic),
    "register_pruning_rules": ("pruning rules", "pruning rule", Registry._register_rule),
    "register_generators": ("generators", "generator", Registry._register_generator),
    "register_upper_bounds": ("upper bounds", "upper bound", Registry._register_upper_bound),
}


def _check_game(game, plugin: str, name: str) -> None:
    from searchkit.game import Game

    if not isinstance(game, Game):
        missing = [m for m in ("name", "summary", "options", "parse", "puzzle", "plan", "format_result")
                   if not hasattr(game, m)]
        raise PluginError(f"plugin {plugin!r}: game {name!r} ({type(game).__name__}) does not implement the Game "
                          f"protocol (missing: {', '.join(missing)})")


def _unknown(what: str, name: str, known: Iterable[str]) -> str:
    names = ", ".join(sorted(known)) or "none"
    return f"unknown {what} {name!r} (known: {names})"


def _default_report(message: str) -> None:
    print(f"searchkit: error: {message}", file=sys.stderr)


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
        report: called with a one-line message per plugin problem (default:
            print to stderr); ``None`` to stay silent.

    Returns:
        The registry; plugins with problems are in ``registry.failures``.
    """
    import importlib

    registry = Registry()
    packages: dict[str, str | None] = {}  # plugin name -> the top-level package of its module
    pm = pluggy.PluginManager(spec.PROJECT)
    pm.add_hookspecs(spec)
    order: list[PluginInfo] = []

    def fail(info: PluginInfo, message: str) -> None:
        info.add_error(message)
        if report:
            report(f"plugin {info.name!r}: {message}")

    def add(info: PluginInfo, load: Callable[[], Any]) -> None:
        registry.plugins.append(info)
        try:
            plugin = load()
            packages[info.name] = _top_package(getattr(plugin, "__name__", None) or type(plugin).__module__)
            pm.register(plugin, name=info.name)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a broken plugin (even one calling sys.exit) must not take the host down
            fail(info, f"failed to load: {type(exc).__name__}: {exc}")
            return
        try:
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            pm.unregister(name=info.name)
            fail(info, f"rejected: {exc}")
            return
        order.append(info)

    from searchkit import __version__

    add(PluginInfo(BUILTIN, __version__, "builtin"), lambda: importlib.import_module(BUILTIN_MODULE))
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
        add(PluginInfo(name, "", "extra"), _constant(plugin))

    lost: dict[tuple, list] = {}  # (plugin info, game) -> what of the game could not be registered

    def claim(info, method, names, singular, item) -> None:
        try:
            names.append(method(registry, info.name, item))
        except _LostGameItem as exc:  # one line for them all, below
            lost.setdefault((info.name, exc.game), [info, []])[1].append(singular)
        except PluginError as exc:  # rejected: the plugin's other items still count
            fail(info, f"{singular} rejected: {exc}")
        except Exception as exc:  # a malformed item
            fail(info, f"{singular} rejected: {type(exc).__name__}: {exc}")

    # Games and algorithms first, every plugin's; the items of a game (heuristics, rules, generator,
    # upper bounds) are then claimed by the game's own plugin before any other, so a plugin that
    # loads earlier cannot take the name of a game's heuristic or rule (and with it the game's plan).
    pending: list[tuple] = []
    games_pending: list[tuple] = []
    for first in (True, False):
        for info in order:
            for hook_name, impl in _impls_of(pm, info.name):
                if (hook_name in _GLOBAL_HOOKS) != first:
                    continue
                info.hooks.append(hook_name)
                kind, singular, method = HOOKS[hook_name]
                names = info.registered.setdefault(kind, [])

                def register(item, _args=(info, method, names, singular), _now=first, _game=hook_name):
                    if _game == "register_games":
                        games_pending.append((*_args, item))
                    elif _now:
                        claim(*_args, item)
                    else:
                        pending.append((*_args, item))

                try:
                    impl.function(*[{"register": register}[a] for a in impl.argnames])
                except KeyboardInterrupt:
                    raise
                except BaseException as exc:
                    fail(info, f"failed to register {kind}: {type(exc).__name__}: {exc}")
        if first:
            # A game's name goes to the game's own plugin, whatever the load order: first the plugin
            # named as the game (its entry point, 'flood') that ships the game's module, then any plugin
            # that ships the module it registers (its package is the plugin's).  A plugin that registers
            # someone else's game, or a game of its own under a name another plugin is named for, cannot
            # take the name.  Otherwise the first registration keeps it, as for any other name.
            def rank(entry) -> int:
                info, item = entry[0], entry[-1]
                ships = _game_package(item) == packages.get(info.name)
                return 0 if ships and info.name == getattr(item, "name", None) else 1 if ships else 2

            for entry in sorted(games_pending, key=rank):  # stable: load order
                claim(*entry)

    def not_the_games_own(entry) -> bool:
        game = getattr(entry[-1], "game", None)
        return not (isinstance(game, str) and registry._owner.get(("game", game)) == entry[0].name)

    for entry in sorted(pending, key=not_the_games_own):  # stable: load order otherwise
        claim(*entry)
    for (_plugin, game), (info, items) in lost.items():
        fail(info, f"{len(items)} item{'s' if len(items) != 1 else ''} of its game {game!r} not registered "
                   f"({', '.join(sorted(set(items)))}), since the game's registration was rejected")
    return registry


class _LostGameItem(PluginError):
    """An item of a game whose registration by the same plugin was rejected (counted, reported once)."""

    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.game = game


def _constant(value: Any) -> Callable[[], Any]:
    """A loader that returns ``value`` (a plugin object handed over already loaded)."""
    return lambda: value


def _top_package(module: str | None) -> str | None:
    return None if not module else module.split(".")[0]


def _game_package(game) -> str | None:
    """The top-level package of the module that defines ``game`` (a LazyGame's ``ref``, or its class)."""
    from searchkit.game import LazyGame

    if isinstance(game, LazyGame) and isinstance(game.ref, str):
        return _top_package(game.ref.partition(":")[0])
    return _top_package(type(game).__module__)


#: Hooks whose items are claimed before any game's heuristics, rules, generator and upper bounds.
_GLOBAL_HOOKS = frozenset({"register_algorithms", "register_games"})


def _impls_of(pm: pluggy.PluginManager, plugin_name: str):
    """Yield ``(hook_name, hookimpl)`` of one plugin, in :data:`HOOKS` order."""
    for hook_name in HOOKS:
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            if impl.plugin_name == plugin_name:
                yield hook_name, impl
