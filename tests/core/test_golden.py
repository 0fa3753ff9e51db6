"""Golden outputs of ``solve`` (text and json) and ``compare --format json``.

They guard refactorings of the path from the CLI to the drivers: the answers,
the statistics that do not depend on the clock, and the record layout must
stay as they were.  Timings are replaced by ``0`` before comparing, and the
engine that searched by ``"(engine)"``: both engines must print the same
bytes otherwise (``SEARCHKIT_ENGINE=native`` runs this file on the native
engine where it has every component).  After an
intended change, regenerate with ``SEARCHKIT_UPDATE_GOLDEN=1 pytest
tests/core/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import EXAMPLES, ROOT

GOLDEN = ROOT / "tests" / "golden"
SLIDING = ROOT / "plugins" / "sliding-tiles" / "examples" / "8-puzzle.txt"

CASES = {
    "flood-hdu-text": ["solve", "flood", "--moves", str(EXAMPLES / "flood" / "hdu4127-sample.txt")],
    "flood-nkoj-json": ["solve", "flood", "--format", "json", str(EXAMPLES / "flood" / "nkoj2440-sample.txt")],
    "mayan-text": ["solve", "mayan", str(EXAMPLES / "mayan" / "noip2011-sample.in")],
    "mayan-json": ["solve", "mayan", "--format", "json", str(EXAMPLES / "mayan" / "noip2011-sample.in")],
    "sliding-text": ["solve", "sliding-tiles", "--moves", str(SLIDING)],
    "sliding-json": ["solve", "sliding-tiles", "--format", "json", str(SLIDING)],
    "compare-flood-json": ["compare", "flood", str(EXAMPLES / "flood" / "nkoj2440-sample.txt"),
                           "-H", "colours", "-H", "layered", "--format", "json"],
}

_TIMING_KEYS = {"elapsed", "seconds", "per_depth_seconds", "peak_rss_kb"}


def _scrub(value):
    if isinstance(value, dict):
        return {k: (0 if k in _TIMING_KEYS else "(engine)" if k == "engine" and v else _scrub(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def _normalise(text: str) -> str:
    root = str(ROOT)
    text = text.replace(root + os.sep, "")
    try:
        return json.dumps(_scrub(json.loads(text)), indent=1, sort_keys=True) + "\n"
    except json.JSONDecodeError:
        pass
    lines = []
    for line in text.splitlines():
        if line.startswith("{"):
            line = json.dumps(_scrub(json.loads(line)), sort_keys=True)
        lines.append(re.sub(r"\d+\.\d+ s\b", "0 s", line))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_output(name, searchkit_cli_run):
    result = searchkit_cli_run(CASES[name])
    got = _normalise(result.output)
    path = GOLDEN / f"{name}.out"
    if os.environ.get("SEARCHKIT_UPDATE_GOLDEN"):
        path.write_text(got)
    assert path.exists(), f"no golden file {path}; run with SEARCHKIT_UPDATE_GOLDEN=1"
    assert got == path.read_text(), f"{name}: output differs from {path.name}"
