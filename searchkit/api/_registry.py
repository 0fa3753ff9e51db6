"""The plugins' registry, loaded once per process for the Python API."""

from __future__ import annotations

# -- the registry ---------------------------------------------------------------

_REGISTRY: list = []


def registry():
    """The loaded :class:`~searchkit.plugin.manager.Registry`, loaded once per process (plugins load then)."""
    if not _REGISTRY:
        from searchkit.plugin.manager import load_registry

        _REGISTRY.append(load_registry())
    return _REGISTRY[0]
