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
    """Whether ``name`` (``package.module[.Class[.attribute]]``) is a module of searchkit or a plugin, or an
    attribute chain under the longest importable module prefix of it."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


#: A declaration of ``{name}``: a function, type, constant or module (``pub``, ``pub(crate)`` or private).
DECLARED = r"^\s*(pub(\(crate\))? )?(fn|struct|enum|trait|const|type|mod) {name}\b"
#: Where an owner's items are: its ``trait`` or an ``impl`` block of it (to the next ``}`` at column 0).
OWNER = r"^(?:(?:pub(?:\(crate\))? )?trait {name}\b|impl(?:<[^\n]*?>)? (?:[\w:]+(?:<[^\n]*?>)? for )?{name}\b)"


def rust_exists(path: str) -> bool:
    """Whether ``crate::module::...::[Owner::]item`` is declared in Rust: the modules are followed into their files
    (``x.rs`` or ``x/mod.rs``; a ``crate::x`` row is the ``mod x`` line of ``lib.rs``), ``Owner`` is a trait,
    struct or enum of the last file, and ``item`` is declared in it, or in the trait's or an ``impl``'s body."""
    crate, *parts = path.split("::")
    folder = CRATES.get(crate)
    if folder is None or not parts:
        return False
    file, where = folder / "lib.rs", folder
    while len(parts) > 1:
        found = next((f for f in (where / f"{parts[0]}.rs", where / parts[0] / "mod.rs") if f.exists()), None)
        if found is None:
            break
        file, where, parts = found, where / parts[0], parts[1:]
    text = file.read_text()
    *owners, item = parts
    if len(owners) > 1:
        return False
    if owners:
        (owner,) = owners
        if not re.search(DECLARED.format(name=re.escape(owner)), text, re.M):
            return False
        bodies = [text[m.start():text.find("\n}\n", m.start()) + 3]
                  for m in re.finditer(OWNER.format(name=re.escape(owner)), text, re.M)]
        text = "\n".join(bodies)
    return re.search(DECLARED.format(name=re.escape(item)), text, re.M) is not None


ROWS = table_rows((ROOT / "docs" / "native.md").read_text())


def test_the_table_is_there():
    assert len(ROWS) >= 25


@pytest.mark.parametrize("python, rust", ROWS, ids=[p for p, _ in ROWS])
def test_each_name_exists_on_its_side(python, rust):
    assert python_exists(python), f"{python} is not a Python name"
    assert rust_exists(rust), f"{rust} is not declared in its file"


def test_a_renamed_name_fails():
    """The guard shown failing on planted violations: the old Rust names (issue 33, item 8), a method of
    another owner, and a misspelt Python name."""
    assert not python_exists("searchkit.result.SearchOutcome")
    assert not python_exists("searchkit.puzzle.Puzzle.initial")
    for old in ("searchkit_core::puzzle::Domain", "searchkit_core::puzzle::StatePruner",
                "searchkit_core::limits::Control", "searchkit_core::result::Outcome", "searchkit_core::result::Stats",
                "searchkit_core::domain", "searchkit_core::control", "searchkit_core::stats",
                "searchkit_core::puzzle::Puzzle::initial", "searchkit_core::puzzle::Pruner::estimate",
                "searchkit_pyo3::Request", "searchkit_pyo3::outcome_dict", "searchkit_core::Algorithm::named",
                "searchkit_core::drivers::ida_star::idastar"):
        assert not rust_exists(old), old
    assert rust_exists("searchkit_core::puzzle::Estimator::estimate")


def test_the_old_rust_names_are_gone():
    """Issue 33, item 8: one name per concept. The Rust engine's old names (``Domain``, ``StatePruner``,
    ``Control``, ``Outcome``, ``Stats``, the kit's ``Request`` and ``outcome_dict``, the trait ``Heuristic``) are
    declared nowhere in the Rust sources, so a plugin author meets only the Python engine's names."""
    old = re.compile(r"\b(pub(\(crate\))? )?(struct|enum|trait|type|fn) (Domain|StatePruner|Control|Outcome|Stats|"
                     r"Request|outcome_dict|Heuristic|ParamSpec)\b")
    folders = [*CRATES.values(), ROOT / "native" / "testgame" / "src", ROOT / "searchkit" / "templates"]
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for folder in folders for p in sorted(folder.rglob("*"))
             if p.suffix in (".rs", ".tmpl") for m in old.finditer(p.read_text())]
    assert found == []
