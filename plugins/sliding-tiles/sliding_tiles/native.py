"""The native engine's hooks for sliding tiles (``searchkit_native``, built from ``native/``), when installed.

- :func:`pdb_builder`: the native table builder (``native/tiles/src/pdb.rs``), which writes the same file
  as searchkit's Python builder, much faster (the 8-tile table of the 7-8 partition is out of reach of
  the Python one).
- :func:`problem`: the game's ``native_problem`` hook (see :mod:`searchkit.engine`): a case on the
  native engine (IDA* and the other native drivers with ``manhattan``, ``linear-conflict`` or ``pdb``).
"""

from __future__ import annotations

import hashlib


def _module():
    try:
        from searchkit_native import _native
    except ImportError:
        return None
    return _native if hasattr(_native, "tiles_solve") else None


def pdb_builder():
    """``builder(abstraction, path, key) -> bool`` writing a table with the native builder, or ``None``."""
    native = _module()
    if native is None:
        return None

    def build(abstraction, path, key):
        if getattr(abstraction, "game", None) != "sliding-tiles" or getattr(abstraction, "blank", False):
            return False
        from searchkit.pdb import make_folder

        make_folder(path)
        native.tiles_build_pdb(abstraction.n, list(abstraction.pattern), str(path), key,
                               hashlib.sha256(key.encode()).digest())
        return True

    return build


class NativeBoard:
    """One board for the native engine: ``solve(request) -> result dict`` (searchkit.engine's protocol)."""

    def __init__(self, tiles, disabled):
        self.tiles, self.disabled = tuple(tiles), frozenset(disabled)

    def solve(self, request):
        return solve(self.tiles, request, self.disabled)


def problem(tiles, disabled):
    """A :class:`NativeBoard`, or ``None`` without the native engine or for a board it cannot take (side > 4:
    the native board is 16 cells)."""
    from math import isqrt

    if _module() is None or not 1 <= isqrt(len(tiles)) <= 4:
        return None
    return NativeBoard(tiles, disabled)


def solve(tiles, request, disabled=()):
    """Run one board on the native engine (``request["heuristic"]``: ``manhattan``, ``linear-conflict`` or
    ``pdb(partition=P, reflect=R, blank=0)``; the tables are made ready in the cache first).

    Raises:
        ImportError: ``searchkit_native`` (with the tiles domain) is not installed.
        searchkit.errors.PlanError: a partition unknown or made for another board side.
    """
    native = _module()
    if native is None:
        raise ImportError("the native engine is not installed: pip install ./native/python")
    from math import isqrt

    from searchkit.plugin import PlanError, parse_spec

    n = isqrt(len(tiles))
    pdb = None
    name, options = parse_spec(request.get("heuristic") or "linear-conflict", kind="heuristic")
    if name == "pdb":
        from sliding_tiles.pdb import abstractions

        try:
            found = abstractions(options.get("partition", "auto"), n=n)
        except ValueError as exc:
            raise PlanError(f"heuristic pdb: {exc}") from None
        groups = []
        for a in found:
            key = a.key()
            groups.append((list(a.pattern), str(_ensure(a)), hashlib.sha256(key.encode()).digest()))
        pdb = (groups, options.get("reflect", "1") != "0")
    return native.tiles_solve(n, list(tiles), dict(request, heuristic=name), list(disabled), pdb)


def _ensure(abstraction):
    """The path of a verified cached table (built natively if missing or unusable), without loading it in Python."""
    from searchkit.pdb import path_for

    native = _module()
    path = path_for(abstraction)
    key = abstraction.key()
    if path.exists():
        try:
            native.tiles_load_pdb(str(path), hashlib.sha256(key.encode()).digest())
            return path
        except ValueError as exc:
            import sys

            print(f"searchkit: pattern database {path} is unusable ({exc}); rebuilding it", file=sys.stderr)
    pdb_builder()(abstraction, path, key)
    return path
