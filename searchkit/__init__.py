"""searchkit: exact puzzle search with pluggable games, heuristics and pruning rules.

From Python (see ``docs/python-api.md``)::

    import searchkit

    o = searchkit.solve("flood", board_text)   # an Outcome: .status .cost .moves .lower_bound .stats ...
    o.show("solution.svg")                     # or just ``o`` in Jupyter: it draws itself
    searchkit.solve_all("flood", "boards.txt", jobs=2)
    searchkit.compare("flood", "boards.txt", heuristics=["layered", "puchert"]).to_pandas()
    searchkit.games(), searchkit.heuristics("flood"), searchkit.rules("flood"), searchkit.algorithms()

:func:`run` runs a named algorithm on a puzzle of your own
(``searchkit.run(puzzle, "beam(width=4)", heuristic=...)``, see
:mod:`searchkit.machinery.search`).  The import stays cheap: the names above are loaded
on first use (from :mod:`searchkit.api`, :mod:`searchkit.machinery.search`,
:mod:`searchkit.heuristic`, ...), so ``import searchkit`` pulls in neither
click, rich nor pluggy.  Plugin authors' helpers live in
:mod:`searchkit.helpers`.
"""

from __future__ import annotations

__version__ = "0.2.0"

#: ``typing.TYPE_CHECKING`` without importing typing (tens of milliseconds at start-up); type checkers read it
#: as true.
TYPE_CHECKING = False

#: Public name -> the module that defines it (imported on first use).
_LAZY = {
    "solve": "searchkit.api",
    "solve_all": "searchkit.api",
    "compare": "searchkit.api",
    "generate": "searchkit.api",
    "report": "searchkit.api",
    "games": "searchkit.api",
    "heuristics": "searchkit.api",
    "rules": "searchkit.api",
    "algorithms": "searchkit.api",
    "Outcome": "searchkit.api",
    "Comparison": "searchkit.api",
    "ComparisonRow": "searchkit.api",
    "run": "searchkit.machinery.search",
    "DEAD": "searchkit.heuristic",
    "SearchkitError": "searchkit.errors",
    "InputError": "searchkit.errors",
    "PlanError": "searchkit.errors",
    "UnknownNameError": "searchkit.errors",
}

__all__ = ["__version__", *_LAZY]

if TYPE_CHECKING:  # for type checkers and editors; at run time the names load on first use
    from searchkit.api import (Comparison, ComparisonRow, Outcome, algorithms, compare, games,  # noqa: F401
                               generate, heuristics, report, rules, solve, solve_all)
    from searchkit.errors import InputError, PlanError, SearchkitError, UnknownNameError  # noqa: F401
    from searchkit.heuristic import DEAD  # noqa: F401
    from searchkit.machinery.search import run  # noqa: F401


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'searchkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
