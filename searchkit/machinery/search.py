"""Run a named algorithm on a puzzle: the public entry point below the Solver.

A plugin that needs a search inside its own code (a seed solution, a check
of a generated board) names the algorithm as the command line does and
never imports a driver module::

    from searchkit import run

    result = run(puzzle, "beam(width=4)", heuristic=estimate)
    result = run(puzzle, "bounded_dfs", max_cost=n, mode="exact")

The :class:`~searchkit.machinery.solver.Solver` is the path from a *case* (plan,
rules, seeds, settled claims); :func:`run` is the path from a *puzzle* you
built yourself: no plan, no rule switched off or bound for you, the driver's
result as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from searchkit.errors import PlanError
from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import SearchResult


def find_algorithm(name: str, registry=None):
    """The :class:`~searchkit.algorithm.Algorithm` called ``name``: a built-in one, else from ``registry``
    (loaded when not given, for an algorithm a plugin registers).

    Raises:
        UnknownNameError: no algorithm has that name.
    """
    if registry is None:
        from searchkit.machinery.drivers.builtin import algorithms

        for algorithm in algorithms():
            if algorithm.name == name:
                return algorithm
        from searchkit.plugin.manager import load_registry

        registry = load_registry(report=None)
    return registry.algorithm(name)


def run(puzzle, algorithm: str, *, heuristic: Callable[[Any], int] | None = None, admissible: bool = True,
        max_cost: int | None = None, mode: str = "at_most", limits: Limits | Limiter | None = None,
        pruners: Sequence[Pruner] = (), incumbent: tuple | None = None,
        on_improve: Callable[[int, int | None], None] | None = None, registry=None) -> SearchResult:
    """Search ``puzzle`` with the algorithm spelt ``algorithm`` (``"astar"``, ``"beam(width=4)"``).

    Args:
        puzzle: a :class:`~searchkit.puzzle.Puzzle`.
        algorithm: ``NAME`` or ``NAME(KEY=VALUE, ...)``, as ``--algorithm``
            takes it (``searchkit algorithms`` lists them).
        heuristic: ``estimate(state) -> int``; required by an algorithm
            whose ``heuristic`` is ``"required"``.
        admissible: ``heuristic`` never overestimates (a driver may then
            prune on g + h and prove lower bounds).
        max_cost: only solutions of cost <= ``max_cost`` are sought (the
            depth of a depth-bounded algorithm, which needs it).
        mode: ``"at_most"``, ``"shortest"`` or ``"exact"`` (bounded DFS).
        limits: node and time limits (a started
            :class:`~searchkit.limits.Limiter` counts from its start).
        pruners: bound pruning rules (:class:`~searchkit.pruning.Pruner`).
        incumbent, on_improve: a known ``(moves, cost)`` and the improvement
            callback, for an anytime algorithm.
        registry: where to look up an algorithm a plugin registers (default:
            the built-in ones first, then the installed plugins).

    Returns:
        The driver's :class:`~searchkit.result.SearchResult`, unsettled: the
        claims are the driver's own (the Solver's settling, e.g. dropping
        the bound of an inadmissible heuristic, is not applied).

    Raises:
        PlanError: a bad spelling or option, a missing heuristic or depth, or
            a mode the algorithm does not search.
        UnknownNameError: no algorithm of that name.
    """
    from searchkit.algorithm import SearchRequest, bind_params, parse_spec

    try:
        name, raw = parse_spec(algorithm)
        found = find_algorithm(name, registry)
        params = bind_params(found, raw)
    except ValueError as exc:
        raise PlanError(str(exc)) from None
    if mode not in found.modes:
        raise PlanError(f"algorithm {found.name!r} cannot search in {mode!r} mode (it searches: "
                        f"{', '.join(found.modes)})")
    if found.uses_heuristic and heuristic is None:
        raise PlanError(f"algorithm {found.name!r} needs a heuristic")
    if found.needs_depth and max_cost is None:
        raise PlanError(f"algorithm {found.name!r} needs a depth bound (max_cost)")
    request = SearchRequest(heuristic=heuristic if found.takes_heuristic else None, pruners=tuple(pruners),
                            limits=Limits() if limits is None else limits, max_cost=max_cost, mode=mode,
                            params=params, admissible=admissible, incumbent=incumbent, on_improve=on_improve)
    return found.run(puzzle, request)
