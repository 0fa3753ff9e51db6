"""Random-instance generators: one per game, registered by plugins.

``searchkit generate GAME`` writes generated instances in the game's input
format, and :mod:`searchkit.testing` and ``searchkit check`` draw instances
from the same generator through hypothesis (which makes them reproducible
and shrinkable).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from searchkit.game import GameOption, option_defaults

if TYPE_CHECKING:
    import random


@attrs.frozen
class Generator:
    """A random-instance generator registered for one game.

    Attributes:
        game: the game's name.
        generate: ``generate(rng, size, options) -> data``: one instance as the
            game's case data (what ``Game.parse`` puts in ``Case.data``).  ``rng``
            is a :class:`random.Random`; ``size`` (>= 1) is the game's main size
            knob (board side, number of blocks, ...), small sizes giving
            instances that exhaustive search can still handle; ``options`` holds
            the values of ``options`` below by ``GameOption.key``.  May be a
            ``"package.module:attr"`` string, imported on first use.
        options: game-specific generator options (``searchkit generate GAME --help``).
        size_help: what ``size`` means for this game, one line.
        default_size: the size used when none is given.
        check_size: the largest size whose instances exhaustive search still
            handles quickly (a few thousand states); ``check`` and the contract
            suite's admissibility check draw sizes 1..``check_size`` by default.
        summary: one line for listings.
    """

    game: str
    generate: Callable[[random.Random, int, Mapping[str, Any]], Any] | str
    options: tuple[GameOption, ...] = ()
    size_help: str = "instance size"
    default_size: int = 4
    check_size: int = 3
    summary: str = ""

    def defaults(self) -> dict[str, Any]:
        """The option values used when the caller gives none."""
        return option_defaults(self.options)

    def __call__(self, rng: random.Random, size: int, options: Mapping[str, Any] | None = None) -> Any:
        from searchkit._refs import resolve

        merged = self.defaults()
        merged.update({k: v for k, v in (options or {}).items() if v is not None})
        return resolve(self.generate)(rng, size, merged)
