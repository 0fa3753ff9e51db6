"""The core suite's paths to the cases, and its Python-only tests; searchkit's pytest plugin does the rest.

**Fixtures.**  ``searchkit_registry``, ``searchkit_cli_run``, the marker ``python_engine`` and the engine
policy, and the temporary pattern-database cache come from :mod:`searchkit.testing.pytest_plugin`, which
acts only in a project that opts in: pyproject.toml's ``addopts`` names it (``-p``), and so does each
plugin's, so the plugins' suites (``plugins/*/tests``) have the very same, run from here or alone.

**Engines.**  CI runs the suite with ``SEARCHKIT_ENGINE=python`` and with ``SEARCHKIT_ENGINE=native``
(docs/native.md).  Under ``native``, a search with a component that has no native counterpart is a plan
error, as it is for a user; so a test that solves with such a component pins the Python engine itself, with
the marker ``python_engine`` (the environment variable is set to ``python`` for that test, subprocesses
included).  Tests here whose path or id names a Python-only game (the Mayan puzzle), or whose id names a
component without a native counterpart (sliding tiles' ``misplaced``), carry it automatically; any other
test carries it explicitly, saying why (the plugins' suites mark their own).  Every other test runs its
Flood-It and sliding-tile searches on the native engine.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_CASES = ROOT.parent / "shared" / "cases"
EXAMPLES = ROOT / "examples"


def sigint_default() -> None:
    """``preexec_fn`` for a child a test sends Ctrl-C: SIGINT with its default disposition.

    A shell without job control starts a background command with SIGINT ignored, and an ignored signal
    stays ignored across ``exec`` (POSIX); Python then installs no ``KeyboardInterrupt`` handler.  A suite
    run in the background (``pytest &``) would otherwise hand that to every child, whose Ctrl-C then does
    nothing, as it should for a user's background job, and the test would fail for a reason that is not
    the product's.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(code: str, wait: float) -> dict:
    """Run ``python -c code`` (a search on threads), send it Ctrl-C ``wait`` seconds after it prints
    ``ready``, and return the JSON object of its first line of output.

    The child runs with ``SEARCHKIT_PARALLEL_SMALL=0`` (its threads start at once) and
    ``SEARCHKIT_MAX_THREADS=64``, SIGINT at its default disposition (:func:`sigint_default`); it is killed
    if it has not ended 120 s after the signal (the test then fails on its output).
    """
    import json
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SEARCHKIT_PARALLEL_SMALL": "0", "SEARCHKIT_MAX_THREADS": "64"}
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env,
                             preexec_fn=sigint_default)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(wait)
        child.send_signal(signal.SIGINT)
        return json.loads(child.communicate(timeout=120)[0].splitlines()[0])
    finally:
        child.kill()
        child.wait()


def shared(*parts: str) -> Path:
    """Path under ../shared/cases; skips the test when shared/ is not beside the repo."""
    path = SHARED_CASES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (shared/ is not beside the repository)")
    return path


#: Words in a test's path or id that name a game without a native domain.
PYTHON_ONLY_GAMES = ("mayan",)
#: Words in a test's id that name a component without a native counterpart (a parametrized run's label,
#: e.g. tests/core/test_driver_golden.py's ``8-puzzle.txt:peastar/misplaced``).
PYTHON_ONLY_COMPONENTS = ("misplaced",)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("SEARCHKIT_ENGINE") != "native":
        return
    for item in items:
        if ROOT / "tests" not in item.path.parents:
            continue
        if any(word in item.nodeid for word in PYTHON_ONLY_GAMES):
            item.add_marker(pytest.mark.python_engine("a Python-only game"))
        elif any(word in item.name for word in PYTHON_ONLY_COMPONENTS):
            item.add_marker(pytest.mark.python_engine("a component without a native counterpart"))


# Headless Chromium for the HTML pages' tests (show's pages, report's page): a module-scoped driver.

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    binary, driver_path = _chromium(), shutil.which("chromedriver")
    if binary is None or driver_path is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


