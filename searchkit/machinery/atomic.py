"""Writing files without following anyone's links: an exclusive temporary name, renamed into place.

Every file searchkit writes whole (pattern database tables, pictures) or
starts afresh (a record file) is first created under a fresh temporary name
in the target's own folder, with ``O_CREAT | O_EXCL`` (:func:`tempfile.mkstemp`:
a random name, and an existing entry of that name, a symbolic link
included, makes the open fail rather than be followed), then renamed onto
the target (:func:`os.replace`: a link at the target's name is replaced, not
followed).  So a link planted at a predictable name (``table.PID.tmp``, or
the target's own name) never makes searchkit write into the file it points
to, and an interrupted write (Ctrl-C, SIGTERM, a full disk) leaves the
previous file whole and no temporary file behind (the ``finally`` removes it;
``kill -9`` can leave a hidden ``.NAME.*.tmp`` file, never a truncated
target).

A target that exists and is not a regular file (``/dev/null``, a pipe, a
terminal, or a link to one) has nothing to lose: it is written in place.

:func:`folder_problem` says why a folder is unsafe to keep tables in (another
user could plant or swap files there).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


def _special(path: str) -> bool:
    """Whether ``path`` exists (through links) and is not a regular file: a device, a pipe, a socket."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``os.umask`` sets it to read it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def _held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back inside the block (in the main thread, where the system can), and delivered
    on leaving it (a handler's exception is raised there).

    For the steps that hand a resource to a name the clean-up knows (a temporary file made and named, its
    descriptor made a file object): the handlers run between two steps of Python code, and one run in
    between left the file behind.  The caller leaves the block inside the ``try`` that removes the file.

    A handler already pending when the signals are held back runs inside :func:`signal.pthread_sigmask`,
    after the mask is changed (CPython checks for signals before returning, ``Modules/signalmodule.c``), and
    its exception replaces the old mask that call would return.  So the old mask is read first, by a call
    that changes nothing, and set again if blocking raises: an interrupted write never leaves Ctrl-C
    blocked (in a notebook, for the rest of the kernel's life).
    """
    import signal
    import threading

    held = None
    if hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread():
        held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        except BaseException:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            raise
    try:
        yield
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _temporary(path: str) -> tuple[int, str]:
    """``(fd, name)`` of a new file ``.NAME.XXXXXXXX.tmp`` beside ``path``, created exclusively, with the
    permissions a new file would get (``0o666`` less the umask).

    Ctrl-C and SIGTERM are held back while it is created and raised once its name is known; on any failure
    the file is gone again.
    """
    folder, name = os.path.split(path)
    fd, tmp = -1, ""
    try:
        with _held():  # a Ctrl-C or SIGTERM held back is raised on leaving, with the file's name known
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
        os.fchmod(fd, 0o666 & ~_umask())
    except BaseException:
        _discard(fd, tmp)
        raise
    return fd, tmp


def _discard(fd: int, tmp: str) -> None:
    """Close ``fd`` (when open) and remove the temporary file ``tmp`` (when named)."""
    if fd >= 0:
        os.close(fd)
    if tmp:
        try:
            os.unlink(tmp)
        except OSError:
            pass


@contextmanager
def replacing(path, *, text: bool = False, encoding: str = "utf-8") -> Iterator[IO]:
    """A file object whose content becomes ``path`` when the block ends without an exception.

    The data goes to a new file of a random hidden name (``.NAME.XXXXXXXX.tmp``)
    in ``path``'s folder, created exclusively (never through a link), with the
    permissions a new file would get (``0o666`` less the umask); it is
    renamed onto ``path`` only when the block completes.  On any exception
    (``KeyboardInterrupt`` and ``SystemExit`` included) the temporary file
    is removed and ``path`` is left as it was.  A ``path`` that exists and is
    not a regular file (``/dev/null``, a pipe) is opened and written in place.

    Args:
        path: the target file (str or path-like).
        text: yield a text file (``encoding``) instead of a binary one.

    Raises:
        OSError: the folder cannot be written, the disk is full, the rename fails.
    """
    path = os.fspath(path)
    if _special(path):
        with open(path, "w" if text else "wb", encoding=encoding if text else None) as fh:
            yield fh
        return
    fd, tmp = _temporary(path)
    out: IO | None = None
    try:
        # the descriptor passes to the file object with Ctrl-C and SIGTERM held back: a handler run inside
        # `fdopen`, once the file object was made, dropped it (closing the descriptor) while `fd` still
        # named it, and the clean-up's second close failed (EBADF) before the temporary file was removed
        with _held():
            out = os.fdopen(fd, "w" if text else "wb", encoding=encoding if text else None)
            fd = -1
        yield out
        out.close()
        os.replace(tmp, path)
        tmp = ""
    finally:
        if out is not None and not out.closed:
            try:
                out.close()
            except OSError:
                pass  # what stopped the block is raised; the temporary file is removed below
        _discard(fd, tmp)


def write_file(path, data: bytes | str, *, encoding: str = "utf-8") -> None:
    """Write ``data`` to ``path`` whole, through :func:`replacing` (the previous file survives a failure).

    Raises:
        OSError: as :func:`replacing`.
    """
    with replacing(path, text=isinstance(data, str), encoding=encoding) as fh:
        fh.write(data)


def create_fresh(path) -> int:
    """A write-only descriptor of a new, empty file at ``path``, replacing what was there without following it.

    For a file written a piece at a time (a record file started afresh): an
    empty file is created exclusively under a temporary name and renamed
    onto ``path`` at once, then written through the returned descriptor.  A
    ``path`` that is not a regular file (``/dev/null``, a pipe) is opened
    for writing as it is.

    Raises:
        OSError: the folder cannot be written.
    """
    path = os.fspath(path)
    if _special(path):
        return os.open(path, os.O_WRONLY)
    fd, tmp = _temporary(path)
    try:
        os.replace(tmp, path)
    except BaseException:
        _discard(fd, tmp)
        raise
    return fd


def folder_problem(folder) -> str | None:
    """Why ``folder`` is not safe to keep files in that searchkit reads back and trusts, or ``None``.

    Unsafe: a folder another user may write (writable by all, or by a group
    other than ours) unless it is sticky and ours (then nobody can remove or
    rename our files in it), or a folder owned by another user than us or
    root (its owner may change it).  A missing folder is not a problem here.
    """
    try:
        st = os.stat(folder)
    except OSError:
        return None
    me = os.geteuid()
    if st.st_uid not in (me, 0):
        return f"it belongs to another user (uid {st.st_uid})"
    others = st.st_mode & stat.S_IWOTH or (st.st_mode & stat.S_IWGRP and st.st_gid != os.getegid())
    if others and not (st.st_mode & stat.S_ISVTX and st.st_uid == me):
        return "other users may write in it (and it is not sticky and ours)"
    return None


def owned_by_us(path) -> bool:
    """Whether ``path`` is a regular file (not a link) owned by us or by root."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid in (os.geteuid(), 0)
