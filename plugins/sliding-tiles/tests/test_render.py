"""The render hook: tile numbers in their cells, the blank empty, the tile that slid marked."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sliding_tiles.game import SlidingTilesGame
from sliding_tiles.puzzle import SlidingPuzzle

from searchkit.game import Case
from searchkit.render.steps import RenderError, moves_from_text, replay_steps
from searchkit.render.svg import render_svg


BOARD = (1, 2, 3, 5, 0, 6, 4, 7, 8)


def _steps(moves):
    game = SlidingTilesGame()
    case = Case(1, BOARD)
    puzzle = SlidingPuzzle(BOARD, frozenset({"no-undo"}))
    return game, case, puzzle, replay_steps(game, case, puzzle, moves)


def test_each_move_marks_the_tile_that_slid():
    _, _, _, (steps, final) = _steps(["L", "D", "R", "R"])
    assert final[:9] == (1, 2, 3, 4, 5, 6, 7, 8, 0)
    assert steps[0].frame.rows == ((1, 2, 3), (5, None, 6), (4, 7, 8)) and not steps[0].frame.marks
    assert steps[1].frame.rows == ((1, 2, 3), (None, 5, 6), (4, 7, 8))
    assert steps[1].frame.marks == {(1, 1)}  # the 5 slid right into the blank's cell
    assert steps[2].frame.marks == {(1, 0)}  # the 4 slid up
    assert [s.label for s in steps] == ["start", "move 1: L", "move 2: D", "move 3: R", "move 4: R"]
    assert all(s.frame.labels for s in steps)


def test_svg_has_nine_cells_per_frame_and_writes_the_numbers():
    _, _, _, (steps, _) = _steps(["L", "D", "R", "R"])
    root = ET.fromstring(render_svg(steps))
    ns = "{http://www.w3.org/2000/svg}"
    frames = [g for g in root.iter(ns + "g") if g.get("class") == "frame"]
    assert len(frames) == 5
    for g in frames:
        assert len([r for r in g.iter(ns + "rect") if r.get("class") == "cell"]) == 9
        assert sorted(t.text for t in g.iter(ns + "text") if t.get("class") == "cell-label") == list("12345678")


def test_moves_are_read_and_checked_by_replay():
    game, case, puzzle, _ = _steps([])
    assert moves_from_text(game, case, puzzle, ["L D", "R,R"]) == ["L", "D", "R", "R"]
    try:
        moves_from_text(game, case, puzzle, ["L L"])
    except RenderError as exc:
        assert "move 2 (L...) is not legal" in str(exc)
    else:
        raise AssertionError("a move off the board was accepted")


def test_a_blank_first_board_is_drawn_and_labelled_as_given():
    """``--goal blank-first``: ``show`` drew the turned board the search runs on, with its moves; it draws the
    board as written, each move the blank's on it (as ``--moves`` prints them and reads them back)."""
    game = SlidingTilesGame()
    (case,) = game.parse("1 0 2\n3 4 5\n6 7 8\n", "k.txt", {"goal": "blank-first"})
    puzzle = game.puzzle(case, {"goal": "blank-first"}, frozenset({"no-undo"}))
    moves = moves_from_text(game, case, puzzle, ["L"])
    steps, final = replay_steps(game, case, puzzle, moves)
    assert puzzle.is_goal(final)
    assert steps[0].frame.rows == ((1, None, 2), (3, 4, 5), (6, 7, 8))
    assert steps[1].frame.rows == ((None, 1, 2), (3, 4, 5), (6, 7, 8))
    assert steps[1].frame.marks == {(0, 1)}  # the 1 slid right into the blank's cell
    assert [s.label for s in steps] == ["start", "move 1: L"]
