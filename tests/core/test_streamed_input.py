"""Issue 10's flat parent memory: a file's cases are read in streamed passes, never held whole.

The reader checks the file's encoding in chunks and gives a game with
``parse_stream`` a line source that reads the file again on every pass;
these tests pin that it reads exactly what ``text.split("\\n")`` would, that
the flood parser gives the same items either way, and that the memory a
parse allocates does not grow with the number of cases (tracemalloc counts
allocations, so the figure is deterministic, not a timing).
"""

from __future__ import annotations

import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from searchkit.machinery.reading import LineSource, iter_cases, open_lines
from searchkit.errors import InputError
from searchkit.plugin.manager import load_registry
from searchkit.machinery.solver import Solver

from conftest import EXAMPLES

TEXT_CHARS = st.sampled_from(["\n", "\r", "\r\n", " ", "\t", "1", "2", "a", "é", "水", "\ufeff", "0", "-"])


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(TEXT_CHARS, max_size=60), bom=st.booleans(), chunk=st.integers(1, 7))
def test_line_source_reads_what_split_at_newline_reads(tmp_path_factory, parts, bom, chunk):
    data = (b"\xef\xbb\xbf" if bom else b"") + "".join(parts).encode()
    text = data.decode("utf-8-sig")  # as read_input reads a whole file: one leading byte-order mark dropped
    path = tmp_path_factory.mktemp("lines") / "in.txt"
    path.write_bytes(data)
    source = open_lines(str(path), chunk_bytes=chunk)
    source.chunk_chars = chunk
    assert list(source.lines()) == text.split("\n")
    assert list(source.lines()) == text.split("\n")  # every pass reads from the start
    assert source.blank == (not text.strip())


def test_bad_utf8_is_reported_with_its_file_offset_across_chunks(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xef\xbb\xbf2\n1 2\n2 \xe6\xb0\xb4 \xff1\n0\n")
    for chunk in (1, 2, 3, 1 << 20):
        try:
            open_lines(str(path), chunk_bytes=chunk)
        except InputError as err:
            assert err.message == "expected UTF-8 text, found byte 0xff at offset 15 (line 3)", chunk
        else:
            raise AssertionError("a non-UTF-8 byte was accepted")


def _flood():
    registry = load_registry()
    return Solver(registry, "flood")


def test_flood_stream_and_text_give_the_same_items(tmp_path):
    solver = _flood()
    for sample in sorted((EXAMPLES / "flood").glob("*.txt")):
        text = sample.read_text(encoding="utf-8-sig")
        by_text = list(solver.game.parse(text, str(sample), solver.options))
        by_file = [item.value for item in iter_cases(solver.game, [str(sample)], solver.options)]
        assert [repr(x) for x in by_file] == [repr(x) for x in by_text], sample.name


def _peak_while_reading(path, solver) -> int:
    tracemalloc.start()
    try:
        count = sum(1 for _ in iter_cases(solver.game, [str(path)], solver.options))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_reading_ten_times_the_cases_does_not_take_ten_times_the_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(LineSource, "chunk_chars", 4096)  # both files span many chunks
    monkeypatch.setattr(LineSource, "chunk_bytes", 4096)
    solver = _flood()
    board = "6\n" + "\n".join(" ".join(str((x * 7 + y * 3) % 6 + 1) for x in range(6)) for y in range(6)) + "\n"
    peaks = {}
    for n in (1000, 10000):
        path = tmp_path / f"b{n}.txt"
        path.write_text("# searchkit flood judge\n" + board * n + "0\n")
        count, peaks[n] = _peak_while_reading(path, solver)
        assert count == n
    # The whole 10000-case text alone is 740 kB; a held token list would be several MB.
    assert peaks[10000] < 1.5 * peaks[1000], peaks
    assert peaks[10000] < 200_000, peaks


def test_stdin_is_spooled_and_read_in_passes(searchkit_cli_run):
    text = "2\n1 2\n2 1\n2\n1 1\n1 1\n0\n"
    out = searchkit_cli_run(["solve", "flood", "-"], input=text)
    assert out.exit_code == 0 and out.stdout.split() == ["2", "0"]


def test_a_spooled_copy_is_removed_when_closed(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("1\n")
    source = LineSource(str(path), blank=False)
    source.close()  # no spool: closing is harmless and the file stays
    assert path.exists()


def test_a_pipe_or_fifo_named_as_a_file_is_read_once_and_spooled(tmp_path):
    """``<(cmd)``, ``/dev/stdin`` and FIFOs can be read only once; the passes read a spooled copy."""
    import os
    import subprocess
    import sys
    import threading

    text = b"2\n1 2\n2 1\n2\n1 1\n1 1\n0\n"
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as fh:
            fh.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    out = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", str(fifo)], capture_output=True,
                         timeout=60)
    writer.join()
    assert out.returncode == 0 and out.stdout.split() == [b"2", b"0"], out
    piped = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "/dev/stdin"], input=text,
                           capture_output=True, timeout=60)
    assert piped.returncode == 0 and piped.stdout.split() == [b"2", b"0"], piped


def test_a_non_utf8_byte_refuses_only_the_case_that_holds_it(tmp_path):
    """Issue 19.21: one non-UTF-8 byte refused the whole file; now only its case, for every reader."""
    import subprocess
    import sys

    judge = tmp_path / "judge.txt"
    judge.write_bytes(b"2\n1 2\n2 1\n2\n1 \xff\n2 1\n2\n1 1\n1 1\n0\n")
    lines = tmp_path / "lines.txt"
    lines.write_bytes(b"1221\n12\xe92\n123456789\n")
    stdin_bytes = b"1221\n1111\n12\xff1\n"
    found = "expected UTF-8 text, found byte"
    for path, expected, message in (
            (judge, ["2", "? (input error)", "0"], f"case 2: {found} 0xff at offset 14 (line 5)"),
            (lines, ["2", "? (input error)", "8"], f"case 2: {found} 0xe9 at offset 7 (line 2)"),
            ("-", ["2", "0", "? (input error)"], f"case 3: {found} 0xff at offset 12 (line 3)")):
        proc = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", str(path)], capture_output=True,
                              input=stdin_bytes if path == "-" else None)
        assert proc.returncode == 2
        assert proc.stdout.decode().split("\n")[:-1] == expected, (path, proc.stdout, proc.stderr)
        assert message in proc.stderr.decode() and proc.stderr.decode().count("\n") == 1, proc.stderr


def test_a_bad_byte_after_the_last_case_is_one_error_and_the_cases_are_solved(tmp_path):
    """A non-UTF-8 byte after a file's last case (after its terminator) was held by that case and by the
    terminator's error: the last good case was refused and the byte named twice (two lines, an extra record);
    a file of one bad byte was called empty.  Now the byte is one error, and every good case is answered."""
    import json
    import subprocess
    import sys

    found = "expected UTF-8 text, found byte 0xe9 at offset"
    for game, data, expected, message in (
            ("flood", b"2\n0 1\n1 0\n2\n0 1\n1 0\n0\n\xe9", ["2", "2", "? (input error)"], f"{found} 22 (line 8)"),
            ("flood", b"2\n0 1\n1 0\n0\n\xe9\n", ["2", "? (input error)"], f"{found} 12 (line 5)"),
            ("flood", b"2\n0 1\n1 0\n0 \xe9\n", ["2", "? (input error)"], f"{found} 12 (line 4)"),
            ("flood", b"\xe9", ["? (input error)"], f"{found} 0 (line 1)"),
            ("flood", b"\n \n\xe9\n", ["? (input error)"], f"{found} 3 (line 3)"),
            ("mayan", b"\xe9", ["? (input error)"], f"{found} 0 (line 1)"),
            ("sliding-tiles", b"1 2 3\n4 5 6\n7 8 0\n\n\xe9\n", ["0", "? (input error)"], f"{found} 19 (line 5)"),
            ("sliding-tiles", b"\xe9", ["? (input error)"], f"{found} 0 (line 1)")):
        path = tmp_path / "in.txt"
        path.write_bytes(data)
        proc = subprocess.run([sys.executable, "-m", "searchkit", "solve", game, str(path)], capture_output=True,
                              timeout=120)
        err = proc.stderr.decode()
        assert proc.returncode == 2, (data, proc)
        assert proc.stdout.decode().split("\n")[:-1] == expected, (data, proc.stdout, err)
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (data, err)
    path = tmp_path / "in.txt"
    path.write_bytes(b"2\n0 1\n1 0\n2\n0 1\n1 0\n0\n\xe9")
    proc = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "--format", "jsonl", str(path)],
                          capture_output=True, timeout=120)
    records = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [(r["case"], r["status"]) for r in records] == [(1, "solved"), (2, "solved"), (None, "input_error")]
    assert proc.returncode == 2 and proc.stderr.decode().count("error:") == 1, proc.stderr
