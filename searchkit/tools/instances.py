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


def instances(game: str, *, registry=None, max_size: int | None = None, min_size: int | None = None,
              options: Mapping[str, Any] | None = None):
    """A hypothesis strategy of case data for ``game`` from its registered generator.

    Args:
        game: the game's name.
        registry: a loaded registry (default: load the installed plugins).
        max_size, min_size: the generator's ``size`` range (default: the
            generator's ``min_size`` to its ``check_size``, small enough for
            exhaustive search).
        options: generator options (``GameOption.key`` -> value).

    Raises:
        UnknownNameError: if the game has no generator.
        ValueError: ``min_size`` or ``max_size`` below the generator's ``min_size`` (one line naming it).
    """
    from hypothesis import strategies as st

    gen = load(registry).generator(game)
    low, top = size_range(gen, min_size, max_size)
    opts = dict(options or {})
    return st.builds(
        lambda size, rng: gen(rng, size, opts),
        st.integers(low, top),
        st.randoms(use_true_random=False),
    )


def size_range(gen, min_size: int | None = None, max_size: int | None = None,
               names: tuple[str, str] = ("min_size", "max_size")) -> tuple[int, int]:
    """``(low, high)``: the sizes to draw from ``gen``, by default its ``min_size`` to its ``check_size``.

    A ``check_size`` below ``min_size`` draws ``min_size`` alone.  ``names``
    are what the messages call ``min_size`` and ``max_size`` (a command's options).

    Raises:
        ValueError: a given ``min_size`` or ``max_size`` below the generator's ``min_size``, or a ``max_size``
            below ``min_size`` (one line).
    """
    for what, size in zip(names, (min_size, max_size)):
        if size is not None:
            message = gen.size_error(size, what)
            if message is not None:
                raise ValueError(message)
    low = gen.min_size if min_size is None else min_size
    high = max_size if max_size is not None else max(gen.check_size, low)
    if high < low:
        raise ValueError(f"{names[1]} {high} is below {names[0]} {low}")
    return low, high
