"""The ``sliding-tiles`` game: input format, search plan, output format.

Input: one puzzle per case, N rows of N integers (0 = the blank), cases
separated by one or more blank lines; N is the number of integers on the
case's first row, and cases in one file may have different N.  The goal is
1 .. N*N-1 in row-major order, then the blank.

Output: one line per case, the optimal number of moves; with ``--moves`` also
the moves, ``"22: U L D ..."``, named by the direction the blank moves.  An
unsolvable board (wrong permutation parity) prints ``unsolvable`` without any
search.
"""

from __future__ import annotations

import re

from searchkit.errors import InputError
from searchkit.game import Case, GameOption, SearchPlan
from searchkit.limits import LimitReached, reserve, setup_check
from searchkit.result import EXHAUSTED, FEASIBLE, SOLVED

from sliding_tiles import native
from sliding_tiles.plugin import NATIVE_MODULE
from sliding_tiles.puzzle import Replay, is_solvable

#: A tile number as a judge's scanf("%d") reads it: ASCII only, no "+3", "1_0" or full-width digits.
_INT = re.compile(r"-?[0-9]+\Z")
#: Tokens are separated by ASCII whitespace only (lines end at ``\n``).
_TOKEN = re.compile(r"[^ \t\r\v\f]+")


def _has_token(line: str) -> bool:
    """Whether ``line`` holds a token (``_TOKEN.search(line)``), in time linear in the line at C speed.

    ``str.isspace`` also counts ``\x1c``-``\x1f`` and non-ASCII spaces as space, which are tokens here,
    so a line it calls all space is blank only if it is ASCII without those four.  (On a 50 MB line of
    spaces the regular expression took 0.14 s a pass.)
    """
    if not line.isspace():
        return bool(line)
    return not line.isascii() or any(c in line for c in "\x1c\x1d\x1e\x1f")


#: Bytes a tile that reading one board holds at most: an ``int`` object and its places in a row list, the
#: board's tuple, and the sets and the dict of the permutation check (hash tables sized in powers of two,
#: so up to twice their fill).  Measured: 293 at 150 x 150; a test holds the peak to it with tracemalloc.
READ_BYTES_PER_TILE = 512

#: A move of the blank on a board turned by 180 degrees, seen on the board as given.
_TURNED = {"U": "D", "D": "U", "L": "R", "R": "L"}


class TurnedBoard(tuple):
    """A board written for Korf's goal (``--goal blank-first``), held turned for this game's goal
    (:func:`to_blank_last`): the searches run on it as on any board, and every move shown to the user or read
    from the user (text ``--moves``, JSON records, the API's ``Outcome.moves``, ``--seed-solution``,
    ``verify``, ``show``) is turned back by :meth:`SlidingTilesGame.moves_to_json`, so it is the blank's move
    on the board as given.  Equal to, and hashed as, the plain tuple of its cells.
    """

    __slots__ = ()

    def as_given(self) -> tuple[int, ...]:
        """The board as the user wrote it (turning is its own inverse)."""
        return to_blank_last(self)


def to_blank_last(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """A board written for Korf's goal (blank first) as a board for this game's goal (blank last).

    The board is turned by 180 degrees and every tile t relabelled ``N*N - t``
    (the blank stays 0): Korf's goal ``0 1 .. N*N-1`` becomes ``1 .. N*N-1 0``,
    and every move maps onto a move (U <-> D, L <-> R), so distances and
    solvability are unchanged.
    """
    cells = len(tiles)
    return tuple((cells - t) % cells for t in reversed(tiles))


class SlidingTilesGame:
    """The N x N sliding-tile puzzle: fewest blank moves to the goal (see the module docstring).

    A board of the wrong parity is decided without search: its plan's
    verdict is ``exhausted`` (proven unsolvable, Johnson & Story 1879).
    """

    name = "sliding-tiles"
    native_module = NATIVE_MODULE
    native_install = "pip install ./plugins/sliding-tiles/native"
    summary = "N x N sliding-tile puzzle (8-puzzle, 15-puzzle): fewest moves to 1..N*N-1, blank last"
    options = (GameOption("moves", "also print the moves (U/D/L/R: the direction the blank moves)", bool, False,
                          output_only=True),
               GameOption("goal", "the goal the boards are written for: blank-last (1 .. N*N-1, then the blank) "
                          "or blank-first (Korf's 0 1 .. N*N-1)", str, "blank-last",
                          choices=("blank-last", "blank-first")))

    def parse(self, text, source, options):
        """Blocks of non-blank lines are cases; a bad case is reported (one line) and the rest still read.

        Tiles are ASCII integers (``-?[0-9]+``) separated by ASCII whitespace;
        lines end at ``\\n`` (a CRLF's CR is whitespace).
        """
        block: list[tuple[int, str]] = []
        case = 0
        for lineno, line in enumerate(text.split("\n") + [""], 1):
            if _has_token(line):
                block.append((lineno, line))
                continue
            if block:
                case += 1
                parsed = self._parse_case(block, case, source)
                if options.get("goal") == "blank-first" and isinstance(parsed, Case) and parsed.stopped is None:
                    parsed = Case(parsed.index, TurnedBoard(to_blank_last(parsed.data)), parsed.source,
                                  parsed.line)
                yield parsed
                block = []

    def _parse_case(self, block, case, source):
        def error(message, line):
            return InputError(message, source=source, line=line, case=case, fatal=False)

        try:
            return self._read_case(block, case, source, error)
        except LimitReached as stop:  # the block is read already: nothing to pass over
            return Case.unread(case, source, block[0][0], stop.status)

    def _read_case(self, block, case, source, error):
        """:meth:`_parse_case` under the case's limits: a board of N rows is charged
        :data:`READ_BYTES_PER_TILE` a tile once its first row gives N, and the clock is checked every row."""
        rows = []
        for lineno, line in block:
            setup_check()
            row = []
            for token in _TOKEN.findall(line):
                if not _INT.match(token):
                    shown = token if len(token) <= 20 else token[:17] + "..."
                    return error(f"expected an integer tile number, got {shown!r} (ASCII -?[0-9]+)", lineno)
                if len(token) > 9:  # no board has that many tiles; int() refuses 4300+ digits
                    return error(f"tile {token[:20]}{'...' if len(token) > 20 else ''} out of range", lineno)
                row.append(int(token))
            rows.append((lineno, row))
            if len(rows) == 1:
                reserve(len(row) ** 2 * READ_BYTES_PER_TILE)
        n = len(rows[0][1])
        for i, (lineno, row) in enumerate(rows):
            if i >= n:
                return error(f"expected {n} rows (the first row has {n} numbers), got a row more", lineno)
            if len(row) != n:
                return error(f"expected {n} numbers per row (as on the case's first row), got {len(row)}", lineno)
        if len(rows) < n:
            return error(f"expected {n} rows (the first row has {n} numbers), got {len(rows)}", rows[-1][0])
        cells = n * n
        tiles = tuple(t for _, row in rows for t in row)
        missing = sorted(set(range(cells)) - set(tiles))
        also = f" (missing: {' '.join(map(str, missing))})" if missing else ""
        seen: dict[int, int] = {}
        for lineno, row in rows:
            for tile in row:
                if not 0 <= tile < cells:
                    return error(f"tile {tile} out of range 0..{cells - 1} for a {n}x{n} board{also}", lineno)
                if tile in seen:
                    return error(f"tile {tile} appears twice (also on line {seen[tile]}){also}", lineno)
                seen[tile] = lineno
        return Case(case, tiles, source, block[0][0])

    def puzzle(self, case, options, disabled):
        from sliding_tiles.puzzle import SlidingPuzzle

        return SlidingPuzzle(case.data, disabled)

    def native_problem(self, case, options, disabled):
        """The case on the native engine (``sliding_tiles_native`` installed), or ``None``
        (:mod:`sliding_tiles.native`)."""
        return native.problem(case.data, disabled)

    def replay_puzzle(self, case, options):
        """The puzzle a native solution is replayed on before it is reported: the rules on the board alone
        (:class:`~sliding_tiles.puzzle.Replay`), without the searched puzzle's neighbour table."""
        return Replay(case.data)

    def plan(self, case, options):
        if not is_solvable(case.data):
            return SearchPlan(algorithm="ida_star", heuristic="linear-conflict", verdict=EXHAUSTED)
        return SearchPlan(algorithm="ida_star", heuristic="linear-conflict")

    def format_result(self, case, result, options):
        """The fewest moves (``--moves``: and the moves).

        An answer not proven optimal says so: ``30 (feasible, >= 26)``.  ``unsolvable`` is said only of a
        board the parity test proves unsolvable; a solvable board's search exhausted under ``--upper-bound``
        (nothing cheaper than the bound) is ``? (exhausted)``, as in every game.
        """
        if result.status == EXHAUSTED and not is_solvable(case.data):
            return "unsolvable (the permutation parity differs from the blank's distance parity)"
        if result.status not in (SOLVED, FEASIBLE):
            return f"? ({result.status})"
        text = str(result.cost)
        if result.status == FEASIBLE:
            bound = "no proven bound" if result.lower_bound is None else f">= {result.lower_bound}"
            text += f" (feasible, {bound})"
        if options.get("moves") and result.moves:
            text += ": " + " ".join(self.moves_to_json(case, result.moves))
        return text

    def moves_to_json(self, case, moves):
        """The moves as the user sees them: the blank's directions on the board as given.

        For a board read under ``--goal blank-first`` (a :class:`TurnedBoard`) the search's moves are those
        of the turned board, so each is turned back (``U <-> D``, ``L <-> R``); the CLI's text, the records,
        the API, seeds and ``verify`` all read moves through this one hook, so they agree.
        """
        if isinstance(case.data, TurnedBoard):
            return [_TURNED[m] for m in moves]
        return list(moves)

    def format_input(self, datas):
        from sliding_tiles.puzzle import side_of

        blocks = []
        for tiles in datas:
            n = side_of(tiles)
            width = len(str(n * n - 1))
            rows = (" ".join(str(t).rjust(width) for t in tiles[r * n:(r + 1) * n]) for r in range(n))
            blocks.append("\n".join(rows) + "\n")
        return "\n".join(blocks)

    def format_input_stream(self, datas):
        """:meth:`format_input` a board at a time (``generate --count N`` holds none of the text): the same text."""
        for k, tiles in enumerate(datas):
            yield ("\n" if k else "") + self.format_input([tiles])

    def render(self, case, puzzle, state, move):
        """The picture of ``state`` for ``searchkit show`` (see :mod:`sliding_tiles.render`)."""
        from sliding_tiles.render import render

        return render(case, puzzle, state, move)

    def format_state(self, puzzle, state):
        board = state[: puzzle.cells]
        text = self.format_input([board]).rstrip("\n")
        if len(state) > puzzle.cells and state[-1] >= 0:
            text += f"\n(blank came from cell {state[-1]})"
        return text
