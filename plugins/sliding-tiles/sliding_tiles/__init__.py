"""searchkit plugin for the N x N sliding-tile puzzle (8-puzzle, 15-puzzle, ...).

Game ``sliding-tiles``; heuristics ``manhattan``, ``linear-conflict`` and
``misplaced``; pruning rule ``no-undo``; a generator (size = board side).
See README.md next to this package for the input format and move names.
"""

__version__ = "0.2.0"
