"""Pieces of the batch runner without processes: chunk sizes, torn lines, the summary."""

from __future__ import annotations

import pytest

from searchkit.machinery.records import RecordFile, load_records
from searchkit.machinery.batch.runner import MAX_CHUNK, Chunker


def test_small_cases_travel_in_chunks_and_the_tail_is_shared():
    chunker = Chunker(target=0.05, workers=2)
    assert chunker.size() == 1  # nothing measured yet
    for _ in range(10):
        chunker.add(0.001)
    assert chunker.size() == 50
    assert chunker.size(waiting=10) == 3  # the last ten cases are shared between the two workers
    for _ in range(10):
        chunker.add(0.0)
    assert chunker.size() <= MAX_CHUNK
    slow = Chunker(target=0.05, workers=2)
    slow.add(2.0)
    assert slow.size() == 1


def test_a_torn_last_line_and_a_bad_middle_line(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"case": 1}\nnot json\n{"case": 3}\n{"case": 4, "sta')
    loaded = load_records(str(path))
    assert [r["case"] for r in loaded.records] == [1, 3]
    assert loaded.torn and loaded.bad_lines == [2]
    assert loaded.good_bytes == len(b'{"case": 1}\nnot json\n{"case": 3}\n')
    path.write_bytes(b'{"case": 1}\n')
    again = load_records(str(path))
    assert not again.torn and again.good_bytes == path.stat().st_size
    assert load_records(str(tmp_path / "missing.jsonl")).records == []


def test_the_summary_line(capsys, tmp_path, monkeypatch):
    from collections import Counter

    from searchkit.cli.batch import summary

    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.jsonl").write_text("")
    summary(Counter(solved=3, memory_limit=1), 2.04, skipped=2, output="r.jsonl", cancelled=True)
    err = capsys.readouterr().err
    assert err == ("searchkit: 4 cases in 2.0 s (3 solved, 1 memory_limit); 2 already recorded, skipped; "
                   "records in r.jsonl; run the same command with --resume to solve the rest\n")
    # a run stopped (SIGTERM) before it created its record file named the file that was never made
    summary(Counter(), 0.01, output="never.jsonl", cancelled=True)
    assert capsys.readouterr().err == "searchkit: 0 cases in 0.0 s\n"


def test_a_record_file_refuses_a_write_once_closed(tmp_path):
    """A write after close says the file is closed (a ValueError, as a file object's), and the file keeps its
    records; it used to reach ``os.write(None, ...)`` and fail with a TypeError naming neither."""
    path = tmp_path / "r.jsonl"
    sink = RecordFile(str(path))
    sink.write({"case": 1})
    sink.close()
    sink.close()  # closing twice is harmless
    with pytest.raises(ValueError, match="closed record file"):
        sink.write({"case": 2})
    assert path.read_text() == '{"case":1}\n'
