"""``"package.module:attr"`` references, resolved once on first use.

Plugins may name a heuristic, pruning-rule or generator factory (or a game)
by such a string instead of importing it, so that loading a plugin imports
none of its heavy modules.  The contract suite resolves every string, so a
typo fails in tests rather than in a user's run.
"""

from __future__ import annotations

import importlib
from typing import Any

_cache: dict[str, Any] = {}


def resolve(ref: Any) -> Any:
    """Return ``ref`` itself, or the object a ``"module:attr"`` string names.

    Raises:
        ImportError, AttributeError: the module or attribute does not exist.
        ValueError: a string without ``:``.
    """
    if not isinstance(ref, str):
        return ref
    try:
        return _cache[ref]
    except KeyError:
        pass
    if ":" not in ref:
        raise ValueError(f"expected a 'package.module:attr' reference, got {ref!r}")
    obj = _cache[ref] = load(ref)
    return obj


def load(value: str) -> Any:
    """Import ``"module"`` or ``"module:attr.attr"`` and return the object (no cache).

    Raises:
        ImportError, AttributeError: whatever importing it raises.
    """
    module, _, attr = value.partition(":")
    obj = importlib.import_module(module.strip())
    for part in filter(None, attr.strip().split(".")):
        obj = getattr(obj, part)
    return obj
