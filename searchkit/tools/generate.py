"""The text ``searchkit generate`` writes (and :func:`searchkit.generate` returns), piece by piece, within bounds.

A game with the ``format_input_stream`` hook is written an instance at a time, so memory stays the same
whatever the count; a game with only ``format_input`` has its instances held until the whole text is made.
Either way the size of the text is estimated from the first instance before anything is written, and an
estimate over the cap is refused: ``--count 1000000000`` is said at once, not after filling memory or disk.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

#: The most instances one ``generate`` writes (ten million 8-puzzles are about 180 MB).
MAX_COUNT = 10_000_000
#: The most text one ``generate`` writes, in characters (bytes: the games' formats are ASCII): 1 GiB.
MAX_TEXT = 2**30
#: The most text when it is all held at once (a game without ``format_input_stream``, or
#: :func:`searchkit.generate`, which returns one string): 64 MiB.
MAX_HELD_TEXT = 2**26


class TooMuchText(ValueError):
    """The text of ``count`` instances would pass ``cap`` characters (``estimate``: its size from the first).

    ``so_far``: the text written so far passed the cap (instances longer than the first), part of it written.
    """

    def __init__(self, count: int, estimate: int, cap: int, so_far: bool = False):
        self.count, self.estimate, self.cap, self.so_far = count, estimate, cap, so_far
        super().__init__(f"stopped after {cap} characters of text, the most written (the instances came out "
                         f"longer than the first)" if so_far else
                         f"{count} instances like the first come to about {estimate} characters of text, over the "
                         f"{cap} written at most")


def generated_text(game, gen, rng, size: int, options: Mapping[str, Any], count: int, *,
                   held: bool = False) -> Iterator[str]:
    """The text of ``count`` instances of ``gen(rng, size, options)`` in ``game``'s input format, in pieces.

    The first instance is made and formatted (alone, and twice over: the growth per instance) before the
    first piece is yielded, so a count the format cannot hold (one case per file) or a text over the cap is
    refused before anything is written.  The instances are the ones the same ``rng`` would give made all
    at once.

    ``held``: the caller keeps the whole text (the cap is :data:`MAX_HELD_TEXT`, not :data:`MAX_TEXT`).

    Raises:
        ValueError: ``count`` below 1 or over :data:`MAX_COUNT`; what the generator or the game's format
            refuses.
        TooMuchText: the text estimated from the first instance (or, for instances of varying length,
            the text written so far) is over the cap.
    """
    if count < 1 or count > MAX_COUNT:
        raise ValueError(f"count must be from 1 to {MAX_COUNT}, got {count}")
    stream = getattr(game, "format_input_stream", None)
    cap = MAX_HELD_TEXT if held or stream is None else MAX_TEXT

    def text(datas) -> str:
        return "".join(stream(iter(datas))) if stream is not None else game.format_input(datas)

    first = gen(rng, size, options)
    one = len(text([first]))
    each = len(text([first, first])) - one if count > 1 else 0  # a format of one case per file refuses here
    estimate = one + each * (count - 1)
    if estimate > cap:
        raise TooMuchText(count, estimate, cap)
    datas = itertools.chain([first], (gen(rng, size, options) for _ in range(count - 1)))
    if stream is None:
        yield game.format_input(list(datas))
        return
    written = 0
    for piece in stream(datas):
        written += len(piece)
        if written > cap:  # instances longer than the first: stop at the cap, not at the end of the disk
            raise TooMuchText(count, written, cap, so_far=True)
        yield piece
