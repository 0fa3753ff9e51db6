"""Files written whole (`searchkit.machinery.atomic`): an interruption leaves the previous file and no temporary one."""

import os
import signal
import threading

import pytest

from searchkit.machinery import atomic

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX thread signals")


def _stop(signum, frame):
    raise KeyboardInterrupt  # as the command line's SIGTERM handler does


@pytest.mark.parametrize("text", [False, True])
def test_sigterm_as_the_descriptor_becomes_a_file_object_leaves_the_previous_file(tmp_path, monkeypatch, text):
    # CI once caught `show -o keep.png` stopped by SIGTERM just as its temporary file was opened: the handler ran
    # inside `os.fdopen` once the file object was made, the object was dropped (closing the descriptor), the
    # clean-up closed the descriptor again (EBADF, reported as "cannot write keep.png") and left the temporary
    # file.  Here the signal arrives at that very point, sent to this (the main) thread.
    keep = tmp_path / "keep.png"
    keep.write_bytes(b"previous")
    real = os.fdopen

    def fdopen(*args, **kwargs):
        # the file object only on the interpreter's stack when the handler runs, as inside `os.fdopen` (a local
        # would live on in the traceback and keep the descriptor open)
        return (real(*args, **kwargs), signal.pthread_kill(threading.main_thread().ident, signal.SIGTERM))[0]

    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        monkeypatch.setattr(atomic.os, "fdopen", fdopen)
        with pytest.raises(KeyboardInterrupt):
            with atomic.replacing(keep, text=text) as fh:
                fh.write("new" if text else b"new")
    finally:
        monkeypatch.undo()
        signal.signal(signal.SIGTERM, previous)
    assert keep.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.png"]


def test_a_failed_write_leaves_the_previous_file_and_no_temporary_one(tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("previous")
    with pytest.raises(RuntimeError):
        with atomic.replacing(keep, text=True) as fh:
            fh.write("half")
            raise RuntimeError("stopped")
    assert keep.read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_completed_write_replaces_the_file(tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("previous")
    atomic.write_file(keep, "new")
    assert keep.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_a_handler_pending_as_the_signals_are_held_back_leaves_the_mask_as_it_was(tmp_path, monkeypatch):
    # A handler already pending when `_held` blocks Ctrl-C and SIGTERM runs inside `signal.pthread_sigmask`, once
    # the mask is changed: CPython's `signal_pthread_sigmask_impl` calls `PyErr_CheckSignals()` after
    # `pthread_sigmask()`, and the handler's exception comes out of the call instead of the old mask.  The
    # stand-in does just that on the blocking call (a real signal cannot be made to land in that window).
    real = signal.pthread_sigmask

    def pending(how, mask):
        old = real(how, mask)
        if how == signal.SIG_BLOCK and signal.SIGTERM in set(mask):
            raise KeyboardInterrupt  # the pending handler, run as the call returns
        return old

    before = real(signal.SIG_BLOCK, ())
    try:
        monkeypatch.setattr(signal, "pthread_sigmask", pending)
        with pytest.raises(KeyboardInterrupt):
            atomic.write_file(tmp_path / "keep.txt", "new")
        monkeypatch.undo()
        assert real(signal.SIG_BLOCK, ()) == before  # Ctrl-C and SIGTERM not left blocked
    finally:
        monkeypatch.undo()
        real(signal.SIG_SETMASK, before)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
