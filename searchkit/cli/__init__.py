"""The ``searchkit`` command line (click).

Commands: ``solve GAME``, ``show GAME``, ``compare GAME``, ``generate GAME``, ``check GAME``
(one sub-command per registered game, carrying the game's own options), and
the listings ``games``, ``heuristics``, ``rules``, ``algorithms``,
``plugins``.  Games are discovered only through the plugin registry.  Each
command lives in its own module and is imported only when it runs:
``root.py`` (the click group), ``solve.py``, ``show.py`` (pictures),
``tools.py`` (generate, compare, check), ``verify.py``, ``lists.py`` and
``new.py`` (new plugin); ``run.py`` (the solve loop), ``io.py`` (the one
reader), ``common.py`` (click helpers) and ``output.py`` (exit statuses and
messages) hold what they share.  A plain ``searchkit solve GAME FILE...``
(no option) runs through :func:`plain_solve` without importing click.
"""

from __future__ import annotations

import io
import os
import sys

from searchkit.machinery.output import EXIT_CANCELLED, EXIT_INPUT, EXIT_TERMINATED, echo, note_terminated, stopped_by


def plain_solve(argv: list[str]) -> int | None:
    """Run ``solve GAME FILE...`` (no option at all) without importing click; ``None`` for any other command line.

    Judges and benchmarks start one process per input, so this path is kept
    short: it reads, solves and prints exactly as the click command does with
    its defaults (the output is the same; a test compares them).
    """
    if len(argv) < 2 or argv[0] != "solve" or any(a.startswith("-") and a != "-" for a in argv[1:]):
        return None
    from searchkit.plugin.manager import load_registry

    registry = load_registry()
    if argv[1] not in registry.games:
        return None
    from searchkit.machinery.reporting import run_files
    from searchkit.errors import SearchkitError
    from searchkit.machinery.solver import Solver

    try:
        solver = Solver(registry, argv[1])
    except SearchkitError as exc:
        echo(f"searchkit: error: {exc}", err=True)
        return EXIT_INPUT
    end_of_start_up()
    files = tuple(argv[2:])
    if not files and sys.stdin is not None and sys.stdin.isatty():
        echo("searchkit: reading cases from standard input (end with Ctrl-D; see --help)", err=True)
    from searchkit.formats import solve_writer

    files = files or ("-",)
    return run_files(solver, files, solve_writer("text", solver, headers=len(files) > 1))


_collector_paused = False


def start_up() -> None:
    """Switch the cyclic garbage collector off while the command starts (:func:`end_of_start_up` turns it on).

    Imports, attrs' classes and the plugin registry allocate tens of thousands
    of long-lived objects and almost no garbage: the 27 collections they
    triggered took about 6% of a whole ``solve flood random-8x8-6c.txt``
    (measured with ``gc.callbacks``) and freed about 1,300 objects, mostly
    the classes attrs replaces by slotted ones.
    """
    import gc

    global _collector_paused
    if gc.isenabled():
        gc.disable()
        _collector_paused = True


def end_of_start_up() -> None:
    """Turn the collector back on if :func:`start_up` paused it, the start-up's objects frozen out of it (never
    scanned again: cheaper collections during a long Python search).  Reference counting frees as always
    meanwhile; without :func:`start_up` (a test calling :func:`plain_solve`) this does nothing."""
    import gc

    global _collector_paused
    if _collector_paused:
        _collector_paused = False
        gc.freeze()
        gc.enable()


def _click_main() -> int:
    import click

    from searchkit.cli.root import cli

    end_of_start_up()

    try:
        return cli.main(prog_name="searchkit", standalone_mode=False)
    except click.exceptions.Abort:
        raise KeyboardInterrupt from None
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        echo(f"searchkit: error: {capped_values(exc.format_message())}{hint}", err=True)
        return exc.exit_code
    except click.ClickException as exc:
        echo(f"searchkit: error: {capped_values(exc.format_message())}", err=True)
        return exc.exit_code


#: The most characters of a long number a usage message repeats.
MAX_QUOTED_NUMBER = 20


def capped_values(message: str) -> str:
    """``message`` with every quoted number longer than :data:`MAX_QUOTED_NUMBER` characters cut to its first
    ones, ``...`` and its length: click quoted a 5000-digit ``--width`` whole (one line of 5 KB)."""
    import re

    def cut(match) -> str:
        value = match.group(1)
        return f"'{value[:MAX_QUOTED_NUMBER]}...' ({len(value):,} characters)"

    return re.sub(r"'([-+]?[0-9][0-9_.eE+-]{%d,})'" % MAX_QUOTED_NUMBER, cut, message)


def __getattr__(name):
    if name == "cli":  # ``from searchkit.cli import cli`` (tests, CliRunner): the root click group
        from searchkit.cli.root import cli

        return cli
    raise AttributeError(f"module 'searchkit.cli' has no attribute {name!r}")


class _QuietRaw(io.RawIOBase):
    """File descriptor 2 as a raw stream whose failed writes are dropped (a full disk, a closed reader).

    Diagnostics are not the answers: a stderr that cannot be written must not
    stop the run nor change what reaches stdout.  The descriptor is not ours
    to close (``closefd`` false) nor to switch to non-blocking mode (it is
    shared with the shell that started us).
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data) -> int:
        try:
            return os.write(self._fd, data)
        except InterruptedError:
            raise
        except OSError:
            return len(data)  # dropped: ENOSPC (2>/dev/full), EPIPE (its reader went away), EIO


def guard_standard_streams() -> bool:
    """Make stdin, stdout and stderr safe before anything opens a file; ``False`` when stdout is closed.

    A descriptor 0, 1 or 2 closed at start-up (``2>&-``) would be the next
    one ``open`` returns: the ``-O`` record file, a picture or a worker's pipe
    would then receive the progress bar or the answers.  Each closed one is
    held by ``os.devnull`` instead (``os.dup2``, so it cannot take another's
    place).  Python sets ``sys.stderr`` to ``None`` in that case, and rich
    and click then write to stdout: stderr is always a stream here, one that
    drops what cannot be written (:class:`_QuietRaw`).
    """
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    old = sys.stderr
    encoding = getattr(old, "encoding", None) or "utf-8"
    sys.stderr = io.TextIOWrapper(io.BufferedWriter(_QuietRaw(2)), encoding=encoding, errors="backslashreplace",
                                  line_buffering=True, write_through=True)
    return 1 not in closed


def main() -> None:
    """Entry point of the ``searchkit`` script.

    Usage errors are one line on stderr with exit status 2; Ctrl-C anywhere
    exits 130 without a traceback; an output that cannot be written (a
    closed pipe, a full disk) ends the command with one line and status 1.
    Standard output closed at start-up is one line and status 2; a stderr
    that is closed or cannot be written changes nothing on stdout
    (:func:`guard_standard_streams`).
    """
    if not guard_standard_streams():
        echo("searchkit: error: standard output is closed: nowhere to write the answers "
             "(give it a file, or >/dev/null)", err=True)
        sys.exit(EXIT_INPUT)
    start_up()
    _stop_on_sigterm()
    try:
        code = plain_solve(sys.argv[1:])
        if code is None:
            code = _click_main()
    except KeyboardInterrupt:
        echo(f"searchkit: {stopped_by()}", err=True)
        code = EXIT_CANCELLED
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away: nothing more to say
        code = 1
    except OSError as exc:
        echo(f"searchkit: error: cannot write the output: {exc.strerror or exc}", err=True)
        code = 1
    if code == EXIT_CANCELLED and stopped_by() != "cancelled":
        code = EXIT_TERMINATED
    sys.exit(code if isinstance(code, int) else 0)


def _stop_on_sigterm() -> None:
    """SIGTERM stops a command as Ctrl-C does (``KeyboardInterrupt``): the case being solved comes back
    ``cancelled`` and keeps its line, the finished ones are all written, a file being written is left whole,
    and the closing line says ``terminated (SIGTERM)``; the exit status is 143 (128 + 15), as for a process
    the signal ended.  Without it the signal's default action ended the process at once and the case under way
    had no line (a tester's defect).  A batch run installs its own handler on top (:mod:`searchkit.cli.batch`).
    """
    import signal

    def terminated(signum, frame):
        note_terminated()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminated)
