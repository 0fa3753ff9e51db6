"""``searchkit new plugin NAME [-o DIR]``: the plugin it writes installs with pip into a fresh environment,
``searchkit plugins`` lists it, and it passes its own tests; names and folders it must refuse are refused in
one line with exit status 2, and nothing that was there is touched.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.python_engine("the written plugin's game has no native domain")


def run(args, **kwargs):
    if "input" not in kwargs:
        kwargs["stdin"] = subprocess.DEVNULL
    return subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)


def test_the_written_plugin_installs_is_listed_and_passes_its_tests(tmp_path):
    """The whole path of a plugin author, outside the repository: write it, pip-install it (built by its own
    build backend, into a fresh venv that sees this environment's packages through a .pth file, --no-deps:
    no download of searchkit or its dependencies), list it, run its tests from its folder, solve with it."""
    assert ROOT not in tmp_path.parents
    folder = tmp_path / "my-plugin"
    made = run([sys.executable, "-m", "searchkit", "new", "plugin", "short-stack", "-o", str(folder)])
    assert made.returncode == 0, made.stderr
    assert "wrote the plugin short-stack-puzzle" in made.stdout
    assert (folder / "short_stack_puzzle" / "plugin.py").is_file() and (folder / "README.md").is_file()
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", str(venv)]).returncode == 0
    python = venv / "bin" / "python"
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    # this environment's packages (searchkit, pytest, hypothesis...), as a site folder of the new one
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "_this_searchkit.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    # built with this environment's hatchling (the [test] extra's), so offline; without it pip fetches one
    offline = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    installed = run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", *offline,
                     str(folder)])
    assert installed.returncode == 0, installed.stderr[-3000:]
    listed = run([str(python), "-m", "searchkit", "plugins"])
    assert listed.returncode == 0, listed.stderr
    assert "short-stack 0.1.0 (entry point)" in listed.stdout and "heuristics: short-stack:gap" in listed.stdout
    # a plugin written without --native names no native module, so none is listed as "not installed"
    assert "not installed" not in listed.stdout, listed.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    tests = run([str(python), "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-rs"],
                cwd=folder, env=env)
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert " passed, 3 skipped in " in tests.stdout and "failed" not in tests.stdout, tests.stdout[-2000:]
    # native_checks is there, skipped saying why (the game has no native domain yet)
    assert "game 'short-stack' has no native module" in tests.stdout
    solved = run([str(python), "-m", "searchkit", "solve", "short-stack", "--moves", "-"], input="2 3 1\n")
    assert solved.returncode == 0 and solved.stdout == "2: 2 3\n", solved.stderr


@pytest.mark.parametrize("name", ["Pancake", "1stack", "pan cake", "pan.cake", "x_", "x-", "a--b", "a" * 41, "",
                                  "a\nb", "a" * 1000 + "\n"])
def test_a_bad_name_is_one_line_and_exit_status_2(searchkit_cli_run, tmp_path, name):
    out = searchkit_cli_run(["new", "plugin", name, "-o", str(tmp_path / "p")])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and out.output.startswith("searchkit: error: plugin name"), out.output
    assert not (tmp_path / "p").exists()


def test_a_missing_parent_folder_is_one_line(searchkit_cli_run, tmp_path):
    out = searchkit_cli_run(["new", "plugin", "pancake", "-o", str(tmp_path / "no" / "p")])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "does not exist" in out.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, game", [("mayan", "mayan"), ("sliding_tiles", "sliding-tiles")])
def test_the_name_of_an_installed_game_is_refused(searchkit_cli_run, tmp_path, name, game):
    # - and _ name the same distribution and package: sliding_tiles is the installed sliding-tiles
    out = searchkit_cli_run(["new", "plugin", name, "-o", str(tmp_path / "p")])
    assert out.exit_code == 2 and f"already registers the game {game!r}" in out.output
    assert not (tmp_path / "p").exists()


def test_a_folder_with_anything_in_it_is_refused_and_left_as_it_was(searchkit_cli_run, tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    out = searchkit_cli_run(["new", "plugin", "pancake", "-o", str(folder)])
    assert out.exit_code == 2 and out.output.count("\n") == 1
    assert "the folder is not empty" in out.output and "no option to overwrite" in out.output
    assert "-o DIR" in out.output
    assert [p.name for p in folder.iterdir()] == ["notes.txt"] and (folder / "notes.txt").read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["p"]  # no staging folder left behind


@pytest.mark.parametrize("what", ["file", "link to a folder", "link to nowhere"])
def test_a_file_or_link_at_the_folder_is_refused(searchkit_cli_run, tmp_path, what):
    target = tmp_path / "p"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if what == "file":
        target.write_text("mine\n")
    elif what == "link to a folder":
        target.symlink_to(elsewhere)
    else:
        target.symlink_to(tmp_path / "missing")
    out = searchkit_cli_run(["new", "plugin", "pancake", "-o", str(target)])
    assert out.exit_code == 2 and "is not a folder" in out.output
    assert list(elsewhere.iterdir()) == []
    assert target.is_symlink() or target.read_text() == "mine\n"


def test_an_empty_folder_is_filled_and_the_default_folder_is_named_after_the_distribution(searchkit_cli_run, tmp_path,
                                                                                            monkeypatch):
    folder = tmp_path / "p"
    folder.mkdir()
    out = searchkit_cli_run(["new", "plugin", "pancake", "-o", str(folder)])
    assert out.exit_code == 0, out.output
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == ["README.md", "pancake_puzzle/__init__.py", "pancake_puzzle/game.py",
                       "pancake_puzzle/generator.py", "pancake_puzzle/heuristics.py", "pancake_puzzle/plugin.py",
                       "pancake_puzzle/puzzle.py", "pyproject.toml", "tests/test_pancake_puzzle_contract.py",
                       "tests/test_pancake_puzzle_native.py", "tests/test_pancake_puzzle_rules.py"]
    assert all("{{" not in (folder / p).read_text() for p in written)
    assert 'pancake = "pancake_puzzle.plugin"' in (folder / "pyproject.toml").read_text()
    monkeypatch.chdir(tmp_path)
    assert searchkit_cli_run(["new", "plugin", "light_switch"]).exit_code == 0
    assert (tmp_path / "light-switch-puzzle" / "light_switch_puzzle" / "game.py").is_file()


def test_a_name_with_a_line_break_is_shown_once_quoted(searchkit_cli_run, tmp_path):
    out = searchkit_cli_run(["new", "plugin", "a\nb", "-o", str(tmp_path / "p")])
    assert out.output.startswith("searchkit: error: plugin name 'a\\nb': expected"), out.output
