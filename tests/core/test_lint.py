"""The code passes ruff's pycodestyle and pyflakes checks (configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ruff_check(*paths: str) -> subprocess.CompletedProcess:
    """``ruff check PATHS`` as the suite runs it: from the root, with pyproject.toml's configuration."""
    beside = Path(sys.executable).with_name("ruff")  # the test venv's own, the version pyproject asks for
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]' installs it)")
    return subprocess.run([ruff, "check", "--config", str(ROOT / "pyproject.toml"), *paths], cwd=ROOT,
                          capture_output=True, text=True)


def test_ruff_finds_nothing():
    proc = ruff_check("searchkit", "plugins", "examples", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_fails_on_planted_faults(tmp_path):
    """The guard above, shown failing: an unused import, an undefined name and a 121-character line."""
    planted = tmp_path / "planted.py"
    planted.write_text("import os\n\n\ndef f():\n    return undefined\n\n\nX = '" + "x" * 115 + "'\n")
    proc = ruff_check(str(planted))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    for code in ("F401", "F821", "E501"):
        assert code in proc.stdout, proc.stdout
