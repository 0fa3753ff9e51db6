"""searchkit's own plugin: the table of the core's search algorithms.

Registered exactly as any other plugin's components are (plugin label
``searchkit.builtin``), so listings and look-ups treat them alike.  Each
entry maps a name to a one-line adapter that imports its driver module only
when it runs.
"""

from __future__ import annotations

from searchkit.algorithm import Algorithm, SearchRequest
from searchkit.plugin.spec import hookimpl


def _ida_star(puzzle, req: SearchRequest, transposition: bool = False):
    from searchkit.drivers.ida_star import ida_star

    return ida_star(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth,
                    transposition=transposition)


def _ida_star_tt(puzzle, req: SearchRequest):
    return _ida_star(puzzle, req, transposition=True)


def _astar(puzzle, req: SearchRequest):
    from searchkit.drivers.astar import astar

    return astar(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth)


def _bounded_dfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bounded_dfs import bounded_dfs

    return bounded_dfs(puzzle, req.depth, mode=req.mode, heuristic=req.heuristic, pruners=req.pruners,
                       limits=req.limits)


def _bfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bfs import bfs

    return bfs(puzzle, limits=req.limits, max_cost=req.depth)


_DEPTH_FIRST = frozenset({"successors_within", "cut", "filter", "on_fail"})

ALGORITHMS = (
    Algorithm("ida_star", _ida_star, optimal=True, uses_heuristic=True, rule_hooks=_DEPTH_FIRST, keeps_order=True,
              summary="IDA*: iterative deepening on f = g + h (Korf 1985)"),
    Algorithm("ida_star_tt", _ida_star_tt, optimal=True, uses_heuristic=True, rule_hooks=_DEPTH_FIRST,
              keeps_order=True,
              summary="IDA* with a per-iteration transposition table (state -> least g)"),
    Algorithm("astar", _astar, optimal=True, uses_heuristic=True, rule_hooks={"cut", "filter"},
              summary="A*: best-first on f = g + h, ties to larger g (Hart, Nilsson, Raphael 1968)"),
    Algorithm("bounded_dfs", _bounded_dfs, optimal=False, uses_heuristic=False, takes_heuristic=True,
              rule_hooks=_DEPTH_FIRST,
              keeps_order=True, modes=("exact", "at_most", "shortest"), needs_depth=True,
              summary="depth-bounded DFS, first solution in move order (exact, at_most, shortest)"),
    Algorithm("bfs", _bfs, optimal=True, uses_heuristic=False, rule_hooks=(), plain=True, keeps_order=True,
              summary="breadth-first search, unit costs, every pruning rule off (the test reference)"),
)


@hookimpl
def register_algorithms(register):
    for algorithm in ALGORITHMS:
        register(algorithm)
