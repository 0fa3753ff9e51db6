"""The test kit for native domains, ``searchkit.testing.native_checks``: it fails when the native engine
differs from the Python one (a planted extra expanded node), when its Ctrl-C case is too easy to interrupt, and
on a component named that has no native twin; it skips, saying why, without a native twin.

The planted violation wraps the real native result (``searchkit.machinery.engine.native.result_of``);
everything else is real.
"""

from __future__ import annotations

import subprocess
import sys

import attrs
import pytest

pytest.importorskip("searchkit_flood_native", reason="Flood-It's native module is not installed "
                                                      "(pip install ./plugins/flood/native)")

from searchkit.machinery.engine import native as engine  # noqa: E402
from searchkit.testing import native_checks  # noqa: E402


@pytest.fixture(autouse=True)
def _few_examples(monkeypatch):
    """These tests check the kit, not the games: CI's many examples (SEARCHKIT_DIFFERENTIAL_EXAMPLES) are for
    the plugins' own native_checks."""
    monkeypatch.delenv("SEARCHKIT_DIFFERENTIAL_EXAMPLES", raising=False)


def checks(game, **kwargs):
    return {c.name: c for c in native_checks(game, **kwargs).checks}


def test_one_expanded_node_more_on_the_native_side_fails_the_differential_check(monkeypatch):
    real = engine.result_of

    def one_more(d):
        r = real(d)
        return attrs.evolve(r, stats=attrs.evolve(r.stats, expanded=r.stats.expanded + 1))

    check = checks("flood", max_examples=20)["differential"]
    check()  # passes as it is
    monkeypatch.setattr(engine, "result_of", one_more)
    with pytest.raises(AssertionError, match=r"differs from the Python engine .*\n\s+expanded: python \d+, native \d+"):
        check()


def test_a_native_run_that_ignores_the_node_limit_fails(monkeypatch):
    """Under a node limit the counts must be equal too: a native search that runs past its limit is caught.

    The limits are drawn from 1-5 nodes, below nearly every drawn board's search, so that the planted
    violation shows in the first few examples whatever hypothesis draws (with the default 0-300 it failed to
    show in one CI run of 50 examples: every drawn limit was None or above its board's search)."""
    real = engine.request

    def unlimited(*args, limiter, **kwargs):
        d = real(*args, limiter=limiter, **kwargs)
        return dict(d, max_nodes=None)

    monkeypatch.setattr(engine, "request", unlimited)
    with pytest.raises(AssertionError, match=r"differs from the Python engine"):
        checks("sliding-tiles", max_size=3, max_examples=50, max_nodes=(1, 5))["differential"]()


def test_an_interrupt_case_solved_before_ctrl_c_fails_saying_so():
    check = checks("sliding-tiles", interrupt_case="1 2 3\n4 5 6\n7 0 8\n")["ctrl-c"]
    with pytest.raises(AssertionError, match="Ctrl-C was never sent: give a case that takes the native engine"):
        check()


def test_a_component_without_a_native_twin_is_refused_in_one_line():
    said = r"heuristic 'misplaced': heuristic 'misplaced' has no native twin in sliding_tiles_native"
    with pytest.raises(ValueError, match=said):
        native_checks("sliding-tiles", heuristics=["manhattan", "misplaced"])


def test_a_game_without_a_native_domain_is_skipped_saying_why():
    found = checks("mayan")
    assert set(found) == {"differential", "time-limit-expired", "ctrl-c"}
    assert all(c.skipped == "game 'mayan' has no native module" for c in found.values())


SKIPPED_WITHOUT_MODULE = """
import sys
sys.modules["searchkit_flood_native"] = None  # as if the native package were not installed
from searchkit.testing import native_checks
for check in native_checks("flood").checks:
    print(check.name, "|", check.skipped)
"""


def test_without_the_native_module_every_check_is_skipped_saying_what_to_install():
    done = subprocess.run([sys.executable, "-c", SKIPPED_WITHOUT_MODULE], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    missing = "its native module searchkit_flood_native is not installed"
    assert len(lines) == 3 and all(missing in line for line in lines), lines


def test_a_native_twin_that_takes_no_case_fails():
    """A game whose native problem is None for every case runs everything on Python under auto: nothing is
    compared, and the check fails rather than pass having checked nothing."""
    from hypothesis.errors import Unsatisfiable

    from searchkit.plugin.manager import load_registry

    reg = load_registry()
    game = reg.game("flood")
    assert reg.game("flood") is game
    game.native_problem = lambda case, options, disabled: None  # this registry's game object only
    with pytest.raises(Unsatisfiable):
        checks("flood", registry=reg, max_examples=10)["differential"]()
