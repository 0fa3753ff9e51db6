"""Standard input, pipes and devices are read under a cap, into a spool nothing can leave behind (issue 32, item 7).

A stream is read whole before its first case (to check it is UTF-8 and so
that a game's passes can read it again), so a stream without an end
(``/dev/zero``, ``yes 1``) filled the temporary folder, outside every limit,
and on SIGTERM the named copy stayed behind (4.18 GB in a test).  Now it is
read into an anonymous temporary file, at most ``SEARCHKIT_STREAM_LIMIT``
bytes, and the games without ``parse_stream`` read it into memory under the
same cap.
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


def test_sigterm_while_standard_input_is_spooled_leaves_nothing_behind(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "solve", "flood"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tmp_path))
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
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
    finally:
        proc.kill()
        proc.wait()
    assert os.listdir(tmp_path) == [], spool
