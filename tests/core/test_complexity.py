"""No function of the library or a game is rated E or F by radon's cyclomatic complexity (issue 33, item 9).

D is allowed where a function says why (a flat table of refusals, a game's hot move generator); E and F are
not: they were the batch run, the reader and the format detector, each now split into named steps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The code held to it: the library and each game's Python package (not tests or benchmarks).
TREES = [ROOT / "searchkit", ROOT / "plugins" / "flood" / "searchkit_flood",
         ROOT / "plugins" / "mayan" / "searchkit_mayan", ROOT / "plugins" / "sliding-tiles" / "sliding_tiles"]


def too_complex(sources: dict[str, str]) -> list[str]:
    """``FILE:LINE NAME RANK (SCORE)`` for every block of ``sources`` (file -> text) ranked E or F."""
    radon = pytest.importorskip("radon.complexity", reason="radon is in the test extra: pip install -e '.[test]'")
    found = []
    for where, text in sources.items():
        for block in radon.sorted_results(radon.cc_visit(text)):
            rank = radon.cc_rank(block.complexity)
            if rank in ("E", "F"):
                found.append(f"{where}:{block.lineno} {block.fullname} {rank} ({block.complexity})")
    return found


def test_no_function_is_rated_e_or_f():
    sources = {str(p.relative_to(ROOT)): p.read_text() for tree in TREES for p in sorted(tree.rglob("*.py"))}
    assert len(sources) > 50
    assert too_complex(sources) == []


def test_a_planted_tangle_is_caught():
    branches = "".join(f"    if x == {k} and y:\n        return {k}\n" for k in range(20))
    found = too_complex({"planted.py": f"def tangle(x, y):\n{branches}    return -1\n"})
    assert found == ["planted.py:1 tangle F (41)"]
