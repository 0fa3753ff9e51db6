"""searchkit from Python: solve one case, solve many, compare heuristics; results that draw themselves.

The names here are re-exported by :mod:`searchkit` (imported on first use, so
``import searchkit`` stays cheap) and spelled as on the command line::

    import searchkit

    o = searchkit.solve("flood", "1162252133...")      # one case's text
    o.cost, o.moves                                    # 19, ('6', '3', '4', ...): the input's colours
    for o in searchkit.solve_all("flood", "boards.txt", jobs=2, time_limit=10):
        print(o.source, o.index, o.status, o.cost)
    table = searchkit.compare("flood", "boards.txt", heuristics=["layered", "puchert"])
    table.to_pandas()                                  # one row per case and heuristic

It is a face over the same machinery as the CLI, not a second one: the
:class:`~searchkit.solver.Solver` solves, the CLI's reader
(:func:`searchkit.reading.iter_cases`) reads files, the batch engine runs
``jobs`` worker processes, :func:`searchkit.tools.compare.compare` compares,
:func:`searchkit.records.make_record` writes records, and
:mod:`searchkit.render` draws.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from searchkit.errors import InputError
from searchkit.result import CANCELLED, SearchResult, SearchStats
from searchkit.solver import ENGINES as _ENGINES
from searchkit.solver import Outcome as _SolverOutcome
from searchkit.tools.compare import Row as _Row

#: The status of an outcome whose case could not be read (``error`` says why), as in the CLI's records
#: (:data:`searchkit.result.INPUT_ERROR`); ``ERROR``: the Solver refused the case or its search raised.
from searchkit.result import ERROR, INPUT_ERROR  # noqa: E402
#: The engines :func:`solve` knows (:data:`searchkit.solver.ENGINES`); ``"auto"`` picks the best available.
ENGINES = _ENGINES

# -- the registry ---------------------------------------------------------------

_REGISTRY: list = []


def registry():
    """The loaded :class:`~searchkit.plugin.manager.Registry`, loaded once per process (plugins load then)."""
    if not _REGISTRY:
        from searchkit.plugin.manager import load_registry

        _REGISTRY.append(load_registry())
    return _REGISTRY[0]


# -- the outcome ------------------------------------------------------------------

@attrs.frozen(eq=False, repr=False)
class Outcome(_SolverOutcome):
    """What solving one case did, readable by a person and drawable in Jupyter.

    A :class:`searchkit.solver.Outcome` (``case``, ``result``, ``algorithm``,
    ``heuristic``, ``seconds``, ``plan``) that also knows its game and the
    options it was solved under.

    Attributes:
        game: the game's name.
        options: the complete game options (defaults included) the case was solved under.
        engine: the engine that searched, ``"python"`` or ``"native"`` (``None`` when none did).
        error: why there is no search result (status ``input_error`` or
            ``error``), or a dead worker's message; else ``None``.
        place: ``(source, case number, line)`` of an outcome without a case
            (an input error); read it as :attr:`source`, :attr:`index`, :attr:`line`.
        upper_bound: the ``upper_bound`` it was solved under (an int, ``"auto"`` or ``None``).
    """

    game: str = ""
    options: Mapping[str, Any] = attrs.field(factory=dict)
    error: str | None = None
    place: tuple = (None, None, None)
    upper_bound: int | str | None = None

    # -- what happened ----------------------------------------------------------
    @property
    def status(self) -> str:
        """``solved``, ``feasible``, ``exhausted``, ``time_limit``, ``node_limit``, ``input_error``, ``error``, ..."""
        return self.result.status

    @property
    def solved(self) -> bool:
        """Proven optimal (``status == "solved"``)."""
        return self.result.status == "solved"

    @property
    def cost(self) -> int | None:
        """The solution's cost (``None`` without a solution)."""
        return self.result.cost if self.result.has_solution else None

    @property
    def lower_bound(self) -> int | None:
        """A proven lower bound on the case's optimal cost, or ``None``."""
        return self.result.lower_bound

    @property
    def gap(self) -> int | None:
        """``cost - lower_bound`` (0: proven optimal; ``None`` without a solution or a bound)."""
        return self.result.gap

    @property
    def stats(self) -> SearchStats:
        """The search's :class:`~searchkit.result.SearchStats` (expanded, generated, evaluated, rule cuts, ...)."""
        return self.result.stats

    @property
    def raw_moves(self) -> tuple:
        """The solution's moves as the game's search returns them (Flood-It: palette indices)."""
        return tuple(self.result.moves) if self.result.has_solution else ()

    @property
    def moves(self) -> tuple[str, ...]:
        """The solution's moves as the CLI prints them, one string each.

        Flood-It: the input's own colours (``('6', '3', '4', ...)``, as
        ``solve flood --moves``); Mayan: ``'x y dir'`` (``('2 1 1', '3 1 1')``).
        Empty without a solution.
        """
        if not self.raw_moves:
            return ()
        from searchkit.game import moves_to_json

        return tuple(_move_text(m) for m in moves_to_json(self._game(), self.case, self.raw_moves))

    @property
    def source(self) -> str | None:
        """The file (or ``<text>``) the case came from."""
        return self.case.source if self.case is not None else self.place[0]

    @property
    def index(self) -> int | None:
        """The case's 1-based number in its source (``None`` for an error that names no case)."""
        return self.case.index if self.case is not None else self.place[1]

    @property
    def line(self) -> int | None:
        """The line the case starts on (or the input error's line), or ``None``."""
        return getattr(self.case, "line", None) if self.case is not None else self.place[2]

    def record(self) -> dict:
        """The case's JSON Lines record, as ``solve --format jsonl`` writes it (``docs/records.md``).

        Built by the CLI's own :func:`searchkit.records.make_record`;
        ``peak_rss_kb`` is ``None`` (no worker measured it).
        """
        from searchkit.records import data_hash, make_record

        game = self._game()
        if self.case is None:
            return make_record(game, source=self.source, case=self.index, status=self.status, error=self.error,
                               line=self.line, options=self.options, upper_bound=self.upper_bound)
        searched = self.status not in (INPUT_ERROR, ERROR) or self.algorithm is not None
        return make_record(game, source=self.case.source, case=self.case.index, status=self.status,
                           outcome=self if searched else None, data_hash=data_hash(self.case), error=self.error,
                           line=self.case.line, options=self.options, upper_bound=self.upper_bound)

    # -- pictures -------------------------------------------------------------
    def steps(self) -> list:
        """The solution as :class:`~searchkit.render.grid.Step` pictures: the start, then each move.

        Every move is replayed with the game's own rules (every pruning rule
        off); without a solution, the start alone.

        Raises:
            searchkit.render.steps.RenderError: the game has no render hook, or
                there is no case to draw (an input error).
        """
        from searchkit.render.steps import RenderError, replay_steps

        if self.case is None:
            raise RenderError(f"{self.source}: nothing to draw: the case could not be read ({self.error})")
        game = self._game()
        off = frozenset(rule.name for rule in registry().rules_for(self.game))
        puzzle = game.puzzle(self.case, self.options, off)
        steps, _ = replay_steps(game, self.case, puzzle, self.raw_moves)
        return steps

    def show(self, to: str | os.PathLike = "svg", *, labels: bool = False, columns: int | None = None,
             palette: Any = None, title: str | None = None) -> str | bytes:
        """Draw the solution: return it as SVG, PNG, GIF or HTML, or write it to a file.

        Args:
            to: ``"svg"``, ``"html"`` (returned as text), ``"png"``, ``"gif"``
                (returned as bytes), or a path ending in ``.svg``, ``.html``,
                ``.png`` or ``.gif`` (written; its name is returned).
            labels: write each cell's value in it.
            columns: frames per row of an SVG or PNG (default: as many as fit 1400 pixels).
            palette: colours for the values (:func:`searchkit.render.palette.load_palette`:
                a name such as ``"okabe-ito"`` or ``"greys"``, a file, a dict
                value -> ``"#rrggbb"``, or a list of colours); default: the
                game's own ``palette`` attribute if it has one, else Okabe-Ito.
            title: the picture's title (default: game, source, case and moves).

        Raises:
            ValueError: an unknown format or suffix.
            searchkit.render.raster.MissingPillow: PNG or GIF without Pillow
                (``pip install 'searchkit-puzzles[pictures]'``).
            searchkit.render.steps.RenderError: as :meth:`steps`.
            OSError: the file cannot be written.
        """
        from searchkit.render.palette import game_palette

        path = os.fspath(to)
        fmt = path.lower().lstrip(".")
        write = fmt not in ("svg", "png", "gif", "html")
        if write:
            fmt = os.path.splitext(path)[1].lower().lstrip(".")
            if fmt not in ("svg", "png", "gif", "html"):
                raise ValueError(f"cannot tell the picture format of {path!r}: give svg, png, gif or html, "
                                 f"or a file name ending in .svg, .png, .gif or .html")
        colours = game_palette(self._game(), palette)
        steps = self.steps()
        title = self._title() if title is None else title
        if fmt in ("svg", "html"):
            if fmt == "svg":
                from searchkit.render.svg import render_svg

                data: str | bytes = render_svg(steps, labels=labels, columns=columns, title=title, palette=colours)
            else:
                from searchkit.render.html import render_html

                data = render_html(steps, labels=labels, title=title, palette=colours)
            if not write:
                return data
            from searchkit.atomic import write_file

            write_file(path, data)  # an exclusive temporary name renamed into place (searchkit.atomic)
            return path
        import io

        from searchkit.render import raster

        from searchkit.atomic import replacing

        buf = io.BytesIO()
        try:
            if fmt == "png":
                raster.save_png(buf, steps, labels=labels, columns=columns, palette=colours)
            else:
                raster.save_gif(buf, steps, labels=labels, palette=colours)
        except raster.MissingPillow:
            raise raster.MissingPillow(f"{fmt.upper()} pictures need Pillow: "
                                       f"pip install 'searchkit-puzzles[pictures]'") from None
        if not write:
            return buf.getvalue()
        with replacing(path) as fh:  # an exclusive temporary name renamed into place (searchkit.atomic)
            fh.write(buf.getbuffer())
        return path

    def _repr_svg_(self) -> str | None:
        """Jupyter: every frame of the solution with its moves under them (the start alone without one)."""
        if self.case is None or not _can_draw(self.game):
            return None
        return self.show("svg")

    def _repr_html_(self) -> str:
        """Jupyter: one line of facts, then the step-through page (in an isolated frame)."""
        from html import escape

        head = f"<p><code>{escape(self.summary())}</code></p>"
        if self.case is None or not _can_draw(self.game):
            return head
        page = self.show("html")
        return (f'{head}<iframe srcdoc="{escape(page, quote=True)}" sandbox="allow-scripts" '
                f'style="width: 100%; height: 560px; border: 1px solid #ddd;" '
                f'title="{escape(self._title())}"></iframe>')

    def summary(self) -> str:
        """One line: where the case is from, status, cost, bound, moves, what ran and how long it took."""
        where = f"{self.source} case {self.index if self.index is not None else '-'}"
        if self.error is not None and self.status in (INPUT_ERROR, ERROR):
            return f"{where}: {self.status}: {self.error}"
        parts = [self.status]
        if self.cost is not None:
            parts.append(f"cost {self.cost}")
        if self.lower_bound is not None and (self.cost is None or self.gap):
            parts.append(f"lower bound {self.lower_bound}")
        if self.moves:
            shown = " ".join(f"[{m}]" if " " in m else m for m in self.moves[:40])
            parts.append(f"moves {shown}{' ...' if len(self.moves) > 40 else ''}")
        ran = f"{self.algorithm}/{self.heuristic or '-'}" if self.algorithm else "no search"
        parts.append(f"{ran}, {self.seconds:.3f} s")
        return f"{where}: " + ", ".join(parts)

    def __repr__(self) -> str:
        return f"<Outcome {self.game}: {self.summary()}>"

    def _game(self):
        return registry().game(self.game)

    def _title(self) -> str:
        name = os.path.basename(self.source or "")
        n = len(self.raw_moves)
        return f"{self.game}: {name} case {self.index}, {n} move{'s' if n != 1 else ''}"


def _can_draw(game: str) -> bool:
    from searchkit.render.steps import has_render

    return has_render(registry().game(game))


def _move_text(value: Any) -> str:
    """A move's JSON form as the CLI prints it: lists joined by spaces."""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


# -- solving ------------------------------------------------------------------------

def _solver(game: str, *, algorithm: str | None, heuristic: str | None, no_prune: Iterable[str],
            time_limit: float | None, max_nodes: int | None, upper_bound: int | str | None, engine: str | None,
            options: Mapping[str, Any]):
    """The :class:`~searchkit.solver.Solver` for the user's choices, the game's options checked as the CLI does."""
    from searchkit.errors import UnknownNameError
    from searchkit.limits import Limits
    from searchkit.solver import Solver

    if engine is None:
        from searchkit.engine import default_engine

        engine = default_engine()  # SEARCHKIT_ENGINE, as the CLI reads it (a PlanError if it names none)
    if engine not in ENGINES:
        raise UnknownNameError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if isinstance(no_prune, str):
        no_prune = (no_prune,)
    reg = registry()
    by_key = {opt.key: opt for opt in reg.game(game).options}
    for key, value in options.items():
        opt = by_key.get(key)
        if opt is None or value is None:
            continue  # an unknown name: the Solver says which are known
        want = opt.type
        ok = isinstance(value, bool) if want is bool else (
            isinstance(value, want) and not isinstance(value, bool) or want is float and isinstance(value, int)
            and not isinstance(value, bool))
        if not ok:
            raise TypeError(f"option {key} of {game} expects {want.__name__}, got {value!r}")
        opt.check(value)
    import math

    from searchkit.limits import MAX_COST, MAX_NODES, MAX_SECONDS

    for name, value, example in (("algorithm", algorithm, "'wastar(weight=1.3)'"),
                                 ("heuristic", heuristic, "'pdb(partition=6-6-3)'")):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} expects a name (a str, e.g. {example}) or None, got {value!r}")
    for name, value, kinds, top in (("time_limit", time_limit, (int, float), MAX_SECONDS),
                                    ("max_nodes", max_nodes, (int,), MAX_NODES)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TypeError(f"{name} expects {'seconds' if name == 'time_limit' else 'a whole number'} "
                            f"or None, got {value!r}")
        if math.isnan(value) or not 0 <= value <= top:  # the CLI's ranges (searchkit.limits)
            raise ValueError(f"{name} must be a number from 0 to {top}, got {value!r}")
    if upper_bound is not None and upper_bound != "auto":
        if isinstance(upper_bound, bool) or not isinstance(upper_bound, int):
            raise TypeError(f"upper_bound expects a cost (an int), 'auto' or None, got {upper_bound!r}")
        if not 0 <= upper_bound <= MAX_COST:
            raise ValueError(f"upper_bound must be a cost from 0 to {MAX_COST}, got {upper_bound!r}")
    return Solver(reg, game, algorithm=algorithm, heuristic=heuristic, disabled=frozenset(no_prune),
                  limits=Limits(max_nodes=max_nodes, time_limit=time_limit), options=options,
                  upper_bound=upper_bound, engine=engine)


def _checked_source(source):
    """``source`` itself, once it is a text, a path, or a sequence of them (else ``TypeError``).

    A dict's keys and a set's arbitrary order are not an input order, and ``bytes`` is not a text (decode
    it).  A list or tuple is checked item by item; any other iterable is left whole (reading it here would
    use it up).
    """
    if (isinstance(source, (Mapping, set, frozenset, bytes, bytearray))
            or not isinstance(source, (str, os.PathLike, Iterable))):
        raise TypeError(f"expected a text, a path or a sequence of them, got {type(source).__name__}")
    for part in source if isinstance(source, (list, tuple)) else ():
        if not isinstance(part, (str, os.PathLike)):
            raise TypeError(f"expected a text, a path or an iterable of them, got {type(part).__name__}")
    return source


def _items(game, source, options, limits=None) -> Iterator:
    """Every case and input error of ``source`` (a text, a path, or an iterable of either), in order.

    A ``str`` holding no newline and naming an existing file is read as that
    file; any other ``str`` is the text itself; an ``os.PathLike`` is always a
    file.  Texts are named ``<text>`` (``<text N>`` in an iterable).  Each case is read under ``limits``
    (:func:`searchkit.reading.timed_items`).

    Raises:
        ValueError: a ``str`` that names an existing file and also reads, as a
            text, as cases without an error (``"1221"`` with a file of that
            name here): it could be read two ways, so it is refused, saying to
            pass ``pathlib.Path(...)`` for the file or the text with a newline.
    """
    from searchkit.reading import iter_cases, iter_text_cases

    def is_path(value) -> bool:
        if isinstance(value, os.PathLike):
            return True
        if "\n" in value or not os.path.isfile(value):
            return False
        as_text = [item.value for item in iter_text_cases(game, value, "<text>", options)]
        if as_text and not any(isinstance(v, InputError) for v in as_text):
            raise ValueError(f"{value!r} names a file here and is also a text of {len(as_text)} case(s): pass "
                             f"pathlib.Path({value!r}) for the file, or {value + chr(10)!r} for the text")
        return True

    single = isinstance(source, (str, os.PathLike))
    parts = [source] if single else list(_checked_source(source))
    _checked_source(parts)  # each item (an iterator's too, now that it is read)
    for k, part in enumerate(parts):
        if is_path(part):
            for item in iter_cases(game, [os.fspath(part)], options, limits):
                yield attrs.evolve(item, file=k)
            continue
        items = iter_text_cases(game, part, "<text>" if single else f"<text {k + 1}>", options, k, limits)
        for item in items:
            if "\n" not in part and isinstance(item.value, InputError) and not item.value.warning:
                # one line, no file of that name: say so, a mistyped path is likelier than a bad one-line text
                item.value.message = f"no file named {part!r} here, and as a text: {item.value.message}"
            yield item


def _public(solver, item, outcome, message: str | None, error: str | None = None) -> Outcome | None:
    """The :class:`Outcome` of one item read (``None`` for a warning, which is reported as a Python warning)."""
    value = item.value
    common = {"game": solver.config.game, "options": dict(solver.options), "upper_bound": solver.config.upper_bound}
    if isinstance(value, InputError):
        if value.warning:
            import warnings

            warnings.warn(str(value), stacklevel=3)
            return None
        return Outcome(None, SearchResult(status=INPUT_ERROR), None, None, 0.0, None,
                       error=value.message, place=(item.source, value.case, value.line), **common)
    if outcome is None:
        return Outcome(value, SearchResult(status=ERROR), None, None, 0.0, None, error=message, **common)
    fields = {f.name: getattr(outcome, f.name) for f in attrs.fields(type(outcome))}
    return Outcome(**fields, error=error, **common)


def solve(game: str, data: str, *, algorithm: str | None = None, heuristic: str | None = None,
          no_prune: Iterable[str] = (), time_limit: float | None = None, max_nodes: int | None = None,
          upper_bound: int | str | None = None, engine: str | None = None, **game_options: Any) -> Outcome:
    """Solve the one case in ``data``, as ``searchkit solve GAME`` does.

    Args:
        game: the game's name (:func:`games`).
        data: the text of one case, in any input format the game reads.
        algorithm: ``"ida_star"``, ``"wastar(weight=2)"``, ... (:func:`algorithms`);
            default: the game's plan for the case.
        heuristic: a heuristic of the game (:func:`heuristics`); default: the plan's.
        no_prune: pruning rules to switch off (:func:`rules`).
        time_limit: seconds for the case, reading and set-up included.
        max_nodes: most states to expand.
        upper_bound: seek only solutions cheaper than this cost, or ``"auto"``
            (start from the game's own upper-bound solution).
        engine: ``"auto"``, ``"python"`` or ``"native"`` (:class:`searchkit.solver.SolverConfig`; ``auto`` runs
            the native engine where every component has a native twin; :attr:`Outcome.engine` says which ran);
            ``None`` (default): the ``SEARCHKIT_ENGINE`` environment variable's, else ``"auto"``, as the
            command line's ``--engine``.
        **game_options: the game's options by their ``--flag`` names with
            ``_`` for ``-`` (Flood-It: ``input_format="lines"``, ``start="centre"``);
            the others take their defaults, as on the CLI.

    Returns:
        The :class:`Outcome`; a case stopped at a limit is an outcome too
        (``status`` ``time_limit`` or ``node_limit``).

    Raises:
        searchkit.errors.InputError: ``data`` cannot be read, is empty, or holds
            several cases (:func:`solve_all` solves those).
        searchkit.errors.UnknownNameError: an unknown game, algorithm, heuristic,
            rule, option or engine.
        searchkit.errors.PlanError: choices that cannot work together (an
            algorithm that takes no heuristic given one, one that cannot
            search the case's plan, ...).
        TypeError, ValueError: a game option, limit, upper bound, algorithm or heuristic of the wrong type
            or out of range (the command line's ranges: :mod:`searchkit.limits`).
    """
    if not isinstance(data, str):
        raise TypeError(f"solve takes the text of one case (a str); for files use solve_all, got "
                        f"{type(data).__name__}")
    solver = _solver(game, algorithm=algorithm, heuristic=heuristic, no_prune=no_prune, time_limit=time_limit,
                     max_nodes=max_nodes, upper_bound=upper_bound, engine=engine, options=game_options)
    from searchkit.reading import iter_text_cases

    first = None
    for item in iter_text_cases(solver.game, data, "<text>", solver.options, limits=solver.config.limits):
        if isinstance(item.value, InputError):
            if item.value.warning:  # input a judge ignores (data after the end): said, not refused
                import warnings

                warnings.warn(str(item.value), stacklevel=2)
                continue
            raise item.value
        if first is not None:
            raise InputError("the text holds more than one case; solve takes one: use searchkit.solve_all(game, "
                             "text) for several", source="<text>", line=item.value.line, case=item.value.index)
        first = item
    if first is None:
        raise InputError("no case in the text", source="<text>")
    return _public(solver, first, solver.solve(first.value, started=first.started), None)


def solve_all(game: str, source: Any, *, jobs: int | str = 1, executor: str | None = None,
              scheduler: str | None = None, algorithm: str | None = None, heuristic: str | None = None,
              no_prune: Iterable[str] = (), time_limit: float | None = None, max_nodes: int | None = None,
              upper_bound: int | str | None = None, engine: str | None = None, oversubscribe: bool = False,
              output: str | os.PathLike | None = None, resume: bool = False, force: bool = False,
              keep_stopped: bool = False, **game_options: Any) -> Iterator[Outcome]:
    """Solve every case of ``source``, yielding each :class:`Outcome` in input order as it is ready.

    Args:
        game: the game's name.
        source: a text, a path (``os.PathLike``, or a ``str`` naming an
            existing file and holding no newline), or an iterable of texts
            and paths.  A ``str`` that names a file and also reads as a text
            without an error is refused (``ValueError``): pass a
            ``pathlib.Path`` or end the text with a newline.
        jobs: worker processes (1: this process), or ``"auto"`` for the CPUs
            this process may use, as ``solve --jobs``; more than those CPUs
            are capped at them (a :class:`UserWarning` says so) unless
            ``oversubscribe``.  Local workers are fresh interpreters that
            never import the caller's main module, so a script without an
            ``if __name__ == "__main__":`` guard, code on standard input and
            a notebook all work (``SEARCHKIT_START_METHOD=fork`` or
            ``forkserver`` chooses multiprocessing's instead).
        oversubscribe: start every one of ``jobs`` local workers even beyond
            the usable CPUs.
        executor: ``None`` or ``"local"`` (worker processes on this machine),
            or ``"dask"`` (a Dask ``LocalCluster`` of ``jobs`` workers, or the
            cluster at ``scheduler``; needs ``searchkit-puzzles[dask]``).
        scheduler: a Dask scheduler's address (``tcp://host:8786``).
        algorithm: as :func:`solve`.
        heuristic: as :func:`solve`.
        no_prune: as :func:`solve`.
        time_limit: as :func:`solve`.
        max_nodes: as :func:`solve`.
        upper_bound: as :func:`solve`.
        engine: as :func:`solve`.
        **game_options: as :func:`solve`.
        output: a JSON Lines record file to write, one record a case as
            ``solve --output`` writes it (``docs/records.md``), appended as
            each case finishes, so an interrupted run loses nothing.  The
            file is never an input, never a file that is not a record file,
            and never one that already holds records unless ``resume`` or
            ``force``, as ``solve --output`` (one policy:
            :func:`searchkit.records.resume_plan`).
        resume: with ``output``, skip the cases whose records already answer
            this run's question and append the others (``--resume``): the
            loop yields only the cases solved now; lines it cannot use are
            said in a :class:`UserWarning` each.
        force: with ``output``, start a record file that holds records afresh.
        keep_stopped: with ``resume``, count cases recorded as stopped (a
            limit, an error) as done (``--keep-stopped``).

    A case that cannot be read is an outcome with status ``input_error``
    (its ``error`` says why, :attr:`Outcome.line` where); one the Solver
    refuses, or whose search raised, has status ``error``.  Input the game
    ignores (data after a judge file's end) gives a Python warning.  Leaving
    the loop early stops the workers; Ctrl-C ends the run after the case it
    interrupted (its outcome has status ``cancelled``), or raises
    ``KeyboardInterrupt`` when workers are running.

    Raises:
        searchkit.errors.UnknownNameError: as :func:`solve`, at the call,
            before anything is read (not at the first step of the loop).
        searchkit.errors.PlanError: as :func:`solve`, at the call.
        TypeError: as :func:`solve`, at the call.
        ValueError: as :func:`solve`, at the call.
        ValueError: when the loop reaches a ``str`` that names a file and also
            reads as a text (see ``source``).
        searchkit.errors.PlanError: local workers (``jobs`` > 1) and a
            ``SEARCHKIT_START_METHOD`` other than spawn, forkserver or fork.
        ValueError: a malformed ``scheduler`` (``[tcp://]HOST:PORT`` expected);
            ``resume``, ``force`` or ``keep_stopped`` without ``output``.
        searchkit.records.ResumeRefused: (a ``ValueError``) ``output`` may
            not be written, or not resumed, in one line saying why.
        ConnectionError: when the loop begins, a ``scheduler`` that cannot
            be reached (it has 5 s to answer:
            :data:`searchkit.batch.executors.SCHEDULER_TIMEOUT`).
    """
    solver = _solver(game, algorithm=algorithm, heuristic=heuristic, no_prune=no_prune, time_limit=time_limit,
                     max_nodes=max_nodes, upper_bound=upper_bound, engine=engine, options=game_options)
    if executor not in (None, "local", "dask"):
        raise ValueError(f"unknown executor {executor!r} (known: local, dask)")
    if scheduler is not None and executor != "dask":
        raise ValueError("scheduler goes with executor='dask'")
    if scheduler is not None:
        from searchkit.batch.executors import scheduler_address

        scheduler = scheduler_address(scheduler)  # ValueError: malformed, at the call
    if jobs == "auto":
        from searchkit.batch.executors import usable_cpus

        jobs = usable_cpus()
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a number of worker processes >= 1 or 'auto', got {jobs!r}")
    if executor != "dask" and jobs > 1:
        from searchkit.batch.executors import check_start_method, usable_cpus

        check_start_method()  # SEARCHKIT_START_METHOD: a PlanError now, not every case's error
        cpus = usable_cpus()
        if jobs > cpus and not oversubscribe:
            import warnings

            warnings.warn(f"jobs={jobs} is more than the {cpus} CPU(s) this process may use: {cpus} worker(s) "
                          f"(oversubscribe=True to start {jobs})", stacklevel=2)
            jobs = cpus
    _checked_source(source)  # now, not when the loop begins (the items of an iterator as the loop reaches them)
    plan = None
    if output is not None:
        if not isinstance(source, (str, os.PathLike, list, tuple)):
            source = list(source)  # its paths must be known now: the record file is never one of the inputs
        plan = _resume_plan(solver, source, os.fspath(output), resume=resume, force=force, keep_stopped=keep_stopped)
    elif resume or force or keep_stopped:
        raise ValueError("resume, force and keep_stopped go with output= (a record file)")
    items = _items(solver.game, source, solver.options, solver.config.limits)
    if plan is not None:
        return _solve_recorded(solver, items, jobs, executor, scheduler, os.fspath(output), resume, plan)
    return _solve_all(solver, items, jobs, executor, scheduler)


def _resume_plan(solver, source, output: str, **how):
    """``solve_all``'s :func:`searchkit.records.resume_plan`, its warnings as :class:`UserWarning`."""
    import warnings

    from searchkit.records import resume_plan

    parts = [source] if isinstance(source, (str, os.PathLike)) else source
    inputs = [os.fspath(p) for p in parts
              if isinstance(p, os.PathLike) or ("\n" not in p and os.path.isfile(p))]  # a superset is safe
    plan = resume_plan(output, inputs, solver.game, solver.options, optimal=solver.seeks_optimum,
                       upper_bound=solver.config.upper_bound, **how)
    for line in plan.warnings:
        warnings.warn(line, stacklevel=4)
    return plan


def _solve_recorded(solver, items, jobs: int, executor: str | None, scheduler: str | None, output: str,
                    resume: bool, plan) -> Iterator[Outcome]:
    """:func:`solve_all` with ``output``: each case's record written as the CLI writes it, the recorded
    cases skipped (``plan``), through the executors the CLI uses (so records carry the same data hash,
    peak memory and improvement events)."""
    import warnings

    from searchkit.batch import executors
    from searchkit.batch.runner import solve_ordered
    from searchkit.formats import solve_writer
    from searchkit.records import RecordFile

    sink = RecordFile(output, append=resume, truncate_to=plan.truncate)
    reporter = solve_writer("jsonl", solver, quiet=True, sink=sink)
    backend = None
    finished = False
    try:
        if executor == "dask":
            backend = executors.DaskPool(solver.config, scheduler, jobs, hash_data=True)
        elif jobs == 1:
            backend = executors.InProcess(solver.config, solver)
        else:
            backend = executors.LocalPool(solver.config, jobs, hash_data=True)
        for item, res in solve_ordered(plan.pending(items), backend):
            outcome = None if res is None else res.outcome
            message = None if res is None else res.message
            reporter.extra = res
            for event in () if res is None else res.events:  # before the case's record, as the CLI writes them
                reporter.improvement(event)
            reporter.report(item, outcome, message)
            public = _public(solver, item, outcome, message, None if res is None else res.error)
            if public is not None:
                yield public
                if public.status == CANCELLED:
                    return
        finished = True
    finally:
        try:
            if backend is not None:
                backend.close(cancel=not finished)
        finally:
            sink.close()
    unmatched = plan.no_match(output)
    if unmatched:
        warnings.warn(unmatched, stacklevel=2)


def _solve_all(solver, items, jobs: int, executor: str | None, scheduler: str | None) -> Iterator[Outcome]:
    """:func:`solve_all`'s loop, a generator of its own so that the arguments are checked at the call."""
    if jobs == 1 and executor != "dask":
        from searchkit.reporting import solve_items

        for item, outcome, message in solve_items(solver, items):
            public = _public(solver, item, outcome, message)
            if public is not None:
                yield public
                if public.status == CANCELLED:  # Ctrl-C: the search said so; the run ends here, as in the CLI
                    return
        return
    from searchkit.batch import executors
    from searchkit.batch.runner import solve_ordered

    backend = (executors.DaskPool(solver.config, scheduler, jobs) if executor == "dask"
               else executors.LocalPool(solver.config, jobs))
    finished = False
    try:
        for item, res in solve_ordered(items, backend):
            public = _public(solver, item, None if res is None else res.outcome,
                             None if res is None else res.message, None if res is None else res.error)
            if public is not None:
                yield public
        finished = True
    finally:
        backend.close(cancel=not finished)


# -- comparing ----------------------------------------------------------------------

#: One case solved with one strategy: ``searchkit compare``'s own row, a plain frozen dataclass
#: (source, case, heuristic, algorithm, status, cost, depth, expanded, generated, evaluated,
#: before_last_layer, seconds, ebf, error, lower_bound, strategy).
ComparisonRow = _Row

@dataclasses.dataclass(frozen=True)
class Comparison:
    """Every case solved with every strategy, as ``searchkit compare`` tabulates it.

    Attributes:
        game: the game's name.
        strategies: the column names in order (heuristics, or ``ALGORITHM/HEURISTIC``).
        rows: one :class:`ComparisonRow` (a plain, frozen dataclass) per case and strategy, case by case.
        disagreements: ``(source, case, {strategy: cost})`` for each case whose solved costs differ.
        cancelled: stopped by Ctrl-C (the rows are partial).
    """

    game: str
    strategies: tuple[str, ...]
    rows: tuple[_Row, ...]
    disagreements: tuple[tuple[str, int, dict], ...] = ()
    cancelled: bool = False
    _report: Any = dataclasses.field(default=None, repr=False, compare=False)

    def totals(self) -> dict[str, dict]:
        """Per strategy: cases, solved, feasible, summed cost, gap to the best and to the proven bound,
        node counts, seconds and mean EBF (:meth:`searchkit.tools.compare.Comparison.totals`)."""
        return self._report.totals()

    def to_records(self) -> list[dict]:
        """The rows as dicts (one per row, the :class:`ComparisonRow` fields in order)."""
        return [dataclasses.asdict(r) for r in self.rows]

    def to_pandas(self):
        """The rows as a ``pandas.DataFrame`` (one row per case and strategy).

        Raises:
            ModuleNotFoundError: without pandas, saying what to install.
        """
        try:
            import pandas
        except ImportError:
            raise ModuleNotFoundError("Comparison.to_pandas() needs pandas: pip install 'searchkit-puzzles[pandas]' "
                                      "(or use .to_records())", name="pandas") from None
        return pandas.DataFrame.from_records(self.to_records(),
                                             columns=[f.name for f in dataclasses.fields(ComparisonRow)])

    def plot(self, path: str | os.PathLike | None = None):
        """``compare --plot``'s figure: nodes expanded per case, and cases solved within t seconds.

        Args:
            path: also write it here (``.svg`` or ``.png``).

        Returns:
            The matplotlib ``Figure`` (it draws itself in Jupyter).

        Raises:
            searchkit.render.plots.MissingMatplotlib: without matplotlib
                (``pip install 'searchkit-puzzles[plots]'``).
            ValueError: no rows to plot, or a path with another suffix.
        """
        from searchkit.render.plots import PLOTS_HINT, MissingMatplotlib, comparison_figure, save_figure

        try:
            figure = comparison_figure(self._report.rows, title=f"searchkit compare {self.game}")
        except MissingMatplotlib:
            raise MissingMatplotlib(f"Comparison.plot() needs matplotlib: {PLOTS_HINT}") from None
        if path is not None:
            save_figure(figure, os.fspath(path))
        return figure

    def _repr_html_(self) -> str:
        """Jupyter: the rows and the totals as two tables."""
        from html import escape

        def cell(value, digits=4):
            if value is None:
                return "-"
            return f"{value:.{digits}f}" if isinstance(value, float) else escape(str(value))

        names = ["source", "case", "strategy", "status", "cost", "lower_bound", "expanded", "generated", "seconds",
                 "ebf"]
        out = [f"<p><b>searchkit compare {escape(self.game)}</b>: {len({(r.source, r.case) for r in self.rows})} "
               f"cases, strategies {escape(', '.join(self.strategies))}"
               + (f"; <b>costs disagree on {len(self.disagreements)} case(s)</b>" if self.disagreements else "")
               + ("; <b>cancelled</b>" if self.cancelled else "") + "</p>"]
        out.append("<table><thead><tr>" + "".join(f"<th>{n}</th>" for n in names) + "</tr></thead><tbody>")
        for r in self.rows:
            values = [os.path.basename(r.source), r.case, r.strategy, r.status, r.cost, r.lower_bound, r.expanded,
                      r.generated, r.seconds, r.ebf]
            out.append("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in values) + "</tr>")
        out.append("</tbody></table>")
        heads = ["strategy", "solved", "feasible", "cases", "cost", "gap_to_best", "proven_gap", "expanded",
                 "generated", "seconds", "ebf"]
        out.append("<table><thead><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr></thead><tbody>")
        for name, t in self.totals().items():
            out.append(f"<tr><td>{escape(name)}</td>" + "".join(f"<td>{cell(t[h])}</td>" for h in heads[1:])
                       + "</tr>")
        out.append("</tbody></table>")
        return "\n".join(out)

    def __repr__(self) -> str:
        parts = []
        for name, t in self.totals().items():
            parts.append(f"{name}: {t['solved']}/{t['cases']} solved, cost {t['cost']}, expanded {t['expanded']}, "
                         f"{t['seconds']:.3f} s")
        return f"<Comparison {self.game}: " + "; ".join(parts) + ">"


def compare(game: str, source: Any, heuristics: str | Sequence[str] = "all", algorithms: str | Sequence[str] = (),
            *, jobs: int = 1, no_prune: Iterable[str] = (), time_limit: float | None = None,
            max_nodes: int | None = None, engine: str | None = None, **game_options: Any) -> Comparison:
    """Solve every case of ``source`` with every heuristic (and every algorithm), as ``searchkit compare``.

    Args:
        game: the game's name.
        source: as :func:`solve_all`.
        heuristics: a heuristic's name, several, or ``"all"`` (every registered one).
        algorithms: an algorithm (with its options, ``"wastar(weight=2)"``)
            or several: every algorithm with every heuristic; default: the
            game's plan for each case.
        jobs: worker processes (1: this process).
        no_prune: as :func:`solve`.
        time_limit: as :func:`solve`.
        max_nodes: as :func:`solve`.
        engine: as :func:`solve`.
        **game_options: as :func:`solve`.

    Returns:
        The :class:`Comparison` (a case that cannot be read is a row with
        status ``input_error``; one whose search raised, ``error``).

    Raises:
        searchkit.errors.UnknownNameError: as :func:`solve`.
        searchkit.errors.PlanError: as :func:`solve`.
        TypeError: as :func:`solve`.
        ValueError: as :func:`solve`.
        searchkit.errors.SearchkitError: a case the Solver refuses.
    """
    from searchkit.errors import UnknownNameError
    from searchkit.tools.compare import compare as run_compare

    reg = registry()
    names = [heuristics] if isinstance(heuristics, str) else list(heuristics)
    algs = [algorithms] if isinstance(algorithms, str) else list(algorithms)
    for what, given in (("heuristics", names), ("algorithms", algs)):
        for value in given:  # None would silently run the default
            if not isinstance(value, str):
                raise TypeError(f"{what} must be names (str), got {value!r}")
    if "all" in names:
        names = [h.name for h in reg.heuristics_for(game)]
    if not names:
        raise UnknownNameError(f"no heuristic to compare for {game}")
    strategies = [(a, h) for a in (algs or [None]) for h in names]
    solvers = [_solver(game, algorithm=a, heuristic=h, no_prune=no_prune, time_limit=time_limit,
                       max_nodes=max_nodes, upper_bound=None, engine=engine, options=game_options)
               for a, h in strategies]
    columns = [h if len(algs) < 2 else f"{a}/{h}" for a, h in strategies]
    items: Iterable = _items(solvers[0].game, source, solvers[0].options, solvers[0].config.limits)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a number of worker processes >= 1, got {jobs!r}")
    solved = None
    if jobs > 1:
        from searchkit.batch.runner import solve_in_workers

        solved, items = solve_in_workers(solvers, items, jobs)
    report = run_compare(solvers, items, columns, outcomes=solved)
    return Comparison(game, tuple(report.heuristics), tuple(report.rows), tuple(report.disagreements),
                      report.cancelled, report)


# -- instances ------------------------------------------------------------------------

def report(records: str | os.PathLike | Sequence[str | os.PathLike]):
    """``searchkit report``: the tables and plots of an experiment over JSON Lines record files.

    Args:
        records: one record file (``searchkit solve --output FILE``, ``solve_all(...)`` records) or several;
            each file, or each configuration inside one, is one column.

    Returns:
        A :class:`searchkit.tools.report.Report`: ``.coverage()``, ``.per_instance()``,
        ``.geometric_means()``, ``.quality()``, ``.contradictions()``, ``.errors()`` (each a table of plain
        values), ``.figures()``, ``.to_pandas()``; in Jupyter it draws itself (tables and plots).

    Raises:
        searchkit.tools.report.ReportError: a file cannot be read, holds no record, or the files are of
            different games (one line naming the file).
    """
    from searchkit.tools.report import load_report

    if isinstance(records, (str, os.PathLike)):
        records = [records]
    elif isinstance(records, (bytes, dict, set)) or not isinstance(records, Sequence):
        raise TypeError(f"records must be a path or a list of paths, not {type(records).__name__}")
    return load_report(list(records))


def generate(game: str, count: int = 1, *, seed: int = 0, size: int | None = None, **options: Any) -> str:
    """``count`` random instances of ``game`` in its input format: the text ``searchkit generate`` writes.

    Args:
        game: the game's name (one with a generator).
        count: instances (games whose format holds one case take 1).
        seed: the random seed (the same seed gives the same text).
        size: the generator's size (``searchkit generate GAME --help``; default: the generator's).
        **options: the generator's options, as ``--flag`` names with ``_``.

    Raises:
        searchkit.errors.UnknownNameError: an unknown game, a game without a generator, or an unknown option.
        TypeError: a count, size or seed that is not a whole number.
        ValueError: a count below 1, or a size or option the generator refuses.
    """
    import random

    from searchkit.errors import UnknownNameError

    reg = registry()
    the_game, gen = reg.game(game), reg.generator(game)
    known = {opt.key: opt for opt in gen.options}
    for key, value in options.items():
        if key not in known:
            raise UnknownNameError(f"unknown generator option {key!r} for {game} "
                                   f"(known: {', '.join(o.name for o in gen.options) or 'none'})")
        known[key].check(value)
    given = {k: v for k, v in options.items() if v is not None}
    for name, value in (("count", count), ("size", size), ("seed", seed)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} expects a whole number, got {value!r}")
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if size is not None and (size < gen.min_size or getattr(gen, "max_size", None) and size > gen.max_size):
        top, low = getattr(gen, "max_size", None), gen.min_size
        raise ValueError(f"size must be from {low} to {top}, got {size}" if top else
                         f"size must be at least {low}, got {size}"
                         + (" (the generator's min_size)" if low > 1 else ""))
    rng = random.Random(seed)
    datas = [gen(rng, size or gen.default_size, given) for _ in range(count)]
    stream = getattr(the_game, "format_input_stream", None)
    return "".join(stream(iter(datas))) if stream is not None else the_game.format_input(datas)


# -- what is registered -------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class GameInfo:
    """A registered game: its name, one line on it, and the plugin that registered it."""

    name: str
    summary: str
    plugin: str


@dataclasses.dataclass(frozen=True)
class HeuristicInfo:
    """A game's heuristic and what it claims (the CLI's ``searchkit heuristics GAME``)."""

    name: str
    admissible: bool
    consistent: bool
    summary: str


@dataclasses.dataclass(frozen=True)
class RuleInfo:
    """A game's pruning rule: where it acts and under which algorithms (``searchkit rules GAME``)."""

    name: str
    where: str
    algorithms: tuple[str, ...]
    summary: str


@dataclasses.dataclass(frozen=True)
class AlgorithmInfo:
    """A search algorithm (``searchkit algorithms``).

    Attributes:
        name: as ``algorithm=`` takes it.
        kind: its guarantee as ``searchkit algorithms`` prints it: ``optimal``,
            ``bounded(weight)``, ``anytime`` or ``none``.
        summary: one line.
        modes: the plan modes it searches.
        params: its options and their defaults (``{"weight": 1.5}``).
        takes_heuristic: it uses a heuristic (``heuristic=`` applies).
    """

    name: str
    kind: str
    summary: str
    modes: tuple[str, ...]
    params: dict
    takes_heuristic: bool


def games() -> list[GameInfo]:
    """The registered games, by name."""
    reg = registry()
    return [GameInfo(name, reg.game_summary(name), reg.owner("game", name)) for name in sorted(reg.games)]


def heuristics(game: str) -> list[HeuristicInfo]:
    """The heuristics registered for ``game``.

    Raises:
        searchkit.errors.UnknownNameError: an unknown game.
    """
    reg = registry()
    reg.game(game)
    return [HeuristicInfo(h.name, h.admissible, h.consistent, h.summary) for h in reg.heuristics_for(game)]


def rules(game: str) -> list[RuleInfo]:
    """The pruning rules registered for ``game`` (switch one off with ``no_prune=``).

    Raises:
        searchkit.errors.UnknownNameError: an unknown game.
    """
    reg = registry()
    reg.game(game)
    return [RuleInfo(r.name, r.where, tuple(a.name for a in reg.algorithms.values() if r.acts_under(a)), r.summary)
            for r in reg.rules_for(game)]


def algorithms() -> list[AlgorithmInfo]:
    """The registered search algorithms, in the CLI's order."""
    out = []
    for name, alg in registry().algorithms.items():
        out.append(AlgorithmInfo(name, str(alg.guarantee), alg.summary, tuple(alg.modes),
                                 {p.name: p.default for p in alg.params}, bool(alg.takes_heuristic)))
    return out
