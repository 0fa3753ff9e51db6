"""Flood-It with the anytime and bounded-suboptimal drivers, upper bounds and seeds, against BFS optima.

Boards are small and random (BFS, every rule off, gives the optimum); every
claim a result makes is checked: ``solved`` is optimal, ``feasible`` costs at
least the optimum, ``lower_bound`` never exceeds it, ``wastar`` stays within
w times it.  No wall-clock assertions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import EXAMPLES

from searchkit.game import Case
from searchkit.limits import Limits
from searchkit.result import EXHAUSTED, FEASIBLE, SOLVED
from searchkit.seeds import Seeds
from searchkit.machinery.solver import Solver
from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board
from searchkit_flood.greedy import greedy, greedy_solution


def random_boards(n: int, seed: int = 7, sides=(3, 7), colours=(3, 5)):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        w, h, k = rng.randint(*sides), rng.randint(*sides), rng.randint(*colours)
        out.append(Board.from_values(w, h, [rng.randrange(k) for _ in range(w * h)]))
    return out


BOARDS = random_boards(40)


@pytest.fixture(scope="module")
def optima(searchkit_registry):
    bfs = Solver(searchkit_registry, "flood", algorithm="bfs")
    return [bfs.solve(Case.generated(b)).result.cost for b in BOARDS]


def run(registry, algorithm, board, heuristic="puchert", **kw):
    return Solver(registry, "flood", algorithm=algorithm, heuristic=heuristic, **kw).solve(Case.generated(board)).result


def replay_cost(board, moves):
    puzzle = FloodPuzzle(board)
    state = puzzle.initial_state()
    plain = FloodPuzzle(board, frozenset({"frontier-colours", "no-growth", "completion", "exposure"}))
    for m in moves:
        state = dict((mv, child) for mv, child, _ in plain.successors(state))[m]
    assert puzzle.is_goal(state)
    return len(moves)


@pytest.mark.parametrize("weight", [1.0, 1.5, 3.0])
def test_wastar_is_w_admissible_on_flood(searchkit_registry, optima, weight):
    for board, opt in zip(BOARDS, optima):
        for h in ("puchert", "layered"):
            r = run(searchkit_registry, f"wastar(weight={weight})", board, h)
            assert r.status in (SOLVED, FEASIBLE)
            assert opt <= r.cost <= weight * opt and replay_cost(board, r.moves) == r.cost
            assert r.lower_bound <= opt
            assert (r.status == SOLVED) == (r.lower_bound == r.cost)


def benchmark_strategies():
    """``STRATEGIES`` of ``benchmarks/flood_anytime.py`` (the ALG/H pairs whose PC19 figures the README reports)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "flood_anytime.py"
    spec = importlib.util.spec_from_file_location("flood_anytime", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.STRATEGIES


@pytest.mark.parametrize("strategy", benchmark_strategies())
def test_every_benchmarked_strategy_returns_replayable_solutions(searchkit_registry, optima, strategy):
    alg, _, h = strategy.partition("/")
    weight = float(alg.split("weight=")[1].rstrip(")")) if alg.startswith("wastar(weight=") else None
    for board, opt in zip(BOARDS, optima):
        r = run(searchkit_registry, alg, board, h)
        assert r.has_solution and replay_cost(board, r.moves) == r.cost >= opt, (strategy, board)
        if weight is not None and h == "puchert":  # w-admissible with an admissible h
            assert r.cost <= weight * opt


def test_anytime_unlimited_is_solved_at_the_optimum(searchkit_registry, optima):
    for board, opt in zip(BOARDS, optima):
        r = run(searchkit_registry, "anytime(weight=3, step=1)", board)
        assert r.status == SOLVED and r.cost == opt == r.lower_bound
        assert replay_cost(board, r.moves) == opt


@pytest.mark.parametrize("nodes", [0, 1, 3, 10])
def test_lower_bounds_never_exceed_the_optimum(searchkit_registry, optima, nodes):
    limits = Limits(max_nodes=nodes)
    for board, opt in zip(BOARDS, optima):
        for alg in ("anytime", "anytime(weight=1, step=0)", "anytime(weight=4, ara=1)", "wastar", "gbfs",
                    "beam(width=2)", "astar",
                    "ida_star"):
            r = run(searchkit_registry, alg, board, limits=limits)
            if r.lower_bound is not None:
                assert r.lower_bound <= opt, (alg, board, r)
            if r.has_solution:
                assert r.cost >= opt
            if r.status == SOLVED:
                assert r.cost == opt
        r = run(searchkit_registry, "anytime", board, limits=limits)
        assert r.has_solution  # the greedy seed: a solution even at node limit 0


def test_inadmissible_greedy_heuristic_proves_nothing(searchkit_registry, optima):
    for board, opt in zip(BOARDS, optima):
        for alg in ("gbfs", "wastar", "astar"):
            r = run(searchkit_registry, alg, board, "greedy")
            assert r.status == FEASIBLE and r.lower_bound is None and r.cost >= opt


@pytest.mark.parametrize("algorithm", ["astar", "peastar", "ida_star", "anytime", "wastar", "gbfs"])
def test_inadmissible_heuristic_under_an_upper_bound_proves_no_exhaustion(searchkit_registry, optima, algorithm):
    """With ``greedy`` (h >= h*) a bound above the optimum must never end ``exhausted``: nothing was proven."""
    for board, opt in zip(BOARDS, optima):
        r = run(searchkit_registry, algorithm, board, "greedy", upper_bound=opt + 1)
        assert r.status != EXHAUSTED, (algorithm, opt, r)
        assert r.lower_bound is None or r.lower_bound <= opt
        if r.has_solution:
            assert r.cost >= opt


@pytest.mark.parametrize("algorithm", ["astar", "ida_star", "anytime"])
def test_inadmissible_heuristic_under_an_upper_bound_on_pc19_is_not_exhausted(searchkit_cli_run, tmp_path, algorithm):
    """PC19 board 1 (optimum 19): greedy's estimate exceeds 19 at the start, so --upper-bound 20 proves nothing."""
    path = tmp_path / "one.txt"
    path.write_text((Path(__file__).parents[1] / "data" / "pc19-first50.txt").read_text().splitlines()[0] + "\n")
    out = searchkit_cli_run(["solve", "flood", "-a", algorithm, "-H", "greedy", "--upper-bound", "20", str(path)])
    assert out.output.splitlines()[-1] != "? (exhausted)", out.output


@pytest.mark.parametrize("width", [1, 4])
def test_the_greedy_seed_stops_at_the_case_time_limit(width):
    """The seed runs inside the case's limit (--upper-bound auto, anytime): seconds on a 150x150 board."""
    from searchkit.limits import LimitReached, Limiter, active
    from searchkit_flood.greedy import play_out

    puzzle = FloodPuzzle(BOARDS[0])
    limiter = Limiter(Limits(time_limit=0))  # already out of time
    with active(limiter), pytest.raises(LimitReached):
        greedy_solution(puzzle, width) if width > 1 else play_out(puzzle)


def test_puchert_reads_the_time_limit_inside_a_play_out_on_a_huge_board():
    """Over BYTE_TABLE_LIMIT areas one play-out can take a second (0.75 s on 400x400): it checks the limit."""
    from searchkit.limits import LimitReached, Limiter, active
    from searchkit_flood.heuristics import BYTE_TABLE_LIMIT, puchert

    side = 50  # a two-colour checkerboard: every cell is an area, 2500 of them
    puzzle = FloodPuzzle(Board.from_values(side, side, [(x + y) % 2 for y in range(side) for x in range(side)]))
    assert puzzle.graph.count > BYTE_TABLE_LIMIT
    estimate = puchert(puzzle)
    assert estimate(puzzle.initial_state()) == 2 * side - 2  # no limit running: the play-out completes
    limiter = Limiter(Limits(time_limit=0))  # already out of time
    with active(limiter), pytest.raises(LimitReached):
        puchert(puzzle)(puzzle.initial_state())

def test_greedy_play_out_is_a_valid_upper_bound(optima):
    for board, opt in zip(BOARDS, optima):
        puzzle = FloodPuzzle(board)
        moves = greedy_solution(puzzle)
        assert replay_cost(board, moves) >= opt
        assert greedy(puzzle)(puzzle.initial_state()) >= opt  # h >= h*: an upper bound, not admissible


@pytest.mark.parametrize("algorithm", ["astar", "peastar", "ida_star", "anytime", "wastar", "bfs"])
def test_upper_bound_below_or_at_the_optimum_is_exhausted(searchkit_registry, optima, algorithm):
    h = None if algorithm == "bfs" else "puchert"
    for board, opt in list(zip(BOARDS, optima))[:15]:
        for n in (opt - 1, opt):
            if n < 0:
                continue
            r = run(searchkit_registry, algorithm, board, h, upper_bound=n)
            assert r.status == EXHAUSTED and n <= r.lower_bound <= opt, (algorithm, n, opt, r)
        r = run(searchkit_registry, algorithm, board, h, upper_bound=opt + 1)
        assert r.has_solution and r.cost == opt


@pytest.mark.parametrize("algorithm", ["astar", "peastar", "ida_star", "anytime", "wastar(weight=2)", "gbfs", "bfs"])
def test_an_optimal_seed_is_returned_and_proven(searchkit_registry, optima, algorithm):
    h = None if algorithm == "bfs" else "puchert"
    for board, opt in list(zip(BOARDS, optima))[:15]:
        best = run(searchkit_registry, "bfs", board, None)
        seed = Seeds(every=tuple(board.palette[m] for m in best.moves))
        r = run(searchkit_registry, algorithm, board, h, seeds=seed)
        assert r.status == SOLVED and r.cost == opt == r.lower_bound and list(r.moves) == list(best.moves)


def test_upper_bound_auto_returns_the_greedy_solution_when_optimal(searchkit_registry, optima):
    for board, opt in zip(BOARDS, optima):
        r = run(searchkit_registry, "astar", board, upper_bound="auto")
        assert r.status == SOLVED and r.cost == opt == r.lower_bound


# --- the command line ------------------------------------------------------------------

def test_json_improvement_events_precede_the_final_record(searchkit_cli_run, tmp_path):
    boards = "\n".join("".join(str(random.Random(i).randrange(6)) for _ in range(14 * 14)) for i in range(2))
    path = tmp_path / "two.txt"
    path.write_text(boards + "\n")
    out = searchkit_cli_run(["solve", "flood", "-a", "anytime(weight=3)", "--format", "json", str(path)])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    finals = [r for r in records if "event" not in r]
    assert [r["case"] for r in finals] == [1, 2]
    for case in (1, 2):
        events = [r for r in records if r.get("event") == "improvement" and r["case"] == case]
        assert events and events[0]["origin"] == "upper-bound:greedy"
        final = next(r for r in finals if r["case"] == case)
        assert records.index(events[-1]) < records.index(final)
        assert final["status"] == "solved" and final["cost"] == final["lower_bound"] <= events[-1]["cost"]
        assert set(events[0]) >= {"event", "cost", "lower_bound", "seconds", "source", "case"}


def test_a_seed_the_upper_bound_rules_out_is_no_improvement_event(searchkit_cli_run):
    """PC19 board 1 (optimum 19): the greedy seed costs 20, so under --upper-bound 20 it is not reported."""
    path = str(Path(__file__).parents[1] / "data" / "pc19-first50.txt")
    out = searchkit_cli_run(["solve", "flood", "-a", "anytime", "--upper-bound", "20", "--format", "jsonl", path])
    records = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
    events = [r for r in records if r.get("event") == "improvement"]
    assert events and all(r["cost"] < 20 for r in events), events
    assert all(r["origin"] == "search" for r in events if r["case"] == 1)
    unbounded = searchkit_cli_run(["solve", "flood", "-a", "anytime", "--format", "jsonl", path])
    greedy = json.loads(unbounded.output.splitlines()[0])
    assert greedy["origin"] == "upper-bound:greedy" and greedy["case"] == 1 and greedy["cost"] >= 20

def test_feasible_text_output_says_so(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "flood", "-a", "wastar(weight=3)", "-H", "greedy",
                             str(EXAMPLES / "flood" / "hdu4127-sample.txt")])
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert lines[0] == "0"  # a one-colour board: cost 0 is optimal whatever the heuristic
    assert any("(feasible, no lower bound)" in line for line in lines[1:])


def test_seed_solution_from_records_and_errors(searchkit_cli_run, tmp_path):
    sample = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")
    first = searchkit_cli_run(["solve", "flood", "--format", "json", sample])
    records = tmp_path / "run.jsonl"
    records.write_text(first.output)
    again = searchkit_cli_run(["solve", "flood", "--format", "json", "-a", "astar", "--seed-solution", str(records),
                               sample])
    assert again.exit_code == 0, again.output
    assert [json.loads(x)["cost"] for x in again.output.splitlines() if '"event"' not in x] == \
        [json.loads(x)["cost"] for x in first.output.splitlines()]
    text = tmp_path / "moves.txt"
    text.write_text(searchkit_cli_run(["solve", "flood", "--moves", sample]).output)
    assert searchkit_cli_run(["solve", "flood", "--seed-solution", str(text), sample]).output == \
        searchkit_cli_run(["solve", "flood", sample]).output
    bad = searchkit_cli_run(["solve", "flood", "--seed-solution", "9 9 9", sample])
    assert bad.exit_code == 2 and "seed solution" in bad.output


def test_a_records_seed_for_another_board_is_named_as_such(searchkit_cli_run, tmp_path):
    # a tester's: another file's records gave "the moves do not reach a goal", as if the solution were wrong
    (tmp_path / "a.txt").write_text("1221\n1234\n")
    (tmp_path / "b.txt").write_text("1234\n1221\n")
    records = tmp_path / "a.jsonl"
    records.write_text(searchkit_cli_run(["solve", "flood", "--format", "jsonl", str(tmp_path / "a.txt")]).stdout)
    out = searchkit_cli_run(["solve", "flood", "--seed-solution", str(records), str(tmp_path / "b.txt")])
    assert out.exit_code == 2 and out.stdout == "? (error)\n? (error)\n"
    assert "case 1: seed solution: the record of case 1 is of another board (its data_hash differs)" in out.stderr
    same = searchkit_cli_run(["solve", "flood", "--seed-solution", str(records), str(tmp_path / "a.txt")])
    assert same.exit_code == 0 and same.stdout == "2\n3\n"


def test_seed_solution_files_without_seeds_are_refused(searchkit_cli_run, tmp_path):
    """An empty file, answers printed without --moves, bare moves or a directory: one line naming the option."""
    sample = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")
    empty, plain, bare = tmp_path / "empty.txt", tmp_path / "plain.txt", tmp_path / "bare.txt"
    empty.write_text("")
    plain.write_text(searchkit_cli_run(["solve", "flood", sample]).output)  # "1" and "3": no moves
    bare.write_text("1 2 1\n")
    for spec in (empty, plain, bare, tmp_path):
        out = searchkit_cli_run(["solve", "flood", "--seed-solution", str(spec), sample])
        assert out.exit_code == 2, (spec, out.output)
        assert "--seed-solution" in out.output and str(spec) in out.output and "Traceback" not in out.output


def test_a_bad_seed_names_its_file_and_case_once(searchkit_cli_run):
    sample = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")
    out = searchkit_cli_run(["solve", "flood", "--seed-solution", "9 9 9", sample])
    errors = [line for line in out.output.splitlines() if line.startswith("searchkit: error:")]
    assert errors and all(line.count(f"{sample}: case") == 1 for line in errors), errors


def test_upper_bound_option_values(searchkit_cli_run):
    sample = str(EXAMPLES / "flood" / "nkoj2440-sample.txt")  # optima 1 and 3
    out = searchkit_cli_run(["solve", "flood", "--upper-bound", "3", "--format", "json", sample])
    assert [json.loads(x)["status"] for x in out.output.splitlines()] == ["solved", "exhausted"]
    assert out.exit_code == 0
    assert searchkit_cli_run(["solve", "flood", "--upper-bound", "-1", sample]).exit_code == 2
    assert searchkit_cli_run(["solve", "flood", "--upper-bound", "many", sample]).exit_code == 2
    for digits in ("\u0663", "\uff13", "0_3", "3.0"):  # int() would read each as 3: refused, not guessed
        refused = searchkit_cli_run(["solve", "flood", "--upper-bound", digits, sample])
        assert refused.exit_code == 2 and "--upper-bound" in refused.output and "Traceback" not in refused.output
    assert searchkit_cli_run(["solve", "flood", "-a", "wastar(width=3)", sample]).exit_code == 2


def test_check_reports_the_inadmissible_heuristic_without_failing(searchkit_cli_run):
    out = searchkit_cli_run(["check", "flood", "-H", "greedy", "--samples", "20"])
    assert out.exit_code == 0, out.output
    assert "note: not admissible (does not claim it)" in out.output


def test_mayan_refuses_the_new_drivers_in_one_line(searchkit_cli_run):
    sample = str(EXAMPLES / "mayan" / "noip2011-sample.in")
    for alg in ("anytime", "wastar", "gbfs", "beam"):
        out = searchkit_cli_run(["solve", "mayan", "-a", alg, sample])
        assert out.exit_code == 2
        message = [line for line in out.output.splitlines() if line.startswith("searchkit: error")]
        assert len(message) == 1 and "not a cost to optimise" in message[0], out.output
        out = searchkit_cli_run(["solve", "mayan", "--shortest", "-a", alg, sample])
        assert out.exit_code == 2 and "first solution in move order" in out.output
    out = searchkit_cli_run(["solve", "mayan", "--upper-bound", "2", sample])
    assert out.exit_code == 2 and "not a cost to optimise" in out.output


def test_algorithm_listing_and_help_show_the_options(searchkit_cli_run):
    out = searchkit_cli_run(["algorithms"])
    assert "wastar(weight=2.0)" in out.output and "anytime(weight=2.0, step=0.5, ara=0)" in out.output
    assert "beam(width=64)" in out.output
    assert "wastar(weight=2.0)" in searchkit_cli_run(["solve", "flood", "--help"]).output


def test_compare_quality_columns(searchkit_cli_run, tmp_path):
    rng = random.Random(3)
    path = tmp_path / "boards.txt"
    path.write_text("\n".join("".join(str(rng.randrange(5)) for _ in range(64)) for _ in range(6)) + "\n")
    out = searchkit_cli_run(["compare", "flood", str(path), "-H", "puchert", "-a", "astar", "-a", "wastar(weight=3)",
                             "-a", "gbfs", "--format", "json"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    totals = report["totals"]
    exact, weighted = totals["astar/puchert"], totals["wastar(weight=3)/puchert"]
    assert exact["gap_to_best"] == 0 and exact["proven_gap"] == 0 and exact["solved"] == 6
    assert weighted["cost"] >= exact["cost"]
    assert weighted["proven_gap"] == weighted["cost"] - exact["cost"] == weighted["gap_to_best"]
    text = searchkit_cli_run(["compare", "flood", str(path), "-H", "puchert", "-a", "astar", "-a", "gbfs"])
    assert "quality / time" in text.output and "proven gap" in text.output


# --- partial-expansion A* (issue 13's memory) ------------------------------------------------

def test_peastar_is_optimal_with_every_rule_and_stores_no_more_than_astar(searchkit_registry, optima):
    for board, opt in zip(BOARDS, optima):
        for h in ("puchert", "layered"):
            r = run(searchkit_registry, "peastar", board, h)
            assert r.status == SOLVED and r.cost == opt == r.lower_bound, (h, opt, r)
            assert replay_cost(board, r.moves) == opt


def test_peastar_holds_fewer_states_than_astar_on_a_larger_board(searchkit_registry):
    rng = random.Random(7)
    board = Board.from_values(12, 12, [rng.randrange(6) for _ in range(144)])
    a = run(searchkit_registry, "astar", board)
    p = run(searchkit_registry, "peastar", board)
    assert a.cost == p.cost and p.lower_bound == p.cost
    assert p.stats.peak_stored < a.stats.peak_stored, (p.stats.peak_stored, a.stats.peak_stored)


def test_a_bounded_greedy_search_stops_at_its_first_solution(searchkit_cli_run):
    """Issue 19.23: gbfs and wastar with an inadmissible h became exhaustive under --upper-bound (20 s a board).

    They now run as without the bound, stop at their first solution and keep it when it is under the bound
    (else the game's quick solution): the same states expanded as the unbounded run.
    """
    from conftest import ROOT

    pc = str(ROOT / "tests" / "batch" / "data" / "pc19-first12.txt")
    for algorithm in ("gbfs", "wastar(weight=2)"):
        free = searchkit_cli_run(["solve", "flood", "-a", algorithm, "-H", "two-best", "--format", "json", pc])
        bounded = searchkit_cli_run(["solve", "flood", "-a", algorithm, "-H", "two-best", "--upper-bound", "auto",
                                     "--max-nodes", "200000", "--format", "json", pc])
        assert bounded.exit_code == 0, bounded.output
        free_records = [json.loads(line) for line in free.output.splitlines()]
        records = [json.loads(line) for line in bounded.output.splitlines() if '"event"' not in line]
        assert len(records) == 12
        for got, alone in zip(records, free_records):
            assert got["status"] == "feasible" and got["cost"] <= alone["cost"]
            assert got["stats"]["expanded"] == alone["stats"]["expanded"]  # not one state more
    tight = searchkit_cli_run(["solve", "flood", "-a", "gbfs", "-H", "two-best", "--upper-bound", "5", pc])
    assert tight.output.splitlines()[0] == "? (incomplete)"  # its first solution is not under 5: no answer
    helptext = " ".join(searchkit_cli_run(["solve", "flood", "--help"]).output.split())
    assert "stop at their first solution" in helptext and "to keep improving, use -a anytime" in helptext
