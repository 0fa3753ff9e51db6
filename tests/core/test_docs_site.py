"""The documentation site builds with ``mkdocs build --strict``: a broken link, a missing page in the nav or an
API reference to a name that does not exist fails the suite (and so CI)."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT


def test_mkdocs_build_strict(tmp_path):
    if shutil.which("mkdocs", path=os.path.dirname(sys.executable)) is None:
        pytest.fail("mkdocs is not installed: pip install -e '.[test]' (the test extra includes the docs extra)")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mkdocs"), "build", "--strict",
                           "-q", "-d", str(tmp_path / "site")], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "api" / "engine" / "index.html").exists()
