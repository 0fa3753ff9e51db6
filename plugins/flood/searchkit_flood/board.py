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


def _values(toks, w: int, h: int, text: str, source: str, case: int) -> list[int] | InputError:
    """Read the ``w * h`` integer colour values of one board from ``toks``, or return the error.

    A value that is not an integer gives a non-fatal error after the board's
    other tokens are read, so the following cases can still be parsed; the
    file ending inside the board is fatal.
    """
    values: list[int] = []
    bad = None
    last_line = 1
    for _ in range(w * h):
        nxt = next(toks, None)
        if nxt is None:
            return InputError(f"expected {w * h} colour values for a {w}x{h} board, the file ends after {len(values)}",
                              source=source, line=last_line, case=case)
        tok, last_line = nxt
        if not _INT.match(tok):
            if bad is None:
                bad = InputError(f"expected an integer colour value, got {_short(tok)}", source=source,
                                 line=last_line, case=case, fatal=False)
            continue
        values.append(int(tok))
    return values if bad is None else bad


def _short(token: str) -> str:
    """``repr`` of a token, cut to 20 characters for error messages."""
    return repr(token if len(token) <= 20 else token[:17] + "...")


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
            yield InputError(f"expected the board size n (an integer >= 0), got {_short(tok)}",
                             source=source, line=line, case=case)
            return
        n = int(tok)
        if n == 0:
            for extra, xline in toks:
                yield InputError(f"unexpected {extra!r} after the terminating 0",
                                 source=source, line=xline, case=None)
                return
            return
        values = _values(toks, n, n, text, source, case)
        if isinstance(values, InputError):
            yield values
            if values.fatal:
                return
            continue
        yield Case(case, Board.from_values(n, n, values), source, line)


def parse_rect(text: str, source: str) -> Iterator[Case | InputError]:
    """Parse rectangular boards in the judges' style: cases of ``W H`` then ``H*W`` integers.

    The judge format generalised to W x H boards: each case starts with the
    width ``W`` (columns) and the height ``H`` (rows), then the ``H`` rows of
    ``W`` integer values, row-major from the top-left.  As in the judge format
    tokens may be separated by any whitespace, and a case ``0 0`` (or a lone
    ``0``) ends the input, as does the end of the file after a complete case.
    Chosen with ``--input-format rect`` (never auto-detected: a first line
    ``W H`` could also start a judge-format file written on one line).

    Example (a 3 x 2 board, then the end)::

        3 2
        1 2 2
        3 3 1
        0 0

    Yields:
        :class:`~searchkit.game.Case` items with a :class:`Board` as ``data``,
        and a fatal :class:`~searchkit.errors.InputError` (the last item) if the
        input breaks the format: a size that is not an integer >= 0, only one of
        ``W`` and ``H`` zero, a value that is not an integer, the file ending
        inside a case, or input after the terminating ``0 0``.
    """
    toks = _tokens(text)
    case = 0
    for tok, line in toks:
        case += 1
        if not _INT.match(tok) or int(tok) < 0:
            yield InputError(f"expected the board width W (an integer >= 0), got {tok!r}",
                             source=source, line=line, case=case)
            return
        w = int(tok)
        nxt = next(toks, None)
        if w == 0 and (nxt is None or nxt[0] == "0"):
            rest = next(toks, None) if nxt is not None else None
            if rest is not None:
                yield InputError(f"unexpected {rest[0]!r} after the terminating 0 0",
                                 source=source, line=rest[1], case=None)
            return
        if nxt is None or not _INT.match(nxt[0]) or int(nxt[0]) <= 0 or w == 0:
            got = "the end of the file" if nxt is None else repr(nxt[0])
            yield InputError(f"expected the board height H (an integer >= 1) after width {w}, got {got}",
                             source=source, line=line if nxt is None else nxt[1], case=case)
            return
        h = int(nxt[0])
        values = _values(toks, w, h, text, source, case)
        if isinstance(values, InputError):
            yield values
            if values.fatal:
                return
            continue
        yield Case(case, Board.from_values(w, h, values), source, line)


#: ``--start`` choices: where the pivot cell is.
STARTS = ("top-left", "top-right", "bottom-left", "bottom-right", "centre")


def pivot_index(width: int, height: int, start: str) -> int:
    """The pivot cell's index ``y * width + x`` for a ``--start`` choice.

    ``centre`` is row ``height // 2``, column ``width // 2`` (0-based; on even
    sides the cell just below and right of the middle).  The choices follow
    the start positions ColorFill offers.

    Raises:
        ValueError: for a name not in :data:`STARTS`.
    """
    if start == "top-left":
        x, y = 0, 0
    elif start == "top-right":
        x, y = width - 1, 0
    elif start == "bottom-left":
        x, y = 0, height - 1
    elif start == "bottom-right":
        x, y = width - 1, height - 1
    elif start == "centre":
        x, y = width // 2, height // 2
    else:
        raise ValueError(f"unknown start {start!r} (choose from {', '.join(STARTS)})")
    return y * width + x


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
    for lineno, raw in enumerate(text.split("\n"), 1):  # not splitlines: a stray CR is an error, not a line
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
