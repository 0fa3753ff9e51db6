"""Deadlock rules: tests that a state is *dead*, no goal being reachable from it.

A Sokoban box pushed into a corner that is not a goal square can never move
again; a state holding it is dead whatever else happens.  Subclass
:class:`DeadlockRule`, prove its claim in the docstring, and use it in two
ways at once or either:

* as a pruning rule (:meth:`DeadlockRule.pruning_rule`): a driver cut, counted
  per rule in the statistics and switched off with ``--no-prune NAME``;
* inside a heuristic (:func:`with_deadlocks`): the estimate returns
  :data:`searchkit.DEAD` for a dead state, which every driver drops and the
  Solver counts (register that heuristic with ``dead_states=True``).

Soundness: if ``is_dead(s)`` implies that no goal is reachable from ``s``, no
solution passes through ``s``, so cutting it changes neither the optimal cost
nor which solution a first-solution driver returns (``sound_for="first"``),
under every algorithm; and ``h(s) = inf`` is then the true remaining cost, so
an admissible estimate stays admissible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from searchkit.heuristic import DEAD
from searchkit.pruning import Pruner, PruningRule


class DeadlockRule:
    """Base class of a deadlock test, built once per puzzle.

    Subclasses set :attr:`name` and :attr:`summary`, precompute in
    ``__init__(puzzle)`` (call ``super().__init__(puzzle)``) and implement
    :meth:`is_dead`.

    Attributes:
        name: the rule's name (``--no-prune NAME``), lowercase with ``-``.
        summary: one line: what is dead and why.
        puzzle: the puzzle the test was built for.
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle

    def is_dead(self, state: Any) -> bool:
        """Whether no goal can be reached from ``state`` (``True`` must be proven, ``False`` may be a guess)."""
        raise NotImplementedError(f"{type(self).__name__} must implement is_dead(state)")

    @classmethod
    def pruner(cls, puzzle: Any) -> Pruner:
        """A :class:`~searchkit.pruning.Pruner` cutting the dead states of ``puzzle`` before they are expanded."""
        test = cls(puzzle).is_dead

        def cut(state, _g, _remaining):
            return test(state)

        return Pruner(cut=cut)

    @classmethod
    def pruning_rule(cls, game: str, *, name: str | None = None, summary: str | None = None) -> PruningRule:
        """The :class:`~searchkit.pruning.PruningRule` to register for ``game`` (a driver cut under every
        algorithm that calls ``cut``).

        Raises:
            ValueError: neither the class nor the call names the rule.
        """
        name = name or cls.name
        if not name:
            raise ValueError(f"{cls.__name__} has no name: set the class attribute 'name' or pass name=")
        return PruningRule(game, name, summary or cls.summary or cls.__doc__ or name, factory=cls.pruner,
                           sound_for="first")


def with_deadlocks(estimate: Callable[[Any], Any], rules: Iterable[DeadlockRule]) -> Callable[[Any], Any]:
    """``estimate``, returning :data:`searchkit.DEAD` for a state any of ``rules`` calls dead.

    The tests run before the estimate, cheapest first if given so; a live
    state gets ``estimate(state)``.  Register the heuristic that uses it with
    ``Heuristic(..., dead_states=True)``, so the Solver counts the dead states.
    """
    tests = tuple(rule.is_dead for rule in rules)

    def guarded(state):
        for dead in tests:
            if dead(state):
                return DEAD
        return estimate(state)

    return guarded
