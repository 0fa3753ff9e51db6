"""The plugin system: throwaway plugins, broken plugins, duplicates and the env filter."""

from __future__ import annotations

import types

import pytest

from searchkit.game import Case, GameOption, SearchPlan
from searchkit.heuristic import Heuristic
from searchkit.plugin import manager
from searchkit.plugin.manager import load_registry
from searchkit.plugin.spec import hookimpl


class CountGame:
    """Reach n from 0 with +1 steps; one integer n per line."""

    name = "count"
    summary = "throwaway test game"
    options = (GameOption("shout", "upper-case output", bool, False),)

    def parse(self, text, source, options):
        for i, line in enumerate(text.split(), 1):
            yield Case(i, int(line), source, i)

    def puzzle(self, case, options, disabled):
        n = case.data

        class P:
            def initial_state(self):
                return 0

            def is_goal(self, s):
                return s == n

            def successors(self, s):
                return [("inc", s + 1, 1)] if s < n else []

        return P()

    def plan(self, case, options):
        return SearchPlan("ida_star", "gap")

    def format_result(self, case, result, options):
        text = f"{case.data} in {result.cost}"
        return text.upper() if options.get("shout") else text

    def moves_to_json(self, case, moves):
        return list(moves)


def make_plugin(game_name="count"):
    mod = types.ModuleType(f"throwaway_{game_name}")

    @hookimpl
    def register_games(register):
        game = CountGame()
        game.name = game_name
        register(game)

    @hookimpl
    def register_heuristics(register):
        register(Heuristic(game_name, "gap", lambda puzzle: (lambda s: 0), summary="zero"))

    mod.register_games = register_games
    mod.register_heuristics = register_heuristics
    return mod


@pytest.mark.python_engine("a test game written in Python")
def test_throwaway_plugin_appears_in_games_and_solves(searchkit_cli_run):
    reg = load_registry(extra=[("throwaway", make_plugin())])
    out = searchkit_cli_run(["games"], registry_=reg)
    assert out.exit_code == 0
    assert "count" in out.output and "throwaway" in out.output
    solved = searchkit_cli_run(["solve", "count", "--shout", "-"], input="3\n5\n", registry_=reg)
    assert solved.exit_code == 0, solved.output
    assert solved.output.splitlines() == ["3 IN 3", "5 IN 5"]
    plugins = searchkit_cli_run(["plugins"], registry_=reg)
    assert "throwaway" in plugins.output and "games: count" in plugins.output
    assert "heuristics: count:gap" in plugins.output


def test_duplicate_game_names_both_plugins(capsys):
    reg = load_registry(extra=[("first", make_plugin("twin")), ("second", make_plugin("twin"))])
    err = capsys.readouterr().err
    assert "'first'" in err and "'second'" in err and "twin" in err
    assert reg.owner("game", "twin") == "first"
    assert [p.name for p in reg.failures] == ["second"]


class _FakeEntryPoint:
    def __init__(self, name, load):
        self.name, self._load, self.version = name, load, ""

    def load(self):
        return self._load()


def test_broken_plugin_is_reported_and_others_still_load(monkeypatch, capsys):
    def boom():
        raise ImportError("No module named 'does_not_exist'")

    fakes = [_FakeEntryPoint("broken", boom), _FakeEntryPoint("good", lambda: make_plugin("good"))]
    monkeypatch.setattr(manager, "_entry_points", lambda only: [ep for ep in fakes if only is None or ep.name in only])
    reg = load_registry()
    err = capsys.readouterr().err
    assert "plugin 'broken': failed to load: ImportError: No module named 'does_not_exist'" in err
    assert "good" in reg.games
    assert "ida_star" in reg.algorithms


def test_env_var_limits_entry_points(monkeypatch):
    monkeypatch.setenv(manager.ENV_VAR, "flood")
    reg = load_registry()
    names = {p.name for p in reg.plugins}
    assert "flood" in names and "mayan" not in names
    monkeypatch.setenv(manager.ENV_VAR, "")
    reg = load_registry()
    assert [p.name for p in reg.plugins] == [manager.BUILTIN]
    assert reg.games == {}


def test_unknown_names_list_what_exists(searchkit_registry):
    from searchkit.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="known: .*flood"):
        searchkit_registry.game("nope")
    with pytest.raises(UnknownNameError, match="known: .*ida_star"):
        searchkit_registry.algorithm("nope")
    with pytest.raises(UnknownNameError, match="colours"):
        searchkit_registry.heuristic("flood", "nope")


def test_builtin_flood_is_an_entry_point_plugin(searchkit_registry):
    info = {p.name: p for p in searchkit_registry.plugins}
    assert info["flood"].origin == "entry point"
    assert info["flood"].version
    assert searchkit_registry.owner("game", "flood") == "flood"


def test_listing_commands(searchkit_cli_run):
    assert "flood" in searchkit_cli_run(["games"]).output
    heur = searchkit_cli_run(["heuristics", "flood"]).output
    for name in ("colours", "eccentricity", "layered"):
        assert name in heur
    assert "admissible" in heur
    assert "completion" in searchkit_cli_run(["rules", "flood"]).output
    assert "ida_star" in searchkit_cli_run(["algorithms"]).output
    bad = searchkit_cli_run(["heuristics", "nope"])
    assert bad.exit_code == 2 and "unknown game 'nope'" in bad.output


def test_fast_entry_point_scan_matches_importlib_metadata():
    from importlib.metadata import entry_points

    from searchkit.plugin.entry_points import find

    expected = sorted((ep.name, ep.value) for ep in entry_points(group="searchkit"))
    assert [(ep.name, ep.value) for ep in find("searchkit")] == expected
    assert expected, "the built-in plugins are installed through entry points"
    versions = {ep.name: ep.version for ep in find("searchkit")}
    from importlib.metadata import version

    assert versions["flood"] == version("searchkit-puzzles-flood")


def test_the_plugin_that_ships_a_game_keeps_its_name(capsys, searchkit_cli_run):
    """Issue 19.18: a plugin registering 'flood' before the real plugin kept it; the real one lost 14 items."""
    import searchkit_flood.plugin as real

    from searchkit.game import LazyGame

    impostor = types.ModuleType("impostor_plugin")

    @hookimpl
    def register_games(register):
        register(LazyGame("flood", "searchkit_flood.game:FloodGame", "not the real plugin"))

    impostor.register_games = register_games
    reg = load_registry(use_entry_points=False, extra=[("aaa-impostor", impostor), ("flood", real)])
    err = capsys.readouterr().err
    assert reg.owner("game", "flood") == "flood"
    assert [p.name for p in reg.failures] == ["aaa-impostor"]
    assert err.count("\n") == 1 and "'flood' keeps it" in err, err
    assert "puchert" in {h.name for h in reg.heuristics_for("flood")}
    # the other order: the real plugin first, the impostor's one line
    reg = load_registry(use_entry_points=False, extra=[("flood", real), ("zzz-impostor", impostor)])
    assert reg.owner("game", "flood") == "flood" and [p.name for p in reg.failures] == ["zzz-impostor"]
    capsys.readouterr()
    listing = searchkit_cli_run(["games"], registry_=reg)
    assert listing.exit_code == 1 and "flood" in listing.output


def test_a_game_of_its_own_under_a_taken_name_does_not_take_it(capsys, tmp_path, monkeypatch):
    """Issue 32, item 19: a plugin shipping a game class of its own named 'flood', loaded before the Flood-It
    plugin, took the name (both ship their module, so load order decided).  The plugin named for the game
    keeps it; the impostor's registration is refused in one line."""
    import searchkit_flood.plugin as real

    package = tmp_path / "aaa_impostor"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from searchkit.plugin import hookimpl\n"
        "from searchkit_flood.game import FloodGame\n"
        "class Impostor(FloodGame):\n"
        "    summary = 'not Flood-It'\n"
        "@hookimpl\n"
        "def register_games(register):\n"
        "    register(Impostor())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import aaa_impostor

    for extra in ([("aaa-impostor", aaa_impostor), ("flood", real)], [("flood", real), ("aaa-impostor", aaa_impostor)]):
        reg = load_registry(use_entry_points=False, extra=extra)
        err = capsys.readouterr().err
        assert reg.owner("game", "flood") == "flood", extra
        assert reg.game_summary("flood") != "not Flood-It"
        assert [p.name for p in reg.failures] == ["aaa-impostor"]
        assert err.count("\n") == 1 and "'flood' keeps it" in err, err


def test_a_plugin_whose_game_is_rejected_gets_one_line_for_its_items(capsys):
    """Issue 19.18: one error line per lost item (15 on every command) becomes one for them all."""
    load_registry(use_entry_points=False, extra=[("first", make_plugin("twin")), ("second", make_plugin("twin"))])
    err = capsys.readouterr().err
    second = [line for line in err.splitlines() if "'second'" in line]
    assert len(second) == 2, err  # its game, then its heuristic
    assert "1 item of its game 'twin' not registered (heuristic)" in second[1]
