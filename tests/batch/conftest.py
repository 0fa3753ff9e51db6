"""Helpers for the batch tests: the real CLI in a subprocess, with the throwaway ``crashy`` game on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parent / "plugins"


def run_cli(*args, input=None, env=None, timeout=120, address_space_mb=None) -> subprocess.CompletedProcess:
    """``python -m searchkit ARGS`` with ``tests/batch/plugins`` on PYTHONPATH (the crashy game).

    ``address_space_mb``: the process's (and its workers') address space is limited to that many MiB, as
    ``ulimit -v`` does, so an allocation beyond it raises MemoryError without ``--memory-limit``.
    """
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join([str(PLUGINS), environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    environ.pop("SEARCHKIT_PLUGINS", None)
    environ.update(env or {})

    def limit() -> None:
        import resource

        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        soft = address_space_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))

    return subprocess.run([sys.executable, "-m", "searchkit", *map(str, args)], input=input, capture_output=True,
                          text=True, env=environ, timeout=timeout,
                          preexec_fn=None if address_space_mb is None else limit)


@pytest.fixture
def cli():
    return run_cli
