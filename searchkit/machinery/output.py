"""Exit statuses and one-line messages, without click (the plain solve path imports only this)."""

from __future__ import annotations

import os
import sys

EXIT_OK = 0
EXIT_LIMIT = 1  #: a case stopped at a limit or failed (or a check found a bug)
EXIT_INPUT = 2  #: bad input or usage
EXIT_CANCELLED = 130  #: Ctrl-C
EXIT_TERMINATED = 143  #: SIGTERM, as a shell reports a process it ended (128 + 15)

#: how the run was stopped, as its closing line says it: ``cancelled`` (Ctrl-C), or ``terminated (SIGTERM)``
#: once :func:`note_terminated` has run (the command line's SIGTERM handler, before it raises KeyboardInterrupt)
_STOP = ["cancelled"]


def note_terminated() -> None:
    """Record that the run is stopping on SIGTERM (:func:`stopped_by` says so from then on)."""
    _STOP[0] = "terminated (SIGTERM)"


def stopped_by() -> str:
    """``"cancelled"``, or ``"terminated (SIGTERM)"`` after :func:`note_terminated`."""
    return _STOP[0]


def cancelled_code() -> int:
    """The exit status of a run stopped by a signal: 130 (Ctrl-C), or 143 after :func:`note_terminated`."""
    return EXIT_CANCELLED if stopped_by() == "cancelled" else EXIT_TERMINATED


def echo(text: str = "", *, err: bool = False) -> None:
    """Write ``text`` and a newline to stdout (or stderr) and flush, as ``click.echo`` does."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{text}\n")
    stream.flush()


def error(message: str) -> None:
    """Print one ``searchkit: error: ...`` line on stderr."""
    echo(f"searchkit: error: {message}", err=True)


def warning(message: str) -> None:
    """Print one ``searchkit: warning: ...`` line on stderr."""
    echo(f"searchkit: warning: {message}", err=True)


def summary(counts: dict, seconds: float, *, skipped: int = 0, output: str | None = None,
            cancelled: bool = False, unsolved: dict | None = None) -> None:
    """Print the one summary line on stderr: cases by status, wall time, and how to resume.

    ``unsolved``: the statuses of the skipped cases recorded without an
    answer (``--resume --keep-stopped``), by count.  ``output``, the record
    file, is named only when it exists (a SIGTERM before the run made it
    named a file that was never created).
    """
    def by_count(table) -> str:
        return ", ".join(f"{n} {status}" for status, n in sorted(table.items(), key=lambda kv: (-kv[1], str(kv[0]))))

    done = sum(counts.values())
    parts = by_count(counts)
    text = f"searchkit: {done} case{'s' if done != 1 else ''} in {seconds:.1f} s"
    if parts:
        text += f" ({parts})"
    if skipped:
        text += f"; {skipped} already recorded, skipped"
        if unsolved:
            text += f" ({sum(unsolved.values())} of them unsolved: {by_count(unsolved)})"
    if output is not None and os.path.lexists(output):  # a run stopped before it made the file names none
        text += f"; records in {output}"
        if cancelled:
            text += "; run the same command with --resume to solve the rest"
    echo(text, err=True)


def input_refusal(output: str, inputs, *, stdin: int | None = None) -> str | None:
    """Why writing ``output`` would overwrite one of ``inputs`` (``None`` when it would not).

    The same file is the same resolved path, or the same device and inode (a
    hard or symbolic link).  ``-`` among ``inputs`` stands for standard input:
    with ``stdin`` (its file descriptor) the file it reads counts too.  Every
    command that writes a file the user names (``solve -O``, ``show -o``,
    ``compare --plot``) asks this before it opens it: a file the user did not
    hand over for writing is never truncated.
    """
    try:
        out_stat = os.stat(output)
    except OSError:
        out_stat = None
    resolved = os.path.realpath(output)
    for name in inputs:
        if name is None:
            continue
        name = os.fspath(name)
        if name == "-":
            if stdin is not None and out_stat is not None:
                try:
                    st = os.fstat(stdin)
                except OSError:
                    continue
                if (st.st_dev, st.st_ino) == (out_stat.st_dev, out_stat.st_ino):
                    return f"{output} is the file standard input reads: the output would overwrite the input"
            continue
        same = os.path.realpath(name) == resolved
        if not same and out_stat is not None:
            try:
                st = os.stat(name)
            except OSError:
                continue
            same = (st.st_dev, st.st_ino) == (out_stat.st_dev, out_stat.st_ino)
        if same:
            return f"{output} is the input {name}: the output would overwrite the input"
    return None
