"""mypy finds no error in the typed core: the files ``[tool.mypy]`` in pyproject.toml lists (issue 20 item 12).

The list covers the vocabulary (puzzle, game, heuristic, pruning, result,
limits, errors, bounds, seeds, generator, algorithm, hooks), the Solver
(solver.py, search.py), the drivers and the plugin manager.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_config_covers_the_typed_core():
    files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    for name in ("searchkit/puzzle.py", "searchkit/game.py", "searchkit/solver.py", "searchkit/drivers",
                 "searchkit/plugin"):
        assert name in files
    for name in files:
        assert (ROOT / name).exists(), name


def test_mypy_finds_nothing():
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]' installs it)")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
