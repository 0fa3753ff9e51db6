"""Pictures of solutions: the values a game's render hook returns, and the drawers.

A game implements the optional hook ``render(case, puzzle, state, move) ->
Frame`` (and optionally ``render_move``, see :mod:`searchkit.game`); the core
turns the frames into SVG (:mod:`.svg`, no dependency), PNG and GIF
(:mod:`.raster`, Pillow), one self-contained HTML page (:mod:`.html`) or a
terminal view (:mod:`.terminal`, rich).  Games never import a drawing library:
a :class:`~searchkit.render.grid.Frame` holds plain values.

Only :mod:`.grid` and :mod:`.palette` are imported by games; the drawers are
imported by ``searchkit show`` when it writes their format.
"""
