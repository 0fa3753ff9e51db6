"""Flood-It boards and the judges' input formats.

Rules (HDU 4127 "Flood-it!", 2011 Asia Fuzhou Regional; NKOJ 2440): an
H x W board of colours; a move picks a colour and recolours the 4-connected
same-colour region containing the pivot cell (top-left by default); the goal
is a one-colour board in the fewest moves.  A one-colour board needs 0.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Generator, Iterator

import attrs

from searchkit.errors import InputError
from searchkit.game import Case
from searchkit.limits import LimitReached, reserve, setup_check


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
        from searchkit.helpers.grid import rows_of  # not at import: the grid helpers' attrs classes cost a solve

        return [[self.palette[c] for c in row] for row in rows_of(self.cells, self.width)]


#: A judge's integer token: ASCII ``-?[0-9]+`` only (no ``+``, no ``_``, no
#: full-width or other Unicode digits), as C's ``scanf("%d")`` reads them.
_INT = re.compile(r"-?[0-9]+\Z")
#: scanf's whitespace: tokens are separated by these ASCII characters only.
_TOKEN = r"[^ \t\n\r\v\f]+"  # compiled on first use (re's cache): most inputs never need it


def _tokens(line: str) -> list[str]:
    """``re.findall(_TOKEN, line)``: by ``line.split()``, several times faster, where the two agree.

    On ASCII text ``str.split()`` separates at scanf's six whitespace
    characters and at ``\x1c``-``\x1f``; a line holding none of those four
    splits the same both ways.
    """
    # (``in`` runs at memchr's speed, some 50 times a regular expression's on a line with none of the four)
    if line.isascii() and not ("\x1c" in line or "\x1d" in line or "\x1e" in line or "\x1f" in line):
        return line.split()
    return re.findall(_TOKEN, line)


#: scanf's separators (the characters ``_TOKEN`` excludes).
_SEPARATORS = " \t\n\r\v\f"


def _next_separator(line: str, at: int) -> int:
    """The index of the first separator in ``line`` at or after ``at`` (``len(line)`` if none).

    Looks in windows that double, so the cost is proportional to the distance
    found, at ``str.find``'s speed.
    """
    n, width = len(line), 64
    while at < n:
        end = min(n, at + width)
        found = [i for i in (line.find(c, at, end) for c in _SEPARATORS) if i >= 0]
        if found:
            return min(found)
        at, width = end, width * 2
    return n


def _long_tokens(line: str, piece: int = 0) -> Iterator[list[str]]:
    """The tokens of ``line`` as :func:`_tokens` finds them, in order, a piece of the line at a time.

    Each piece is about ``piece`` characters (default :data:`LONG_LINE`),
    extended to the next separator so that no token is cut; so a list holds
    at most that many characters' tokens, however long the line.  Each piece
    is split by ``str.split()`` where that agrees with scanf (about 1 ns a
    character, against some 15 ns for the regular expression on a run of
    spaces).
    """
    piece = piece or LONG_LINE
    a, n = 0, len(line)
    while a < n:
        b = a + piece
        if b < n:
            b = _next_separator(line, b)
        yield _tokens(line[a:b])
        a = b
#: Sizes with more digits than this can never be matched by the values in a file.
_MAX_SIZE_DIGITS = 9


def text_lines(text: str) -> Callable[[], Iterator[str]]:
    """A line source over a text held in memory: ``lines()`` splits it at ``\n`` each time.

    The parsers take line sources, so a file can be read again from disk on
    every pass (:meth:`searchkit.machinery.reading.LineSource.lines`) instead.
    """
    return lambda: iter(text.split("\n"))


#: Lines longer than this are tokenised a piece of about this many characters
#: at a time (:func:`_long_tokens`) instead of all at once (a list of every
#: token of a 40 MB line would take some 300 MB).
LONG_LINE = 1 << 16


def _count_tokens(line: str) -> int:
    """The number of tokens on ``line``, without listing them when it is long."""
    if len(line) > LONG_LINE:
        return sum(map(len, _long_tokens(line)))
    return len(_tokens(line))


class Tokens:
    """The whitespace-separated tokens of a line source, counted in one pass and read forward.

    Lines are counted at ``\n`` only; ``\r``, ``\t``, ``\v`` and ``\f``
    separate tokens like a space, as for ``scanf``.  Building it reads the
    source once to count (``len(toks)``, the lines of the first and last
    token, and ``held_lines``, the lines that hold a token); :meth:`cursor`
    reads it again from the start.  Nothing but one line's tokens is held
    (a line longer than :data:`LONG_LINE` characters, such as a judge file
    written on one line, is read a batch of tokens at a time), so memory
    does not grow with the number of tokens.
    """

    __slots__ = ("source", "count", "first_line", "last_line", "held_lines")

    def __init__(self, lines: Callable[[], Iterator[str]] | str) -> None:
        self.source = text_lines(lines) if isinstance(lines, str) else lines
        count = first = last = held = 0
        for lineno, found in enumerate(map(_count_tokens, self.source()), 1):
            if found:
                count += found
                first = first or lineno
                last = lineno
                held += 1
        self.count, self.first_line, self.last_line, self.held_lines = count, first, last, held

    @property
    def stream(self) -> bool:
        """Whether the text has no layout of rows: all its tokens on one line (the HDU sample), or one a line."""
        return self.first_line == self.last_line or self.held_lines == self.count

    def __len__(self) -> int:
        return self.count

    def cursor(self) -> "Cursor":
        """A reader at the first token."""
        return Cursor(self.source())


class Cursor:
    """Reads tokens forward: ``i`` tokens taken so far, ``last`` the line of the last one taken,
    ``line(k)`` the line of the k-th one ahead."""

    __slots__ = ("i", "last", "_lines", "_buf", "_at", "_buf_lines", "_long", "_long_line")

    def __init__(self, lines: Iterator[str]) -> None:
        self.i = self.last = 0
        self._lines = enumerate(lines, 1)
        self._buf: list[str] = []  # tokens ahead, from _at on
        self._buf_lines: list[int] = []
        self._at = 0
        self._long = None  # the match iterator of a long line being read in batches
        self._long_line = 0

    def _fill(self, k: int) -> bool:
        """Have at least ``k`` tokens ahead; false at the end of the source."""
        while len(self._buf) - self._at < k:
            if self._at:
                del self._buf[:self._at], self._buf_lines[:self._at]
                self._at = 0
            if self._long is not None:
                found = next(self._long, None)
                if found is not None:
                    self._buf.extend(found)
                    self._buf_lines.extend([self._long_line] * len(found))
                    continue
                self._long = None
            for lineno, line in self._lines:
                if len(line) > LONG_LINE:
                    self._long, self._long_line = _long_tokens(line), lineno
                    break
                found = _tokens(line)
                if found:
                    self._buf.extend(found)
                    self._buf_lines.extend([lineno] * len(found))
                    break
            else:
                return False
        return True

    def peek(self, k: int = 0) -> str | None:
        """The token ``k`` ahead (0: the next), or ``None`` past the end."""
        return self._buf[self._at + k] if self._fill(k + 1) else None

    def line(self, k: int = 0) -> int:
        """The line of the token ``k`` ahead (present)."""
        self._fill(k + 1)
        return self._buf_lines[self._at + k]

    def take(self, k: int) -> tuple[list[str], list[int]]:
        """The next ``k`` tokens (present) and their lines."""
        self._fill(k)
        a = self._at
        self._at += k
        self.i += k
        if k:
            self.last = self._buf_lines[self._at - 1]
        return self._buf[a:a + k], self._buf_lines[a:a + k]

    def skip(self, k: int) -> None:
        """Pass over the next ``k`` tokens (present), holding at most a line's worth."""
        while k:
            self._fill(1)
            step = min(k, len(self._buf) - self._at)
            self._at += step
            self.i += step
            self.last = self._buf_lines[self._at - 1]
            k -= step


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


#: Bytes a cell that reading one board may hold at most: the colour indices as a list and then as the
#: board's tuple (8 B a cell each, the list's spare capacity included), and a batch of tokens.  A board is
#: charged ``READ_BYTES_PER_CELL * W * H`` with :func:`~searchkit.limits.reserve` before it is read (a test
#: measures reading's peak with tracemalloc against it).
READ_BYTES_PER_CELL = 24
#: Tokens read between two checks of the case's time limit (a few milliseconds of work).
_CHECK_TOKENS = 1 << 14


def _boards(cur: Cursor, w: int, h: int, source: str, case: int, line: int, stream: bool) -> Generator:
    """:func:`_board`, or the fatal error of a board whose values are not laid out one row to a line.

    The judges read a token stream; so does this parser, and in a text of
    several lines it takes a board only as written one row of ``w`` values
    to a line, or all on one line, its last value ending its line.  Laid out
    otherwise (a row split over lines, two rows on a line, a line going on
    past the board) the size is likely wrong, and the token stream then reads
    the next cases from the wrong place: a later case misread, or dropped
    after a colour ``0`` taken for the terminator.  Where the next case
    starts cannot be told, so the case is refused and the reading ends (the
    cases before it stand): the generator returns true after that fatal
    error.  ``stream``: the text has no layout to check (:attr:`Tokens.stream`:
    one line, as the HDU sample, or one token a line).
    """
    item, laid_out = _board(cur, w, h, source, case, line)
    if stream or laid_out is None:
        yield item
        return False
    yield InputError(f"the {w}x{h} board is not laid out one row of {w} values to a line, nor on one line of its "
                     f"own (its size is on line {line}): is the size right? Read as a token stream, where the next "
                     f"case starts cannot be told, so later cases are not read (lay out one row to a line, or the "
                     f"whole input on one line)", source=source, line=laid_out, case=case)
    return True


def _board(cur: Cursor, w: int, h: int, source: str, case: int, line: int) -> tuple[Case | InputError, int | None]:
    """The board of the next ``w * h`` values of ``cur`` (present), or a non-fatal error on the first bad one.

    Reads under the case's limits: the board is charged
    :data:`READ_BYTES_PER_CELL` a cell before anything is read
    (:func:`~searchkit.limits.reserve`), and the clock is checked every
    :data:`_CHECK_TOKENS` values (:func:`~searchkit.limits.setup_check`).
    When a limit stops it, or a value is bad, the rest of the board's values
    are passed over (a line's tokens held at a time), so the next case is
    read from its start; the rows of the values passed over are not
    checked, only that the last one ends its line.

    Returns:
        The :class:`~searchkit.game.Case` (:meth:`Case.unread
        <searchkit.game.Case.unread>` when a limit stopped it) or the
        error, and ``None`` when the values were laid out one row of ``w``
        to a line, or all on one line, the last one ending its line (see
        :func:`_boards`); else the line where that layout breaks.
    """
    n = w * h
    taken = 0
    first = cur.line()  # the line of the first value
    broken = None  # the line of the first row not on a line of its own
    last = 0  # the line of the last value read

    def layout() -> int | None:  # the first line where the layout breaks, or None
        end = cur.last  # the line of the board's last value (read or passed over)
        if first != end and broken is not None:
            return broken
        return end if cur.peek() is not None and cur.line() == end else None  # the line goes on past the board

    try:
        reserve(n * READ_BYTES_PER_CELL)
        colour: dict[str, int] = {}  # token -> colour index: boards repeat a few distinct tokens
        palette: dict[str, int] = {}  # canonical value -> colour index, in order of first appearance
        cells: list[int] = []
        rows = max(1, _CHECK_TOKENS // w)  # whole rows a batch
        while taken < n:
            setup_check()
            k = min(rows * w, n - taken)
            tokens, lines = cur.take(k)
            taken += k
            for r in range(0, k if broken is None else 0, w):  # a row on one line, not the one the row before ends on
                if lines[r] != lines[r + w - 1] or lines[r] == (lines[r - 1] if r else last):
                    broken = lines[r]
                    break
            last = lines[-1]
            before = len(cells)
            try:
                cells.extend(map(colour.__getitem__, tokens))
            except KeyError:  # a token not seen yet in this board: check it, then the batch again
                del cells[before:]
                for at, tok in enumerate(tokens):
                    if tok not in colour:
                        if not _INT.match(tok):
                            cur.skip(n - taken)
                            return InputError(f"expected an integer colour value, got {_short(tok)}",
                                              source=source, line=lines[at], case=case, fatal=False), layout()
                        colour[tok] = palette.setdefault(_canon(tok), len(palette))
                cells.extend(map(colour.__getitem__, tokens))
    except LimitReached as stop:
        cur.skip(n - taken)
        return Case.unread(case, source, line, stop.status), layout()
    board = Board(w, h, tuple(cells), tuple(palette), 0)
    return Case(case, board, source, line), layout()


def _cut(size: str) -> str:
    """A size token for a message: whole up to 12 characters, else its first 9 and ``...``.

    Leading zeros of a long token are dropped first: ``000...0003`` is 3, not ``000000000...``.
    """
    if len(size) > 12:
        size = size.lstrip("0") or "0"
    return size if len(size) <= 12 else size[:9] + "..."


def _too_few(have: int, w: str, h: str, source: str, case: int, line: int) -> InputError:
    """The fatal error of a ``w x h`` board (sizes as written) whose values the file cannot hold (it has ``have``)."""
    # exact from the tokens themselves (_size caps a long one at 10^9), and only a power of ten for sizes too
    # long to multiply cheaply: a 3000000000x2 board needs 6000000000 values, not 2000000000
    dw, dh = w.lstrip("0"), h.lstrip("0")
    if len(dw) <= 40 and len(dh) <= 40:
        need_text = str(int(dw or "0") * int(dh or "0"))
    else:
        need_text = f"at least 10^{max(len(dw) - 1, 0) + max(len(dh) - 1, 0)}"
    return InputError(f"expected {need_text} colour values for a {_cut(w)}x{_cut(h)} board, the file ends after {have}",
                      source=source, line=line, case=case)


def _after_end(extra: int, at: int, terminator: str, line: int, source: str) -> InputError:
    """The error of ``extra`` tokens after a terminator on ``line`` (the first extra on line ``at``).

    A judge stops reading at the terminator, but what follows it may be
    cases (two files joined; a size read wrong, so that a colour ``0`` was
    taken for the terminator), which would be dropped: refused, not ignored.
    """
    return InputError(f"{extra} token{'s' if extra > 1 else ''} after the terminating {terminator} (line {line}) "
                      f"{'are' if extra > 1 else 'is'} not read: a judge stops at the terminator, but they may be "
                      f"cases (a wrong size, or two files joined); remove them, or the terminator",
                      source=source, line=at)


def parse_judge(text, source: str, toks: Tokens | None = None) -> Iterator[Case | InputError]:
    """Parse the HDU 4127 / NKOJ 2440 format: cases of ``n`` then ``n*n`` integers.

    Tokens may be separated by any ASCII whitespace (the HDU page shows the
    sample on one line); a case ``0`` ends the input, as does the end of the
    file after a complete case.  Values are ASCII integers ``-?[0-9]+`` (as
    ``scanf("%d")`` reads them), any number of distinct ones.  Unless the
    whole text is one line, each board is laid out one row to a line, or all
    on one line, and ends its line (:func:`_boards`).

    Args:
        text: the input, as a ``str`` or a line source (``lines()`` -> iterator).
        toks: its :class:`Tokens`, if already counted.

    Yields:
        :class:`~searchkit.game.Case` items with a :class:`Board` as ``data``;
        a non-fatal :class:`~searchkit.errors.InputError` for a case with a
        value that is not an integer (the next case is still read); a fatal
        one (the last item) for a size that is not an integer >= 0 or a file
        that ends inside a case (an ``n`` whose ``n*n`` values the file cannot
        hold is reported at once, nothing is allocated), for tokens after
        the terminating ``0``, and for a case whose values are not laid out
        one row to a line (nor all on one line), see :func:`_boards`.
    """
    toks = toks if toks is not None else Tokens(text)
    cur, case, count = toks.cursor(), 0, len(toks)
    stream = toks.stream
    while cur.i < count:
        line = cur.line()
        tok = cur.take(1)[0][0]
        case += 1
        n = _size(tok)
        if n is None or n < 0:
            yield InputError(f"expected the board size n (an integer >= 0), got {_short(tok)}",
                             source=source, line=line, case=case)
            return
        if n == 0:
            if cur.i < count:
                yield _after_end(count - cur.i, cur.line(), "0", line, source)
            return
        if n * n > count - cur.i:
            yield _too_few(count - cur.i, tok, tok, source, case, line)
            return
        if (yield from _boards(cur, n, n, source, case, line, stream)):
            return


def parse_rect(text, source: str, toks: Tokens | None = None) -> Iterator[Case | InputError]:
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
        file ending inside a case (found before anything is allocated), for
        tokens after the terminating ``0 0``, and for a case not laid out one
        row to a line (nor all on one line).
    """
    toks = toks if toks is not None else Tokens(text)
    cur, case, count = toks.cursor(), 0, len(toks)
    stream = toks.stream
    while cur.i < count:
        line = cur.line()
        tok = cur.take(1)[0][0]
        case += 1
        w = _size(tok)
        if w is None or w < 0:
            yield InputError(f"expected the board width W (an integer >= 0), got {_short(tok)}",
                             source=source, line=line, case=case)
            return
        nxt = cur.peek()
        h = _size(nxt) if nxt is not None else None
        if w == 0 and (nxt is None or h == 0):
            last = line
            if nxt is not None:
                last = cur.line()
                cur.skip(1)
            if cur.i < count:
                yield _after_end(count - cur.i, cur.line(), "0 0", last, source)
            return
        if h is None or h <= 0 or w == 0:
            got = "the end of the file" if nxt is None else _short(nxt)
            yield InputError(f"expected the board height H (an integer >= 1) after width {_cut(tok)}, got {got}",
                             source=source, line=line if nxt is None else cur.line(), case=case)
            return
        cur.skip(1)
        if w * h > count - cur.i:
            yield _too_few(count - cur.i, tok, nxt, source, case, line)
            return
        if (yield from _boards(cur, w, h, source, case, line, stream)):
            return


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
    return y * width + x  # searchkit.helpers.grid.index, whose module a solve need not import


#: A row of the lines format: one ASCII digit or letter per cell.
_ROW = re.compile(r"[0-9a-zA-Z]+\Z")
#: What the lines format strips from each line's ends (a CRLF line's CR included).
_ASCII_SPACE = " \t\r\v\f"


def _row_error(line: str) -> str:
    bad = next(ch for ch in line if not ("0" <= ch <= "9" or "a" <= ch <= "z" or "A" <= ch <= "Z"))
    if bad == "\r":
        return "a carriage return inside the line (only \\n ends a line); expected a row of digits or letters"
    return f"expected a row of digits or letters, got {bad!r} (one ASCII 0-9, a-z or A-Z per cell)"


def parse_lines(text, source: str, width: int | None = None) -> Iterator[Case | InputError]:
    """Parse one board per line, row-major, one character per cell (PC19 / ColorFill style).

    Each non-blank line is a board of ASCII digits or letters (``[0-9a-zA-Z]``;
    a CR inside a line, as opposed to a CRLF line end, is an error).  Without
    ``width`` the board is square and the line's length must be a perfect
    square; with ``width`` the height is ``len(line) / width``.  A bad line is
    reported and the following lines are still read.

    Args:
        text: the input, as a ``str`` or a line source (``lines()`` -> iterator).

    Yields:
        :class:`~searchkit.game.Case` and non-fatal
        :class:`~searchkit.errors.InputError` items in file order.
    """
    lines = text_lines(text) if isinstance(text, str) else text
    case = 0
    for lineno, raw in enumerate(lines(), 1):  # split at \n only: a stray CR is an error, not a line
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
        try:
            yield Case(case, _line_board(line, w), source, lineno)
        except LimitReached as stop:
            yield Case.unread(case, source, lineno, stop.status)


def _line_board(line: str, w: int) -> Board:
    """The board of a checked lines-format row ``line`` of width ``w``: as ``Board.from_values(w, h, line)``.

    Reads under the case's limits (:func:`~searchkit.limits.reserve` for
    :data:`READ_BYTES_PER_CELL` a cell, :func:`~searchkit.limits.setup_check`
    every :data:`_CHECK_TOKENS` cells), translating the characters to colour
    indices a slice at a time.

    Raises:
        LimitReached: when the case's time or memory limit stops it.
    """
    reserve(len(line) * READ_BYTES_PER_CELL)
    palette = sorted(set(line), key=line.index)  # the colours in order of first appearance
    table = {ord(ch): chr(i) for i, ch in enumerate(palette)}
    cells = bytearray()
    for at in range(0, len(line), _CHECK_TOKENS):
        setup_check()
        cells += line[at:at + _CHECK_TOKENS].translate(table).encode("latin-1")
    return Board(w, len(line) // w, tuple(cells), tuple(palette), 0)


def _line_width(size: int, width: int | None) -> int | None:
    """The width of a lines-format board of ``size`` cells, or ``None`` if it cannot have one."""
    if width is None:
        w = math.isqrt(size)
        return w if w * w == size else None
    return width if size % width == 0 else None
