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


#: What the typed core must include, at least.
CORE = ("searchkit/puzzle.py", "searchkit/game.py", "searchkit/machinery/solver.py", "searchkit/machinery/drivers",
        "searchkit/plugin")


def config_gaps(files: list[str], root: Path = ROOT) -> list[str]:
    """What is wrong with mypy's ``files``: a part of the core left out, or a path that does not exist."""
    return [f"{name} not checked" for name in CORE if name not in files] + \
        [f"{name} does not exist" for name in files if not (root / name).exists()]


def test_the_config_covers_the_typed_core():
    assert config_gaps(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]) == []


def mypy(*args: str) -> subprocess.CompletedProcess:
    """mypy as the suite runs it: this repository's configuration (pyproject.toml), from its root."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]' installs it)")
    return subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_mypy_finds_nothing():
    proc = mypy()
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_checks_fail_on_planted_errors(tmp_path):
    """The guards above, shown failing: a config leaving the Solver out and naming a file that is gone; and
    mypy, configured as above, on a module returning a str where it promises an int."""
    files = [f for f in CORE if f != "searchkit/machinery/solver.py"] + ["searchkit/gone.py"]
    assert config_gaps(files) == ["searchkit/machinery/solver.py not checked", "searchkit/gone.py does not exist"]
    planted = tmp_path / "planted.py"
    planted.write_text("def cost() -> int:\n    return 'three'\n")
    proc = mypy("--cache-dir", str(tmp_path / "cache"), str(planted))
    assert proc.returncode == 1 and "planted.py:2: error: Incompatible return value type" in proc.stdout, \
        proc.stdout + proc.stderr
