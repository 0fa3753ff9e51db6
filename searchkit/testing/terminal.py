"""Run the command line with its standard error on a real pseudo-terminal (POSIX), as a user's terminal would be.

For tests of what a terminal shows (progress bars, live figures, the closing
summary): ``rich`` draws those only when standard error is a terminal, so a
pipe would test nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


def run_on_terminal(args: Sequence[object], *, stdout: str | Path | None = None, columns: int = 200,
                    env: Mapping[str, str] | None = None, timeout: float = 120.0,
                    program: Sequence[str] | None = None) -> tuple[int, str]:
    """Run ``python -m searchkit ARGS`` with stderr on a new pseudo-terminal ``columns`` wide.

    Args:
        args: the command's arguments (each passed through ``str``).
        program: the command line before ``args`` (default: this Python with ``-m searchkit``).
        stdout: a file to write the command's standard output to (default: discarded).
        columns: the terminal's width (``COLUMNS``; ``TERM=xterm``).
        env: variables added to this process's environment for the command.
        timeout: seconds to wait for the command to exit once its terminal is closed.

    Returns:
        ``(exit status, everything the terminal received, decoded as UTF-8 with replacement)``.

    Raises:
        subprocess.TimeoutExpired: the command did not exit within ``timeout``.
        ModuleNotFoundError: not on a POSIX system (no ``pty``).
    """
    import pty

    environ = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm", **(env or {})}
    primary, secondary = pty.openpty()
    sink = open(stdout, "w") if stdout is not None else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    try:
        head = list(program) if program is not None else [sys.executable, "-m", "searchkit"]
        proc = subprocess.Popen([*head, *map(str, args)], stdin=subprocess.DEVNULL,
                                stdout=sink, stderr=secondary, env=environ)
        os.close(secondary)
        seen = bytearray()
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the command closed its end
                break
            if not chunk:
                break
            seen += chunk
        proc.wait(timeout=timeout)
    finally:
        os.close(primary)
        if stdout is not None:
            sink.close()
    return proc.returncode, seen.decode(errors="replace")
