"""Search drivers, one module each, and the best-first loop they share.

Depth-first: ``ida_star`` (and ``ida_star_tt``), ``bounded_dfs``.  Best-first,
configurations of :mod:`~searchkit.machinery.drivers.best_first`: ``astar``,
``peastar``, ``wastar``, ``gbfs``; with their own loops on its set-up:
``anytime``, ``beam``.  The reference: ``bfs``.  Each driver is a plain
function ``driver(puzzle, ...) -> SearchResult`` that works with any
:class:`~searchkit.puzzle.Puzzle`; nothing here is game-specific.

Every command imports each driver module for its ``ALGORITHMS`` (the
built-in plugin registers them), so a module imports the best-first loop
inside the functions that run a search: a solve on the native engine never
loads it (``tests/core/test_solver_and_rules.py`` checks).

Adding an algorithm (after pyperplan's checklist):

1. Write the driver in its own module: a function of the puzzle, the
   heuristic, ``pruners``, ``limits`` and ``max_cost``; count with the
   :class:`~searchkit.limits.Limiter`'s checkpoints; end through
   ``_common.run_guarded``; return a :class:`~searchkit.result.SearchResult`
   whose ``lower_bound`` the module docstring proves.
2. Beside it, ``run(puzzle, request)`` reading the
   :class:`~searchkit.algorithm.SearchRequest`, and ``ALGORITHMS``: its
   :class:`~searchkit.algorithm.Algorithm` values (guarantee, what it prunes
   on, heuristic, rule hooks, modes, options).
3. Add the module to ``builtin.MODULES``.
4. Record its results in ``tests/core/driver_golden.py`` (``RUNS``) and
   re-record ``tests/golden/drivers.json``; the registry-driven tests
   (``tests/core/test_every_component.py``) pick it up.
"""
