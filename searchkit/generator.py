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
            is a :class:`random.Random`; ``size`` (>= ``min_size``) is the game's
            main size knob (board side, number of blocks, ...), small sizes giving
            instances that exhaustive search can still handle; ``options`` holds
            the values of ``options`` below by ``GameOption.key``.  May be a
            ``"package.module:attr"`` string, imported on first use.
        options: game-specific generator options (``searchkit generate GAME --help``).
        size_help: what ``size`` means for this game, one line.
        default_size: the size used when none is given (at least ``min_size``).
        check_size: the largest size whose instances exhaustive search still
            handles quickly (a few thousand states); ``check`` and the contract
            suite draw sizes ``min_size``..``check_size`` by default.
        min_size: the smallest size the generator accepts (a game whose
            smallest instance has n = 4 pieces says 4).  The contract suite,
            ``searchkit check`` and ``searchkit generate`` draw no smaller size,
            and refuse a smaller one given to them in one line.
        summary: one line for listings.
    """

    game: str
    generate: Callable[[random.Random, int, Mapping[str, Any]], Any] | str
    options: tuple[GameOption, ...] = ()
    size_help: str = "instance size"
    default_size: int = 4
    check_size: int = 3
    summary: str = ""
    min_size: int = attrs.field(default=1, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.min_size, bool) or not isinstance(self.min_size, int) or self.min_size < 1:
            raise ValueError(f"generator of {self.game}: min_size must be a whole number >= 1, "
                             f"got {self.min_size!r}")
        if self.default_size < self.min_size:
            raise ValueError(f"generator of {self.game}: default_size {self.default_size} is below "
                             f"min_size {self.min_size}")

    def size_error(self, size: int, what: str = "size") -> str | None:
        """One line refusing ``size`` when it is below :attr:`min_size` (``what`` names it), else ``None``."""
        if size >= self.min_size:
            return None
        return (f"{what} {size} is below the smallest size of the {self.game} generator, "
                f"{self.min_size} (Generator.min_size)")

    def defaults(self) -> dict[str, Any]:
        """The option values used when the caller gives none."""
        return option_defaults(self.options)

    def __call__(self, rng: random.Random, size: int, options: Mapping[str, Any] | None = None) -> Any:
        from searchkit._refs import resolve

        merged = self.defaults()
        merged.update({k: v for k, v in (options or {}).items() if v is not None})
        return resolve(self.generate)(rng, size, merged)
