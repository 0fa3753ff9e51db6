"""The engine choice (``--engine``, ``SEARCHKIT_ENGINE``, :mod:`searchkit.machinery.engine`) with the real Flood-It
native domain: what ``auto`` picks, the one-line plan errors of ``native``, the engine named in every
result, the replay that turns a bad native answer into an error, and the same answers on both engines.
"""

from __future__ import annotations

import json
import types

import pytest

from conftest import EXAMPLES

native = pytest.importorskip("searchkit_flood_native")

from searchkit.plugin.manager import load_registry  # noqa: E402
from searchkit.machinery.solver import Solver  # noqa: E402
from searchkit.testing.native import summary  # noqa: E402

NKOJ = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")  # two boards: 1 move, 3 moves
MAYAN = str(EXAMPLES / "mayan" / "noip2011-sample.in")
PC19 = EXAMPLES / "flood"
#: PC19's second board (14x14, 6 colours; 23 moves)
PC19_SECOND = ("14642322564541512653611213331343554234642546334532565625225362126265623612143115234212152544612651"
               "11331145426131342543161111561256314564465566551321526616635335534461614344546336223551453241656312\n")


def _python_only_heuristic():
    """A Flood-It heuristic written in Python only (no native counterpart)."""
    from searchkit.heuristic import Heuristic
    from searchkit.plugin.spec import hookimpl

    mod = types.ModuleType("python_only")

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("flood", "zero-py", lambda puzzle: (lambda state: 0), admissible=True, consistent=True,
                           summary="0 everywhere, in Python"))

    mod.register_heuristics = register_heuristics
    return mod


def _cases(registry, path):
    solver = Solver(registry, "flood", engine="python")
    return list(solver.game.parse(open(path).read(), path, solver.options))


def test_auto_runs_flood_natively_with_the_same_answers_and_counts(searchkit_registry):
    for case in _cases(searchkit_registry, NKOJ):
        for algorithm in ("astar", "ida_star", "peastar", "wastar"):
            py = Solver(searchkit_registry, "flood", algorithm=algorithm, engine="python").solve(case)
            nat = Solver(searchkit_registry, "flood", algorithm=algorithm, engine="auto").solve(case)
            assert (py.engine, nat.engine) == ("python", "native")
            # every field the engines share, as the test kit compares them (searchkit.testing.native)
            assert summary(py) == summary(nat), (algorithm, case.index)


def test_a_python_only_heuristic_runs_on_python_under_auto_and_is_a_plan_error_under_native(searchkit_cli_run):
    reg = load_registry(extra=[("python_only", _python_only_heuristic())])
    case = _cases(reg, NKOJ)[0]
    assert Solver(reg, "flood", algorithm="astar", heuristic="zero-py", engine="auto").solve(case).engine == "python"
    out = searchkit_cli_run(["solve", "flood", "--engine", "native", "-a", "astar", "-H", "zero-py", NKOJ],
                            registry_=reg)
    assert out.exit_code == 2 and "Traceback" not in out.output
    errors = [line for line in out.output.splitlines() if line.startswith("searchkit: error:")]
    assert len(errors) == 2 and all(
        line.endswith("engine native: heuristic 'zero-py' has no native twin in searchkit_flood_native") for line
        in errors), errors


def test_a_game_without_a_native_problem_is_a_plan_error_under_native(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "mayan", "--engine", "native", MAYAN])
    assert out.exit_code == 2 and "engine native: game 'mayan' has no native module" in out.output
    assert searchkit_cli_run(["solve", "mayan", "--engine", "auto", MAYAN]).exit_code == 0


def test_the_environment_variable_is_the_default_and_the_option_wins(searchkit_cli_run, monkeypatch):
    monkeypatch.setenv("SEARCHKIT_ENGINE", "python")
    out = searchkit_cli_run(["solve", "flood", "--format", "json", NKOJ])
    assert {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"python"}
    out = searchkit_cli_run(["solve", "flood", "--format", "json", "--engine", "native", NKOJ])
    assert {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"native"}
    monkeypatch.setenv("SEARCHKIT_ENGINE", "rust")
    out = searchkit_cli_run(["solve", "flood", NKOJ])
    assert out.exit_code == 2 and "SEARCHKIT_ENGINE='rust': expected one of auto, python, native" in out.output


def test_with_neither_option_nor_variable_the_engine_is_auto_and_picks_native(searchkit_cli_run, monkeypatch):
    # a user's default, which CI's passes (each with SEARCHKIT_ENGINE set) do not otherwise run
    monkeypatch.delenv("SEARCHKIT_ENGINE", raising=False)
    out = searchkit_cli_run(["solve", "flood", "--format", "json", NKOJ])
    assert {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"native"}
    out = searchkit_cli_run(["solve", "mayan", "--format", "json", MAYAN])  # a game with no native problem: Python
    assert out.exit_code == 0 and {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"python"}


def test_every_result_names_its_engine(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "--stats", "--engine", "native", NKOJ])
    assert "astar/puchert on native" in out.output or "ida_star/layered on native" in out.output
    out = searchkit_cli_run(["compare", "flood", "-H", "colours", "--format", "csv", "--engine", "native", NKOJ])
    rows = [line.split(",") for line in out.stdout.splitlines()]
    assert rows[0][-1] == "engine" and {r[-1] for r in rows[1:] if r[0] != "TOTAL"} == {"native"}


def test_without_the_package_auto_is_python_and_native_says_what_to_install(searchkit_cli_run, monkeypatch):
    from searchkit.machinery import engine

    monkeypatch.setitem(engine._modules, "searchkit_flood_native", None)
    out = searchkit_cli_run(["solve", "flood", "--format", "json", "--engine", "auto", NKOJ])
    assert {json.loads(line)["engine"] for line in out.stdout.splitlines()} == {"python"}
    out = searchkit_cli_run(["solve", "flood", "--engine", "native", NKOJ])
    assert out.exit_code == 2 and "its native module searchkit_flood_native is not installed (pip install " \
        "./plugins/flood/native)" in out.output, out.output
    assert "flood not installed (searchkit_flood_native)" in searchkit_cli_run(["--version"]).output


def test_version_and_plugins_name_the_native_engine(searchkit_cli_run):
    version = native.__version__
    assert f"native engine: flood {version} (searchkit_flood_native)" in searchkit_cli_run(["--version"]).output
    assert f"flood {version} (searchkit_flood_native)" in searchkit_cli_run(["plugins"]).output


def test_a_native_answer_that_does_not_replay_is_an_error_not_an_answer(searchkit_cli_run, monkeypatch,
                                                                        searchkit_registry):
    """Fault injection: the native problem's result gets a wrong last move; the replay must catch it."""
    game = searchkit_registry.game("flood")
    real = type(game).native_problem

    class Tampered:
        def __init__(self, problem):
            self.problem = problem

        def solve(self, request):
            result = self.problem.solve(request)
            if result["moves"]:
                result["moves"][-1] = (result["moves"][-1] + 1) % 2  # another colour: not a solution
            return result

    monkeypatch.setattr(type(game), "native_problem", lambda self, *a: Tampered(real(self, *a)))
    out = searchkit_cli_run(["solve", "flood", "--engine", "native", "--format", "json", NKOJ])
    assert out.exit_code == 1 and "Traceback" not in out.output  # the search failed: not bad input (2)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["status"] for r in records] == ["error", "error"] and all(r["moves"] == [] for r in records)
    assert "NativeEngineError: the native engine's solution" in out.output


def test_a_tiny_memory_limit_is_the_cases_memory_limit_not_a_missing_engine(searchkit_cli_run, tmp_path):
    """A tester's defect: under `--memory-limit 1` the native library was loaded inside the case's
    allowance, its mapping failed, and the case was an error saying the engine was not installed."""
    board = tmp_path / "one.txt"
    board.write_text(PC19_SECOND)
    out = searchkit_cli_run(["solve", "flood", "--engine", "native", "--memory-limit", "1", str(board)])
    assert out.stdout.splitlines() == ["? (memory_limit)"] and "not installed" not in out.output, out.output


#: ColorFill's b24c6n1000.txt, board 2 (24x24, 6 colours; 35 moves, which ColorFill's A* cannot prove in 4 GB)
B24C6_SECOND = (
    "641131311652464366316336563131625356136144652343221335254561612522121551662345336451352135214433"
    "254613622641313351333615255355264121564324151332514665446442461161156264451633255155313243611622"
    "166153116152554456624155522525236116424422224262522663545534263642651562636236661556543345512112"
    "346335521324125444121416544165226443633155444331346344116532654235465442444553461151142524361321"
    "236445362641411636233355224633525314425524261242456623245253511463514342531161212423653216235161"
    "123461244351453626214152562114152464462654143242354466362511221534331353313562441651455624533343"
)


def test_anytime_at_its_time_limit_keeps_its_bound_and_counts_on_both_engines(searchkit_registry):
    """A tester's defect: native ``anytime`` under a time limit lost its lower bound and statistics (the
    solution's replay, after the deadline, raised the case's time limit and the result was dropped for the
    seed's); the replay now has a grace (searchkit.machinery.solver.REPLAY_GRACE), and the bound and counts stand."""
    from searchkit.limits import Limits

    for engine in ("python", "native"):
        solver = Solver(searchkit_registry, "flood", algorithm="anytime", engine=engine, limits=Limits(time_limit=1.0))
        case = next(iter(solver.game.parse(B24C6_SECOND + "\n", "b24c6.txt", solver.options)))
        out = solver.solve(case)
        r = out.result
        assert out.engine == engine and r.status == "feasible" and r.cost >= 35, (engine, r)
        assert r.lower_bound is not None and 20 < r.lower_bound <= 35 and r.stats.expanded > 0, (engine, r)
