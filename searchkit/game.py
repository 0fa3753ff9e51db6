"""The interface a game plugin implements, and the values it exchanges.

A game turns input text into :class:`Case` values, builds a search
:class:`~searchkit.puzzle.Puzzle` for each, says how to search it, and formats
the result in the judge's output format.  Games declare their own
command-line options as :class:`GameOption` values, so plugins never import
the CLI library.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from searchkit.errors import InputError
from searchkit.puzzle import Puzzle
from searchkit.result import SearchResult


@attrs.frozen
class Case:
    """One parsed instance of a game.

    Attributes:
        index: 1-based number of the case in its file.
        data: the game's own parsed value (immutable).
        source: the file it came from (``"<stdin>"`` for standard input).
        line: 1-based line where the case starts.
    """

    index: int
    data: Any
    source: str = "<input>"
    line: int = 1
    #: ``None`` for a case read whole; else the status (``time_limit`` or ``memory_limit``) of the limit
    #: that stopped reading it (:meth:`unread`): ``data`` is then ``None``, and the case is reported, not solved.
    stopped: str | None = None

    @classmethod
    def generated(cls, data: Any) -> "Case":
        """A case made from generated data (``check``, ``generate``, the contract suite)."""
        return cls(1, data, "<generated>", 1)

    @classmethod
    def unread(cls, index: int, source: str, line: int, status: str) -> "Case":
        """A case whose reading a limit stopped, for a parser to yield in its place.

        A parser that calls :func:`searchkit.limits.setup_check` or
        :func:`searchkit.limits.reserve` while reading a large case catches
        the :class:`~searchkit.limits.LimitReached` they raise, passes over
        the rest of the case (so the next one is still read), and yields
        ``Case.unread(index, source, line, stop.status)``.  The
        :class:`~searchkit.machinery.solver.Solver` reports it with that status at once.
        """
        return cls(index, None, source, line, status)


@attrs.frozen
class GameOption:
    """A game-specific command-line option of ``searchkit solve GAME``.

    Attributes:
        name: option name without dashes, ``-`` separated (``"run-length"``);
            the value reaches the game under the name with ``_`` (``run_length``).
        help: one line for ``--help``.
        type: ``bool`` for a flag, else ``int``, ``float`` or ``str``.
        default: the value when the option is not given.
        choices: allowed values for a ``str`` option, or ``None``.
        min: smallest allowed value of an ``int`` or ``float`` option, or ``None``.
        max: largest allowed value of an ``int`` or ``float`` option, or ``None`` (e.g. what the game's
            parser reads back, so that a generated instance parses: ``generate`` then ``solve``).
        output_only: the option changes only how an answer is printed (``--moves``,
            ``--show``), never which answer: ``--resume`` and ``verify`` ignore it
            when they compare a record's options with the run's.
    """

    name: str
    help: str
    type: type = bool
    default: Any = None
    choices: tuple[str, ...] | None = None
    min: int | float | None = None
    output_only: bool = False
    max: int | float | None = None

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")

    def parse(self, text: str) -> Any:
        """The typed value of ``text`` (``-o NAME=VALUE`` on the command line).

        Booleans accept only ``true/false``, ``yes/no``, ``on/off`` and ``1/0``
        (any case); anything else is refused rather than read as false.

        Raises:
            ValueError: a value of the wrong type, or one :meth:`check` refuses.
        """
        if self.type is bool:
            word = text.strip().lower()
            if word in _TRUE:
                value: Any = True
            elif word in _FALSE:
                value = False
            else:
                raise ValueError(f"option {self.name} expects true or false, got {text!r}")
        else:
            try:
                value = self.type(text.strip())
            except ValueError:
                raise ValueError(f"option {self.name} expects {self.type.__name__}, got {text!r}") from None
            if self.type is float and value != value:
                raise ValueError(f"option {self.name} expects a number, got {text!r}")
        self.check(value)
        return value

    def check(self, value: Any) -> None:
        """Validate one value of this option.

        Raises:
            ValueError: for a value below ``min``, above ``max`` or outside ``choices``.
        """
        if value is None:
            return
        if self.min is not None and value < self.min:
            raise ValueError(f"--{self.name} must be at least {self.min}, got {value}")
        if self.max is not None and value > self.max:
            raise ValueError(f"--{self.name} must be at most {self.max}, got {value}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"--{self.name} must be one of {', '.join(self.choices)}, got {value!r}")


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})

#: The same class under its generic name (generators use it too).
Option = GameOption


def option_defaults(options: Sequence[GameOption]) -> dict[str, Any]:
    """The default value of each option, by :attr:`GameOption.key`."""
    return {opt.key: opt.default for opt in options}


@attrs.frozen
class SearchPlan:
    """How a game wants one case searched.

    Attributes:
        algorithm: default algorithm name (the user's ``--algorithm`` overrides).
        heuristic: default heuristic name, or ``None``.
        depth: the depth or cost bound (``None``: unbounded).
        mode: ``"exact"`` (a solution of exactly ``depth``), ``"at_most"``
            (any solution within ``depth``; an optimal driver finds the least)
            or ``"shortest"`` (the least cost within ``depth``).  An algorithm
            that cannot search the mode is refused
            (:attr:`searchkit.algorithm.Algorithm.modes`).
        first_in_order: the answer must be the first solution in the
            puzzle's move order among those the mode allows (e.g. the
            lexicographically smallest); only algorithms that keep the order
            (:attr:`searchkit.algorithm.Algorithm.keeps_order`) may run.
        verdict: a result status the game decided without search (e.g.
            ``"exhausted"`` for a sliding-tile board of the wrong parity);
            the Solver returns it without building a puzzle.
    """

    algorithm: str
    heuristic: str | None = None
    depth: int | None = None
    mode: str = "at_most"
    first_in_order: bool = False
    verdict: str | None = None


@attrs.frozen
class LazyGame:
    """A game registered by name, imported only when a command uses it.

    Attributes:
        name: the game's name.
        ref: ``"package.module:attr"`` naming the :class:`Game` class (called
            with no arguments) or instance.
        summary: one line for ``searchkit games`` (shown without importing).
        native_module: the import name of the game's native module (built with the kit crate), or ``None``;
            the game object's own ``native_module`` must agree (:mod:`searchkit.machinery.engine`).
    """

    name: str
    ref: str
    summary: str = ""
    native_module: str | None = None


@runtime_checkable
class Game(Protocol):
    """What a game plugin registers (with ``register_games``).

    Attributes:
        name: short lowercase name, the CLI's ``GAME`` argument.
        summary: one line for ``searchkit games``.
        options: the game's own CLI options.

    Methods:
        parse(text, source, options) -> iterator of :class:`Case` or
            :class:`~searchkit.errors.InputError` items, in file order.  A
            yielded error with ``fatal=False`` lets later cases be read; a fatal
            one is the last item.
        puzzle(case, options, disabled) -> Puzzle: ``disabled`` is the frozenset
            of pruning-rule names switched off (rules the game implements in its
            own successor generation must honour it).
        plan(case, options) -> SearchPlan.
        format_result(case, result, options) -> str: the judge's output for one
            case (no trailing newline).

    ``options`` is always the complete mapping of the game's options
    (defaults merged in by the Solver), so a game indexes ``options["key"]``.

    Optional (looked up with ``getattr``; the one table of them is
    :data:`searchkit.hooks.OPTIONAL_HOOKS`):
        parse_stream(lines, source, options) -> the same items as ``parse``:
            ``lines()`` returns a new iterator over the input's lines (split
            at ``\n`` only, without it) each time it is called, read from the
            file again, so a parser that needs several passes (format
            detection) holds no more than a case at a time.  The CLI uses it,
            when present, instead of ``parse``; both must give the same items.
        moves_to_json(case, moves) -> list: JSON-ready moves for ``--format
            json`` (default: ``list(moves)``, tuples becoming lists).
        format_input(datas) -> str: case data values written back in the game's
            input format (one file holding them all); needed by ``generate`` and
            checked by the contract suite: parsing the text gives the same data.
        format_input_stream(datas) -> iterator of str: ``format_input`` in
            pieces, an instance at a time (``generate`` writes many cases
            without holding the text; without it, ``generate`` makes the
            text whole and writes at most 64 MiB).  ``datas`` is an
            iterator: a format of one case per file refuses a second
            instance before yielding.
        format_state(puzzle, state) -> str: a state drawn for reports
            (``check`` prints counter-examples with it).
        render(case, puzzle, state, move) -> :class:`searchkit.render.grid.Frame`:
            the picture of ``state`` (reached by ``move``, ``None`` for the
            start) for ``searchkit show``: rows of cell values in the input's
            own terms (``None`` for an empty cell), top row first, and optional
            per-cell marks.  Plain values only: the core draws them as SVG,
            PNG, GIF, HTML or terminal cells.
        render_move(case, puzzle, state, move, child) -> list of Frame: the
            pictures between ``state`` and its successor ``child`` by ``move``
            (e.g. a swap, each fall and each elimination of a cascade),
            without ``child`` itself (default: none).
        ``show`` builds ``puzzle`` with every pruning rule off and replays the
        moves through its ``successors``, so each state drawn is one the
        rules reach.
    """

    name: str
    summary: str
    options: Sequence[GameOption]

    def parse(self, text: str, source: str, options: Mapping[str, Any]) -> Iterator[Case | InputError]: ...

    def puzzle(self, case: Case, options: Mapping[str, Any], disabled: frozenset[str]) -> Puzzle: ...

    def plan(self, case: Case, options: Mapping[str, Any]) -> SearchPlan: ...

    def format_result(self, case: Case, result: SearchResult, options: Mapping[str, Any]) -> str: ...


def moves_to_json(game: Game, case: Case, moves: Sequence[Any]) -> list:
    """The game's JSON form of ``moves`` (its ``moves_to_json``, else a plain list)."""
    convert = getattr(game, "moves_to_json", None)
    return list(moves) if convert is None else convert(case, moves)
