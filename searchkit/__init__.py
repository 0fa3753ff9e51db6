"""searchkit: exact puzzle search with pluggable games, heuristics and pruning rules.

The package keeps its import cheap: nothing is imported or computed here beyond
the version string.  :func:`run` (``searchkit.run(puzzle, "beam(width=4)",
heuristic=...)``, see :mod:`searchkit.search`) is imported on first use; import
the other pieces from their modules, e.g. ``from searchkit.solver import Solver``.
"""

__version__ = "0.2.0"


def __getattr__(name: str):  # -> searchkit.search.run (no typing import here: start-up stays lean)
    if name == "run":
        from searchkit.search import run

        return run
    raise AttributeError(f"module 'searchkit' has no attribute {name!r}")
