"""Where the mayan plugin's tests find their cases: the repository's ``examples/`` and ``../shared/cases``.

A plain module, not ``conftest.py``: the tests import it by name, and a second ``conftest`` would take the
place of the core suite's in ``sys.modules`` when every suite runs together from the repository's root.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]  # plugins/mayan/tests/ -> the repository
SHARED_CASES = ROOT.parent / "shared" / "cases"
EXAMPLES = ROOT / "examples"


def shared(*parts: str) -> Path:
    """Path under ../shared/cases; skips the test when shared/ is not beside the repo."""
    path = SHARED_CASES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (shared/ is not beside the repository)")
    return path
