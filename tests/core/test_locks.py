"""The lock beside a file (searchkit.machinery.locks), shared by record files and the table cache's builds."""

from __future__ import annotations

import os
import sys

import pytest

from searchkit.machinery.locks import LockBusy, lock_beside, lock_path

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")


def test_a_second_holder_is_refused_until_the_first_lets_go_and_no_lock_file_is_left(tmp_path):
    target = tmp_path / "r.jsonl"
    first = lock_beside(target)
    assert first is not None and first.path == lock_path(target) == str(tmp_path / ".r.jsonl.lock")
    with pytest.raises(LockBusy) as busy:
        lock_beside(target)  # another open file description: flock refuses it, in this process too
    assert busy.value.path == first.path
    first.release()
    first.release()  # a second release does nothing
    assert not os.path.exists(first.path)
    second = lock_beside(target)
    assert second is not None
    second.release()


def test_a_waiter_that_locks_a_removed_lock_file_opens_the_new_one(tmp_path):
    """The holder removes the lock file as it lets go; a waiter that opened the old file then holds the lock
    of a removed file, which guards nothing.  It must compare inodes and lock the file at the name."""
    target = tmp_path / "t.pdb"
    holder = lock_beside(target)
    calls = []

    def wait():
        calls.append(1)
        if len(calls) == 1:
            holder.release()  # the waiter's open file is now removed; its next flock succeeds on it
            rival = lock_beside(target)  # a third process makes and holds a new lock file at the name
            calls.append(rival)
        else:
            calls[1].release()

    held = lock_beside(target, wait)
    assert held is not None
    at_name = os.stat(held.path, follow_symlinks=False)
    mine = os.fstat(held.fd)
    assert (at_name.st_ino, at_name.st_dev) == (mine.st_ino, mine.st_dev)
    assert len(calls) >= 3  # it waited for the rival too, rather than holding the removed file's lock
    held.release()


def test_a_link_at_the_lock_name_is_not_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    target = tmp_path / "r.jsonl"
    os.symlink(victim, lock_path(target))
    assert lock_beside(target) is None  # nothing locked through a link
    assert victim.read_text() == "keep"
