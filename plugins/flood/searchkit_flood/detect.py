"""Which Flood-It input format a text is in: decided with certainty, or refused naming the option.

The three formats (see :mod:`searchkit_flood.board`) overlap: ``1\\n5\\n0\\n7`` is
one 1x1 board in the judge format (HDU 4127 / NKOJ 2440) and four 1x1
boards in the lines format (PC19 / ColorFill); ``3 2\\n1 2 2\\n3 3 1\\n0 0`` is
a 3x2 rect board and a 3x3 judge board.  So the text is read in every
format (counting tokens only, nothing is allocated), and a format is chosen
only when it is the one reading that holds:

1. A header line ``# searchkit flood FORMAT`` (what ``generate`` writes for
   rect boards) names the format.
2. A first line of exactly two integers is refused: it looks like the rect
   format's ``W H``, which is never guessed.
3. A reading *holds* when its sizes fit the file (a bad colour value is an
   error of one case, not of the format; for the lines format every line is
   a single token whose length is a square, or a multiple of ``--width``).
   A judge reading with data after its ``0`` holds (a judge stops reading
   there; the parser reports the data as an error), a rect reading only if it
   uses every token.
   The rect reading is laid out as documented: each ``W H`` pair starts a
   line, unless the whole text is one line.  Exactly one holding judge or
   lines reading is used; two or more holding
   readings (the rect one included) are refused naming the options, but
   for one: when only the judge and the lines reading hold, the judge one
   ends exactly at the last token and that is a lone ``0`` on the last line
   (``1``, ``7``, ``0``: judge boards of side 1), the text is the judge's.
4. When no judge or lines reading holds, the errors are those of the only
   format the text can be in: not lines when a line holds several tokens
   or the first token is a negative number, not judge when the first token
   is not an integer, and else the one whose first case fits (a first line
   ``1221`` is a 2x2 board, not a size whose 1221*1221 values the file
   cannot hold).  A text where both or neither fit is refused with both
   readings' first errors.  A lines reading whose first board is one digit
   n >= 2 followed by a line of n cells is refused too: that is a judge
   board with its rows written without spaces (``4`` then ``1221``), which
   read as lines would give answers for the ``4``, each row and the ``0``.
   A line of several tokens does not rule the
   lines format out when the first line is a lines board of several cells
   that no judge size fits: a stray space in board 500 of a PC19 file is an
   error of that line, the other boards are solved (the judge reading would
   fail at once, on a first size of 196 digits).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

from searchkit.errors import InputError

from searchkit_flood.board import (_ASCII_SPACE, _INT, _ROW, Tokens, _line_width, _size, parse_judge, parse_lines)

FORMATS = ("judge", "rect", "lines")
_HEADER = r"#\s*searchkit\s+flood\s+(\S+)\s*\Z"  # compiled on first use (re's cache): only a '#' line needs it
_SEPARATOR = re.compile(r"[ \t\v\f]+")  # a CR is not a separator here: inside a line it is a stray CR

OK, WARNED, BROKEN, EXCLUDED = "ok", "warned", "broken", "excluded"
_NAMES = {"judge": "the judge format (n, then n*n values)", "rect": "the rect format (W H, then H*W values)",
          "lines": "the lines format (one board per line)"}


def read_header(lines: Callable[[], Iterator[str]], source: str
                ) -> tuple[str | None, Callable[[], Iterator[str]]] | InputError:
    """The format a ``# searchkit flood FORMAT`` first line names, and the line source with that line blanked.

    Args:
        lines: a line source (``lines()`` -> a new iterator over the lines).

    Returns:
        ``(format, lines)``; ``(None, lines)`` unchanged when the first
        non-blank line is not a header; an :class:`InputError` for a
        ``# searchkit`` line naming no known format.
    """
    for i, raw in enumerate(lines(), 1):
        line = raw.strip(_ASCII_SPACE)
        if not line:
            continue
        if not line.startswith("#"):
            return None, lines
        match = re.match(_HEADER, line)
        if not match or match.group(1) not in FORMATS:
            return InputError(f"expected a header '# searchkit flood FORMAT' with FORMAT one of "
                              f"{', '.join(FORMATS)}, got {line[:40]!r}", source=source, line=i)

        def blanked(header=i):  # the lines before the header are blank, so blank them all
            return itertools.chain(itertools.repeat("", header), itertools.islice(lines(), header, None))

        return match.group(1), blanked
    return None, lines


def _scan_judge(toks: Tokens) -> str:
    cur, count = toks.cursor(), len(toks)
    while cur.i < count:
        n = _size(cur.take(1)[0][0])
        if n is None or n < 0:
            return BROKEN
        if n == 0:
            return WARNED if cur.i < count else OK
        if n * n > count - cur.i:
            return BROKEN
        cur.skip(n * n)
    return OK


def _scan_rect(toks: Tokens) -> str:
    """The rect reading as a witness: each ``W H`` must start a line (or the text be one line)."""
    cur, count = toks.cursor(), len(toks)
    one_line = count == 0 or toks.first_line == toks.last_line
    while cur.i < count:
        w = _size(cur.peek())
        nxt = cur.peek(1)
        h = _size(nxt) if nxt is not None else None
        if w == 0 and (h == 0 or nxt is None):
            return WARNED if cur.i + 2 < count else OK
        if w is None or h is None or w <= 0 or h <= 0 or w * h > count - cur.i - 2:
            return BROKEN
        if not one_line and ((cur.i and cur.last == cur.line()) or cur.line(1) != cur.line()):
            return BROKEN
        cur.skip(2 + w * h)
    return OK


def _scan_lines(lines: Callable[[], Iterator[str]], width: int | None) -> str:
    status = OK
    for raw in lines():
        line = raw.strip(_ASCII_SPACE)
        if not line:
            continue
        if _SEPARATOR.search(line):
            return EXCLUDED
        if _line_width(len(line), width) is None:
            status = BROKEN
    return status


def _first_line(lines: Callable[[], Iterator[str]]) -> tuple[int, str] | None:
    for i, raw in enumerate(lines(), 1):
        line = raw.strip(_ASCII_SPACE)
        if line:
            return i, line
    return None


def _last_line(lines: Callable[[], Iterator[str]]) -> str | None:
    last = None
    for raw in lines():
        line = raw.strip(_ASCII_SPACE)
        if line:
            last = line
    return last


def _first_error(items) -> str:
    for item in items:
        if isinstance(item, InputError):
            where = "" if item.line is None else f"line {item.line}: "
            return where + ("" if item.case is None else f"case {item.case}: ") + item.message
    return "no error"


def _compact_rows(text: Callable[[], Iterator[str]], source: str) -> InputError | None:
    """The refusal of a text whose first line is one digit n >= 2 and whose next line has n cells.

    Such a text is a lines file only if it starts with a 1x1 board; far more
    likely it is a judge board of side n with its rows written without
    spaces (``4`` then ``1221``, ...), which the judge format cannot read:
    read as lines it would give an answer for the ``4``, one for each row
    and one for the ``0``.
    """
    found = []
    for i, raw in enumerate(text(), 1):
        line = raw.strip(_ASCII_SPACE)
        if line:
            found.append((i, line))
            if len(found) == 2:
                break
    if len(found) < 2:
        return None
    (lineno, first), (_, second) = found
    if not ("2" <= first <= "9" and len(first) == 1 and len(second) == int(first)):
        return None
    return InputError(f"cannot tell the format: line {lineno} is one digit {first} and the next line has "
                      f"{first} cells: a judge board of side {first} with its values not separated by spaces? "
                      f"(the judge format needs them separated); use --input-format lines to read every line "
                      f"as a board", source=source, line=lineno)


def detect(text: Callable[[], Iterator[str]], toks: Tokens | None, width: int | None,
           source: str) -> str | InputError:
    """``"judge"`` or ``"lines"`` when the text certainly is in that format, else a fatal InputError.

    Args:
        text: the input as a line source (``text()`` -> a new iterator over
            its lines; any header line already blanked).  Each reading is one
            pass over it, so nothing grows with the file.
        toks: its :class:`~searchkit_flood.board.Tokens` (needed unless ``width`` is given).
        width: ``--width`` (the lines format's board width), or ``None``.
        source: the file name, for errors.

    Returns:
        The format, or a one-line :class:`InputError` saying why it cannot be
        told and which ``--input-format`` to use (see the module docstring).
        With ``width`` the format is lines unless a line holds several tokens
        (``--width`` is refused then).
    """
    first = _first_line(text)
    if first is None:
        return "judge"
    lineno, line = first
    lines = _scan_lines(text, width)
    if width is not None:
        if lines == EXCLUDED:
            return InputError("--width applies only to the lines format (one board per line), and this input "
                              "has lines of several tokens (the judge or rect format give the size in the file)",
                              source=source)
        return "lines"
    parts = _SEPARATOR.split(line)
    if len(parts) == 2 and all(_INT.match(p) for p in parts):
        return InputError("first line has two integers W H: this looks like the rect format; "
                          "use --input-format rect (or judge)", source=source, line=lineno)
    status = {"judge": _scan_judge(toks), "rect": _scan_rect(toks), "lines": lines}
    # A judge stops reading at its 0, so a judge reading with data after it still holds; the rect
    # reading only witnesses against a guess, and one that stops early is too weak a witness (a
    # judge file with 0-based colours often has a "0 0" where the rect reading would stop).
    holding = [f for f in FORMATS if status[f] == OK or (f == "judge" and status[f] == WARNED)]
    if len(holding) >= 2 or holding in (["judge"], ["lines"]):
        return _some_reading_holds(holding, status, parts, text, source, lineno)
    # No reading holds (the rect one alone is never chosen).
    return _no_reading_holds(text, toks, width, lines, parts, source, lineno)


def _some_reading_holds(holding: list, status: dict, parts: list, text, source: str, lineno: int) -> str | InputError:
    """:func:`detect`'s verdict when the judge or the lines reading holds, or several do (``holding``, in
    :data:`FORMATS` order)."""
    if (holding == ["judge", "lines"] and status["judge"] == OK and (_size(parts[0]) or 0) > 0
            and _last_line(text) == "0"):
        # A judge file of 1x1 boards (``1``, ``7``, ``0``) also reads as lines boards; its lone ``0`` on the
        # last line, exactly where the judge reading ends, is the judge's terminator, not a board of colour 0.
        return "judge"
    if len(holding) >= 2:
        names = " and as ".join(_NAMES[f] for f in holding)
        options = " or ".join(f"--input-format {f}" for f in holding)
        return InputError(f"cannot tell the format: the input reads as {names}; use {options}",
                          source=source, line=lineno)
    if holding == ["judge"]:
        return "judge"
    return _compact_rows(text, source) or "lines"  # holding == ["lines"]


def _no_reading_holds(text, toks, width, lines, parts: list, source: str, lineno: int) -> str | InputError:
    """:func:`detect`'s verdict when no reading holds: the format whose errors to report, or a refusal when
    both the judge and the lines reading start well."""
    n = _size(parts[0])
    judge_starts = n is not None and 0 < n and n * n < len(toks)
    lines_starts = len(parts) == 1 and bool(_ROW.match(parts[0])) and _line_width(len(parts[0]), width) is not None
    if lines == EXCLUDED:
        # A line of several tokens rules the lines format out, unless the first line is a lines board
        # of several cells that no judge size fits: the judge reading fails at its first case, so the
        # lines reading's errors are the ones to report (a one-cell first line is a judge n, as in a
        # truncated judge file).
        return "lines" if lines_starts and not judge_starts and len(parts[0]) > 1 else "judge"
    if not _INT.match(parts[0]):
        return "lines"
    if not _ROW.match(parts[0]):  # a negative number: no lines-format row either
        return "judge"
    if judge_starts != lines_starts:
        return "judge" if judge_starts else _compact_rows(text, source) or "lines"
    judge_error = _first_error(parse_judge(text, source, toks))
    lines_error = _first_error(parse_lines(text, source))
    return InputError(f"cannot tell the format: as the judge format, {judge_error}; as the lines format, "
                      f"{lines_error}; use --input-format judge or --input-format lines",
                      source=source, line=lineno)
