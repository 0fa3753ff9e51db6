"""The documentation site builds with ``mkdocs build --strict``: a broken link, a missing page in the nav, an
API reference to a name that does not exist or a docstring griffe cannot read (a parameter the signature does
not have) fails the suite (and so CI).

The build runs as README tells a user to run it, ``mkdocs build --strict`` with mkdocs' own logging: under
``-q`` mkdocs drops warnings before strict mode counts them, so a quiet build passed on six griffe warnings
that failed the user's (issue 33 item 10).  ``test_a_planted_bad_docstring_fails_the_build`` shows the same
build failing on a docstring that documents a parameter the function does not take.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT


def build(project: Path, site: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` in ``project`` (the venv's mkdocs, as a user runs it), into ``site``."""
    mkdocs = shutil.which("mkdocs", path=os.path.dirname(sys.executable))
    if mkdocs is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[test]' (the test extra includes the docs extra)")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([mkdocs, "build", "--strict", "-d", str(site)], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)


def warnings(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in (done.stdout + done.stderr).splitlines() if "WARNING" in line]


def test_mkdocs_build_strict(tmp_path):
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0 and not warnings(done), done.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "api" / "machinery" / "index.html").exists()
    assert "Engine" in (tmp_path / "site" / "api" / "machinery" / "index.html").read_text()  # the seam


def test_a_planted_bad_docstring_fails_the_build(tmp_path):
    """The guard above, shown failing: the site's own mkdocstrings settings on a module whose docstring
    documents a parameter its function does not take (as ``solve_all``'s did)."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    plugins = [p for p in config["plugins"] if isinstance(p, dict) and "mkdocstrings" in p]
    plugins[0]["mkdocstrings"]["handlers"]["python"]["paths"] = ["."]
    project = tmp_path / "project"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "planted", "plugins": plugins}))
    (project / "docs" / "index.md").write_text("# Planted\n\n::: planted\n")
    (project / "planted.py").write_text('"""A planted module."""\n\n\n'
                                        'def solve(game):\n'
                                        '    """Solve.\n\n'
                                        '    Args:\n'
                                        '        game: the game.\n'
                                        '        engine, game_options: as solve.\n'
                                        '    """\n')
    done = build(project, tmp_path / "site")
    assert done.returncode != 0, done.stderr[-3000:]
    assert any("does not appear in the function signature" in line for line in warnings(done)), done.stderr
