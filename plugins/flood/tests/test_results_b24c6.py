"""The committed b24c6n1000 records (docs/results/, issue 35): every board's record is there and replays.

``searchkit verify`` replays each record's moves on its board with the game's own rules; with every board
``solved`` and its lower bound equal to its cost, the file is the proven-optimal set that docs/results.md
presents.  Reads ``../shared/cases`` (skipped where it is not beside the repository).
"""

from __future__ import annotations

import gzip
import json

from flood_paths import ROOT, shared

RECORDS = ROOT / "docs" / "results" / "b24c6n1000.jsonl.gz"


def test_the_committed_records_verify_and_prove_every_board(searchkit_cli_run):
    cases = shared("flood", "colorfill", "b24c6n1000.txt")
    result = searchkit_cli_run(["verify", "flood", str(cases), str(RECORDS)])
    assert result.exit_code == 0, result.output
    assert "1000 OK" in result.output
    with gzip.open(RECORDS, "rt") as fh:
        records = [json.loads(line) for line in fh]
    assert [r["case"] for r in records] == list(range(1, 1001))
    assert all(r["status"] == "solved" and r["lower_bound"] == r["cost"] for r in records)
    ub = [int(x) for x in shared("flood", "colorfill", "b24c6n1000.ub").read_text().split()]
    assert sum(r["cost"] for r in records) == sum(ub) == 31804
