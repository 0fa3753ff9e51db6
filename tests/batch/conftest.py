"""Helpers for the batch tests: the real CLI in a subprocess, with the throwaway ``crashy`` game on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parent / "plugins"


def run_cli(*args, input=None, env=None, timeout=120) -> subprocess.CompletedProcess:
    """``python -m searchkit ARGS`` with ``tests/batch/plugins`` on PYTHONPATH (the crashy game)."""
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join([str(PLUGINS), environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    environ.pop("SEARCHKIT_PLUGINS", None)
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "searchkit", *map(str, args)], input=input, capture_output=True,
                          text=True, env=environ, timeout=timeout)


@pytest.fixture
def cli():
    return run_cli
