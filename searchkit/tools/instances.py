"""Generated instances as a hypothesis strategy (shared by ``check`` and :mod:`searchkit.testing`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def load(registry):
    """``registry`` itself, or the installed plugins' registry when it is ``None``."""
    if registry is not None:
        return registry
    from searchkit.plugin.manager import load_registry

    return load_registry()


def instances(game: str, *, registry=None, max_size: int | None = None, min_size: int = 1,
              options: Mapping[str, Any] | None = None):
    """A hypothesis strategy of case data for ``game`` from its registered generator.

    Args:
        game: the game's name.
        registry: a loaded registry (default: load the installed plugins).
        max_size, min_size: the generator's ``size`` range (default max: the
            generator's ``check_size``, small enough for exhaustive search).
        options: generator options (``GameOption.key`` -> value).

    Raises:
        UnknownNameError: if the game has no generator.
    """
    from hypothesis import strategies as st

    gen = load(registry).generator(game)
    top = max_size if max_size is not None else gen.check_size
    opts = dict(options or {})
    return st.builds(
        lambda size, rng: gen(rng, size, opts),
        st.integers(min_size, max(min_size, top)),
        st.randoms(use_true_random=False),
    )
