"""searchkit: exact puzzle search with pluggable games, heuristics and pruning rules.

The package keeps its import cheap: nothing is imported or computed here beyond
the version string.  Import the pieces you need from their modules, e.g.
``from searchkit.drivers.ida_star import ida_star``.
"""

__version__ = "0.2.0"
