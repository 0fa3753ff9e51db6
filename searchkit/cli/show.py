"""``searchkit show GAME FILE``: one case's solution as a picture, an animation, a web page or a terminal view.

The case is solved with the game's plan (or the user's ``-a``/``-H``), or its
moves are taken from ``--moves`` or from a JSON Lines record file
(``--records``: ``solve``'s records, the case's found as ``verify`` finds
it, by game, source, case number and data hash).  Every move is replayed with
the game's own rules (every pruning rule off) and each state drawn through
the game's ``render`` hook; the output format is chosen by OUT's suffix.
Pillow (PNG, GIF) is imported only for those formats.
"""

from __future__ import annotations

import os
import sys
import time

import click

from searchkit.cli.common import (EXIT_HELP, EXIT_LIMIT, GameGroup, HeuristicType, OnceCommand, apply, check_writable,
                                  fail, limit_options, load_game_records, option_flag, refuse_input, warning)
from searchkit.errors import InputError, SearchkitError
from searchkit.formats import choices
from searchkit.formats.pictures import PICTURES_HINT
from searchkit.limits import MAX_MEMORY_MB

#: OUT suffixes and what writes them.
FORMATS = tuple(f".{name}" for name in choices("show"))  #: the suffixes -o takes (searchkit.formats.WRITERS)

#: show's own option names; a game option of the same name is left out (it only changes solve's text output).
_OWN = {"case", "output", "moves", "records", "labels", "columns", "algorithm", "heuristic", "show",
        "max_nodes", "time_limit", "palette", "max_pixels", "memory_limit"}
#: The largest picture drawn unless --max-pixels says otherwise: a PNG of 100 million pixels is 300 MB of RGB.
MAX_PIXELS = 100_000_000


def make_show_command(registry, name: str) -> click.Command:
    """Build the click command ``searchkit show NAME``."""
    game = registry.game(name)
    heuristic_names = [h.name for h in registry.heuristics_for(name)]
    rule_names = frozenset(r.name for r in registry.rules_for(name))
    game_options = [opt for opt in game.options if opt.key not in _OWN]

    @click.pass_context
    def command(ctx, file, case_no, output, moves, records, max_frames, max_pixels, memory_limit, labels, columns,
                palette, algorithm, heuristic, max_nodes, time_limit, **options):
        from searchkit.limits import Limiter, Limits
        from searchkit.render.steps import RenderError, has_render, replay_steps
        from searchkit.machinery.solver import Solver

        if not has_render(game):
            fail(f"game {name!r} has no render hook, so it cannot be drawn (see 'render' in searchkit/game.py)")
        if moves is not None and records is not None:
            raise click.UsageError("give --moves or --records, not both")
        suffix = "" if output in (None, "-") else os.path.splitext(output)[1].lower()
        if output not in (None, "-") and suffix not in FORMATS:
            raise click.UsageError(f"cannot tell the format of {output!r}: use a name ending in "
                                   f"{', '.join(FORMATS)}, or - for the terminal")
        if suffix:
            refuse_input(output, (file, records, palette))  # never overwrite what it reads
        from searchkit.render.palette import game_palette

        try:
            colours = game_palette(game, palette)
        except ValueError as exc:
            raise click.UsageError(f"--palette: {exc}") from None
        if suffix:
            _check_output(output, suffix)  # before the search: a long solve must not end in "cannot write"
        clock = Limiter(Limits(time_limit=time_limit))  # the time limit holds from the first byte to the last drawn
        try:
            solver = Solver(registry, name, algorithm=algorithm, heuristic=heuristic,
                            limits=Limits(max_nodes=max_nodes, time_limit=time_limit, memory_mb=memory_limit),
                            options=options)
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        if memory_limit is not None:  # the case's address space, as solve --memory-limit (restored when show ends)
            from searchkit.machinery.batch.executors import _MemoryLimit

            if not suffix:
                import rich.console  # noqa: F401  (imported before the limit, as Pillow is by _check_output)
            ctx.with_resource(_MemoryLimit(memory_limit))
        case = _read_case(game, file, case_no, solver.options, solver.config.limits)
        if case.stopped is not None:
            click.echo(f"searchkit: error: {case.source}: case {case.index}: {case.stopped} while it was read, "
                       f"nothing to show", err=True)
            sys.exit(_stop_code(case.stopped))
        began = time.perf_counter()
        try:
            puzzle = game.puzzle(case, solver.options, rule_names)
            if moves is not None:
                from searchkit.render.steps import moves_from_text

                path = moves_from_text(game, case, puzzle, [moves])
            elif records is not None:
                from searchkit.render.steps import moves_from_json

                path = moves_from_json(game, case, puzzle, _record_moves(records, game, case, solver.options))
            else:
                path = _solve(solver, case)
            started = time.perf_counter()
            steps, final = replay_steps(game, case, puzzle, path, max_frames=max_frames)
        except (RenderError, ValueError, SearchkitError) as exc:  # a plan the engine refuses for the case too
            fail(f"{case.source}: case {case.index}: {exc}")
        if not puzzle.is_goal(final):
            warning(f"{case.source}: case {case.index}: the {len(path)} moves do not reach a goal")
        title = f"{name}: {os.path.basename(case.source)} case {case.index}, {len(path)} moves"
        cut = len(steps) >= max_frames and steps[-1].index < len(path)
        if cut:
            title += f" (the first {steps[-1].index} drawn)"
        if suffix:  # a picture refused as too large draws nothing: the line about the frames drawn comes after
            _bound(case, suffix[1:], steps, columns, colours, max_pixels, memory_limit)
        if cut:
            warning(f"{case.source}: case {case.index}: drew the first {len(steps)} frames, up to move "
                    f"{steps[-1].index} of {len(path)} (--max-frames {max_frames}); every move was checked")
        if not suffix:
            from rich.console import Console

            from searchkit.render.terminal import render_terminal

            render_terminal(steps, Console(highlight=False), labels=labels, palette=colours)
            return
        _write(output, suffix, steps, labels=labels, columns=columns, title=title, palette=colours, clock=clock,
               case=case)
        size = os.path.getsize(output)
        drawing = time.perf_counter() - started
        click.echo(f"searchkit: wrote {output}: {len(steps)} frames ({len(path)} moves), {size / 1024:.1f} KiB; "
                   f"search {started - began:.2f} s, replay and drawing {drawing:.2f} s", err=True)

    params = [
        click.argument("file", type=str),
        click.option("--case", "-c", "case_no", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Which case of FILE to show (1-based)."),
        click.option("--output", "-o", "output", default=None, metavar="OUT",
                     help="OUT.svg, OUT.png, OUT.gif or OUT.html; - or none: the terminal."),
        click.option("--moves", "moves", default=None, metavar="MOVES",
                     help="Show these moves (as solve prints them, e.g. '6 3 4' or '2 1 1 3 1 1') instead of "
                          "solving; each is checked by replay."),
        click.option("--records", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                     help="Take the moves of the case from a JSON Lines record file (solve --output or "
                          "--format jsonl), its record found as verify finds it (game, source, case, data hash)."),
        click.option("--max-frames", type=click.IntRange(min=1), default=1000, show_default=True,
                     help="Draw at most this many frames (the start, each move, and a game's in-between frames); "
                          "the moves past them are still checked by replay, and a line on stderr says so."),
        click.option("--max-pixels", type=click.IntRange(min=1), default=MAX_PIXELS, show_default=True,
                     help="Refuse, before drawing, a picture larger than this many pixels (PNG, SVG: the picture; "
                          "GIF, HTML: a frame times the frames)."),
        click.option("--memory-limit", type=click.FloatRange(min=1, max=MAX_MEMORY_MB), default=None, metavar="MB",
                     help="Memory (MiB) the case may use: its search, and drawing (a picture that needs more is "
                          "refused before it is drawn)."),
        click.option("--labels", is_flag=True, help="Write each cell's value in it."),
        click.option("--columns", type=click.IntRange(min=1), default=None,
                     help="Frames per row of an SVG or PNG picture (default: as many as fit 1400 pixels)."),
        click.option("--palette", default=None, metavar="NAME|FILE", shell_complete=_complete_palette,
                     help="Colours for the values: okabe-ito (default), tol, kelly or greys, or a file of "
                          "'VALUE #rrggbb' lines (or a JSON object value -> colour); values it does not name "
                          "take the default colours."),
        click.option("--algorithm", "-a", default=None, metavar="NAME[(KEY=VALUE,...)]",
                     help="Search algorithm with its options, spelt as in solve, e.g. -a 'wastar(weight=2)' "
                          "(default: the game's plan)."),
        click.option("--heuristic", "-H", default=None,
                     type=HeuristicType(registry, name) if heuristic_names else str,
                     help="Heuristic (default: the game's plan)."),
        *limit_options(),
        *[option_flag(opt) for opt in game_options],
    ]
    text = (f"Draw the solution of one case of FILE ({game.summary}).\n\n"
            "The format follows OUT's suffix: .svg (no dependency), .png and .gif (Pillow: "
            f"{PICTURES_HINT}), .html (one self-contained page), or - for the terminal.\n\n{EXIT_HELP}")
    return click.command(cls=OnceCommand, name=name, help=text)(apply(command, params))


@click.group(cls=GameGroup, make=make_show_command)
def show() -> None:
    """Draw one case's solution: SVG, PNG, animated GIF, an HTML step-through page, or the terminal."""


def _read_case(game, file: str, number: int, options, limits=None):
    """Case ``number`` of ``file``, each case read under ``limits``; a one-line error (exit 2) when it cannot be
    read or does not exist."""
    from searchkit.machinery.reading import iter_cases

    seen = 0
    for item in iter_cases(game, [file], options, limits):
        value = item.value
        if isinstance(value, InputError):
            if getattr(value, "warning", False):
                continue
            if value.case == number or value.fatal:
                fail(str(value))
            continue
        seen = max(seen, value.index)
        if value.index == number:
            return value
    fail(f"{file}: no case {number} (the file has {seen} case{'s' if seen != 1 else ''})")


def _solve(solver, case):
    outcome = solver.solve(case)
    result = outcome.result
    if not result.has_solution:
        click.echo(f"searchkit: error: {case.source}: case {case.index}: {result.status}, nothing to show",
                   err=True)
        sys.exit(_stop_code(result.status))
    if not result.solved:  # a bounded-suboptimal or anytime driver's solution: drawn, and said to be unproven
        bound = "no lower bound known" if result.lower_bound is None else f"lower bound {result.lower_bound}"
        warning(f"{case.source}: case {case.index}: feasible, not proven optimal (cost {result.cost}, {bound})")
    return list(result.moves)


def _record_moves(path: str, game, case, options) -> list:
    """The ``moves`` of ``case``'s record in the JSON Lines record file ``path``, found as ``verify`` finds it
    (:class:`~searchkit.machinery.batch.verify.RecordIndex`: the same game, source, case number and data
    hash).  A file without a record of the game, a record of the case for other data (an edited input, another
    ``--goal``), no record of the case or one without moves are refused in one line (exit status 2)."""
    from searchkit.machinery.batch.verify import RecordIndex
    from searchkit.machinery.records import foreign_record
    from searchkit.result import FEASIBLE, SOLVED

    loaded = load_game_records(path, game.name, "show --records")
    record, problem = RecordIndex(r for r in loaded.records if r.get("game") == game.name).match(game, case, options)
    where = f"{path}: case {case.index} of {case.source}"
    if problem:
        fail(f"{where}: {problem}")
    if record is None:
        fail(f"{where}: no record")
    foreign = foreign_record(record, game.name)
    if foreign:
        fail(f"{where}: the record {foreign}")
    if record.get("status") not in (SOLVED, FEASIBLE):
        fail(f"{where}: status {record.get('status')!r}, no moves to show")
    moves = record.get("moves")
    if not isinstance(moves, list):
        fail(f"{where}: 'moves' is not a list")
    if record.get("status") == FEASIBLE:
        warning(f"{where}: feasible, not proven optimal (cost {record.get('cost')})")
    return moves


def _bound(case, fmt: str, steps, columns, palette, max_pixels: int, memory_limit: float | None) -> None:
    """Refuse, in one line and exit status 1, a picture over ``--max-pixels`` or needing more memory than
    ``--memory-limit``, before it is drawn (a 1 x 5000 board's 1000 frames made a 60,024 x 46,072 PNG)."""
    from searchkit.render.layout import MEMORY_PER_PIXEL, picture_pixels

    pixels, size = picture_pixels(steps, fmt, columns=columns, palette=palette)
    where = f"{case.source}: case {case.index}"
    if pixels > max_pixels:
        _stop(f"{where}: the {fmt.upper()} picture would be {size} ({pixels:,} pixels), over --max-pixels "
              f"{max_pixels:,}: raise --max-pixels, or draw fewer frames with --max-frames")
    need = pixels * MEMORY_PER_PIXEL[fmt]
    if memory_limit is not None and need > memory_limit * 2**20:
        _stop(f"{where}: drawing the {fmt.upper()} picture ({size}) needs about {need / 2**20:,.0f} MiB, over "
              f"--memory-limit {memory_limit:g}: raise --memory-limit, or draw fewer frames with --max-frames")


def _stop_code(status: str) -> int:
    """The exit status of a case that stopped with ``status`` before it had a solution: 130 on Ctrl-C and 143
    on SIGTERM (``cancelled``, as ``solve`` and the help say), else 1 (a limit)."""
    from searchkit.machinery.output import cancelled_code

    return cancelled_code() if status == "cancelled" else EXIT_LIMIT


def _stop(message: str) -> None:
    click.echo(f"searchkit: error: {message}", err=True)
    sys.exit(EXIT_LIMIT)


def _write(output: str, suffix: str, steps, *, labels: bool, columns, title: str, palette=None, clock=None,
           case=None) -> None:
    """Write the picture, within the time limit (``clock``); SIGTERM while it is written leaves the previous
    file whole and no temporary file (it exits through the writer's clean-up, as Ctrl-C does)."""
    import signal

    from searchkit.formats import WriteError, writer
    from searchkit.limits import LimitReached, active

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread
        previous = None
    try:
        with active(clock) if clock is not None else _nothing():
            writer(suffix[1:], "show")(output, steps, labels=labels, columns=columns, title=title, palette=palette)
    except WriteError as exc:
        fail(str(exc))
    except LimitReached as exc:
        _stop(f"{case.source}: case {case.index}: {exc.status} while drawing, {output} not written")
    except MemoryError:
        _stop(f"{case.source}: case {case.index}: out of memory while drawing, {output} not written; draw fewer "
              f"frames with --max-frames")
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def _complete_palette(ctx, param, incomplete: str) -> list:
    """Shell completion of ``--palette``: the named palettes, then files."""
    from click.shell_completion import CompletionItem

    from searchkit.render.palette import NAMED

    names = [CompletionItem(name) for name in NAMED if name.startswith(incomplete)]
    return names or [CompletionItem(incomplete, type="file")]


def _check_output(output: str, suffix: str) -> None:
    """Refuse, with one line and exit status 2, an OUT that could not be written once drawn.

    Pillow missing for ``.png``/``.gif``, or a folder that does not exist or
    cannot be written, or OUT itself being a folder: said before the case is
    solved, not after.
    """
    if suffix in (".png", ".gif"):
        from searchkit.render import raster

        try:
            raster._pil()
        except raster.MissingPillow:
            fail(f"{suffix[1:].upper()} output needs Pillow: {PICTURES_HINT}")
    check_writable(output)
