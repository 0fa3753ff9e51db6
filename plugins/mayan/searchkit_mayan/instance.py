"""One Mayan case as an immutable value, and its conversion to a packed board."""

from __future__ import annotations

import attrs

from searchkit_mayan.board import Shape, from_columns


@attrs.frozen
class MayanInstance:
    """A parsed Mayan case (NOIP 2011 format).

    Attributes:
        n: the number of moves the answer must have (``--shortest``: at most).
        columns: the columns left to right, each a tuple of colours bottom-up
            (the input's own positive integers).
        width, height: board size in cells (NOIP: 5 x 7).
        run: the minimum run length that vanishes (NOIP: 3).
    """

    n: int
    columns: tuple[tuple[int, ...], ...]
    width: int = 5
    height: int = 7
    run: int = 3

    @property
    def palette(self) -> tuple[int, ...]:
        """The distinct colours in increasing order; colour index i + 1 is ``palette[i]``."""
        return tuple(sorted({c for col in self.columns for c in col}))

    def packed(self) -> tuple[int, Shape]:
        """The board as a packed int with colours renumbered 1..K, and its :class:`Shape`.

        Raises:
            ValueError: when the board does not fit its shape.
        """
        palette = self.palette
        index = {c: i for i, c in enumerate(palette, 1)}
        shape = Shape(self.width, self.height, self.run, max(4, len(palette).bit_length()))
        board = from_columns([[index[c] for c in col] for col in self.columns], shape)
        return board, shape
