"""Standard input, pipes and devices are read under a cap, into a spool nothing can leave behind (issue 32, item 7).

A stream is read whole before its first case (to check it is UTF-8 and so
that a game's passes can read it again), so a stream without an end
(``/dev/zero``, ``yes 1``) filled the temporary folder, outside every limit,
and on SIGTERM the named copy stayed behind (4.18 GB in a test).  Now it is
read into an anonymous temporary file, at most ``SEARCHKIT_STREAM_LIMIT``
bytes, and the games without ``parse_stream`` read it into memory under the
same cap.

And the reading is timed: a stream is read whole before its first case, so
that case's clock starts when the stream's reading starts, and a stream not
read whole within ``--time-limit`` (a stalled or endless writer) is refused in
one line, exit status 2, instead of waiting for ever outside every limit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

CAP = "SEARCHKIT_STREAM_LIMIT"


def _env(tmp_path, **extra) -> dict:
    env = dict(os.environ, TMPDIR=str(tmp_path), **extra)
    env.pop("SEARCHKIT_PLUGINS", None)
    return env


def _limit_memory() -> None:  # preexec_fn: a reader that held the whole stream would stop here, not eat the host
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.parametrize("game", ["flood", "sliding-tiles"])  # spooled (parse_stream) / read into memory
def test_an_endless_device_is_refused_past_the_cap(tmp_path, game):
    res = subprocess.run([sys.executable, "-m", "searchkit", "solve", game, "/dev/zero"], capture_output=True,
                         text=True, env=_env(tmp_path, **{CAP: "64K"}), timeout=120, preexec_fn=_limit_memory)
    assert res.returncode == 2, res.stderr
    assert res.stdout == "? (input error)\n"
    assert res.stderr.startswith("searchkit: error: /dev/zero: more than 65,536 bytes from a stream")
    assert res.stderr.endswith(f"raise {CAP}\n") and len(res.stderr.splitlines()) == 1
    assert os.listdir(tmp_path) == []


def test_standard_input_under_the_cap_is_solved_and_over_it_refused(tmp_path):
    board = "2\n1 2\n2 1\n0\n"
    ok = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood"], input=board, capture_output=True,
                        text=True, env=_env(tmp_path, **{CAP: str(len(board))}), timeout=120)
    assert (ok.returncode, ok.stdout) == (0, "2\n"), ok.stderr
    over = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood"], input=board, capture_output=True,
                          text=True, env=_env(tmp_path, **{CAP: str(len(board) - 1)}), timeout=120)
    assert over.returncode == 2 and f"more than {len(board) - 1} bytes from a stream" in over.stderr
    bad = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood"], input=board, capture_output=True,
                         text=True, env=_env(tmp_path, **{CAP: "lots"}), timeout=120)
    assert bad.returncode == 2 and f"{CAP} must be a size in bytes" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("trial", range(6))
def test_sigterm_while_standard_input_is_spooled_leaves_nothing_behind(tmp_path, signum, trial):
    """The run stops (and its spool is gone) on SIGTERM or Ctrl-C while it waits for a silent writer: a signal
    arriving just before a blocking read was not handled until the read returned, never here (one run in
    eight hung; hence the trials)."""
    from tests.conftest import sigint_default

    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path),
                            preexec_fn=sigint_default)
    try:
        proc.stdin.write(b"1\n" * 100_000)  # the spool holds this, and the process waits for more
        proc.stdin.flush()
        spool = None
        for _ in range(600):  # until the process holds its spool open (a file of the temporary folder)
            for fd in os.listdir(f"/proc/{proc.pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{proc.pid}/fd/{fd}")
                except OSError:
                    continue
                if target.startswith(str(tmp_path)):
                    spool = target
            if spool:
                break
            time.sleep(0.05)
        assert spool, "the process never opened its spool"
        proc.send_signal(signum)
        assert proc.wait(60) == {signal.SIGTERM: 143, signal.SIGINT: 130}[signum]
    finally:
        proc.kill()
        proc.wait()
    assert os.listdir(tmp_path) == [], spool


@pytest.mark.parametrize("game", ["flood", "sliding-tiles"])  # spooled (parse_stream) / read into memory
def test_a_stalled_stream_is_refused_at_the_first_cases_time_limit(tmp_path, game):
    # The writer sends half a case and then nothing, keeping the pipe open: without the deadline the reader
    # waits for ever (here: until communicate's timeout, and the test fails).
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", game, "--time-limit", "1", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path))
    try:
        proc.stdin.write("2\n")
        proc.stdin.flush()
        proc.wait(60)  # stdin stays open (communicate would close it); the one line fits a pipe's buffer
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 2, err
    assert out == "? (input error)\n"
    assert err.startswith("searchkit: error: <stdin>: not read whole within the first case's --time-limit "
                          "(2 bytes read)"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_a_stream_read_in_time_is_solved_under_the_limit(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "--time-limit", "60", "-"],
                        input="2\n1 2\n2 1\n0\n", capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "2\n", "")


def test_the_first_case_of_a_stream_is_timed_from_the_streams_first_byte():
    from searchkit.game import Case
    from searchkit.limits import Limits, setup_check
    from searchkit.machinery.reading import timed_items

    def parser():  # a parser that checks its case's clock while reading, as a game's does
        for index in (1, 2):
            try:
                setup_check()
            except Exception as stop:  # LimitReached
                yield Case.unread(index, "<stdin>", index, stop.status)
                continue
            yield Case(index, "x", "<stdin>", index)

    long_ago = time.perf_counter() - 10  # the stream began 10 s ago; the limit is 5 s
    items = list(timed_items(0, "<stdin>", parser(), Limits(time_limit=5), first_started=long_ago))
    assert items[0].started == long_ago and items[0].value.stopped == "time_limit"
    assert items[1].value.data == "x" and items[1].started > long_ago  # the next case has a clock of its own


def _holds_open(pid: int, path) -> bool:
    """Whether process ``pid`` has ``path`` open (it got past the open, into the wait for bytes)."""
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("game", ["flood", "sliding-tiles"])  # spooled (parse_stream) / read into memory
def test_a_fifo_no_process_opens_for_writing_is_refused_at_the_time_limit(tmp_path, game):
    """A FIFO with no writer blocked the open itself, before any clock: the run waited for ever whatever
    --time-limit said.  Now the open returns at once and the wait for a writer is the first case's."""
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    good = tmp_path / "good.txt"
    good.write_text("2\n1 2\n2 1\n0\n" if game == "flood" else "1 2 3\n4 5 6\n7 8 0\n")
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", game, "--time-limit", "1", str(fifo),
                             str(good)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path))
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert time.monotonic() - started < 30
    assert proc.returncode == 2, err
    assert out.startswith("==> ") and "? (input error)\n" in out and out.endswith("2\n" if game == "flood" else
                                                                                "0\n"), out
    assert err.startswith(f"searchkit: error: {fifo}: not read whole within the first case's --time-limit "
                          "(0 bytes read)"), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["good.txt", "in.fifo"]  # no spool left behind


def test_a_fifo_whose_writer_comes_later_is_read_and_one_that_writes_nothing_is_empty(tmp_path):
    """Opened without waiting, a FIFO is still read as ``cat`` reads it: not at its end before a writer came."""
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    for data, expected in ((b"2\n1 2\n2 1\n0\n", (0, "2\n", "")),
                           (b"", (2, "? (input error)\n", f"searchkit: error: {fifo}: empty input, expected at least "
                                                          "one case\n"))):
        proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood", "--time-limit", "60",
                                 str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=_env(tmp_path))
        try:
            for _ in range(600):
                if _holds_open(proc.pid, fifo):
                    break
                time.sleep(0.05)
            time.sleep(0.5)  # the reader waits on the FIFO, with no writer yet
            with open(fifo, "wb") as fh:
                fh.write(data)
            out, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
            proc.wait()
        assert (proc.returncode, out, err) == expected


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_fifo_with_no_writer_and_no_time_limit_waits_until_a_signal(tmp_path, signum):
    """Without --time-limit a FIFO no process writes to is waited on, as ``cat`` waits, but Ctrl-C and SIGTERM
    end the wait at once with their exit statuses."""
    from tests.conftest import sigint_default

    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood", str(fifo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
                            preexec_fn=sigint_default)
    try:
        for _ in range(600):
            if _holds_open(proc.pid, fifo):
                break
            time.sleep(0.05)
        assert _holds_open(proc.pid, fifo), "the process never got past opening the FIFO"
        time.sleep(0.5)
        assert proc.poll() is None  # still waiting for a writer
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == {signal.SIGTERM: 143, signal.SIGINT: 130}[signum], err
    assert "Traceback" not in err
