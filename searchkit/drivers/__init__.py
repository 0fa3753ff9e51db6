"""Search drivers, one module each: ``ida_star``, ``bounded_dfs``, ``bfs``, ``astar``.

Each driver is a plain function ``driver(puzzle, ...) -> SearchResult`` that
works with any :class:`~searchkit.puzzle.Puzzle`; nothing here is game-specific.
"""
