"""The optional ``solvable`` hook of a puzzle, read through :func:`searchkit.puzzle.solvable` (verify's one way
to it): absent means "cannot decide", and only ``True``, ``False`` or ``None`` is an answer."""

from __future__ import annotations

import pytest

from searchkit.puzzle import solvable


class Line:
    """A walk on 0..n-1 from 0 to n-1 (successors +1 and -1), with a ``solvable`` answering what it is told."""

    def __init__(self, n: int, answer=None) -> None:
        self.n, self.answer = n, answer

    def initial_state(self) -> int:
        return 0

    def is_goal(self, state) -> bool:
        return state == self.n - 1

    def successors(self, state):
        return [(step, state + step, 1) for step in (1, -1) if 0 <= state + step < self.n]

    def solvable(self, state):
        return self.answer


class Plain(Line):
    solvable = None  # no hook: the attribute the core looks up is not there to call


def test_an_absent_hook_cannot_decide():
    assert solvable(Plain(3), 0) is None


@pytest.mark.parametrize("answer", [True, False, None])
def test_the_hooks_answer_is_passed_on(answer):
    assert solvable(Line(3, answer), 0) is answer


@pytest.mark.parametrize("answer", [1, 0, "no", 0.0])
def test_an_answer_that_is_not_a_bool_or_none_is_refused(answer):
    """An exact claim is a bool: ``0`` must not pass for False (a silently wrong "proven unsolvable")."""
    with pytest.raises(TypeError, match=r"Line\.solvable returned .* it must return True, False or None"):
        solvable(Line(3, answer), 0)
