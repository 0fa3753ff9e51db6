"""Who may write a record file: one run at a time (a tester's defect: two runs wrote one file at once)."""

from __future__ import annotations

import os

from tests.conftest import EXAMPLES

SAMPLE = EXAMPLES / "flood" / "hdu4127-sample.txt"  # two cases: 0 and 3 moves


def test_a_second_run_on_the_same_output_is_refused_before_solving(cli, tmp_path):
    """Two runs writing one --output at once lost records.  A run holds ``.NAME.lock`` (flock) beside its
    record file; another refuses in one line naming the file, exit status 2, before solving anything."""
    import fcntl

    out = tmp_path / "r.jsonl"
    lock = tmp_path / ".r.jsonl.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a run in progress holds it
        for extra in ((), ("--resume",), ("--force",)):
            res = cli("solve", "flood", "--output", out, *extra, SAMPLE)
            assert res.returncode == 2 and len(res.stderr.splitlines()) == 1, res.stderr
            assert f"{out} is being written by another searchkit run" in res.stderr
            assert not out.exists()
        res = cli("compare", "flood", SAMPLE, "-H", "puchert", "--output", out)
        assert res.returncode == 2 and f"{out} is being written by another searchkit run" in res.stderr
    finally:
        os.close(fd)
    os.unlink(lock)
    assert cli("solve", "flood", "--output", out, SAMPLE).returncode == 0
    assert len(out.read_text().splitlines()) == 2 and not lock.exists()  # the lock file goes with the run
