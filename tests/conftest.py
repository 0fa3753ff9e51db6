"""Shared fixtures: paths to the cases and an in-process CLI runner."""

from __future__ import annotations

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
