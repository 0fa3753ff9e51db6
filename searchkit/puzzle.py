"""The interface a puzzle instance offers to the search drivers.

A *state* is any hashable, immutable value (a plain ``int`` bitboard, a tuple,
an attrs frozen class).  A *move* is any value the game can print.  A
*successor* is the tuple ``(move, child_state, step_cost)`` with an ``int``
cost >= 0.

Drivers only ever call the methods below, resolved to plain callables once
before the search starts.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, Protocol, TypeAlias, runtime_checkable

State: TypeAlias = Hashable
Move: TypeAlias = Any
Successor: TypeAlias = tuple[Any, Any, int]


@runtime_checkable
class Puzzle(Protocol):
    """One puzzle instance, ready to search.

    Required:
        initial_state() -> State
        is_goal(state) -> bool
        successors(state) -> Iterable[Successor], in the game's move order
            (the order matters to drivers that return the first solution).

    Optional (looked up with ``getattr``; the one table of them, for games,
    puzzles and generators, is :data:`searchkit.hooks.OPTIONAL_HOOKS`):
        successors_within(state, remaining) -> Iterable[Successor]: like
            ``successors`` but may omit a successor that provably cannot reach
            a goal within ``remaining - step_cost`` further cost (a lower bound
            fused into move generation, e.g. checked before a child is fully
            built).  The depth-first drivers use it when present.  (Its old
            name ``bounded_successors`` is refused with a ``TypeError`` saying so.)
        solvable(state) -> bool | None: whether some goal is reachable from
            ``state`` through ``successors`` (every pruning rule off), in any
            number of moves.  ``True`` or ``False`` only when the puzzle
            decides it exactly and cheaply (a parity, an invariant: its
            docstring carries the proof); ``None`` when it cannot.  ``verify``
            asks it of every record that claims its case has no solution
            (:func:`solvable` below).
        tie_break(state) -> int: a key ordering states of equal key and g in
            best-first drivers (smaller first).  Never changes optimality,
            only which of equally good states is expanded first.
        rule_cuts: a mapping rule name -> cuts so far, for the rules the game
            fuses into its own successors; ``--stats`` reports the cuts made
            during the search.
    """

    def initial_state(self) -> State: ...

    def is_goal(self, state: State) -> bool: ...

    def successors(self, state: State) -> Iterable[Successor]: ...


def replay(puzzle: Puzzle, moves: Iterable[Move]) -> State:
    """Apply ``moves`` from ``puzzle.initial_state()`` using ``successors``.

    Returns the final state.

    Raises:
        ValueError: if a move is not among the successors of the state it is
            applied to (the ``successors`` without any pruning).
    """
    state = puzzle.initial_state()
    for i, move in enumerate(moves, 1):
        for m, child, _cost in puzzle.successors(state):
            if m == move:
                state = child
                break
        else:
            raise ValueError(f"move {i} ({move!r}) is not legal in its state")
    return state


def solvable(puzzle: Puzzle, state: State) -> bool | None:
    """The puzzle's own answer to "is a goal reachable from ``state``?" (its optional ``solvable`` hook).

    Returns:
        ``True`` or ``False`` as the hook decides it (exactly: see the hook in
        :data:`searchkit.hooks.OPTIONAL_HOOKS`), or ``None`` when the puzzle
        has no such hook or the hook cannot decide this state.

    Raises:
        TypeError: the hook answered something other than ``True``, ``False``
            or ``None`` (a ``0``, a ``"no"``): an exact claim is a bool, so
            anything else is not read as one.
    """
    hook = getattr(puzzle, "solvable", None)
    if hook is None:
        return None
    answer = hook(state)
    if answer is not None and not isinstance(answer, bool):
        raise TypeError(f"{type(puzzle).__name__}.solvable returned {answer!r} ({type(answer).__name__}); "
                        f"it must return True, False or None")
    return answer
