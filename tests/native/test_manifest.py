"""The native modules' manifests against the Python registry, the protocol's one source, and what a protocol
mismatch does (issue 31).

Every component a game's manifest lists must exist in Python with the same parameters (name, type, default,
range), and every Python component the manifest lists is the one that runs natively: a drifted default would
make the two engines search different problems under one name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from searchkit import protocol
from searchkit.machinery import engine
from searchkit.plugin.manager import load_registry

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"flood": "searchkit_flood_native", "sliding-tiles": "sliding_tiles_native"}
TYPES = {"int": int, "float": float, "str": str}


def _python_components(registry, game):
    """``(kind, name) -> component`` of everything a native manifest could list for ``game``."""
    found = {("algorithm", a.name): a for a in registry.algorithms.values()}
    found.update({("heuristic", engine.native_name(h)): h for h in registry.heuristics_for(game)})
    found.update({(engine.rule_kind(r), engine.native_name(r)): r for r in registry.rules_for(game)})
    return found


def _params_of(component) -> list[dict]:
    return [{"name": p.name, "type": p.type.__name__, "default": p.default,
             "min": None if p.min is None else float(p.min), "max": None if p.max is None else float(p.max)}
            for p in getattr(component, "params", ())]


def _manifest_params(entry) -> list[dict]:
    return [{k: p[k] for k in ("name", "type", "default", "min", "max")} for p in entry["params"]]


def mismatches(registry, game, manifest) -> list[str]:
    """What differs between a game's manifest and its Python components, in words (empty: nothing)."""
    python = _python_components(registry, game)
    out = []
    if manifest.get("game") != game:
        out.append(f"manifest game {manifest.get('game')!r} is not {game!r}")
    for entry in manifest["components"]:
        key = (entry["kind"], entry["name"])
        if key not in python:
            out.append(f"{key} is in the manifest but not in Python")
            continue
        if key == ("algorithm", "bounded_dfs"):
            continue  # its mode is the plan's, not a Param
        if _manifest_params(entry) != _params_of(python[key]):
            out.append(f"{key}: manifest {_manifest_params(entry)} != Python {_params_of(python[key])}")
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_manifest_entry_is_a_python_component_with_the_same_params(game):
    module = pytest.importorskip(GAMES[game])
    registry = load_registry()
    manifest = module.manifest()
    assert manifest["protocol"] == protocol.PROTOCOL
    assert manifest["profile"] in ("release", "debug")
    assert mismatches(registry, game, manifest) == []
    # and every Python algorithm with a twin in one game's module is in every other's (the core's drivers)
    names = {c["name"] for c in manifest["components"] if c["kind"] == "algorithm"}
    assert names == {"astar", "peastar", "ida_star", "ida_star_tt", "wastar", "gbfs", "bfs", "beam", "anytime",
                     "bounded_dfs"}


def test_the_registry_test_fails_on_a_drifted_default():
    """The guard above, shown failing on a planted violation: a manifest whose beam width default differs."""
    module = pytest.importorskip("searchkit_flood_native")
    manifest = json.loads(json.dumps(module.manifest()))
    for entry in manifest["components"]:
        if entry["name"] == "beam":
            entry["params"][0]["default"] = 65
    found = mismatches(load_registry(), "flood", manifest)
    assert len(found) == 1 and "('algorithm', 'beam')" in found[0]
    manifest["components"].append({"kind": "heuristic", "name": "psychic", "params": []})
    assert any("psychic" in m for m in mismatches(load_registry(), "flood", manifest))


def test_the_generated_rust_protocol_is_up_to_date():
    """native/core/src/protocol.rs is what ``python -m searchkit.protocol`` prints (the one source)."""
    committed = (ROOT / "native" / "core" / "src" / "protocol.rs").read_text()
    assert committed == protocol.rust_source(), "run: python -m searchkit.protocol > native/core/src/protocol.rs"


def test_the_protocol_keys_are_what_the_engine_sends_and_reads():
    from searchkit.limits import Limiter

    sent = engine.request(None, None, [], {}, admissible=True, max_cost=None, limiter=Limiter())
    assert set(sent) <= set(protocol.REQUEST_KEYS)
    toy = pytest.importorskip("searchkit_testgame")
    result = toy.solve((2, [1, 2, 3, 0], False), {"algorithm": "astar"})
    assert set(result) == set(protocol.RESULT_KEYS)
    assert set(protocol.STATS_KEYS) - set(protocol.OPTIONAL_STATS_KEYS) <= set(result["stats"]) \
        <= set(protocol.STATS_KEYS)
    assert "threads" not in result["stats"], "a one-thread search's stats are as before threads existed"
    assert set(toy.manifest()) == set(protocol.MANIFEST_KEYS)


class _OldModule:
    """A module speaking another protocol, as one built against an older kit would."""

    __version__ = "0.0.1"

    @staticmethod
    def manifest():
        return {"protocol": protocol.PROTOCOL + 1, "game": "flood", "version": "0.0.1", "profile": "release",
                "components": []}

    @staticmethod
    def solve(problem, request):  # pragma: no cover - must never be called
        raise AssertionError("a module of another protocol was used")


def test_a_protocol_mismatch_is_python_with_one_warning_under_auto_and_a_plan_error_under_native(searchkit_cli_run,
                                                                                                 monkeypatch):
    pytest.importorskip("searchkit_flood_native")
    case = str(ROOT / "examples" / "flood" / "nkoj2440-sample.txt")
    monkeypatch.setitem(engine._modules, "searchkit_flood_native",
                        engine.NativeModule("searchkit_flood_native", _OldModule, _OldModule.manifest()))
    monkeypatch.setattr(engine, "_warned", set())
    out = searchkit_cli_run(["solve", "flood", "--format", "json", "--engine", "auto", case])
    assert out.exit_code == 0
    assert {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"python"}
    warnings = [line for line in out.stderr.splitlines() if "protocol" in line]
    assert len(warnings) == 1 and f"speaks protocol {protocol.PROTOCOL + 1}" in warnings[0], out.stderr
    out = searchkit_cli_run(["solve", "flood", "--engine", "native", case])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert f"engine native: the native module searchkit_flood_native speaks protocol {protocol.PROTOCOL + 1}" \
        in out.output


#: Each native module's attributes beyond the kit's ``solve``, ``manifest`` and ``__version__``: the game's own
#: functions, each with a reader in Python (the plugin's bridge or the differential tests).
OWN_FUNCTIONS = {"searchkit_flood_native": {"flood_areas", "flood_estimates"},
                 "sliding_tiles_native": {"tiles_build_pdb", "tiles_build_bytes", "tiles_load_pdb", "tiles_write_pdb"},
                 "searchkit_testgame": set()}


@pytest.mark.parametrize("name", sorted(OWN_FUNCTIONS))
def test_a_native_module_exports_only_what_python_reads(name):
    """Review 2026-12c defect 12: the modules' ``PROTOCOL`` and ``PROFILE`` attributes were read by nothing (the
    protocol and the build profile are the manifest's); a module exposes the kit's entries and its own functions."""
    module = pytest.importorskip(name)
    public = {a for a in dir(module) if not a.startswith("_")} - {name}  # maturin's package holds its extension
    assert public == {"solve", "manifest"} | OWN_FUNCTIONS[name]
    manifest = module.manifest()
    assert manifest["protocol"] == protocol.PROTOCOL and manifest["profile"] in ("release", "debug")
