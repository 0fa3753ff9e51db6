"""The Mayan puzzle game object registered with searchkit (NOIP 2011, Luogu P1312)."""

from __future__ import annotations

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
        GameOption("width", "Board width in columns.", int, 5, min=1),
        GameOption("height", "Board height in rows.", int, 7, min=1),
        GameOption("run-length", "Minimum run length that vanishes.", int, 3, min=2),
        GameOption("max-moves", "Largest n accepted in the input.", int, 5, min=1),
        GameOption("shortest", "Find the fewest moves up to n (then the smallest such answer).", bool, False),
        GameOption("same-colour-swaps", "Count a swap of two same-coloured blocks as a move (AcWing rules).",
                   bool, False),
        GameOption("settle-start", "Settle a starting board that has runs instead of rejecting it.", bool, False),
        GameOption("show", "Print the board before and after each move.", bool, False),
    )

    def parse(self, text, source, options):
        from searchkit_mayan.parse import MayanInputError, parse

        width, height = options.get("width", 5), options.get("height", 7)
        run = options.get("run_length", 3)
        try:
            n, columns = parse(text, width=width, height=height, run=run,
                               max_moves=options.get("max_moves", 5),
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

        return MayanPuzzle.from_instance(case.data, same_colour_swaps=bool(options.get("same_colour_swaps")), disabled=disabled)

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
        if options.get("show"):
            from searchkit_mayan.show import show_solution

            text += "\n" + show_solution(case.data, result.moves if result.status == SOLVED else (),
                                         same_colour_swaps=bool(options.get("same_colour_swaps")))
        return text

    def moves_to_json(self, case, moves):
        return [list(m) for m in moves]

    def format_input(self, instances) -> str:
        """Write one instance in the NOIP format (the format holds one case per file).

        Raises:
            ValueError: for more than one instance.
        """
        instances = list(instances)
        if len(instances) != 1:
            raise ValueError("the Mayan format holds exactly one case per file")
        inst = instances[0]
        lines = [str(inst.n)] + [" ".join(str(c) for c in (*col, 0)) for col in inst.columns]
        return "\n".join(lines) + "\n"

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
