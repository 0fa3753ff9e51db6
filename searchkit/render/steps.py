"""A solution as pictures: replay the moves with the game's own rules and ask its render hook for each state.

The game hook (see :class:`searchkit.game.Game`):

* ``render(case, puzzle, state, move) -> Frame``: the board of ``state``,
  reached by ``move`` (``None`` for the start);
* optional ``render_move(case, puzzle, state, move, child) -> list[Frame]``:
  the pictures between ``state`` and ``child`` (a swap, each fall, each
  elimination of a cascade), without ``child`` itself.

Replay uses the puzzle's ``successors`` with every pruning rule off, so each
picture is a state the rules really reach; a move that is not among the
successors is an error naming its number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from searchkit.errors import SearchkitError
from searchkit.render.grid import Frame, Step


class RenderError(SearchkitError):
    """A solution cannot be drawn: no render hook, an illegal move, moves that cannot be read."""


def move_text(game, case, move: Any) -> str:
    """How ``move`` is written for people: its JSON form (``moves_to_json``), lists joined by spaces."""
    from searchkit.game import moves_to_json

    value = moves_to_json(game, case, [move])[0]
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def has_render(game) -> bool:
    """Whether ``game`` implements the render hook."""
    return callable(getattr(game, "render", None))


def replay_steps(game, case, puzzle, moves: Sequence[Any], max_frames: int | None = None
                 ) -> tuple[list[Step], Any]:
    """The start and every move of ``moves`` as :class:`Step` pictures, and the final state.

    Args:
        game: the game (with a ``render`` hook).
        case: the case.
        puzzle: ``game.puzzle(case, options, every rule off)``.
        moves: the game's own move values (as a search returns them).
        max_frames: draw at most this many frames (``None``: all).  Every
            move is still replayed and checked; past the cap no frame is
            drawn, so ``len(steps) <= max_frames``.

    Raises:
        RenderError: no render hook, a move that is not legal in its
            state (``"move 3 (4) is not legal ..."``), or a move after the
            goal is reached (a solution ends at its goal).
    """
    render = getattr(game, "render", None)
    if not callable(render):
        raise RenderError(f"game {game.name!r} has no render hook (see 'render' in searchkit/game.py)")
    render_move = getattr(game, "render_move", None)
    state = puzzle.initial_state()
    steps = [Step(_frame(render(case, puzzle, state, None)), 0, None, True, "start")]
    room = (lambda: True) if max_frames is None else (lambda: len(steps) < max_frames)
    for i, move in enumerate(moves, 1):
        text = move_text(game, case, move)
        if puzzle.is_goal(state):
            raise RenderError(f"move {i} ({text}) comes after the goal, reached "
                              f"{'at the start' if i == 1 else f'after move {i - 1}'}; a solution ends there")
        for m, child, _cost in puzzle.successors(state):
            if m == move:
                break
        else:
            raise RenderError(f"move {i} ({text}) is not legal in the state after move {i - 1}")
        if callable(render_move) and room():
            for frame in render_move(case, puzzle, state, move, child):
                if not room():
                    break
                frame = _frame(frame)
                extra = f" ({frame.caption})" if frame.caption else ""
                steps.append(Step(frame, i, text, False, f"move {i}: {text}{extra}"))
        state = child
        if room():
            steps.append(Step(_frame(render(case, puzzle, state, move)), i, text, True, f"move {i}: {text}"))
    return steps, state


def solution_text(game, case, puzzle, moves: Sequence[Any], *, labels: bool = True,
                  colour: bool | None = None) -> str:
    """A solution drawn move by move as ``searchkit show`` draws it on a terminal, as a string.

    For a game's own output (e.g. an ``--show`` option printed with the
    answer): the same replay (:func:`replay_steps`) and the same boards.

    Args:
        game, case, puzzle, moves: as :func:`replay_steps` (``puzzle`` with
            every pruning rule off).
        labels: write each value in its cell.
        colour: ANSI colours (default: when standard output is a terminal).

    Raises:
        RenderError: as :func:`replay_steps`.
    """
    import io
    import sys

    from rich.console import Console

    from searchkit.render.terminal import render_terminal

    if colour is None:
        colour = sys.stdout is not None and sys.stdout.isatty()
    steps, _ = replay_steps(game, case, puzzle, moves)
    console = Console(file=io.StringIO(), force_terminal=colour, no_color=not colour, width=200)
    render_terminal(steps, console, labels=labels, trim=True, across=False)
    return console.file.getvalue().rstrip("\n")


def _frame(value) -> Frame:
    if not isinstance(value, Frame):
        raise RenderError(f"the render hook returned {type(value).__name__}, expected a searchkit.render.grid.Frame")
    return value


def moves_from_text(game, case, puzzle, words: Iterable[str]) -> list[Any]:
    """Read moves written as the game prints them (``6 3 4``, ``2 1 1 3 1 1``, ``U L D``) by replay.

    At each state the successors' texts (:func:`move_text`) are matched
    against the next words; a move written as several words (Mayan's ``x y
    g``) takes as many.  Commas and semicolons separate like spaces.

    Raises:
        RenderError: words that are no legal move of their state (the message
            names the move's number and lists the legal ones).
    """
    tokens = [t for w in words for t in w.replace(",", " ").replace(";", " ").split()]
    state = puzzle.initial_state()
    out = []
    pos = 0
    while pos < len(tokens):
        options = []
        for m, child, _cost in puzzle.successors(state):
            text = move_text(game, case, m).split()
            options.append(" ".join(text))
            if tokens[pos:pos + len(text)] == text:
                out.append(m)
                state = child
                pos += len(text)
                break
        else:
            legal = ", ".join(dict.fromkeys(options)) or "none"
            raise RenderError(f"move {len(out) + 1} ({' '.join(tokens[pos:pos + 3])}...) is not legal in its "
                              f"state (legal: {legal})")
    return out


def moves_from_json(game, case, puzzle, moves: Sequence[Any]) -> list[Any]:
    """Moves in the JSON form of a record (``moves_to_json``), read back by replay (see :func:`moves_from_text`).

    Raises:
        RenderError: as :func:`moves_from_text`.
    """
    words = []
    for value in moves:
        words.append(" ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value))
    return moves_from_text(game, case, puzzle, words)
