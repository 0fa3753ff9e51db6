"""Flood-It boards and the judges' input formats.

Rules (HDU 4127 "Flood-it!", 2011 Asia Fuzhou Regional; NKOJ 2440): an
H x W board of colours; a move picks a colour and recolours the 4-connected
same-colour region containing the pivot cell (top-left by default); the goal
is a one-colour board in the fewest moves.  A one-colour board needs 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from searchkit.errors import InputError
from searchkit.game import Case


@attrs.frozen
class Board:
    """An H x W Flood-It board.

    Attributes:
        width, height: size in cells (>= 1 each).
        cells: ``height * width`` colour indices 0..k-1, row-major from the top-left.
        palette: the input's own values, ``palette[i]`` for colour index ``i``
            (indices are given in order of first appearance).
        pivot: index of the pivot cell (``y * width + x``), 0 = top-left.
    """

    width: int
    height: int
    cells: tuple[int, ...]
    palette: tuple[str, ...]
    pivot: int = 0

    @property
    def colours(self) -> int:
        """Number of distinct colours on the board."""
        return len(self.palette)

    @classmethod
    def from_values(cls, width: int, height: int, values, pivot: int = 0) -> "Board":
        """Build a board from ``height * width`` arbitrary hashable values (row-major).

        Values are remapped to colour indices in order of first appearance.

        Raises:
            ValueError: if the number of values is not ``width * height``.
        """
        values = list(values)
        if len(values) != width * height:
            raise ValueError(f"expected {width * height} values, got {len(values)}")
        index: dict = {}
        cells = tuple(index.setdefault(str(v), len(index)) for v in values)
        return cls(width, height, cells, tuple(index), pivot)

    def rows(self) -> list[list[str]]:
        """The board as rows of the input's own values."""
        w = self.width
        return [[self.palette[c] for c in self.cells[y * w:(y + 1) * w]] for y in range(self.height)]


_INT = re.compile(r"[+-]?\d+\Z")


def _tokens(text: str) -> Iterator[tuple[str, int]]:
    for lineno, line in enumerate(text.splitlines(), 1):
        for tok in line.split():
            yield tok, lineno


def parse_judge(text: str, source: str) -> Iterator[Case | InputError]:
    """Parse the HDU 4127 / NKOJ 2440 format: cases of ``n`` then ``n*n`` integers.

    Tokens may be separated by any whitespace (the HDU page shows the sample
    on one line); a case ``0`` ends the input, as does the end of the file
    after a complete case.  Values are arbitrary integers, any number of
    distinct ones.

    Yields:
        :class:`~searchkit.game.Case` items with a :class:`Board` as ``data``,
        and a fatal :class:`~searchkit.errors.InputError` (the last item) if the
        input breaks the format: a size that is not a positive integer, a value
        that is not an integer, the file ending inside a case, or input after
        the terminating ``0``.
    """
    toks = _tokens(text)
    case = 0
    for tok, line in toks:
        case += 1
        if not _INT.match(tok) or int(tok) < 0:
            yield InputError(f"expected the board size n (an integer >= 0), got {tok!r}",
                             source=source, line=line, case=case)
            return
        n = int(tok)
        if n == 0:
            for extra, xline in toks:
                yield InputError(f"unexpected {extra!r} after the terminating 0",
                                 source=source, line=xline, case=None)
                return
            return
        values = []
        for _ in range(n * n):
            try:
                tok2, line2 = next(toks)
            except StopIteration:
                yield InputError(
                    f"expected {n * n} colour values for a {n}x{n} board, the file ends after {len(values)}",
                    source=source, line=text.count("\n") + 1, case=case)
                return
            if not _INT.match(tok2):
                yield InputError(f"expected an integer colour value, got {tok2!r}",
                                 source=source, line=line2, case=case)
                return
            values.append(int(tok2))
        yield Case(case, Board.from_values(n, n, values), source, line)


def parse_lines(text: str, source: str, width: int | None = None) -> Iterator[Case | InputError]:
    """Parse one board per line, row-major, one character per cell (PC19 / ColorFill style).

    Each non-blank line is a board of digits or letters.  Without ``width``
    the board is square and the line's length must be a perfect square; with
    ``width`` the height is ``len(line) / width``.  A bad line is reported and
    the following lines are still read.

    Yields:
        :class:`~searchkit.game.Case` and non-fatal
        :class:`~searchkit.errors.InputError` items in file order.
    """
    case = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        case += 1
        if not line.isalnum():
            bad = next(ch for ch in line if not ch.isalnum())
            yield InputError(f"expected a row of digits or letters, got {bad!r}",
                             source=source, line=lineno, case=case, fatal=False)
            continue
        size = len(line)
        if width is None:
            w = int(size ** 0.5 + 0.5)
            if w * w != size:
                yield InputError(f"expected a square board, got {size} cells (use --width for W x H)",
                                 source=source, line=lineno, case=case, fatal=False)
                continue
        else:
            w = width
            if size % w:
                yield InputError(f"expected a multiple of width {w} cells, got {size}",
                                 source=source, line=lineno, case=case, fatal=False)
                continue
        yield Case(case, Board.from_values(w, size // w, line), source, lineno)


def detect_format(text: str) -> str:
    """``"lines"`` if the first non-blank line is one token of 4+ letters/digits, else ``"judge"``.

    A judge-format file starts with the board size ``n`` (a short integer),
    so a first line of one long token can only be a board written as a line.
    """
    for line in text.splitlines():
        toks = line.split()
        if toks:
            return "lines" if len(toks) == 1 and len(toks[0]) >= 4 and toks[0].isalnum() else "judge"
    return "judge"
