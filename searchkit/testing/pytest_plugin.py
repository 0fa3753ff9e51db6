"""searchkit's pytest plugin: the fixtures and the engine policy every plugin's tests share.

pytest loads it by itself wherever ``searchkit-puzzles`` is installed (its ``pytest11`` entry point,
named like this module), so a plugin's tests need no ``conftest.py`` to have it: they run from the
plugin's own folder (``cd plugins/flood && python -m pytest``) as a third-party plugin's do, and from the
repository's root with every other suite.  It gives:

* ``registry`` (session scope): the registry of the installed plugins, ``load_registry()``.
* ``cli_run``: the command line run in-process, ``cli_run(args, input=None, registry_=None)`` ->
  ``click.testing.Result`` (``exit_code``, ``output``); ``args`` is a list of strings, ``input`` the text
  on stdin, ``registry_`` a registry to run with instead of ``registry``.  Exceptions are not caught:
  a crash fails the test with its traceback.
* the marker ``python_engine(reason)`` and the **engine policy**.  CI runs the suites with
  ``SEARCHKIT_ENGINE=python`` and with ``SEARCHKIT_ENGINE=native`` (docs/native.md).  Under ``native``,
  a search with a component that has no native counterpart is a plan error, as it is for a user; so a
  test that solves with such a component carries ``@pytest.mark.python_engine("why")`` (a module of
  them: ``pytestmark = pytest.mark.python_engine("why")``), and under ``native`` this plugin sets the
  environment variable to ``python`` for that test alone, subprocesses included.
* pattern databases built by the tests go to a temporary cache: ``SEARCHKIT_CACHE_DIR`` names a fresh
  temporary folder for the whole session (subprocesses included), never the user's cache, and is
  restored afterwards.

Leave it out of a run with ``-p no:searchkit.testing.pytest_plugin``; with plugin autoloading off
(``PYTEST_DISABLE_PLUGIN_AUTOLOAD=1``), load it with ``-p searchkit.testing.pytest_plugin`` or
``pytest_plugins = ["searchkit.testing.pytest_plugin"]`` in the top-level ``conftest.py``.
"""

from __future__ import annotations

import os

import pytest

#: The environment variable that picks the engine (searchkit.engine.ENV_VAR; not imported, so that loading
#: the plugin, which pytest does at every start-up, stays cheap).
ENGINE_VAR = "SEARCHKIT_ENGINE"


def pytest_configure(config):
    config.addinivalue_line("markers", "python_engine(reason): the test solves with a component that has no "
                                       "native counterpart; under SEARCHKIT_ENGINE=native it runs on Python")


@pytest.fixture(autouse=True)
def _engine_policy(request, monkeypatch):
    if os.environ.get(ENGINE_VAR) == "native" and request.node.get_closest_marker("python_engine"):
        monkeypatch.setenv(ENGINE_VAR, "python")


@pytest.fixture(scope="session")
def registry():
    from searchkit.plugin.manager import load_registry

    return load_registry()


@pytest.fixture
def cli_run(registry):
    """Run the CLI in-process: ``cli_run(args, input=None, registry_=None) -> click Result``."""
    from click.testing import CliRunner

    from searchkit.cli import cli

    def run(args, input=None, registry_=None):
        runner = CliRunner()
        return runner.invoke(cli, args, input=input, obj=registry_ or registry, catch_exceptions=False)

    return run


@pytest.fixture(autouse=True, scope="session")
def _pdb_cache(tmp_path_factory):
    """Pattern databases built by the tests go to a temporary cache (never the user's), subprocesses included."""
    old = os.environ.get("SEARCHKIT_CACHE_DIR")
    os.environ["SEARCHKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("pdb-cache"))
    yield
    if old is None:
        os.environ.pop("SEARCHKIT_CACHE_DIR", None)
    else:
        os.environ["SEARCHKIT_CACHE_DIR"] = old
