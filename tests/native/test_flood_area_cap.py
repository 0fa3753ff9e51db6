"""The native Flood-It domain takes boards of at most NATIVE_MAX_AREAS areas (a fresh user's 2000x2000 board
grew the process to 16.7 GB before its first limit check: the domain holds areas x areas bits)."""

import random

import pytest

pytest.importorskip("searchkit_flood_native")

from searchkit_flood.board import Board  # noqa: E402
from searchkit_flood.native import NATIVE_MAX_AREAS, native_problem  # noqa: E402


def _board(side: int) -> Board:
    rng = random.Random(side)
    return Board.from_values(side, side, [rng.randint(1, 6) for _ in range(side * side)])


def test_a_board_of_too_many_areas_is_left_to_the_python_engine():
    import searchkit_flood_native as module

    from searchkit.errors import PlanError

    big, small = _board(100), _board(24)
    areas = module.flood_areas(100, 100, list(big.cells), 0)[0]
    assert areas > NATIVE_MAX_AREAS
    with pytest.raises(PlanError, match=f"the board has {areas} areas .* takes at most {NATIVE_MAX_AREAS}"):
        native_problem(big, ())
    assert native_problem(small, ()) is not None


def test_engine_native_says_why_a_board_is_not_taken(searchkit_cli_run, tmp_path):
    """Issue 32 (S3): ``--engine native`` on a board of more than NATIVE_MAX_AREAS areas said only "builds no
    native problem for this case"; it names the reason (the area count and the limit)."""
    board = _board(100)
    path = tmp_path / "big.txt"
    path.write_text("100\n" + "\n".join(" ".join(str(c + 1) for c in board.cells[r * 100:(r + 1) * 100])
                                        for r in range(100)) + "\n")
    result = searchkit_cli_run(["solve", "flood", "--engine", "native", "--time-limit", "5", str(path)])
    assert "builds no native problem for this case: the board has " in result.output, result.output
    assert f"native engine takes at most {NATIVE_MAX_AREAS}" in result.output, result.output


def test_auto_solves_such_a_board_on_python_within_its_time_limit(searchkit_cli_run, tmp_path):
    board = _board(100)
    path = tmp_path / "big.txt"
    path.write_text("100\n" + "\n".join(" ".join(str(c + 1) for c in board.cells[r * 100:(r + 1) * 100])
                                        for r in range(100)) + "\n")
    result = searchkit_cli_run(["solve", "flood", "--engine", "auto", "--time-limit", "0.5", "--format", "jsonl",
                                str(path)])
    import json

    record = json.loads(result.stdout)
    assert (record["status"], record["engine"]) == ("time_limit", "python"), record
