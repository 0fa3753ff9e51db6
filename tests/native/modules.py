"""The native modules the engine's own tests call directly, under the call shapes the tests were written with.

``searchkit_testgame`` is the toy (``native/testgame``, the twin of :mod:`tests.native.toy`); the games' modules
come from their plugins.  Each call goes through the module's one entry, ``solve(problem, request)``
(``searchkit/protocol.py``).
"""

from __future__ import annotations


def toy_solve(width, tiles, request, within=False):
    """The toy puzzle ``tiles`` (row by row, 0 the blank) solved natively as ``request`` asks."""
    import searchkit_testgame

    return searchkit_testgame.solve((width, list(tiles), within), request)


def flood_solve(width, height, cells, pivot, disabled, request):
    """A Flood-It board solved natively, the rules ``disabled`` off."""
    import searchkit_flood_native

    return searchkit_flood_native.solve((width, height, list(cells), pivot), dict(request, disabled=list(disabled)))
