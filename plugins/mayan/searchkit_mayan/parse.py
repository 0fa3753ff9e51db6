"""Read the NOIP 2011 Mayan input format, with errors that name the line.

Format (NOIP 2011 day 1 problem 3, Luogu P1312): the first line holds n, the
number of moves; then one line per column, left to right, each listing the
colours of that column bottom-up and ending with 0 (a lone ``0`` is an empty
column).  Colours are positive integers.  The judges read the input with
``scanf``, so the layout is free: the input is a stream of ASCII integer
tokens (``-?[0-9]+``, separated by spaces, tabs, CRs or newlines), and the
whole sample on one line is a valid input.  Errors in an input laid out one
column per line are reported by line as before; line numbers count every
line of the text (at ``\n``), starting at 1.
"""

from __future__ import annotations

import re

from .board import Shape, from_columns, run_cells, settle, to_columns

__all__ = ["MayanInputError", "parse"]


class MayanInputError(ValueError):
    """The input does not follow the Mayan format.

    Attributes:
        line: 1-based line number of the offending line.
        message: what was expected and what was found, one line, without the
            line number.

    ``str(err)`` is ``"line {line}: {message}"``.
    """

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


_INT = re.compile(r"-?[0-9]+\Z")  # ASCII only: no "+3", "1_0" or full-width digits, as scanf("%d")
_TOKEN = re.compile(r"[^ \t\n\r\v\f]+")
_MAX_COLOUR = 2 ** 31 - 1  # a C int


def _int_token(token: str, line: int, what: str, allowed: str | None = None) -> int:
    """``token`` as a C int >= 0; ``allowed`` (e.g. ``"in 1..5"``) replaces "at most 2147483647" in the error."""
    if not _INT.match(token):
        shown = token if len(token) <= 20 else token[:17] + "..."
        raise MayanInputError(line, f"{what} must be an integer, found {shown!r}")
    if token.startswith("-") and token.strip("-0"):
        raise MayanInputError(line, f"{what} must not be negative, found {token[:20]}")
    if len(token.lstrip("-0")) > 10 or int(token) > _MAX_COLOUR:
        raise MayanInputError(line, f"{what} must be {allowed or f'at most {_MAX_COLOUR}'}, found {token[:20]}"
                                    + ("..." if len(token) > 20 else ""))
    return int(token)


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank lines of ``text`` as (1-based line number, ASCII-whitespace tokens)."""
    found = [(i, _TOKEN.findall(line)) for i, line in enumerate(text.split("\n"), 1)]
    return [(i, tokens) for i, tokens in found if tokens]


def _stream_columns(lines, width: int, height: int) -> list[list[int]]:
    """Read the W columns after n as scanf does: tokens in any layout, each column ending with 0."""
    toks = [(t, i) for i, tokens in lines for t in tokens][1:]
    pos = 0
    columns: list[list[int]] = []
    for x in range(width):
        where = f"column {x + 1} (x={x})"
        col: list[int] = []
        while True:
            if pos == len(toks):
                last = toks[-1][1] if toks else lines[0][0]
                raise MayanInputError(last, f"expected {width} columns after n, each ending with 0; "
                                            f"the input ends in {where}")
            tok, line = toks[pos]
            pos += 1
            value = _int_token(tok, line, f"every colour of {where}")
            if value == 0:
                break
            if len(col) == height:
                raise MayanInputError(line, f"{where} has more than {height} blocks, the board is {height} high "
                                            f"(--height)")
            col.append(value)
        columns.append(col)
    if pos < len(toks):
        tok, line = toks[pos]
        raise MayanInputError(line, f"expected {width} columns after n, found more tokens from {tok[:20]!r} on "
                                    f"(use --width for a wider board)")
    return columns


def _line_columns(lines, width: int, height: int) -> list[list[int]]:
    """Read the columns one per line after n (the NOIP layout), raising the error of the first bad line."""
    first, tokens = lines[0]
    if len(tokens) > 1:
        raise MayanInputError(
            first, f"expected only the number of moves n on this line, found {len(tokens)} tokens"
        )
    column_lines = lines[1:]
    if len(column_lines) < width:
        last = column_lines[-1][0] if column_lines else first
        raise MayanInputError(
            last + 1,
            f"expected {width} column lines after n, found {len(column_lines)} (the board is {width} wide: --width)",
        )
    if len(column_lines) > width:
        raise MayanInputError(
            column_lines[width][0],
            f"expected {width} column lines after n, found {len(column_lines)} (the board is {width} wide: --width)",
        )
    columns: list[list[int]] = []
    for x, (i, tokens) in enumerate(column_lines):
        where = f"column {x + 1} (x={x})"
        values = [_int_token(t, i, f"every colour of {where}") for t in tokens]
        if 0 not in values:
            raise MayanInputError(i, f"{where} must end with 0, found no 0")
        end = values.index(0)
        if end != len(values) - 1:
            raise MayanInputError(
                i, f"{where} has {len(values) - end - 1} token(s) after its terminating 0"
            )
        if end > height:
            raise MayanInputError(i, f"{where} has {end} blocks, the board is {height} high (--height)")
        columns.append(values[:end])
    return columns


def parse(text: str, *, width: int = 5, height: int = 7, run: int = 3, max_moves: int = 5,
          settle_start: bool = False) -> tuple[int, list[list[int]]]:
    """Parse one Mayan case.

    Args:
        text: the whole input.
        width, height: board size W x H (NOIP: 5 x 7).
        run: minimum run length R, used to check the start board (NOIP: 3).
        max_moves: the largest n accepted (NOIP: 5).
        settle_start: if False a run on the start board is an error; if True
            the start board is settled (runs cleared, cascades played) and the
            settled columns are returned.

    Returns:
        ``(n, columns)``: n with 1 <= n <= ``max_moves``; W lists of colours,
        bottom-up, without the terminating 0.

    Raises:
        MayanInputError: empty input; n not an integer or out of
        1..``max_moves``; a token that is not a non-negative ASCII integer
        (or above 2**31 - 1); the input ending before W columns, each ended
        by 0, or going on after them; a column taller than H; a run on the
        start board (unless ``settle_start``).  In an input laid out one
        column per line (n alone on the first line), a layout error names
        the line as the NOIP layout sees it (a column line without its 0, a
        missing column line, ...).
    """
    lines = _lines(text)
    if not lines:
        raise MayanInputError(1, "empty input: expected the number of moves n on the first line")
    first, tokens = lines[0]
    n = _int_token(tokens[0], first, "the number of moves n", f"in 1..{max_moves}")
    if not 1 <= n <= max_moves:
        raise MayanInputError(first, f"the number of moves n must be in 1..{max_moves}, found {n}")
    try:
        columns = _stream_columns(lines, width, height)
    except MayanInputError:
        if len(tokens) == 1:  # laid out one column per line: report the line-based error
            _line_columns(lines, width, height)
        raise
    column_lines = {}  # column x -> the line it starts on, for errors about the board
    k = 0
    toks = [i for i, tokens in lines for _ in tokens][1:]
    for x, col in enumerate(columns):
        column_lines[x] = toks[k]
        k += len(col) + 1
    top = max((c for col in columns for c in col), default=1)
    shape = Shape(width, height, run, max(4, top.bit_length()))
    board = from_columns(columns, shape)
    cells = run_cells(board, shape)
    if cells:
        if not settle_start:
            x, y = cells[0]
            colour = shape.cell(board, x, y)
            raise MayanInputError(
                column_lines[x],
                f"the start board already has a run of {run} or more: colour {colour} at "
                f"(x={x}, y={y}) and {len(cells) - 1} more block(s) in runs; "
                f"expected a settled board (or use the settle-start option)",
            )
        columns = [[c for c in col if c] for col in to_columns(settle(board, shape), shape)]
    return n, columns
