"""searchkit's pytest plugin acts only in a project that names it (issue 33 item 7).

Through a ``pytest11`` entry point it loaded itself into every pytest run in the environment: an unrelated
project's tests saw ``SEARCHKIT_CACHE_DIR`` set to a pytest temporary folder and had fixtures named
``registry`` and ``cli_run``.  Each test here runs a real pytest in a fresh temporary project, in this
environment (where searchkit is installed), and looks at what its tests see.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

#: A test module that reports what it sees of the environment.
PROBE = '''
import os


def test_probe():
    print("CACHE", os.environ.get("SEARCHKIT_CACHE_DIR"))
'''

#: What an opted-in project's test does with the fixtures.
USES = '''
def test_the_fixtures(searchkit_registry, searchkit_cli_run):
    assert "flood" in searchkit_registry.games
    out = searchkit_cli_run(["--version"])
    assert out.exit_code == 0 and "searchkit" in out.output
'''


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    """A fresh ``python -m pytest`` in ``project``, with no SEARCHKIT_CACHE_DIR of its own and nothing of
    this run's pytest in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SEARCHKIT_CACHE_DIR"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-s", "-p", "no:cacheprovider", "-p", "no:randomly",
                           *args], cwd=project, env=env, capture_output=True, text=True, timeout=300)


def cache_seen(done: subprocess.CompletedProcess) -> str:
    found = re.search(r"CACHE (\S+)", done.stdout)
    assert found, done.stdout
    return found[1]


def fixtures_listed(root: Path, *args: str) -> set[str]:
    """The fixture names ``pytest --fixtures`` lists in ``root`` (its lines ``name [scope] -- where``)."""
    done = run_pytest(root, "--fixtures", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return {m[1] for m in re.finditer(r"^(\w+)(?: \[\w+ scope\])? -- ", done.stdout, re.M)}


def project(tmp_path: Path, pyproject: str = "", conftest: str | None = None) -> Path:
    root = tmp_path / "other-project"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "1"\n\n[tool.pytest.ini_options]\n'
                                         + pyproject)
    (root / "tests" / "test_probe.py").write_text(PROBE)
    if conftest is not None:
        (root / "conftest.py").write_text(conftest)
    return root


def test_a_project_that_did_not_opt_in_gets_neither_fixtures_nor_the_cache_variable(tmp_path):
    root = project(tmp_path)
    done = run_pytest(root, "tests/test_probe.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert cache_seen(done) == "None", done.stdout
    listed = fixtures_listed(root)
    assert "tmp_path" in listed  # the listing is read
    assert not {"searchkit_registry", "searchkit_cli_run", "registry", "cli_run"} & listed, listed
    (root / "tests" / "test_uses.py").write_text(USES)
    done = run_pytest(root, "tests/test_uses.py")
    assert done.returncode != 0 and "fixture 'searchkit_registry' not found" in done.stdout, done.stdout


@pytest.mark.parametrize("how", ["addopts", "conftest", "command line"])
def test_a_project_that_opts_in_gets_them(tmp_path, how):
    root = project(tmp_path, pyproject='addopts = "-p searchkit.testing.pytest_plugin"\n' if how == "addopts" else "",
                   conftest='pytest_plugins = ["searchkit.testing.pytest_plugin"]\n' if how == "conftest" else None)
    (root / "tests" / "test_uses.py").write_text(USES)
    args = ["-p", "searchkit.testing.pytest_plugin"] if how == "command line" else []
    done = run_pytest(root, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "pdb-cache" in cache_seen(done), done.stdout
    listed = fixtures_listed(root, *args)
    assert {"searchkit_registry", "searchkit_cli_run"} <= listed and not {"registry", "cli_run"} & listed, listed
