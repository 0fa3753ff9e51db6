"""Flood-It boards and the judges' input formats.

Rules (HDU 4127 "Flood-it!", 2011 Asia Fuzhou Regional; NKOJ 2440): an
H x W board of colours; a move picks a colour and recolours the 4-connected
same-colour region containing the pivot cell (top-left by default); the goal
is a one-colour board in the fewest moves.  A one-colour board needs 0.
"""

from __future__ import annotations

import math
import re
from array import array
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


#: A judge's integer token: ASCII ``-?[0-9]+`` only (no ``+``, no ``_``, no
#: full-width or other Unicode digits), as C's ``scanf("%d")`` reads them.
_INT = re.compile(r"-?[0-9]+\Z")
#: scanf's whitespace: tokens are separated by these ASCII characters only.
_TOKEN = re.compile(r"[^ \t\n\r\v\f]+")
#: Sizes with more digits than this can never be matched by the values in a file.
_MAX_SIZE_DIGITS = 9


class Tokens:
    """The whitespace-separated tokens of a text and the 1-based line of each.

    Lines are counted at ``\n`` only; ``\r``, ``\t``, ``\v`` and ``\f`` separate
    tokens like a space, as for ``scanf``.  ``items[i]`` is on line ``lines[i]``.
    """

    __slots__ = ("items", "lines")

    def __init__(self, text: str) -> None:
        self.items: list[str] = []
        self.lines = array("I")
        for lineno, line in enumerate(text.split("\n"), 1):
            found = _TOKEN.findall(line)
            if found:
                self.items.extend(found)
                self.lines.extend([lineno] * len(found))

    def __len__(self) -> int:
        return len(self.items)


def _size(token: str) -> int | None:
    """A size token's value: ``None`` unless ASCII ``-?[0-9]+``; -1 for any negative;
    ``10 ** 9`` or more for a token of more than :data:`_MAX_SIZE_DIGITS` digits."""
    if not _INT.match(token):
        return None
    if token.startswith("-"):
        return -1 if token.strip("-0") else 0
    digits = token.lstrip("0")
    return 10 ** _MAX_SIZE_DIGITS if len(digits) > _MAX_SIZE_DIGITS else int(digits or "0")


def _canon(token: str) -> str:
    """The integer value of a colour token as a canonical decimal string (``"007"`` -> ``"7"``).

    Without ``int()``, so a 5000-digit token is a colour too (Python's ``int``
    refuses strings above 4300 digits).
    """
    neg = token.startswith("-")
    digits = token.lstrip("-").lstrip("0") or "0"
    return "-" + digits if neg and digits != "0" else digits


def _short(token: str) -> str:
    """``repr`` of a token, cut to 20 characters for error messages."""
    return repr(token if len(token) <= 20 else token[:17] + "...")


def _board(toks: Tokens, i: int, w: int, h: int, source: str, case: int, line: int) -> Case | InputError:
    """The board of ``w * h`` values at ``toks.items[i:]`` (present), or a non-fatal error on the first bad one."""
    canon: dict[str, str] = {}  # boards repeat a few distinct tokens: check and canonicalise each once
    values = []
    for k, tok in enumerate(toks.items[i:i + w * h]):
        value = canon.get(tok)
        if value is None:
            if not _INT.match(tok):
                return InputError(f"expected an integer colour value, got {_short(tok)}", source=source,
                                  line=toks.lines[i + k], case=case, fatal=False)
            value = canon[tok] = _canon(tok)
        values.append(value)
    return Case(case, Board.from_values(w, h, values), source, line)


def _too_few(toks: Tokens, i: int, w: str, h: str, source: str, case: int, line: int) -> InputError:
    """The fatal error of a ``w x h`` board (sizes as written) whose values the file cannot hold."""
    have = len(toks) - i
    need = _size(w) * _size(h)
    need_text = str(need) if need < 10 ** (2 * _MAX_SIZE_DIGITS) else f"at least 10^{2 * _MAX_SIZE_DIGITS}"
    return InputError(f"expected {need_text} colour values for a {w[:12]}x{h[:12]} board, the file ends after {have}",
                      source=source, line=line, case=case)


def _ignored(toks: Tokens, i: int, terminator: str, line: int, source: str) -> InputError:
    """The warning for tokens after a terminator: a judge stops reading there."""
    extra = len(toks) - i
    return InputError(f"ignored {extra} token{'s' if extra > 1 else ''} after the terminating {terminator} "
                      f"(line {line})",
                      source=source, line=toks.lines[i], fatal=False, warning=True)


def parse_judge(text: str, source: str, toks: Tokens | None = None) -> Iterator[Case | InputError]:
    """Parse the HDU 4127 / NKOJ 2440 format: cases of ``n`` then ``n*n`` integers.

    Tokens may be separated by any ASCII whitespace (the HDU page shows the
    sample on one line); a case ``0`` ends the input, as does the end of the
    file after a complete case.  Values are ASCII integers ``-?[0-9]+`` (as
    ``scanf("%d")`` reads them), any number of distinct ones.

    Args:
        toks: the text's :class:`Tokens`, if already computed.

    Yields:
        :class:`~searchkit.game.Case` items with a :class:`Board` as ``data``;
        a non-fatal :class:`~searchkit.errors.InputError` for a case with a
        value that is not an integer (the next case is still read); a fatal
        one (the last item) for a size that is not an integer >= 0 or a file
        that ends inside a case (an ``n`` whose ``n*n`` values the file cannot
        hold is reported at once, nothing is allocated); and a warning
        (``warning=True``, the last item) for tokens after the terminating ``0``.
    """
    toks = toks if toks is not None else Tokens(text)
    i, case, count = 0, 0, len(toks)
    while i < count:
        tok, line = toks.items[i], toks.lines[i]
        i += 1
        case += 1
        n = _size(tok)
        if n is None or n < 0:
            yield InputError(f"expected the board size n (an integer >= 0), got {_short(tok)}",
                             source=source, line=line, case=case)
            return
        if n == 0:
            if i < count:
                yield _ignored(toks, i, "0", line, source)
            return
        if n * n > count - i:
            yield _too_few(toks, i, tok, tok, source, case, line)
            return
        yield _board(toks, i, n, n, source, case, line)
        i += n * n


def parse_rect(text: str, source: str, toks: Tokens | None = None) -> Iterator[Case | InputError]:
    """Parse rectangular boards in the judges' style: cases of ``W H`` then ``H*W`` integers.

    The judge format generalised to W x H boards: each case starts with the
    width ``W`` (columns) and the height ``H`` (rows), then the ``H`` rows of
    ``W`` integer values, row-major from the top-left.  As in the judge format
    tokens may be separated by any whitespace, and a case ``0 0`` (or a lone
    ``0`` at the end) ends the input, as does the end of the file after a
    complete case.  Chosen with ``--input-format rect`` or the header line
    ``# searchkit flood rect`` (which ``generate`` writes); never guessed
    from the content, since a first line ``W H`` could also start a
    judge-format file written on one line.

    Example (a 3 x 2 board, then the end)::

        3 2
        1 2 2
        3 3 1
        0 0

    Yields:
        :class:`~searchkit.game.Case` items with a :class:`Board` as ``data``;
        a non-fatal :class:`~searchkit.errors.InputError` for a case with a
        value that is not an integer; a fatal one (the last item) for a size
        that is not an integer >= 0, only one of ``W`` and ``H`` zero, or the
        file ending inside a case (found before anything is allocated); and a
        warning (``warning=True``) for tokens after the terminating ``0 0``.
    """
    toks = toks if toks is not None else Tokens(text)
    i, case, count = 0, 0, len(toks)
    while i < count:
        tok, line = toks.items[i], toks.lines[i]
        i += 1
        case += 1
        w = _size(tok)
        if w is None or w < 0:
            yield InputError(f"expected the board width W (an integer >= 0), got {_short(tok)}",
                             source=source, line=line, case=case)
            return
        nxt = toks.items[i] if i < count else None
        h = _size(nxt) if nxt is not None else None
        if w == 0 and (nxt is None or h == 0):
            i += nxt is not None
            if i < count:
                yield _ignored(toks, i, "0 0", toks.lines[i - 1], source)
            return
        if h is None or h <= 0 or w == 0:
            got = "the end of the file" if nxt is None else _short(nxt)
            yield InputError(f"expected the board height H (an integer >= 1) after width {w}, got {got}",
                             source=source, line=line if nxt is None else toks.lines[i], case=case)
            return
        i += 1
        if w * h > count - i:
            yield _too_few(toks, i, tok, nxt, source, case, line)
            return
        yield _board(toks, i, w, h, source, case, line)
        i += w * h


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


#: A row of the lines format: one ASCII digit or letter per cell.
_ROW = re.compile(r"[0-9a-zA-Z]+\Z")
#: What the lines format strips from each line's ends (a CRLF line's CR included).
_ASCII_SPACE = " \t\r\v\f"


def _row_error(line: str) -> str:
    bad = next(ch for ch in line if not ("0" <= ch <= "9" or "a" <= ch <= "z" or "A" <= ch <= "Z"))
    if bad == "\r":
        return "a carriage return inside the line (only \\n ends a line); expected a row of digits or letters"
    return f"expected a row of digits or letters, got {bad!r} (one ASCII 0-9, a-z or A-Z per cell)"


def parse_lines(text: str, source: str, width: int | None = None) -> Iterator[Case | InputError]:
    """Parse one board per line, row-major, one character per cell (PC19 / ColorFill style).

    Each non-blank line is a board of ASCII digits or letters (``[0-9a-zA-Z]``;
    a CR inside a line, as opposed to a CRLF line end, is an error).  Without
    ``width`` the board is square and the line's length must be a perfect
    square; with ``width`` the height is ``len(line) / width``.  A bad line is
    reported and the following lines are still read.

    Yields:
        :class:`~searchkit.game.Case` and non-fatal
        :class:`~searchkit.errors.InputError` items in file order.
    """
    case = 0
    for lineno, raw in enumerate(text.split("\n"), 1):  # not splitlines: a stray CR is an error, not a line
        line = raw.strip(_ASCII_SPACE)
        if not line:
            continue
        case += 1
        if not _ROW.match(line):
            yield InputError(_row_error(line), source=source, line=lineno, case=case, fatal=False)
            continue
        w = _line_width(len(line), width)
        if w is None:
            message = (f"expected a square board, got {len(line)} cells (use --width for W x H)" if width is None
                       else f"expected a multiple of width {width} cells, got {len(line)}")
            yield InputError(message, source=source, line=lineno, case=case, fatal=False)
            continue
        yield Case(case, Board.from_values(w, len(line) // w, line), source, lineno)


def _line_width(size: int, width: int | None) -> int | None:
    """The width of a lines-format board of ``size`` cells, or ``None`` if it cannot have one."""
    if width is None:
        w = math.isqrt(size)
        return w if w * w == size else None
    return width if size % width == 0 else None
