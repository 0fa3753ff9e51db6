"""Read the NOIP 2011 Mayan input format, with errors that name the line.

Format (NOIP 2011 day 1 problem 3, Luogu P1312): the first line holds n, the
number of moves; then one line per column, left to right, each listing the
colours of that column bottom-up and ending with 0 (a lone ``0`` is an empty
column).  Colours are positive integers.  Blank lines are ignored; line
numbers in errors count every line of the text, starting at 1.
"""

from __future__ import annotations

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


def _int_token(token: str, line: int, what: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise MayanInputError(line, f"{what} must be an integer, found {token!r}") from None
    if value < 0:
        raise MayanInputError(line, f"{what} must not be negative, found {value}")
    return value


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
        1..``max_moves``; extra tokens after n; fewer or more than W column
        lines; a token that is not a non-negative integer; a column without
        its terminating 0 or with tokens after it; a column taller than H; a
        run on the start board (unless ``settle_start``).
    """
    lines = [(i, line.split()) for i, line in enumerate(text.splitlines(), 1)]
    lines = [(i, tokens) for i, tokens in lines if tokens]
    if not lines:
        raise MayanInputError(1, "empty input: expected the number of moves n on the first line")
    first, tokens = lines[0]
    n = _int_token(tokens[0], first, "the number of moves n")
    if not 1 <= n <= max_moves:
        raise MayanInputError(first, f"the number of moves n must be in 1..{max_moves}, found {n}")
    if len(tokens) > 1:
        raise MayanInputError(
            first, f"expected only the number of moves n on this line, found {len(tokens)} tokens"
        )
    column_lines = lines[1:]
    if len(column_lines) < width:
        last = column_lines[-1][0] if column_lines else first
        raise MayanInputError(
            last + 1,
            f"expected {width} column lines after n, found {len(column_lines)}",
        )
    if len(column_lines) > width:
        raise MayanInputError(
            column_lines[width][0],
            f"expected {width} column lines after n, found {len(column_lines)}",
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
            raise MayanInputError(i, f"{where} has {end} blocks, the board is {height} high")
        columns.append(values[:end])

    top = max((c for col in columns for c in col), default=1)
    shape = Shape(width, height, run, max(4, top.bit_length()))
    board = from_columns(columns, shape)
    cells = run_cells(board, shape)
    if cells:
        if not settle_start:
            x, y = cells[0]
            colour = shape.cell(board, x, y)
            raise MayanInputError(
                column_lines[x][0],
                f"the start board already has a run of {run} or more: colour {colour} at "
                f"(x={x}, y={y}) and {len(cells) - 1} more block(s) in runs; "
                f"expected a settled board (or use the settle-start option)",
            )
        columns = [[c for c in col if c] for col in to_columns(settle(board, shape), shape)]
    return n, columns
