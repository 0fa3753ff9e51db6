"""What verify and --resume read as a record file, and who may write one (a tester's defects on records).

A device or a FIFO named as the record file was read without end (or blocked); a complete last line that is
not a record was cut off as torn; records matching no case, and an empty file, passed unnoticed; two runs
wrote one file at once; a record without source and case was named "None case None".
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

from searchkit.machinery import records as records_module
from tests.batch.conftest import PLUGINS
from tests.conftest import EXAMPLES, ROOT

SAMPLE = EXAMPLES / "flood" / "hdu4127-sample.txt"  # two cases: 0 and 3 moves
PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def _limited(*args, timeout=60) -> subprocess.CompletedProcess:
    """The CLI under an 800 MB address-space limit (``ulimit -v 800000``), as the tester ran it."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (800_000 * 1024, 800_000 * 1024))

    env = dict(os.environ, PYTHONPATH=str(PLUGINS))
    return subprocess.run([sys.executable, "-m", "searchkit", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout, preexec_fn=limit)


def test_a_device_or_a_fifo_is_refused_as_a_record_file(cli, tmp_path):
    """``verify flood c1.txt /dev/zero`` ended in a MemoryError traceback; ``--resume`` from /dev/zero grew
    past 1.4 GB; a FIFO blocked for ever.  Each is now one line naming it, exit status 2, nothing read."""
    res = _limited("verify", "flood", SAMPLE, "/dev/zero")
    assert res.returncode == 2 and res.stderr.splitlines() == [
        "searchkit: error: /dev/zero: is not a regular file (a pipe or a device): verify reads record files"]
    res = _limited("solve", "flood", "--output", "/dev/zero", "--resume", SAMPLE)
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1, res.stderr
    assert "cannot resume /dev/zero: is not a regular file (a pipe or a device)" in res.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    res = cli("verify", "flood", SAMPLE, fifo, timeout=30)
    assert res.returncode == 2 and f"{fifo}: is not a regular file" in res.stderr, res.stderr
    res = cli("solve", "flood", "--output", fifo, "--resume", SAMPLE, timeout=30)
    assert res.returncode == 2 and f"cannot resume {fifo}: is not a regular file" in res.stderr, res.stderr


def test_resume_through_a_link_to_nowhere_starts_the_file(cli, tmp_path):
    """A symbolic link to a missing file is a missing record file, as before the record file was opened
    without blocking (that open failed on it, 'cannot write the output', status 1)."""
    (tmp_path / "r.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    res = cli("solve", "flood", "--output", tmp_path / "r.jsonl", "--resume", SAMPLE)
    assert res.returncode == 0, res.stderr
    assert len((tmp_path / "nowhere.jsonl").read_text().splitlines()) == 2


def test_a_line_over_the_cap_is_one_bad_line_never_held(tmp_path, monkeypatch):
    """A record file of one endless line must not exhaust memory: a line longer than MAX_LINE is read past in
    pieces and is a bad line (kept, ignored), a last one without its newline is torn."""
    monkeypatch.setattr(records_module, "MAX_LINE", 64)
    path = tmp_path / "r.jsonl"
    first, third = '{"case": 1}\n', '{"case": 3}\n'
    path.write_text(first + "x" * 1000 + "\n" + third + "y" * 500)
    loaded = records_module.load_records(str(path))
    assert [r["case"] for r in loaded.records] == [1, 3]
    assert loaded.bad_lines == [2] and loaded.too_long == [2] and loaded.torn
    assert loaded.good_bytes == len(first) + 1001 + len(third)
    assert records_module.bad_line_reason(loaded, 2) == "is longer than 0 MiB"  # 64 bytes, in whole MiB


def test_resume_keeps_a_complete_last_line_that_is_not_a_record(cli, tmp_path):
    """``echo '# my note' >> rz.jsonl`` then ``--resume`` deleted the note as a torn line; docs/records.md
    says a complete line is kept and only a last line without its newline is torn."""
    out = tmp_path / "rz.jsonl"
    assert cli("solve", "flood", "--output", out, SAMPLE).returncode == 0
    with open(out, "a") as fh:
        fh.write("# my note\n")
    res = cli("solve", "flood", "--output", out, "--resume", SAMPLE)
    assert res.returncode == 0 and "2 already recorded" in res.stderr, res.stderr
    assert f"{out}: line 3 is not a JSON record; ignored (kept in the file)" in res.stderr
    assert out.read_text().endswith("\n# my note\n")
    res = cli("verify", "flood", SAMPLE, out)
    assert res.returncode == 0 and f"{out}: line 3 is not a JSON record; ignored" in res.stderr, res.stderr
    assert "last line" not in res.stderr
    with open(out, "a") as fh:
        fh.write('{"schema":1,"game":"flo')  # killed while writing: the one torn line
    res = cli("verify", "flood", SAMPLE, out)
    assert res.returncode == 0 and "the last line has no newline" in res.stderr, res.stderr


def test_verify_counts_the_records_that_match_no_case(cli, tmp_path):
    """Twelve records against a one-case input said ``1 OK``, exit status 0, and nothing of the other 11."""
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, PC19).returncode == 0
    one = tmp_path / "one.txt"
    one.write_text(PC19.read_text().splitlines()[0] + "\n")  # the first board (one line a board)
    lines = [dict(json.loads(x), source=str(one)) for x in out.read_text().splitlines()]
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    res = cli("verify", "flood", one, out)
    assert res.returncode == 0 and res.stdout.splitlines()[-1] == "1 OK", res.stdout + res.stderr
    assert res.stderr.splitlines() == [
        f"searchkit: warning: {out}: 11 of its 12 records match no case of {one} (by source and case number) "
        f"and were not replayed"]


def test_verify_refuses_an_empty_record_file(cli, tmp_path):
    """A 0-byte records file gave one "no record" line per case and status 1; a file of blank lines was
    refused in one line with status 2: both are now."""
    for content in ("", "\n\n"):
        empty = tmp_path / "r.jsonl"
        empty.write_text(content)
        res = cli("verify", "flood", SAMPLE, empty)
        assert res.returncode == 2 and res.stderr.splitlines()[-1] == (
            f"searchkit: error: {empty}: holds no JSON record: verify reads the JSON Lines records of "
            "'searchkit solve --output FILE' (or --format jsonl), not text answers"), res.stderr
        assert "no record" not in res.stderr.replace("no JSON record", "")


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


def test_resume_says_what_a_record_lacks_not_none(cli, tmp_path):
    """``its record of None case None has schema null`` showed Python's None to the user."""
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, SAMPLE).returncode == 0
    with open(out, "a") as fh:
        fh.write('{"note": "by hand"}\n')
    res = cli("solve", "flood", "--output", out, "--resume", SAMPLE)
    assert res.returncode == 2 and "None" not in res.stderr, res.stderr
    assert f"cannot resume {out}: its record without a source or case number has schema null" in res.stderr


def test_an_input_error_record_gives_the_line_of_the_error(cli, tmp_path):
    """docs/records.md: an input error's ``line`` is the line of the error (its message does not hold it);
    a case's record gives the line where the case starts."""
    bad = tmp_path / "in.txt"
    bad.write_text("2\n0 0\n0 0\n3\n0 1 2\n1 x 2\n2 2 1\n3\n0 1 2\n1 1 2\n2 2 1\n0\n")
    res = cli("solve", "flood", "--format", "jsonl", bad)
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [(r["case"], r["status"], r["line"]) for r in lines] == [
        (1, "solved", 1), (2, "input_error", 6), (3, "solved", 8)]
    assert "input_error" in (ROOT / "docs" / "records.md").read_text().split("| `line` |")[1].split("\n")[0]
