"""searchkit's pytest plugin: the fixtures and the engine policy every plugin's tests share.

It acts only in a project that asks for it; installing searchkit does not load it into other projects'
pytest runs (issue 33 item 7: through a ``pytest11`` entry point it did, setting ``SEARCHKIT_CACHE_DIR`` and
adding its fixtures to every run in the environment).  Opt in, as for any pytest plugin that is not
auto-loaded, in one of two ways:

* in the project's pytest configuration (``pyproject.toml``), so that ``pytest`` run from the project's
  folder has it with no ``conftest.py``::

      [tool.pytest.ini_options]
      addopts = "-p searchkit.testing.pytest_plugin"

* or in the project's top-level ``conftest.py``: ``pytest_plugins = ["searchkit.testing.pytest_plugin"]``

(or once, on the command line: ``pytest -p searchkit.testing.pytest_plugin``).  ``searchkit new plugin``
writes the first into the new plugin's ``pyproject.toml``.  It then gives:

* ``searchkit_registry`` (session scope): the registry of the installed plugins, ``load_registry()``.
* ``searchkit_cli_run``: the command line run in-process, ``searchkit_cli_run(args, input=None,
  registry_=None)`` -> ``click.testing.Result`` (``exit_code``, ``output``); ``args`` is a list of strings,
  ``input`` the text on stdin, ``registry_`` a registry to run with instead of ``searchkit_registry``.
  Exceptions are not caught: a crash fails the test with its traceback.
* the marker ``python_engine(reason)`` and the **engine policy**.  CI runs the suites with
  ``SEARCHKIT_ENGINE=python`` and with ``SEARCHKIT_ENGINE=native`` (docs/native.md).  Under ``native``,
  a search with a component that has no native counterpart is a plan error, as it is for a user; so a
  test that solves with such a component carries ``@pytest.mark.python_engine("why")`` (a module of
  them: ``pytestmark = pytest.mark.python_engine("why")``), and under ``native`` this plugin sets the
  environment variable to ``python`` for that test alone, subprocesses included.
* pattern databases built by the tests go to a temporary cache: ``SEARCHKIT_CACHE_DIR`` names a fresh
  temporary folder for the whole session (subprocesses included), never the user's cache, and is
  restored afterwards.
"""

from __future__ import annotations

import os

import pytest

#: The environment variable that picks the engine (searchkit.machinery.engine.ENV_VAR; not imported, so that loading
#: the plugin, at every start-up of a project's pytest, stays cheap).
ENGINE_VAR = "SEARCHKIT_ENGINE"


def pytest_configure(config):
    config.addinivalue_line("markers", "python_engine(reason): the test solves with a component that has no "
                                       "native counterpart; under SEARCHKIT_ENGINE=native it runs on Python")


@pytest.fixture(autouse=True)
def _searchkit_engine_policy(request, monkeypatch):
    if os.environ.get(ENGINE_VAR) == "native" and request.node.get_closest_marker("python_engine"):
        monkeypatch.setenv(ENGINE_VAR, "python")


@pytest.fixture(scope="session")
def searchkit_registry():
    """The registry of the installed plugins (``load_registry()``), one per session."""
    from searchkit.plugin.manager import load_registry

    return load_registry()


@pytest.fixture
def searchkit_cli_run(searchkit_registry):
    """Run the CLI in-process: ``searchkit_cli_run(args, input=None, registry_=None) -> click Result``."""
    from click.testing import CliRunner

    from searchkit.cli import cli

    def run(args, input=None, registry_=None):
        runner = CliRunner()
        return runner.invoke(cli, args, input=input, obj=registry_ or searchkit_registry, catch_exceptions=False)

    return run


@pytest.fixture(autouse=True, scope="session")
def _searchkit_pdb_cache(tmp_path_factory):
    """Pattern databases built by the tests go to a temporary cache (never the user's), subprocesses included."""
    old = os.environ.get("SEARCHKIT_CACHE_DIR")
    os.environ["SEARCHKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("pdb-cache"))
    yield
    if old is None:
        os.environ.pop("SEARCHKIT_CACHE_DIR", None)
    else:
        os.environ["SEARCHKIT_CACHE_DIR"] = old
