"""mypy finds no error in the typed core: the files ``[tool.mypy]`` in pyproject.toml lists (issue 20 item 12).

The list must cover (:data:`CORE`) the two lower layers of docs/architecture.md's drawing, whole: every
module and package the drawing puts in the vocabulary (``protocol.py`` and ``helpers/`` included), and the
machinery (``machinery/``: the Solver, the engine seam, search, reading, records, reporting, output,
atomic, crates, the drivers, pdb, batch) and the plugin system (``plugin/``), issue 33.  A vocabulary
module added to the drawing is then checked too, and a list that shrinks fails.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from test_layers import ARCHITECTURE, drawing

ROOT = Path(__file__).resolve().parents[2]


#: What the typed core must include, at least: every entry the drawing puts in the vocabulary or the machinery
#: layer, and by name the machinery, the plugin system and the helpers (so that no redrawing drops them).
CORE = tuple(dict.fromkeys(
    [f"searchkit/{entry}" for entry, layer in drawing(ARCHITECTURE.read_text()).items()
     if layer in ("vocabulary", "machinery")]
    + ["searchkit/machinery", "searchkit/plugin", "searchkit/helpers", "searchkit/protocol.py"]))


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
    """The guards above, shown failing: a config leaving the machinery and the helpers out and naming a file
    that is gone, and one listing only the Solver of the machinery (the list before issue 33); and mypy,
    configured as above, on a module returning a str where it promises an int."""
    files = [f for f in CORE if f not in ("searchkit/machinery", "searchkit/helpers")] + ["searchkit/gone.py"]
    assert config_gaps(files) == ["searchkit/machinery not checked", "searchkit/helpers not checked",
                                  "searchkit/gone.py does not exist"]
    partial = [f for f in CORE if f != "searchkit/machinery"] + ["searchkit/machinery/solver.py"]
    assert config_gaps(partial) == ["searchkit/machinery not checked"]
    assert {"searchkit/protocol.py", "searchkit/__init__.py", "searchkit/hooks.py"} <= set(CORE)
    planted = tmp_path / "planted.py"
    planted.write_text("def cost() -> int:\n    return 'three'\n")
    proc = mypy("--cache-dir", str(tmp_path / "cache"), str(planted))
    assert proc.returncode == 1 and "planted.py:2: error: Incompatible return value type" in proc.stdout, \
        proc.stdout + proc.stderr
