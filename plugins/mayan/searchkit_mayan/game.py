"""The Mayan puzzle game object registered with searchkit (NOIP 2011, Luogu P1312)."""

from __future__ import annotations

import itertools
import re

from searchkit.errors import InputError
from searchkit.game import Case, GameOption, SearchPlan
from searchkit.result import EXHAUSTED, SOLVED

from searchkit_mayan.instance import MayanInstance


class MayanGame:
    """The NOIP 2011 Mayan puzzle: clear the board in exactly n moves, lexicographically smallest.

    Input: n on the first line, then one line per column (left to right),
    colours bottom-up ending with 0.  Output: n lines ``x y g`` or ``-1``.
    """

    name = "mayan"
    summary = "Mayan puzzle (NOIP 2011, Luogu P1312): clear the board in exactly n moves, smallest answer"
    options = (
        GameOption("width", "Board width in columns (default: the file's header, else 5).", int, None, min=1),
        GameOption("height", "Board height in rows (default: the file's header, else 7).", int, None, min=1),
        GameOption("run-length", "Minimum run length that vanishes.", int, 3, min=2),
        GameOption("max-moves", "Largest n accepted in the input (default: the file's header, else 5).", int,
                   None, min=1),
        GameOption("shortest", "Find the fewest moves up to n (then the smallest such answer).", bool, False),
        GameOption("same-colour-swaps", "Count a swap of two same-coloured blocks as a move (AcWing rules).",
                   bool, False),
        GameOption("settle-start", "Settle a starting board that has runs instead of rejecting it.", bool, False),
        GameOption("show", "Print the board before and after each move.", bool, False, output_only=True),
    )

    def parse(self, text, source, options):
        """The one case of a NOIP 2011 file (see :func:`searchkit_mayan.parse.parse`).

        A first line ``# searchkit mayan width=W height=H max-moves=M`` (what
        ``generate`` writes for other sizes than the NOIP ones) sets those
        options; an option given with another value than the header's is an
        error.  Yields one Case or one fatal InputError naming the line.
        """
        from searchkit_mayan.parse import MayanInputError, parse

        head = _header(text, source, options)
        if isinstance(head, InputError):
            yield head
            return
        options, text = head
        width = options.get("width") or _HEADER_KEYS["width"]
        height = options.get("height") or _HEADER_KEYS["height"]
        run = options.get("run_length", 3)
        if max(width, height) > SIDE_LIMIT:
            yield InputError(f"--width and --height must be at most {SIDE_LIMIT}, got {width} x {height}",
                             source=source)
            return
        try:
            n, columns = parse(text, width=width, height=height, run=run,
                               max_moves=options.get("max_moves") or _HEADER_KEYS["max-moves"],
                               settle_start=bool(options.get("settle_start")))
        except MayanInputError as err:
            yield InputError(err.message, source=source, line=err.line)
            return
        except ValueError as err:  # a shape the board engine cannot hold
            yield InputError(str(err), source=source, line=1)
            return
        yield Case(1, MayanInstance(n, tuple(tuple(c) for c in columns), width, height, run), source, 1)

    def puzzle(self, case: Case, options, disabled):
        from searchkit_mayan.puzzle import MayanPuzzle

        return MayanPuzzle.from_instance(case.data, same_colour_swaps=bool(options.get("same_colour_swaps")),
                                         disabled=disabled)

    def plan(self, case, options):
        mode = "shortest" if options.get("shortest") else "exact"
        return SearchPlan(algorithm="bounded_dfs", heuristic="column-steps", depth=case.data.n, mode=mode,
                          first_in_order=True)

    def format_result(self, case, result, options):
        if result.status == SOLVED:
            text = "\n".join(f"{x} {y} {g}" for x, y, g in result.moves)
        elif result.status == EXHAUSTED:
            text = "-1"
        else:
            text = f"? ({result.status})"
        if options.get("show"):  # drawn as `searchkit show mayan FILE` draws it
            from searchkit.plugin import solution_text

            from searchkit_mayan.puzzle import RULE_BOUND, RULE_FEW, RULE_LEFT, RULE_TT

            plain = self.puzzle(case, options, frozenset({RULE_LEFT, RULE_FEW, RULE_BOUND, RULE_TT}))
            text += "\n" + solution_text(self, case, plain, result.moves if result.status == SOLVED else ())
        return text

    def moves_to_json(self, case, moves):
        return [list(m) for m in moves]

    def format_input(self, instances) -> str:
        """Write one instance in the NOIP format (the format holds one case per file).

        A board of another size than 5 x 7, or an n above 5, is written under
        a ``# searchkit mayan width=W height=H max-moves=N`` header line, so
        that :meth:`parse` reads it back with the default options.

        Raises:
            ValueError: for more than one instance, or a run length other than 3.
        """
        instances = list(instances)
        if len(instances) != 1:
            raise ValueError("the Mayan format holds exactly one case per file")
        inst = instances[0]
        if inst.run != 3:
            raise ValueError("the Mayan format has no place for a run length other than 3")
        lines = [str(inst.n)] + [" ".join(str(c) for c in (*col, 0)) for col in inst.columns]
        if (inst.width, inst.height) != (5, 7) or inst.n > 5:
            lines.insert(0, f"# searchkit mayan width={inst.width} height={inst.height} max-moves={max(5, inst.n)}")
        return "\n".join(lines) + "\n"

    def format_input_stream(self, instances):
        """:meth:`format_input` for ``generate``: a second instance is refused before anything is written.

        Raises:
            ValueError: as :meth:`format_input` (one case per file), on the second instance, not after all.
        """
        yield self.format_input(list(itertools.islice(instances, 2)))  # two or more: format_input says why

    def render(self, case, puzzle, state, move):
        """The picture of a settled board for ``searchkit show`` (see :mod:`searchkit_mayan.render`)."""
        from searchkit_mayan.render import render

        return render(case, puzzle, state, move)

    def render_move(self, case, puzzle, state, move, child):
        """The swap, and each vanish and elimination of the cascade (see :mod:`searchkit_mayan.render`)."""
        from searchkit_mayan.render import render_move

        return render_move(case, puzzle, state, move, child)

    def format_state(self, puzzle, state) -> str:
        from searchkit_mayan.board import format_board

        return format_board(state, puzzle.shape)  # colours as renumbered 1..K


_HEADER = re.compile(r"#\s*searchkit\s+mayan((?:\s+[a-z-]+=[0-9]+)*)\s*\Z")
_HEADER_KEYS = {"width": 5, "height": 7, "max-moves": 5}
#: The largest width or height accepted: beyond it set-up alone (shape kernels, bound tables over
#: all compositions of a colour's blocks into W columns) would eat the machine.
SIDE_LIMIT = 100
_HEADER_LIMIT = SIDE_LIMIT


def _header(text: str, source: str, options):
    """``(options, text)`` with a ``# searchkit mayan ...`` first line applied and blanked, or an InputError."""
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        line = raw.strip(" \t\r\v\f")
        if not line:
            continue
        if not line.startswith("#"):
            return options, text
        match = _HEADER.match(line)
        if not match:
            return InputError("expected a header '# searchkit mayan width=W height=H max-moves=N', got "
                              f"{line[:40]!r}", source=source, line=i + 1)
        merged = dict(options)
        for pair in match.group(1).split():
            name, _, value = pair.partition("=")
            if name not in _HEADER_KEYS or len(value) > 5 or not 1 <= int(value) <= _HEADER_LIMIT:
                return InputError(f"the header's {pair!r} is not one of width, height, max-moves in "
                                  f"1..{_HEADER_LIMIT}", source=source, line=i + 1)
            key = name.replace("-", "_")
            given = options.get(key)  # None: not given on the command line (the options default to None)
            if given is not None and given != int(value):
                return InputError(f"the header says {name}={value}, but --{name} {given} was given",
                                  source=source, line=i + 1)
            merged[key] = int(value)
        lines[i] = ""
        return merged, "\n".join(lines)
    return options, text
