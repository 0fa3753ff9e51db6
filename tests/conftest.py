"""Shared fixtures: paths to the cases and an in-process CLI runner; the engine policy of the suite.

**Engines.**  CI runs the suite with ``SEARCHKIT_ENGINE=python`` and with ``SEARCHKIT_ENGINE=native``
(docs/native.md).  Under ``native``, a search with a component that has no native counterpart is a plan
error, as it is for a user; so a test that solves with such a component pins the Python engine itself, with
the marker ``python_engine`` (the environment variable is set to ``python`` for that test, subprocesses
included).  Tests whose path or id names a Python-only game (the Mayan puzzle, sliding tiles) carry it
automatically; any other test carries it explicitly, saying why.  Every other test runs its Flood-It
searches on the native engine.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_CASES = ROOT.parent / "shared" / "cases"
EXAMPLES = ROOT / "examples"


def shared(*parts: str) -> Path:
    """Path under ../shared/cases; skips the test when shared/ is not beside the repo."""
    path = SHARED_CASES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (shared/ is not beside the repository)")
    return path


#: Words in a test's path or id that name a game without a native domain.
PYTHON_ONLY_GAMES = ("mayan", "sliding", "8-puzzle", "15-puzzle")


def pytest_configure(config):
    config.addinivalue_line("markers", "python_engine(reason): the test solves with a component that has no "
                                       "native counterpart; under SEARCHKIT_ENGINE=native it runs on Python")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("SEARCHKIT_ENGINE") != "native":
        return
    for item in items:
        if any(word in item.nodeid for word in PYTHON_ONLY_GAMES):
            item.add_marker(pytest.mark.python_engine("a Python-only game"))


@pytest.fixture(autouse=True)
def _engine_policy(request, monkeypatch):
    if os.environ.get("SEARCHKIT_ENGINE") == "native" and request.node.get_closest_marker("python_engine"):
        monkeypatch.setenv("SEARCHKIT_ENGINE", "python")


@pytest.fixture(scope="session")
def registry():
    from searchkit.plugin.manager import load_registry

    return load_registry()


@pytest.fixture
def cli_run(registry):
    """Run the CLI in-process: ``cli_run(args, input=None, registry=None) -> click Result``."""
    from click.testing import CliRunner

    from searchkit.cli import cli

    def run(args, input=None, registry_=None):
        runner = CliRunner()
        return runner.invoke(cli, args, input=input, obj=registry_ or registry, catch_exceptions=False)

    return run


@pytest.fixture(autouse=True, scope="session")
def _pdb_cache(tmp_path_factory):
    """Pattern databases built by the tests go to a temporary cache (never the user's), subprocesses included."""
    import os

    old = os.environ.get("SEARCHKIT_CACHE_DIR")
    os.environ["SEARCHKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("pdb-cache"))
    yield
    if old is None:
        os.environ.pop("SEARCHKIT_CACHE_DIR", None)
    else:
        os.environ["SEARCHKIT_CACHE_DIR"] = old
