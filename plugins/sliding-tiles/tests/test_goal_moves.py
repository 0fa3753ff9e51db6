"""One board, one goal, one move alphabet: under ``--goal blank-first`` every move shown (text ``--moves``,
JSON and JSONL records, the API's ``Outcome.moves``, ``show``'s pictures) and every move read
(``--seed-solution``, ``verify``) is the blank's move on the board AS GIVEN, on both engines; and a seed
is accepted by the native engine as by the Python one.

Each output is replayed here by a few lines of its own (:func:`replay_as_given`), which know only the
board as written and Korf's goal ``0 1 .. N*N-1``, not the game's turned board.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import searchkit

ENGINES = ("python", "native")
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def _engine(engine):
    if engine == "native":
        from sliding_tiles.native import _module

        if _module() is None:
            pytest.skip("the native engine (sliding_tiles_native) is not installed")
    return engine


def replay_as_given(board, moves, goal="blank-first"):
    """``board`` (row-major, 0 the blank) after the blank moved as ``moves`` say; whether that is the goal."""
    cells = list(board)
    n = int(len(cells) ** 0.5)
    blank = cells.index(0)
    for move in moves:
        r, c = divmod(blank, n)
        dr, dc = STEP[move]
        assert 0 <= r + dr < n and 0 <= c + dc < n, f"move {move} leaves the board"
        to = (r + dr) * n + c + dc
        cells[blank], cells[to] = cells[to], 0
        blank = to
    want = list(range(n * n)) if goal == "blank-first" else list(range(1, n * n)) + [0]
    return cells == want


def scrambled(rng, n, walk, goal="blank-first"):
    """A board ``walk`` random blank moves from the goal (so solvable)."""
    cells = list(range(n * n)) if goal == "blank-first" else list(range(1, n * n)) + [0]
    blank = cells.index(0)
    for _ in range(walk):
        r, c = divmod(blank, n)
        options = [(r + dr) * n + c + dc for dr, dc in STEP.values() if 0 <= r + dr < n and 0 <= c + dc < n]
        to = rng.choice(options)
        cells[blank], cells[to] = cells[to], 0
        blank = to
    return tuple(cells)


def text_of(board):
    n = int(len(board) ** 0.5)
    return "\n".join(" ".join(map(str, board[r * n:(r + 1) * n])) for r in range(n)) + "\n"


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), walk=st.integers(0, 14), n=st.sampled_from([2, 3]))
def test_api_moves_replay_on_the_board_as_given(engine, seed, walk, n):
    board = scrambled(random.Random(seed), n, walk)
    outcome = searchkit.solve("sliding-tiles", text_of(board), goal="blank-first", engine=_engine(engine))
    assert outcome.status == "solved" and outcome.engine == engine
    assert len(outcome.moves) == outcome.cost
    assert replay_as_given(board, outcome.moves), (board, outcome.moves)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_output_and_input_agrees_on_the_board_as_given(engine, searchkit_cli_run, tmp_path):
    """A tester's defect: JSON/JSONL records and ``Outcome.moves`` had every direction reversed under
    ``--goal blank-first`` (they described the turned board the search runs on), and a seed written as
    ``--moves`` printed it was refused as illegal."""
    _engine(engine)
    rng = random.Random(32)
    boards = [scrambled(rng, 3, walk) for walk in (1, 3, 5, 9, 15, 21)] + [scrambled(rng, 4, 13)]  # odd: never the goal
    path = tmp_path / "korf.txt"
    path.write_text("\n".join(text_of(b) for b in boards))
    common = ["solve", "sliding-tiles", "--engine", engine, "--goal", "blank-first"]

    text = searchkit_cli_run(common + ["--moves", str(path)])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert len(lines) == len(boards)
    text_moves = [line.partition(":")[2].split() for line in lines]
    for board, moves, line in zip(boards, text_moves, lines):
        assert replay_as_given(board, moves) and int(line.partition(":")[0]) == len(moves), line

    for fmt in ("json", "jsonl"):
        out = searchkit_cli_run(common + ["--format", fmt, str(path)])
        assert out.exit_code == 0, out.output
        records = [json.loads(line) for line in out.output.splitlines() if line.startswith("{")]
        records = [r for r in records if r.get("event") is None]
        assert [r["moves"] for r in records] == text_moves, fmt
        assert all(r["engine"] == engine for r in records if r["cost"])

    api = list(searchkit.solve_all("sliding-tiles", str(path), goal="blank-first", engine=engine))
    assert [list(o.moves) for o in api] == text_moves

    # the records file: verify replays it on the board as given, and it seeds a run
    records = tmp_path / "r.jsonl"
    assert searchkit_cli_run(common + ["--output", str(records), str(path)]).exit_code == 0
    checked = searchkit_cli_run(["verify", "sliding-tiles", "--goal", "blank-first", str(path), str(records)])
    assert checked.exit_code == 0, checked.output
    for seed in (str(records), str(tmp_path / "answers.txt")):
        (tmp_path / "answers.txt").write_text(text.output)
        seeded = searchkit_cli_run(common + ["--moves", "--seed-solution", seed, str(path)])
        assert seeded.exit_code == 0, seeded.output
        assert seeded.output.splitlines() == lines, seed

    # one board's moves given on the command line, exactly as --moves printed them
    one = tmp_path / "one.txt"
    one.write_text(text_of(boards[3]))
    seeded = searchkit_cli_run(common + ["--moves", "--seed-solution", " ".join(text_moves[3]), str(one)])
    assert seeded.exit_code == 0, seeded.output
    assert seeded.output.splitlines() == [lines[3]]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_a_seed_runs_on_both_engines(engine, goal, searchkit_cli_run, tmp_path):
    """A tester's defect: every ``--seed-solution`` on the native engine ended ``error`` with "TypeError: 'str'
    object cannot be interpreted as an integer" (its U/D/L/R moves were handed over unconverted)."""
    _engine(engine)
    board = scrambled(random.Random(2), 3, 16, goal)
    path = tmp_path / "b.txt"
    path.write_text(text_of(board))
    common = ["solve", "sliding-tiles", "--engine", engine, "--goal", goal, "--moves"]
    best = searchkit_cli_run(common + [str(path)])
    cost, _, moves = best.output.strip().partition(": ")
    assert replay_as_given(board, moves.split(), goal)
    # a longer seed: the search improves on it; the optimal one: the search proves nothing is cheaper
    longer = moves.split() + (["U", "D"] if goal == "blank-last" else ["D", "U"])  # out and back at the goal
    for seed in (moves, " ".join(longer)):
        seeded = searchkit_cli_run(common + ["--format", "json", "--seed-solution", seed, str(path)])
        assert seeded.exit_code == 0, seeded.output
        records = [json.loads(line) for line in seeded.output.splitlines() if line.startswith("{")]
        (record,) = [r for r in records if r.get("event") is None]  # the improvement events aside
        assert record["status"] == "solved" and record["cost"] == int(cost), record
        assert record["engine"] == engine and replay_as_given(board, record["moves"], goal)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_line_moves_prints_for_a_solved_board_seeds_it(engine, searchkit_cli_run, tmp_path):
    """A tester's finding (issue 32): ``--moves`` prints ``0`` for a board already solved, and
    ``--seed-solution`` refused that line ("expected COST: MOVES as --moves prints them"); it is the empty
    solution."""
    _engine(engine)
    boards = tmp_path / "b.txt"
    boards.write_text("1 2 3\n4 5 6\n7 8 0\n")
    printed = searchkit_cli_run(["solve", "sliding-tiles", "--engine", engine, "--moves", str(boards)])
    assert printed.output.splitlines() == ["0"]
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(printed.output)
    seeded = searchkit_cli_run(["solve", "sliding-tiles", "--engine", engine, "--moves", "--seed-solution", str(seeds),
                                str(boards)])
    assert seeded.exit_code == 0, seeded.output
    assert seeded.output.splitlines() == ["0"]
