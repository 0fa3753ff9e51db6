"""The value :func:`searchkit.solve` returns: one case's :class:`Outcome`, which draws itself in Jupyter."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import attrs

from searchkit.api._registry import registry
from searchkit.machinery.solver import ENGINES as _ENGINES
from searchkit.machinery.solver import Outcome as _SolverOutcome
from searchkit.result import ERROR, INPUT_ERROR, SearchStats

__all__ = ["ENGINES", "ERROR", "INPUT_ERROR", "Outcome"]

#: The engines :func:`~searchkit.api.solve` knows (:data:`searchkit.machinery.solver.ENGINES`); ``"auto"`` picks
#: the best available.  ``INPUT_ERROR``: the status of an outcome whose case could not be read (``error`` says
#: why), as in the CLI's records; ``ERROR``: the Solver refused the case or its search raised.
ENGINES = _ENGINES

# -- the outcome ------------------------------------------------------------------

@attrs.frozen(eq=False, repr=False)
class Outcome(_SolverOutcome):
    """What solving one case did, readable by a person and drawable in Jupyter.

    A :class:`searchkit.machinery.solver.Outcome` (``case``, ``result``, ``algorithm``,
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

        Built by the CLI's own :func:`searchkit.machinery.records.make_record`;
        ``peak_rss_kb`` is ``None`` (no worker measured it).
        """
        from searchkit.machinery.records import data_hash, make_record

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
            from searchkit.machinery.atomic import write_file

            write_file(path, data)  # an exclusive temporary name renamed into place (searchkit.machinery.atomic)
            return path
        import io

        from searchkit.render import raster

        from searchkit.machinery.atomic import replacing

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
        with replacing(path) as fh:  # an exclusive temporary name renamed into place (searchkit.machinery.atomic)
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
