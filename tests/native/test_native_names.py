"""docs/native.md's table of names on both sides (Python name, Rust name) is held true: each Python name
imports, and each Rust name is declared (``fn``, ``struct``, ``enum``, ``trait``, ``const`` or ``type``) in the
file its module path names (issue 31).  A rename on either side fails here until the table follows."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Rust crate name -> its source folder.
CRATES = {
    "searchkit_core": ROOT / "native" / "core" / "src",
    "searchkit_pyo3": ROOT / "native" / "kit" / "src",
    "searchkit_flood": ROOT / "plugins" / "flood" / "native" / "src",
    "searchkit_tiles": ROOT / "plugins" / "sliding-tiles" / "native" / "src",
}


def table_rows(text: str) -> list[tuple[str, str]]:
    """The ``| `python` | `rust` |`` rows of the section "Names on both sides"."""
    section = text.split("## Names on both sides", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|$", section, flags=re.M)


def python_exists(name: str) -> bool:
    module, _, attr = name.rpartition(".")
    try:
        return hasattr(importlib.import_module(module), attr)
    except ImportError:
        return False


def rust_exists(path: str) -> bool:
    crate, *modules, item = path.split("::")
    folder = CRATES.get(crate)
    if folder is None:
        return False
    candidates = [folder / "lib.rs"] if not modules else \
        [folder.joinpath(*modules).with_suffix(".rs"), folder.joinpath(*modules, "mod.rs")]
    pattern = re.compile(rf"^\s*(pub(\(crate\))? )?(fn|struct|enum|trait|const|type) {re.escape(item)}\b", re.M)
    return any(f.exists() and pattern.search(f.read_text()) for f in candidates)


ROWS = table_rows((ROOT / "docs" / "native.md").read_text())


def test_the_table_is_there():
    assert len(ROWS) >= 25


@pytest.mark.parametrize("python, rust", ROWS, ids=[p for p, _ in ROWS])
def test_each_name_exists_on_its_side(python, rust):
    assert python_exists(python), f"{python} is not a Python name"
    assert rust_exists(rust), f"{rust} is not declared in its file"


def test_a_renamed_name_fails():
    """The guard shown failing on planted violations."""
    assert not python_exists("searchkit.result.SearchOutcome")
    assert not rust_exists("searchkit_core::stats::Result")
    assert not rust_exists("searchkit_core::drivers::ida_star::idastar")
