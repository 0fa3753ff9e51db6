"""searchkit's own plugin: the table of the core's search algorithms.

Registered exactly as any other plugin's components are (plugin label
``searchkit.builtin``), so listings and look-ups treat them alike.  Each
entry maps a name to a one-line adapter that imports its driver module only
when it runs.
"""

from __future__ import annotations

from searchkit.algorithm import Algorithm, Param, SearchRequest
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


def _peastar(puzzle, req: SearchRequest):
    from searchkit.drivers.peastar import peastar

    return peastar(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth)


def _bounded_dfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bounded_dfs import bounded_dfs

    return bounded_dfs(puzzle, req.depth, mode=req.mode, heuristic=req.heuristic, pruners=req.pruners,
                       limits=req.limits)


def _bfs(puzzle, req: SearchRequest):
    from searchkit.drivers.bfs import bfs

    return bfs(puzzle, limits=req.limits, max_cost=req.depth)


def _wastar(puzzle, req: SearchRequest):
    from searchkit.drivers.wastar import wastar

    return wastar(puzzle, req.heuristic, weight=req.params["weight"], pruners=req.pruners, limits=req.limits,
                  max_cost=req.depth, admissible=req.admissible)


def _gbfs(puzzle, req: SearchRequest):
    from searchkit.drivers.gbfs import gbfs

    return gbfs(puzzle, req.heuristic, pruners=req.pruners, limits=req.limits, max_cost=req.depth,
                admissible=req.admissible)


def _beam(puzzle, req: SearchRequest):
    from searchkit.drivers.beam import beam

    return beam(puzzle, req.heuristic, width=req.params["width"], pruners=req.pruners, limits=req.limits,
                max_cost=req.depth, admissible=req.admissible)


def _anytime(puzzle, req: SearchRequest):
    from searchkit.drivers.anytime import anytime

    return anytime(puzzle, req.heuristic, weight=req.params["weight"], step=req.params["step"],
                   ara=bool(req.params["ara"]), pruners=req.pruners, limits=req.limits, max_cost=req.depth,
                   incumbent=req.incumbent, on_improve=req.on_improve)


_DEPTH_FIRST = frozenset({"successors_within", "cut", "filter", "on_fail"})

ALGORITHMS = (
    Algorithm("ida_star", _ida_star, optimal=True, uses_heuristic=True, rule_hooks=_DEPTH_FIRST, keeps_order=True,
              summary="IDA*: iterative deepening on f = g + h (Korf 1985)"),
    Algorithm("ida_star_tt", _ida_star_tt, optimal=True, uses_heuristic=True, rule_hooks=_DEPTH_FIRST,
              keeps_order=True,
              summary="IDA* with a per-iteration transposition table (state -> least g)"),
    Algorithm("astar", _astar, optimal=True, uses_heuristic=True, rule_hooks={"cut", "filter"},
              summary="A*: best-first on f = g + h, ties to larger g (Hart, Nilsson, Raphael 1968)"),
    Algorithm("peastar", _peastar, optimal=True, uses_heuristic=True, rule_hooks={"cut", "filter"},
              summary="partial-expansion A*: stores only children with f <= the parent's key, fewer states "
                      "held (Yoshizumi, Miura, Ishida 2000)"),
    Algorithm("bounded_dfs", _bounded_dfs, optimal=False, uses_heuristic=False, takes_heuristic=True,
              rule_hooks=_DEPTH_FIRST,
              keeps_order=True, modes=("exact", "at_most", "shortest"), needs_depth=True,
              summary="depth-bounded DFS, first solution in move order (exact, at_most, shortest)"),
    Algorithm("bfs", _bfs, optimal=True, uses_heuristic=False, rule_hooks=(), plain=True, keeps_order=True,
              summary="breadth-first search, unit costs, every pruning rule off (the test reference)"),
    Algorithm("wastar", _wastar, optimal=False, uses_heuristic=True, rule_hooks={"cut", "filter"}, suboptimal=True,
              params=(Param("weight", float, 2.0, "w in f = g + w*h; cost <= w * optimal with an admissible h",
                            min=1),),
              summary="weighted A* on g + w*h, cost at most w x optimal (Pohl 1970)"),
    Algorithm("gbfs", _gbfs, optimal=False, uses_heuristic=True, rule_hooks={"cut", "filter"}, suboptimal=True,
              summary="greedy best-first search on h, goal taken when generated (Doran and Michie 1966)"),
    Algorithm("beam", _beam, optimal=False, uses_heuristic=True, rule_hooks={"filter"}, suboptimal=True,
              params=(Param("width", int, 64, "states kept per layer, ranked by g + h", min=1),),
              summary="beam search: breadth-first by moves, the best `width` states of each layer by g + h"),
    Algorithm("anytime", _anytime, optimal=True, uses_heuristic=True, rule_hooks={"cut", "filter"},
              suboptimal=True, seeded=True,
              params=(Param("weight", float, 2.0, "first weight w of g + w*h", min=1),
                      Param("step", float, 0.5, "the weight falls by this after each improvement, down to 1 "
                                                "(0: fixed, AWA*)", min=0),
                      Param("ara", int, 0, "1: the weight also falls when the least key reaches the best cost "
                                           "(ARA*'s iterations: better bounds at a fixed budget, worse "
                                           "solutions); 0: only after an improvement", min=0, max=1)),
              summary="anytime weighted A*: improving solutions, each with a proven lower bound; solved when "
                      "they meet (Hansen and Zhou 2007, ARA* weight schedule)"),
)


@hookimpl
def register_algorithms(register):
    for algorithm in ALGORITHMS:
        register(algorithm)
