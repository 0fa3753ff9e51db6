"""The seam between the Solver and an engine: what an engine does for one case, in three steps.

The Solver keeps the steps that are the same for every engine -- plan, resolve, bound (the seed and the cost
bound) and settle (the claims that hold) -- and hands an engine three:

1. :meth:`Engine.prepare`: build what the engine searches for one case (the Python engine: the game's
   puzzle with its heuristic and pruning rules bound; the native engine: the game's native problem).  An
   engine that does not take the case raises :class:`Declined`.
2. :meth:`Engine.run`: one search of that prepared case, a :class:`Task` (algorithm, options, cost bound,
   incumbent), under the case's limiter, returning a :class:`~searchkit.result.SearchResult`.  The Solver
   calls it for the case's search, and the native engine also for an upper-bound provider's own search
   (:attr:`searchkit.bounds.UpperBound.native`), so that a seed costs no Python search.
3. :meth:`Engine.check`: what may be reported of a run's result.  The Python engine's answers are the
   reference and pass as they are; the native engine's solution is replayed by the Python game first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import attrs


class Declined(Exception):
    """An engine does not take this case (the native engine: the game builds no native problem for it).

    ``str()`` says why, or is empty when the game gave no reason.
    """


@attrs.define(eq=False, repr=False)
class Prepared:
    """One case made ready by an engine (:meth:`Engine.prepare`).

    Attributes:
        engine: the engine that prepared it (its :attr:`Engine.name` is the outcome's ``engine``).
        case: the case.
        off: every rule switched off (by the user, or acting nowhere under the algorithm).
        acting: the pruning rules that act (``off`` left out), in order.
        heuristic: the resolved :class:`~searchkit.heuristic.Heuristic`, or ``None``.
        puzzle: the game's puzzle with the rules in ``off`` switched off -- the Python engine's searched
            puzzle; for the native engine ``None`` until a seed needs it (:meth:`python_puzzle`).
        estimate: the bound heuristic (Python engine), or ``None``.
        pruners: the bound driver-level rules that act (Python engine).
        dead: ``[n]``, the states ``estimate`` called :data:`searchkit.DEAD`
            (:func:`searchkit.heuristic.counting_dead`).
        problem: the game's native problem (native engine), else ``None``.
        module: the game's :class:`~searchkit.machinery.engine.native.NativeModule` (native engine).
        build_puzzle: ``build_puzzle() -> puzzle``: the searched puzzle (rules in ``off`` off), built when
            first needed.
        plain_puzzle: ``plain_puzzle() -> puzzle``: the puzzle a native answer is replayed on (the game's
            ``replay_puzzle``, else its puzzle with every rule off).
    """

    engine: Engine
    case: Any
    off: frozenset
    acting: tuple
    heuristic: Any
    build_puzzle: Callable[[], Any]
    plain_puzzle: Callable[[], Any]
    puzzle: Any = None
    estimate: Any = None
    pruners: list = attrs.Factory(list)
    dead: list = attrs.Factory(lambda: [0])
    problem: Any = None
    module: Any = None

    def python_puzzle(self) -> Any:
        """The searched Python puzzle, built on first use (the native engine builds it only for a seed)."""
        if self.puzzle is None:
            self.puzzle = self.build_puzzle()
        return self.puzzle


@attrs.frozen(eq=False, repr=False)
class Task:
    """One search of a prepared case (:meth:`Engine.run`).

    Attributes:
        algorithm: the :class:`~searchkit.algorithm.Algorithm`.
        params: its bound options.
        heuristic: the resolved heuristic the search uses, or ``None`` (the Python engine uses the one it
            bound in :meth:`Engine.prepare`; a native request names this one).
        admissible: whether the heuristic is admissible (the drivers derive bounds from it only then).
        max_cost: seek only solutions of cost at most this, or ``None``.
        mode: the plan's mode (``bounded_dfs``'s ``exact``, ``at_most`` or ``shortest``; default ``at_most``,
            as :class:`~searchkit.game.SearchPlan`'s).
        incumbent: ``(moves, cost)`` of a known solution, or ``None``.
        on_improve: ``on_improve(cost, lower_bound)`` for each improving solution found, or ``None``.
        rules: whether the driver-level pruning rules that act are handed to the search (an upper-bound
            provider's search runs without them, as the provider's own Python search does).
        node_limit: whether ``--max-nodes`` applies (it counts the case's search, not a provider's).
        threads: the threads the search may use (``--threads``, :attr:`SolverConfig.threads
            <searchkit.machinery.solver.SolverConfig.threads>`); the Python engine runs on one whatever it says.
    """

    algorithm: Any
    params: Mapping[str, Any]
    heuristic: Any = None
    admissible: bool = True
    max_cost: int | None = None
    mode: str = "at_most"
    incumbent: tuple | None = None
    on_improve: Callable[[int, int | None], None] | None = None
    rules: bool = True
    node_limit: bool = True
    threads: int = 1


class Engine(Protocol):
    """What the Solver needs of an engine (module docstring).

    Attributes:
        name: ``"python"`` or ``"native"``, as ``--engine`` spells it.
    """

    name: str

    def prepare(self, solver, case, heuristic, off: frozenset, acting: tuple) -> Prepared:
        """``case`` made ready for :meth:`run`.

        Raises:
            Declined: this engine does not take the case.
            searchkit.limits.LimitReached: the case's time ran out while it was built.
        """
        ...

    def run(self, prepared: Prepared, task: Task, limiter) -> Any:
        """The :class:`~searchkit.result.SearchResult` of ``task`` on ``prepared`` under ``limiter`` (a limit
        reached is the result's status, never raised)."""
        ...

    def check(self, prepared: Prepared, result, limiter) -> Any:
        """``result`` as it may be reported (the native engine: its solution replayed, see
        :func:`~searchkit.machinery.engine.native.check_solution`).

        Raises:
            NativeEngineError: a native solution that does not replay.
        """
        ...
