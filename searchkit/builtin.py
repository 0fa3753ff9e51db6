"""searchkit's own plugin: registers the core's search algorithms by name.

Registered exactly as any other plugin's components are, so listings and
look-ups treat them alike.
"""

from __future__ import annotations

from searchkit.algorithm import Algorithm, SearchRequest
from searchkit.plugin.spec import hookimpl


def _ida_star(puzzle, req: SearchRequest):
    from searchkit.drivers.ida_star import ida_star

    return ida_star(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth)


def _ida_star_tt(puzzle, req: SearchRequest):
    from searchkit.drivers.ida_star import ida_star

    return ida_star(
        puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth, transposition=True
    )


def _astar(puzzle, req: SearchRequest):
    from searchkit.drivers.astar import astar

    return astar(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth)


def _bounded_dfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bounded_dfs import bounded_dfs

    if req.depth is None:
        raise ValueError("bounded_dfs needs a depth bound")
    return bounded_dfs(
        puzzle, req.depth, mode=req.mode, heuristic=req.heuristic, pruners=req.pruners, limits=req.limits
    )


def _bfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bfs import bfs

    return bfs(puzzle, limits=req.limits, max_cost=req.depth)


ALGORITHMS = (
    Algorithm("ida_star", _ida_star, optimal=True, uses_heuristic=True,
              summary="IDA*: iterative deepening on f = g + h (Korf 1985)"),
    Algorithm("ida_star_tt", _ida_star_tt, optimal=True, uses_heuristic=True,
              summary="IDA* with a per-iteration transposition table (state -> least g)"),
    Algorithm("astar", _astar, optimal=True, uses_heuristic=True,
              summary="A*: best-first on f = g + h, ties to larger g (Hart, Nilsson, Raphael 1968)"),
    Algorithm("bounded_dfs", _bounded_dfs, optimal=False, uses_heuristic=False,
              summary="depth-bounded DFS, first solution in move order (exact, at_most, shortest)",
              modes=("exact", "at_most", "shortest"), needs_depth=True),
    Algorithm("bfs", _bfs, optimal=True, uses_heuristic=False,
              summary="breadth-first search, unit costs, no pruning (test reference)"),
)


@hookimpl
def register_algorithms(register):
    for algorithm in ALGORITHMS:
        register(algorithm)
