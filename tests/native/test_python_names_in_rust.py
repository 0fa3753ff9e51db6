"""The Rust engine names its Python twins in its comments ("Python's `optimal_result`"): each such name must
still exist in the Python code (issue 33, item 8: no stale references to Python names that no longer exist).

A name is the last dotted part of what the backticks hold, before any call parentheses
(``Python's `Limiter.checkpoint``` -> ``checkpoint``); it must appear as a word in the Python sources of
``searchkit/`` or a plugin.  A rename on the Python side fails here until the Rust comment follows.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUST = [ROOT / "native", *sorted((ROOT / "plugins").glob("*/native"))]
PYTHON = [ROOT / "searchkit", *sorted(p for p in (ROOT / "plugins").glob("*/*") if p.is_dir()
                                      and (p / "__init__.py").exists())]
MENTION = re.compile(r"Python's `([A-Za-z_][A-Za-z0-9_.]*)")


def mentions(texts: dict[str, str]) -> dict[str, list[str]]:
    """``{name: [file, ...]}``: the last dotted part of every "Python's `...`" in ``texts`` (file -> text)."""
    found: dict[str, list[str]] = {}
    for where, text in texts.items():
        for full in MENTION.findall(text):
            found.setdefault(full.rsplit(".", 1)[-1], []).append(where)
    return found


def stale(rust: dict[str, str], python: str) -> dict[str, list[str]]:
    """The mentioned names that are no word of ``python`` (the Python sources joined)."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", python))
    return {name: files for name, files in mentions(rust).items() if name not in words}


def _sources() -> tuple[dict[str, str], str]:
    rust = {str(p.relative_to(ROOT)): p.read_text() for folder in RUST for p in folder.rglob("*.rs")
            if "target" not in p.parts}
    python = "\n".join(p.read_text() for folder in PYTHON for p in folder.rglob("*.py"))
    return rust, python


def test_every_python_name_the_rust_engine_cites_exists():
    rust, python = _sources()
    assert len(mentions(rust)) > 20  # the check reads the comments it is about
    assert stale(rust, python) == {}


def test_a_renamed_python_name_is_caught():
    rust = {"core/x.rs": "/// Python's `optimal_result` and Python's `wastar.best_first(puzzle)`."}
    assert stale(rust, "def optimal_result(): pass\n") == {"best_first": ["core/x.rs"]}
