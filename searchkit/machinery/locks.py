"""One process at a time on a file: an exclusive :func:`fcntl.flock` on a lock file ``.NAME.lock`` beside it.

Used by the record files a run writes (:func:`searchkit.machinery.records.lock_output`: a second run is
refused at once) and by the pattern database cache (:func:`searchkit.machinery.pdb.store.build_lock`: a
second builder waits, then finds the table built).

Why it is safe:

- the lock file is opened with ``O_NOFOLLOW``: a link planted at its name makes the open fail, and nothing
  is locked through it (:mod:`searchkit.machinery.atomic` does the same for the files written);
- the kernel lets go of a ``flock`` when its holder exits, however it exits, so a killed run leaves no stale
  lock to detect or clear;
- the holder removes the lock file while it still holds it (:meth:`Held.release`), so a folder keeps no lock
  files; a process that opened the old file before it went and then gets its lock holds the lock of a
  removed file, which counts for nothing: it compares the inode it holds with the one at the name, and
  opens the new file and tries again when they differ.

``flock`` rather than the ``filelock`` package: it is the same system call (filelock's Unix lock), and a
waiter must check its case's time limit between tries anyway.  Without :mod:`fcntl` (Windows), or where the
lock file cannot be opened (a read-only or missing folder), or its file system has no locks, nothing is
locked.
"""

from __future__ import annotations

import os
from collections.abc import Callable


class LockBusy(Exception):
    """Another process holds the lock (``path``: the lock file)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


class Held:
    """A lock held by this process: the open lock file ``fd`` at ``path``; :meth:`release` lets go."""

    def __init__(self, fd: int, path: str) -> None:
        self.fd: int | None = fd
        self.path = path

    def release(self) -> None:
        """Remove the lock file while still holding it, then close it (which lets go); a second call does
        nothing."""
        if self.fd is not None:
            try:
                os.unlink(self.path)  # while still held: one that opened it before finds it gone, and retries
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None

    def __del__(self) -> None:  # dropped unused (a plan never run): lets go too
        self.release()


def lock_path(path) -> str:
    """The lock file of ``path``: ``.NAME.lock`` in the same folder."""
    head, name = os.path.split(os.fspath(path))
    return os.path.join(head, f".{name}.lock")


def lock_beside(path, wait: Callable[[], None] | None = None) -> Held | None:
    """Lock ``path`` for this process through its lock file (:func:`lock_path`; module docs).

    Args:
        path: the file to guard (it need not exist).
        wait: called between tries while another process holds the lock (it may raise, to give up);
            ``None``: do not wait.

    Returns:
        The :class:`Held` lock, or ``None`` where nothing can be locked (no :mod:`fcntl`, the lock file
        cannot be opened).

    Raises:
        LockBusy: another process holds the lock and ``wait`` is ``None``.
    """
    try:
        import fcntl
    except ImportError:
        return None
    lock = lock_path(path)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(lock, flags, 0o600)
        except OSError:
            return None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if wait is None:
                        raise LockBusy(lock) from None
                    wait()
                except OSError:  # no locks on this file system (ENOLCK): nothing can be locked
                    os.close(fd)
                    return None
            try:  # the holder before us removed the file as it let go: a lock on a removed file counts for nothing
                now = os.stat(lock, follow_symlinks=False)
            except FileNotFoundError:
                now = None
            held = os.fstat(fd)
        except BaseException:
            os.close(fd)
            raise
        if now is not None and (now.st_ino, now.st_dev) == (held.st_ino, held.st_dev):
            return Held(fd, lock)
        os.close(fd)
