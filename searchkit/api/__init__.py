"""searchkit from Python: solve one case, solve many, compare heuristics; results that draw themselves.

The names here are re-exported by :mod:`searchkit` (imported on first use, so
``import searchkit`` stays cheap) and spelled as on the command line::

    import searchkit

    o = searchkit.solve("flood", "1162252133...")      # one case's text
    o.cost, o.moves                                    # 19, ('6', '3', '4', ...): the input's colours
    for o in searchkit.solve_all("flood", "boards.txt", jobs=2, time_limit=10):
        print(o.source, o.index, o.status, o.cost)
    table = searchkit.compare("flood", "boards.txt", heuristics=["layered", "puchert"])
    table.to_pandas()                                  # one row per case and heuristic

It is a face over the same machinery as the CLI, not a second one: the
:class:`~searchkit.machinery.solver.Solver` solves, the CLI's reader
(:func:`searchkit.machinery.reading.iter_cases`) reads files, the batch runner runs
``jobs`` worker processes, :func:`searchkit.tools.compare.compare` compares,
:func:`searchkit.machinery.records.make_record` writes records, and
:mod:`searchkit.render` draws.
"""

from __future__ import annotations

from searchkit.api.comparison import Comparison, ComparisonRow, compare, report
from searchkit.api.listing import (AlgorithmInfo, GameInfo, HeuristicInfo, RuleInfo, algorithms, games, generate,
                                   heuristics, rules)
from searchkit.api.outcome import ENGINES, ERROR, INPUT_ERROR, Outcome
from searchkit.api._registry import registry
from searchkit.api.solving import solve, solve_all

__all__ = ["AlgorithmInfo", "Comparison", "ComparisonRow", "ENGINES", "ERROR", "GameInfo", "HeuristicInfo",
           "INPUT_ERROR", "Outcome", "RuleInfo", "algorithms", "compare", "games", "generate", "heuristics",
           "registry", "report", "rules", "solve", "solve_all"]
