"""The native engine's hooks for sliding tiles, when ``searchkit_native`` is installed (else ``None``)."""

from __future__ import annotations


def pdb_builder():
    """``builder(abstraction, path, key) -> bool`` writing a table with the native builder, or ``None``."""
    try:
        import searchkit_native  # noqa: F401
    except ImportError:
        return None
    tiles = getattr(searchkit_native, "tiles", None)
    if tiles is None or not hasattr(tiles, "build_pdb"):
        return None

    def build(abstraction, path, key):
        if getattr(abstraction, "game", None) != "sliding-tiles":
            return False
        tiles.build_pdb(abstraction.n, list(abstraction.pattern), str(path), key)
        return True

    return build
