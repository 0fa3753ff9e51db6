"""The command line's error contract, through the real entry point (a subprocess)."""

from __future__ import annotations

import pytest

import subprocess
import sys
import types

from searchkit.heuristic import Heuristic
from searchkit.plugin.manager import load_registry
from searchkit.plugin.spec import hookimpl

from conftest import EXAMPLES, ROOT, shared


def run(*args, input=None):
    proc = subprocess.run([sys.executable, "-m", "searchkit", *args], input=input, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_usage_errors_are_one_line_exit_2():
    for args in (["solve", "flood", "--width", "0", "-"], ["solve", "flood", "-H", "nosuch", "-"],
                 ["solve", "nosuch"], ["compare", "flood", "-"], ["solve", "flood", "--format", "xml", "-"]):
        code, out, err = run(*args, input="0\n")
        assert code == 2, args
        assert err.count("\n") == 1 and err.startswith("searchkit: error: "), (args, err)
        assert "Traceback" not in err


def test_a_command_without_its_game_is_one_line_naming_the_games():
    """Issue 19.17: 'searchkit solve' printed 'error: Usage: ...' and the whole help, exit 2."""
    for command in ("solve", "verify", "compare", "show", "generate", "check"):
        code, out, err = run(command)
        assert code == 2, command
        assert err.count("\n") == 1 and err.startswith("searchkit: error: name a game"), (command, err)
        assert "flood" in err and "mayan" in err and "Usage:" not in err


@pytest.mark.python_engine("the Mayan puzzle")
def test_algorithm_that_cannot_answer_the_question_is_refused():
    code, out, err = run("solve", "mayan", "-a", "astar", str(EXAMPLES / "mayan" / "noip2011-sample.in"))
    assert code == 2 and "cannot search in 'exact' mode" in err
    code, out, err = run("solve", "flood", "-a", "bounded_dfs", str(EXAMPLES / "flood" / "hdu4127-sample.txt"))
    assert code == 2 and "needs a depth bound" in err
    # --shortest asks for the smallest of the fewest-moves answers: A* cannot promise it (issue 9, item 4);
    # IDA* keeps the move order and answers as bounded_dfs does
    sample = str(EXAMPLES / "mayan" / "noip2011-sample.in")
    code, out, err = run("solve", "mayan", "--shortest", "-a", "astar", sample)
    assert code == 2 and "does not return the first solution in move order" in err and out == "? (error)\n"
    code, out, err = run("solve", "mayan", "--shortest", "-a", "ida_star", "-H", "column-steps", sample)
    assert code == 0 and out == run("solve", "mayan", "--shortest", sample)[1]


def test_bad_case_in_the_middle_keeps_one_line_per_case():
    code, out, err = run("solve", "flood", "-", input="2\n0 0\n0 1\n2\n0 x\n1 1\n3\n0 1 2\n1 1 2\n2 2 1\n0\n")
    assert code == 2
    assert out.splitlines() == ["1", "? (input error)", "3"]
    assert err == "searchkit: error: <stdin>:5: case 2: expected an integer colour value, got 'x'\n"


def test_compare_exits_1_when_a_case_hits_a_limit():
    path = shared("flood", "random-8x8-6c.txt")
    code, out, err = run("compare", "flood", str(path), "-H", "colours", "--max-nodes", "10", "--format", "csv")
    assert code == 1 and "node_limit" in out


def test_generate_mayan_default_is_one_solvable_case():
    code, out, err = run("generate", "mayan", "--seed", "4")
    assert code == 0
    code2, answer, _ = run("solve", "mayan", "-", input=out)
    assert code2 == 0 and answer.strip() != "-1"


def test_a_duplicate_heuristic_is_rejected_alone(capsys):
    mod = types.ModuleType("dup")

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("flood", "colours", lambda p: (lambda s: 0), summary="impostor"))

    mod.register_heuristics = register_heuristics
    reg = load_registry(extra=[("dup", mod)])
    err = capsys.readouterr().err
    assert "'flood'" in err and "'dup'" in err
    assert reg.owner("heuristic", "flood", "colours") == "flood"
    assert {h.name for h in reg.heuristics_for("flood")} >= {"colours", "layered", "puchert"}


def test_unknown_plugin_name_in_env_is_reported(monkeypatch, capsys):
    from searchkit.plugin import manager

    monkeypatch.setenv(manager.ENV_VAR, "flood,nosuch")
    reg = load_registry()
    assert "flood" in reg.games
    assert "'nosuch'" in capsys.readouterr().err


def test_a_core_only_install_says_how_to_get_a_game():
    """Issue 19.19: 'games' printed nothing with status 0; 'unknown game' gave no hint; verify offered --moves."""
    import os

    env = dict(os.environ, SEARCHKIT_PLUGINS="")  # only the core's own plugin: as a core-only install
    games = subprocess.run([sys.executable, "-m", "searchkit", "games"], capture_output=True, text=True, env=env)
    assert games.returncode == 1 and games.stdout == ""
    # issue 32, item 18: it said 'pip install searchkit-puzzles-flood', a name no package index has (whoever
    # publishes it later would be installed); it names the plugin folder, and says why not a name
    plugins = ROOT / "plugins"
    assert (f"no game is installed; install a game plugin from its folder, e.g. pip install {plugins / 'flood'} "
            f"(the games are in {plugins}: flood, mayan, sliding-tiles); they are not published on a package "
            f"index yet, so do not install them by name") in games.stderr
    assert "pip install searchkit-puzzles-flood" not in games.stderr
    solve = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "-"], input="0\n",
                           capture_output=True, text=True, env=env)
    assert solve.returncode == 2 and solve.stderr.count("\n") == 1
    assert "unknown game 'flood' (known: none); install a game plugin" in solve.stderr
    code, out, err = run("verify", "flood", "--help")
    assert code == 0 and "--moves" not in out and "--start" in out


@pytest.mark.parametrize("option", ["--width", "--jobs"])
def test_a_huge_bad_number_is_not_echoed_whole(option, tmp_path):
    """A tester's finding (issue 32): click echoed all 5000 digits of a bad ``--width`` (a 5 KB line)."""
    board = tmp_path / "one.txt"
    board.write_text("1\n5\n0\n")
    proc = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", option, "9" * 5000, str(board)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and len(proc.stderr) < 300, proc.stderr[:300]
    assert f"'{'9' * 20}...' (5,000 characters)" in proc.stderr


@pytest.mark.parametrize("command", ["solve", "compare"])
def test_output_dash_is_refused_as_it_reads_two_ways(tmp_path, command):
    """``-O -`` wrote a file named ``-``; a user may as well have meant stdout (where ``--format jsonl`` alone
    sends the records).  Refused, naming the option, and nothing is written; ``./-`` names the file."""
    board = tmp_path / "b.txt"
    board.write_text("1 2 3\n4 5 6\n0 7 8\n")
    proc = subprocess.run([sys.executable, "-m", "searchkit", command, "sliding-tiles", str(board), "-O", "-"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "'--output' / '-O': '-' could mean stdout" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.txt"]
    more = ["-H", "manhattan"] if command == "compare" else []
    named = subprocess.run([sys.executable, "-m", "searchkit", command, "sliding-tiles", str(board), "-O", "./-",
                            *more], capture_output=True, text=True, cwd=tmp_path)
    assert named.returncode == 0, named.stderr
    assert '"case":1' in (tmp_path / "-").read_text()
