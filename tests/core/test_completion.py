"""Shell completion as docs/cli.md documents it: one line per shell, and names completed from the registry."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = [sys.executable, "-c", "import sys; from searchkit.cli import main; sys.argv[0] = 'searchkit'; main()"]


def _run(env: dict) -> str:
    return subprocess.run(SCRIPT, env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o nosort -F _searchkit_completion searchkit"),
                                           ("zsh", "#compdef searchkit"),
                                           ("fish", "complete --no-files --command searchkit")])
def test_each_shell_gets_its_script_and_the_docs_say_how(shell, marker):
    assert marker in _run({"_SEARCHKIT_COMPLETE": f"{shell}_source"})
    assert f"_SEARCHKIT_COMPLETE={shell}_source searchkit" in ROOT.joinpath("docs", "cli.md").read_text()


@pytest.mark.parametrize("words, cword, expected", [
    ("searchkit so", 1, {"solve"}),
    ("searchkit solve fl", 2, {"flood"}),
    ("searchkit solve flood --heuristic ", 4, {"colours", "layered", "puchert"}),
    ("searchkit show flood x --palette ", 5, {"okabe-ito", "tol", "kelly", "greys"}),
])
def test_bash_completes_commands_games_and_names(words, cword, expected):
    out = _run({"_SEARCHKIT_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)})
    got = {line.split(",", 1)[1] for line in out.splitlines() if "," in line}
    assert expected <= got, out
