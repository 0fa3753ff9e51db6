"""Upper-bound seeds on the native engine (issue 33 item 3): a provider that names its search
(:attr:`searchkit.bounds.UpperBound.native`) has it run by the native engine, not by Python, and both
engines start from the same seed.

Flood-It's ``greedy`` provider names ``beam(width=4)`` on ``puchert``, the search its Python factory
(``searchkit_flood.greedy.greedy_solution``) runs first.  With ``--max-nodes 0`` the ``anytime`` driver
stops before its first expansion, so the answer is the seed itself: its moves must be the same on both
engines.
"""

from __future__ import annotations

import random

import attrs
import pytest

pytest.importorskip("searchkit_flood_native")

from searchkit.limits import Limits  # noqa: E402
from searchkit.machinery.solver import Solver  # noqa: E402
from searchkit.plugin.manager import load_registry  # noqa: E402


def _board(seed: int, side: int, colours: int = 6) -> str:
    rng = random.Random(seed)
    return "".join(str(rng.randrange(1, colours + 1)) for _ in range(side * side)) + "\n"


def _seed_outcome(engine: str, text: str, registry=None):
    solver = Solver(registry or load_registry(), "flood", algorithm="anytime", engine=engine,
                    limits=Limits(max_nodes=0), options={"input_format": "lines"})
    (case,) = list(solver.game.parse(text, "board.txt", solver.options))
    return solver.solve(case)


@pytest.mark.parametrize("seed", range(30))
def test_both_engines_start_from_the_same_seed(seed):
    text = _board(seed, 6 + seed % 9)
    python, native = _seed_outcome("python", text), _seed_outcome("native", text)
    assert (python.engine, native.engine) == ("python", "native")
    assert native.result.moves and native.result.status in ("feasible", "solved")
    assert (native.result.status, native.result.cost, native.result.moves) == \
        (python.result.status, python.result.cost, python.result.moves)


def _refusing_registry(monkeypatch, **change):
    """The registry with flood's provider's Python factory failing loudly (and ``change`` applied), so a seed
    that reaches the factory is seen."""
    def refuse(puzzle):
        raise AssertionError("the Python seed search ran")

    registry = load_registry()
    providers = [attrs.evolve(p, factory=refuse, **change) for p in registry.upper_bounds_for("flood")]
    monkeypatch.setattr(registry, "upper_bounds_for", lambda game: providers)
    return registry


def test_the_native_engine_runs_the_seed_search_itself(monkeypatch):
    outcome = _seed_outcome("native", _board(7, 14), _refusing_registry(monkeypatch))
    assert outcome.engine == "native" and outcome.result.moves


def test_the_guard_fails_when_the_provider_names_no_native_search(monkeypatch):
    """The guard above, shown failing: the same provider without ``native`` runs its Python search."""
    with pytest.raises(AssertionError, match="the Python seed search ran"):
        _seed_outcome("native", _board(7, 14), _refusing_registry(monkeypatch, native=None))


def test_the_native_seed_is_the_python_factorys_search():
    """The provider's native search is the beam its Python factory runs first (SEED_WIDTH on puchert)."""
    from searchkit_flood.greedy import SEED_WIDTH

    (provider,) = load_registry().upper_bounds_for("flood")
    assert provider.native == (f"beam(width={SEED_WIDTH})", "puchert")
