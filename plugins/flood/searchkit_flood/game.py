"""The Flood-It game object registered with searchkit."""

from __future__ import annotations

from searchkit.game import Case, GameOption, SearchPlan
from searchkit.result import SOLVED

from searchkit_flood.board import detect_format, parse_judge, parse_lines


class FloodGame:
    """Flood-It (HDU 4127 / NKOJ 2440): fewest recolourings of the pivot's region.

    Input: the judges' format (cases of ``n`` then ``n*n`` integers, ``0``
    ends; any whitespace) or one board per line (PC19 style), chosen by
    content or ``--input-format``.  Output: one integer per case, the fewest
    moves; ``--moves`` adds an optimal colour sequence in the input's values.
    """

    name = "flood"
    summary = "Flood-It (HDU 4127 / NKOJ 2440): fewest recolourings to make the board one colour"
    options = (
        GameOption("moves", "Also print an optimal colour sequence (the input's own values).", bool, False),
        GameOption("input-format", "Input format: judge (n then n*n values), lines (one board per line), "
                   "or auto (by content).", str, "auto", ("auto", "judge", "lines")),
        GameOption("width", "Board width for the lines format (default: square boards).", int, None),
    )

    def parse(self, text, source, options):
        fmt = options.get("input_format") or "auto"
        if fmt == "auto":
            fmt = detect_format(text)
        if fmt == "lines":
            return parse_lines(text, source, options.get("width"))
        return parse_judge(text, source)

    def puzzle(self, case: Case, options, disabled):
        from searchkit_flood.areas import FloodPuzzle

        return FloodPuzzle(case.data, disabled)

    def plan(self, case, options):
        return SearchPlan(algorithm="ida_star", heuristic="layered")

    def format_result(self, case, result, options):
        if result.status != SOLVED:
            return f"? ({result.status})"
        text = str(len(result.moves))
        if options.get("moves"):
            palette = case.data.palette
            text += ":" + "".join(" " + palette[m] for m in result.moves)
        return text

    def moves_to_json(self, case, moves):
        return [case.data.palette[m] for m in moves]

    def format_input(self, boards) -> str:
        """Write boards in the judge format (square boards) or one per line (otherwise).

        Raises:
            ValueError: for a non-square board whose values are not single letters or digits.
        """
        boards = list(boards)
        if all(b.width == b.height for b in boards):
            out = []
            for b in boards:
                out.append(str(b.width))
                out.extend(" ".join(row) for row in b.rows())
            out.append("0")
            return "\n".join(out) + "\n"
        lines = []
        for b in boards:
            line = "".join(b.palette[c] for c in b.cells)
            if len(line) != b.width * b.height or not line.isalnum():
                raise ValueError("the one-board-per-line format needs single-character colour values")
            lines.append(line)
        return "\n".join(lines) + "\n"

    def format_state(self, puzzle, state) -> str:
        """The board after the moves leading to ``state``: flooded cells shown in the region's colour."""
        board = puzzle.board
        region = puzzle.region_cells(state)
        return "\n".join(
            " ".join(("*" if region >> (y * board.width + x) & 1 else board.palette[board.cells[y * board.width + x]])
                     for x in range(board.width))
            for y in range(board.height)
        ) + "\n(* = flooded region)"
