"""The one table of optional hooks: methods and attributes a game, puzzle or generator *may* have.

The core looks each up with ``getattr`` and does without it when it is
absent.  The required parts are the protocols :class:`~searchkit.game.Game`,
:class:`~searchkit.puzzle.Puzzle` and :class:`~searchkit.generator.Generator`;
everything optional is listed here, once, with who calls it.
``tests/core/test_hooks_table.py`` checks that every name the core looks up
on a game, puzzle or generator (with ``getattr``/``hasattr`` or as an
attribute, on a variable or an attribute chain such as ``self.game``) is in
this table or a part of the protocols, so the table cannot drift from the code.
"""

from __future__ import annotations

import attrs

GAME = "game"
PUZZLE = "puzzle"
GENERATOR = "generator"


@attrs.frozen
class OptionalHook:
    """One optional hook.

    Attributes:
        owner: ``"game"``, ``"puzzle"`` or ``"generator"``.
        name: the method or attribute name.
        signature: how it is called (or the attribute's type).
        used_by: who looks it up.
        summary: what it does, and the default when it is absent.
    """

    owner: str
    name: str
    signature: str
    used_by: str
    summary: str


OPTIONAL_HOOKS: tuple[OptionalHook, ...] = (
    OptionalHook(GAME, "parse_stream", "parse_stream(lines, source, options) -> Iterator[Case | InputError]",
                 "the reader (solve, compare, show)",
                 "the same items as parse, from lines() (a new iterator over the input's lines, read again each "
                 "call), so a multi-pass parser holds a case at a time; default: parse on the whole text"),
    OptionalHook(GAME, "moves_to_json", "moves_to_json(case, moves) -> list",
                 "--format json/jsonl, seeds, show", "JSON-ready moves; default: list(moves)"),
    OptionalHook(GAME, "format_input", "format_input(datas) -> str",
                 "generate, the contract suite",
                 "case data written back in the game's input format; generate needs it, the contract suite "
                 "checks that parsing it gives the same data (skipped, saying so, without it)"),
    OptionalHook(GAME, "format_input_stream", "format_input_stream(datas) -> Iterator[str]",
                 "generate", "format_input in pieces, for many cases without holding the whole text; "
                 "default: format_input, the text made whole (so at most 64 MiB of it)"),
    OptionalHook(GAME, "format_state", "format_state(puzzle, state) -> str",
                 "check (counter-examples)", "a state drawn for reports; default: repr(state)"),
    OptionalHook(GAME, "render", "render(case, puzzle, state, move) -> Frame",
                 "searchkit show, the contract suite",
                 "the picture of a state; without it show refuses the game and the render check is skipped"),
    OptionalHook(GAME, "render_move", "render_move(case, puzzle, state, move, child) -> list[Frame]",
                 "searchkit show", "pictures between a state and its child (a fall, an elimination); "
                 "default: none"),
    OptionalHook(GAME, "palette", "palette: a palette name, file, dict value -> '#rrggbb' or list of colours",
                 "searchkit show, Outcome.show (searchkit.render.palette.game_palette)",
                 "the game's own colours (walls grey, floor white), used when the user gives no --palette; "
                 "default: Okabe-Ito"),
    OptionalHook(GAME, "native_module", "native_module: str (attribute)",
                 "the Solver (searchkit.machinery.engine), searchkit plugins",
                 "the import name of the game's native module, built with the kit crate searchkit-pyo3; its "
                 "manifest says which components have a native twin; default: none (docs/native.md)"),
    OptionalHook(GAME, "native_install", "native_install: str (attribute)",
                 "the Solver's plan error under --engine native",
                 "how a user installs the native module, quoted when it is missing; default: nothing quoted"),
    OptionalHook(GAME, "native_problem", "native_problem(case, options, disabled) -> object | None",
                 "the Solver (searchkit.machinery.engine)",
                 "the case as a native problem (an object with solve(request) -> result, the dicts of "
                 "searchkit/protocol.py, usually a call of the native module's solve), or None for a case it "
                 "cannot take (or a PlanError saying why, quoted under --engine native); "
                 "default: the game runs on the Python engine only (docs/native.md)"),
    OptionalHook(GAME, "replay_puzzle", "replay_puzzle(case, options) -> Puzzle",
                 "the Solver, before it reports a native answer (searchkit.machinery.engine.check_solution)",
                 "a puzzle of the same rules, every pruning rule off, on which the native engine's moves are "
                 "replayed (a cheaper model than the search's: Flood-It's cell bitsets); it may check the clock "
                 "(the replay runs under the case's limits and a short grace); default: "
                 "puzzle(case, options, every rule disabled)"),
    OptionalHook(PUZZLE, "successors_within", "successors_within(state, remaining) -> Iterable[Successor]",
                 "depth-first drivers (ida_star, bounded_dfs)",
                 "successors that may omit a child that provably cannot reach a goal within remaining - "
                 "step_cost (a bound fused into move generation); default: successors"),
    OptionalHook(PUZZLE, "successor", "successor(state, move) -> (child, cost) | None",
                 "the native engine's replay check (searchkit.machinery.engine.check_solution)",
                 "the child and step cost of one move, exactly as successors(state) gives them, or None when "
                 "the move is not among them (a replay then grows only the moves played); default: a scan of "
                 "successors"),
    OptionalHook(PUZZLE, "solvable", "solvable(state) -> bool | None",
                 "searchkit verify, on every record that claims its case has no solution "
                 "(searchkit.puzzle.solvable)",
                 "whether some goal is reachable from state through successors (every pruning rule off), in any "
                 "number of moves: True or False only when the puzzle decides it exactly and cheaply (its "
                 "docstring carries the proof), None when it cannot; verify fails a claim it refutes, confirms "
                 "one it proves, and counts the rest as not checked; default: None (cannot decide)"),
    OptionalHook(PUZZLE, "tie_break", "tie_break(state) -> int",
                 "best-first drivers", "orders states of equal key and g, smaller first; never changes a "
                 "guarantee, only which of equally good states is expanded first; default: first in, first out"),
    OptionalHook(PUZZLE, "rule_cuts", "rule_cuts: Mapping[str, int] (attribute or property)",
                 "the Solver (--stats, records)",
                 "cuts so far of each rule the game fuses into its own successors, by rule name; the Solver "
                 "reports the counts made during the search (those made before it, e.g. by an upper-bound "
                 "provider's play-out, are subtracted); default: none reported"),
    OptionalHook(GENERATOR, "max_size", "max_size: int", "generate --size",
                 "the largest size the generator accepts; default: no upper limit"),
)

#: Old names no longer honoured, each with the name that replaces it: a puzzle that has only the old one is
#: refused with a ``TypeError`` naming the new (its hook would otherwise be silently unused).
REMOVED_HOOKS: dict[str, str] = {"bounded_successors": "successors_within"}


def hook_names(owner: str | None = None) -> frozenset[str]:
    """The names of the optional hooks (of ``owner`` only, when given)."""
    return frozenset(h.name for h in OPTIONAL_HOOKS if owner is None or h.owner == owner)
