"""``searchkit solve GAME``: the per-game solve command, built from the registry."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import click

from searchkit.errors import InputError, SearchkitError
from searchkit.result import CANCELLED, EXHAUSTED, SOLVED

EXIT_LIMIT = 1
EXIT_INPUT = 2
EXIT_CANCELLED = 130


def _option_decorator(opt):
    """Turn a :class:`~searchkit.game.GameOption` into a click option."""
    flag = "--" + opt.name
    if opt.type is bool:
        return click.option(flag, opt.key, is_flag=True, default=bool(opt.default), help=opt.help)
    if opt.choices:
        kind = click.Choice(opt.choices)
    elif opt.min is not None and opt.type is int:
        kind = click.IntRange(min=opt.min)
    elif opt.min is not None and opt.type is float:
        kind = click.FloatRange(min=opt.min)
    else:
        kind = opt.type
    return click.option(flag, opt.key, type=kind, default=opt.default, show_default=opt.default is not None,
                        help=opt.help)


def make_solve_command(registry, game) -> click.Command:
    """Build the click command ``searchkit solve <game.name>``."""
    heuristic_names = [h.name for h in registry.heuristics_for(game.name)]
    rule_names = [r.name for r in registry.rules_for(game.name)]

    @click.pass_context
    def command(ctx, files, algorithm, heuristic, no_prune, max_nodes, time_limit, stats, fmt, **options):
        from searchkit.limits import Limits
        from searchkit.runner import Solver

        solver = Solver(
            registry=registry,
            game=game.name,
            algorithm=algorithm,
            heuristic=heuristic,
            disabled=frozenset(no_prune),
            limits=Limits(max_nodes=max_nodes, time_limit=time_limit),
            options=options,
        )
        try:
            solver.check()
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        code = run_files(solver, game, files or ("-",), options, fmt=fmt, stats=stats)
        ctx.exit(code)

    params_from = [
        click.argument("files", nargs=-1, type=str),
        click.option("--algorithm", "-a", default=None, type=click.Choice(sorted(registry.algorithms)),
                     help="Search algorithm (default: the game's)."),
        click.option("--heuristic", "-H", default=None,
                     type=click.Choice(heuristic_names) if heuristic_names else str,
                     help="Heuristic (default: the game's)."),
        click.option("--no-prune", "no_prune", multiple=True,
                     type=click.Choice(rule_names) if rule_names else str,
                     help="Switch a pruning rule off (repeatable)."),
        click.option("--max-nodes", type=click.IntRange(min=0), default=None,
                     help="Stop a case after this many expanded states."),
        click.option("--time-limit", type=click.FloatRange(min=0), default=None,
                     help="Stop a case after this many seconds."),
        click.option("--stats", is_flag=True, help="Print search statistics to stderr."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     help="text: the judge's output; json: one object per case."),
    ]
    params_from += [_option_decorator(opt) for opt in game.options]
    for deco in reversed(params_from):
        command = deco(command)
    return click.command(name=game.name, help=f"{game.summary}\n\nFILES are read in order; - is standard input.")(
        command
    )


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8 with or without a byte-order mark.

    Raises:
        InputError: (fatal) when the file cannot be read or is not UTF-8 text,
            naming the file and the reason in one line.
    """
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x} at offset {exc.start}",
                         source=source) from None


def run_files(solver, game, files, options: Mapping[str, Any], *, fmt: str, stats: bool) -> int:
    """Solve every case of every file, printing as it goes; return the exit status."""
    code = 0
    many = len(files) > 1
    for i, path in enumerate(files):
        source = "<stdin>" if path == "-" else path
        if many and fmt == "text":
            if i:
                click.echo()
            click.echo(f"==> {source} <==")
        try:
            text = read_input(path)
        except InputError as exc:
            click.echo(f"searchkit: error: {exc}", err=True)
            code = max(code, EXIT_INPUT)
            continue
        if not text.strip():
            click.echo(f"searchkit: error: {source}: empty input, expected at least one case", err=True)
            code = max(code, EXIT_INPUT)
            continue
        for item in game.parse(text, source, options):
            if isinstance(item, InputError) and item.warning:
                click.echo(f"searchkit: warning: {item}", err=True)
                continue
            if isinstance(item, InputError):
                click.echo(f"searchkit: error: {item}", err=True)
                code = max(code, EXIT_INPUT)
                if not item.fatal and item.case is not None:
                    _emit_input_error(item, fmt)  # keep one output line per case
                continue
            try:
                result = solver.solve(item)
            except (SearchkitError, ValueError) as exc:
                click.echo(f"searchkit: error: {source}: case {item.index}: {exc}", err=True)
                code = max(code, EXIT_INPUT)
                continue
            _emit(solver, game, item, result, options, fmt)
            if stats:
                _emit_stats(solver, item, result)
            if result.status == CANCELLED:
                click.echo("searchkit: cancelled", err=True)
                return EXIT_CANCELLED
            if result.status not in (SOLVED, EXHAUSTED):
                code = max(code, EXIT_LIMIT)
    return code


def _emit_input_error(error: InputError, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps({"source": error.source, "case": error.case, "status": "input_error",
                               "error": error.message, "line": error.line}))
    else:
        click.echo("? (input error)")


def _emit(solver, game, case, result, options, fmt: str) -> None:
    if fmt == "json":
        algorithm, heuristic = solver.names(case)
        record = {
            "source": case.source,
            "case": case.index,
            "status": result.status,
            "cost": result.cost,
            "length": len(result.moves) if result.solved else None,
            "moves": game.moves_to_json(case, result.moves),
            "algorithm": algorithm,
            "heuristic": heuristic,
            "stats": result.stats.to_dict(),
        }
        click.echo(json.dumps(record))
    else:
        click.echo(game.format_result(case, result, options))


def _emit_stats(solver, case, result) -> None:
    algorithm, heuristic = solver.names(case)
    s = result.stats
    lines = [
        f"{case.source} case {case.index}: {result.status}, cost {'-' if result.cost is None else result.cost}, "
        f"{algorithm}/{heuristic or '-'}, expanded {s.expanded}, generated {s.generated}, "
        f"{s.elapsed:.4f} s" + (f", peak stored {s.peak_stored}" if s.peak_stored else "")
    ]
    for it in s.iterations:
        lines.append(f"  bound {it.bound}: expanded {it.expanded}, generated {it.generated}, {it.elapsed:.4f} s")
    if s.per_depth and any(s.per_depth):
        lines.append("  depth  expanded  seconds")
        times = s.per_depth_seconds or (0.0,) * len(s.per_depth)
        for d, (n, t) in enumerate(zip(s.per_depth, times)):
            lines.append(f"  {d:>5}  {n:>8}  {t:.4f}")
    click.echo("\n".join(lines), err=True)
