"""The native engine's hooks for sliding tiles (``searchkit_native``, built from ``native/``), when installed.

- :func:`pdb_builder`: the native table builder (``native/tiles/src/pdb.rs``), which writes the same file
  as searchkit's Python builder, much faster (the 8-tile table of the 7-8 partition is out of reach of
  the Python one).
- :func:`solve`: a case on the native engine (IDA* and the other native drivers with ``manhattan``,
  ``linear-conflict`` or ``pdb``), returning the engine's result dict.
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
        path.parent.mkdir(parents=True, exist_ok=True)
        native.tiles_build_pdb(abstraction.n, list(abstraction.pattern), str(path), key,
                               hashlib.sha256(key.encode()).digest())
        return True

    return build


def solve(tiles, request, disabled=(), heuristic=None):
    """Run one board on the native engine; ``heuristic`` is the bound ``pdb`` options or ``None``.

    Raises:
        ImportError: ``searchkit_native`` (with the tiles domain) is not installed.
    """
    native = _module()
    if native is None:
        raise ImportError("the native engine is not installed: pip install ./native/python")
    from math import isqrt

    n = isqrt(len(tiles))
    pdb = None
    if request.get("heuristic") == "pdb":
        from searchkit.pdb import load_or_build
        from sliding_tiles.pdb import abstractions

        options = dict(heuristic or {})
        groups = []
        for a in abstractions(options.get("partition", "auto"), n=n):
            db_path = _ensure(a, load_or_build)
            key = a.key()
            groups.append((list(a.pattern), str(db_path), hashlib.sha256(key.encode()).digest()))
        pdb = (groups, bool(options.get("reflect", 1)))
    return native.tiles_solve(n, list(tiles), request, list(disabled), pdb)


def _ensure(abstraction, load_or_build):
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
