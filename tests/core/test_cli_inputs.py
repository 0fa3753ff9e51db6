"""Issue 9's command-line items: every case accounted for, clear refusals, plugins that misbehave."""

from __future__ import annotations

import json
import subprocess
import sys
import types

from searchkit.plugin.manager import load_registry
from searchkit.plugin.spec import hookimpl

from conftest import EXAMPLES

HDU = str(EXAMPLES / "flood" / "hdu4127-sample.txt")


def test_boolean_options_accept_only_true_or_false_words(searchkit_cli_run):  # item 6
    out = searchkit_cli_run(["generate", "mayan", "-o", "solvable=ture"])
    assert out.exit_code == 2 and "expects true or false, got 'ture'" in out.stderr
    assert searchkit_cli_run(["generate", "mayan", "-o", "solvable=no", "--seed", "3"]).exit_code == 0


def test_check_with_too_few_instances_explored_is_inconclusive(searchkit_cli_run):  # item 7
    out = searchkit_cli_run(["check", "flood", "-H", "colours", "--max-states", "1"])
    assert out.exit_code == 1 and "INCONCLUSIVE" in out.stdout and "OK" not in out.stdout


def test_compare_keeps_a_bad_case_as_a_row_and_refuses_bfs_with_heuristics(searchkit_cli_run):  # item 8
    text = "2\n1 2\n2 1\n2\n1 x\n2 2\n2\n1 1\n1 1\n0\n"
    out = searchkit_cli_run(["compare", "flood", "-", "-H", "colours", "--format", "json"], input=text)
    data = json.loads(out.stdout)
    assert [r["status"] for r in data["rows"]] == ["solved", "input_error", "solved"]
    assert data["totals"]["colours"]["cases"] == 3 and data["totals"]["colours"]["solved"] == 2
    assert out.exit_code == 2
    bfs = searchkit_cli_run(["compare", "flood", HDU, "-a", "bfs", "-H", "all"])
    assert bfs.exit_code == 2 and "uses no heuristic" in bfs.stderr
    limited = searchkit_cli_run(["compare", "flood", HDU, "-H", "colours", "--max-nodes", "0", "--format", "json"])
    totals = json.loads(limited.stdout)["totals"]["colours"]
    assert totals["cost"] is not None  # the 1x1-like first case needs no expansion
    nothing = searchkit_cli_run(["compare", "flood", "-", "-H", "colours", "--max-nodes", "0", "--format", "csv"],
                                input="2\n1 2\n2 1\n0\n")
    assert nothing.stdout.splitlines()[-1].split(",")[5] == "-"  # TOTAL cost of nothing solved is not 0


def test_json_output_has_a_record_for_every_case_and_failed_file(searchkit_cli_run, tmp_path):  # item 9
    missing = tmp_path / "missing.txt"
    bad = tmp_path / "bad.txt"
    bad.write_text("2\n1 2\n2 1\n3\n1 2\n")  # case 2 ends inside the board (fatal)
    out = searchkit_cli_run(["solve", "flood", "--format", "json", str(missing), str(bad), HDU])
    records = [json.loads(line) for line in out.stdout.splitlines()]
    keys = {frozenset(r) for r in records}
    assert len(keys) == 1, "every record has the same keys"
    assert [(r["source"].rsplit("/", 1)[-1], r["case"], r["status"]) for r in records] == [
        ("missing.txt", None, "input_error"), ("bad.txt", 1, "solved"), ("bad.txt", 2, "input_error"),
        ("hdu4127-sample.txt", 1, "solved"), ("hdu4127-sample.txt", 2, "solved")]
    text = searchkit_cli_run(["solve", "flood", str(bad)])
    assert text.stdout == "2\n? (input error)\n" and text.exit_code == 2
    mayan = searchkit_cli_run(["solve", "mayan", "--format", "json", "-"], input="9\n0\n0\n0\n0\n0\n")
    assert json.loads(mayan.stdout)["status"] == "input_error"


def _impostor():
    mod = types.ModuleType("aaa_impostor")

    @hookimpl
    def register_games(register):
        class Fake:
            name = "flood"
            summary = "an impostor"
            options = ()

            def parse(self, text, source, options):
                return iter(())

            def puzzle(self, case, options, disabled):
                raise AssertionError

            def plan(self, case, options):
                raise AssertionError

            def format_result(self, case, result, options):
                return ""

        register(Fake())

    mod.register_games = register_games
    return mod


def test_a_duplicate_game_is_rejected_with_its_plugins_rules():  # item 14
    messages = []
    real = load_registry(report=None)
    reg = load_registry(report=messages.append, extra=[("aaa_impostor", _impostor())])
    # extras load after entry points: the real flood keeps its name and the impostor is rejected
    assert reg.game("flood").summary == real.game("flood").summary
    info = {p.name: p for p in reg.plugins}["aaa_impostor"]
    assert info.error and "registered by both plugin 'flood' and plugin 'aaa_impostor'" in info.error
    assert any("aaa_impostor" in m for m in messages)


def test_compare_names_a_bad_cases_line_and_prints_errors_as_solve_does(searchkit_cli_run):
    text = "2\n1 2\n2 1\n2\n1 x\n2 2\n0\n7\n"
    solve = searchkit_cli_run(["solve", "flood", "-"], input=text)
    out = searchkit_cli_run(["compare", "flood", "-", "-H", "colours", "--format", "csv"], input=text)
    assert out.exit_code == 2
    assert "<stdin>:5: case 2: expected an integer colour value, got 'x'" in out.stderr
    assert "error: <stdin>:8: 1 token after the terminating 0 (line 7) is not read" in out.stderr
    assert sorted(out.stderr.splitlines()) == sorted(solve.stderr.splitlines())


def test_a_plugin_calling_sys_exit_at_import_is_reported(tmp_path, monkeypatch):  # item 15
    from searchkit.plugin import manager
    from searchkit.plugin.entry_points import EntryPoint

    (tmp_path / "exiting_plugin.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = manager._entry_points
    monkeypatch.setattr(manager, "_entry_points",
                        lambda only: real(only) + [EntryPoint("exiting", "exiting_plugin", "1")])
    messages = []
    reg = manager.load_registry(report=messages.append)
    assert "flood" in reg.games
    assert any("exiting" in m and "SystemExit" in m for m in messages)


def test_a_plugin_loading_first_cannot_take_a_games_heuristic_or_rule(tmp_path, monkeypatch):
    # Entry points load sorted by name, so 'aaa_hijack' loads before 'flood'; it used to keep
    # flood:layered and flood:dominance, and the default plan then solved with its estimate.
    from searchkit.plugin import manager
    from searchkit.plugin.entry_points import EntryPoint

    (tmp_path / "hijack_plugin.py").write_text(
        "from searchkit.plugin import Heuristic, PruningRule, hookimpl\n"
        "@hookimpl\n"
        "def register_heuristics(register):\n"
        "    register(Heuristic('flood', 'layered', 'hijack_plugin:triple', admissible=True, consistent=True))\n"
        "    register(Heuristic('flood', 'triple', 'hijack_plugin:triple', admissible=True, consistent=True))\n"
        "@hookimpl\n"
        "def register_pruning_rules(register):\n"
        "    register(PruningRule('flood', 'dominance', summary='impostor'))\n"
        "def triple(puzzle):\n"
        "    return lambda state: 3\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = manager._entry_points
    monkeypatch.setattr(manager, "_entry_points",
                        lambda only: [EntryPoint("aaa_hijack", "hijack_plugin", "1")] + real(only))
    messages = []
    reg = manager.load_registry(report=messages.append)
    assert reg.owner("heuristic", "flood", "layered") == "flood"
    assert reg.owner("rule", "flood", "dominance") == "flood"
    assert reg.owner("heuristic", "flood", "triple") == "aaa_hijack"  # a new name is still its own
    info = {p.name: p for p in reg.plugins}["aaa_hijack"]
    assert "registered by both plugin 'flood' and plugin 'aaa_hijack'; 'flood' keeps it" in info.error
    assert {p.name: p for p in reg.plugins}["flood"].error is None


def test_time_limit_nan_is_a_one_line_error():  # item 16
    for command in (["solve", "flood", HDU], ["compare", "flood", HDU, "-H", "colours"]):
        out = subprocess.run([sys.executable, "-m", "searchkit", *command, "--time-limit", "nan"],
                             capture_output=True, text=True)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "nan" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_unknown_game_lists_the_known_ones(searchkit_cli_run):  # item 21
    out = searchkit_cli_run(["solve", "floood", HDU])
    assert out.exit_code == 2 and "unknown game 'floood'" in out.stderr and "flood, mayan" in out.stderr


def test_no_arguments_prints_help_with_status_0():  # item 22
    run = subprocess.run([sys.executable, "-m", "searchkit"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("Usage: searchkit") and "error" not in run.stderr


def test_a_terminal_on_stdin_gets_a_hint(monkeypatch, capsys):  # item 23
    import io

    from searchkit.cli import plain_solve

    class Tty(io.StringIO):
        def isatty(self):
            return True

        @property
        def buffer(self):
            return io.BytesIO(b"2\n1 2\n2 1\n0\n")

    monkeypatch.setattr(sys, "stdin", Tty())
    assert plain_solve(["solve", "flood"]) == 0
    captured = capsys.readouterr()
    assert "reading cases from standard input" in captured.err and captured.out == "2\n"


def test_help_names_defaults_and_exit_statuses(searchkit_cli_run):  # item 24
    out = " ".join(searchkit_cli_run(["solve", "flood", "--help"]).stdout.split())
    assert "Exit status:" in out and "0 stops at once" in out
    assert "astar" in out and "puchert" in out  # what "the game's plan" stands for


def test_version_names_plugins_and_python(searchkit_cli_run):  # item 25
    out = searchkit_cli_run(["--version"]).stdout
    assert out.startswith("searchkit ") and "Python 3." in out and "plugin flood" in out and "plugin mayan" in out


def test_time_limit_counts_the_set_up(searchkit_registry):  # item 11
    from searchkit.game import Case
    from searchkit.limits import Limits
    from searchkit.machinery.solver import Solver

    solver = Solver(searchkit_registry, "flood", limits=Limits(time_limit=0))
    case = next(iter(solver.game.parse("3\n1 2 3\n2 3 1\n3 1 2\n0\n", "x", solver.options)))
    outcome = solver.solve(case)
    assert outcome.result.status == "time_limit" and outcome.result.stats.expanded == 0
    assert isinstance(case, Case)


def test_generate_streams_and_bounds_its_sizes(searchkit_cli_run):  # item 13
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "generate", "flood", "-n", "10000000", "--size",
                             "2"], stdout=subprocess.PIPE, text=True)
    try:
        first = [proc.stdout.readline() for _ in range(4)]  # would never come if all were made first
    finally:
        proc.kill()
        proc.wait()
    assert first[0] == "# searchkit flood judge\n" and first[1] == "2\n"
    huge = searchkit_cli_run(["generate", "flood", "--size", "100000"])
    assert huge.exit_code == 2 and "at most 4000000" in huge.stderr


def test_standard_input_named_twice_is_refused_the_second_time(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "-", "-"], input="2\n1 2\n2 1\n0\n")
    assert out.exit_code == 2
    assert "<stdin>: standard input is named more than once" in out.output
    assert "empty input" not in out.output and "\n2\n" in out.output  # the first '-' was solved
