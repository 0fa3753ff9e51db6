"""``searchkit generate``, ``compare`` and ``check GAME``: tools for trying heuristics and writing plugins.

Imported only when one of these commands runs, so ``searchkit solve`` starts fast.
Every option of a game (``compare``) or of its generator (``generate``,
``check``) is a ``--flag`` of the per-game command, spelled as under ``solve``;
``-o NAME=VALUE`` is still accepted for generator options.
"""

from __future__ import annotations

import click

from searchkit.cli.common import (EXIT_CANCELLED, EXIT_INPUT, EXIT_LIMIT, GameGroup, apply, check_writable,
                                  engine_option, error, fail, limit_options, option_flag, resolve_names, warning)
from searchkit.errors import SearchkitError


def _parse_pairs(options, pairs) -> dict:
    """Turn ``-o NAME=VALUE`` pairs into typed values for the given options."""
    known = {opt.key: opt for opt in options}
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        key = name.strip().lstrip("-").replace("-", "_")
        if not sep or key not in known:
            names = ", ".join(o.name for o in options) or "none"
            raise click.UsageError(f"expected -o NAME=VALUE with NAME one of: {names}; got {pair!r}")
        try:
            out[key] = known[key].parse(value)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    return out


def _merged(flags: dict, pairs, options) -> dict:
    merged = {k: v for k, v in flags.items() if v is not None}
    merged.update(_parse_pairs(options, pairs))
    return merged


# -- generate ---------------------------------------------------------------

def make_generate_command(registry, name: str) -> click.Command:
    """Build ``searchkit generate NAME``."""
    game = registry.game(name)
    gen = registry.generator(name)

    @click.pass_context
    def command(ctx, count, seed, size, pairs, **flags):
        import random

        options = _merged(flags, pairs, gen.options)
        rng = random.Random(seed)
        size = size or gen.default_size
        try:
            stream = getattr(game, "format_input_stream", None)
            datas = (gen(rng, size, options) for _ in range(count))
            if stream is not None:
                for chunk in stream(datas):
                    click.echo(chunk, nl=False)
            else:
                click.echo(game.format_input(list(datas)), nl=False)
        except (ValueError, SearchkitError) as exc:
            fail(f"cannot generate {name} instances: {exc}")

    size_range = click.IntRange(min=1, max=getattr(gen, "max_size", None))
    params = [
        click.option("--count", "-n", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Instances to write (in one file; games whose format holds one case take 1)."),
        click.option("--seed", "-s", type=int, default=0, show_default=True, help="Random seed."),
        click.option("--size", type=size_range, default=None, help=f"{gen.size_help} (default {gen.default_size})."),
        click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE",
                     help="A generator option given as NAME=VALUE (repeatable), the same as its --flag."),
        *[option_flag(opt) for opt in gen.options],
    ]
    return click.command(name=name, help=f"Write COUNT random {name} instances in the game's input format "
                                         f"to stdout ({gen.summary}).")(apply(command, params))


@click.group(cls=GameGroup, make=make_generate_command, needs="generators")
def generate() -> None:
    """Write random instances of a game in its input format to stdout."""


# -- compare ----------------------------------------------------------------

def make_compare_command(registry, name: str) -> click.Command:
    """Build ``searchkit compare NAME``."""
    game = registry.game(name)
    rule_names = [r.name for r in registry.rules_for(name)]

    @click.pass_context
    def command(ctx, files, names, algorithms, no_prune, max_nodes, time_limit, engine, fmt, plot, jobs,
                **options):
        from searchkit.cli.io import iter_cases
        from searchkit.limits import Limits
        from searchkit.solver import Solver
        from searchkit.tools.compare import ERROR as SEARCH_ERROR, INPUT_ERROR
        from searchkit.tools.compare import compare as run_compare

        heuristics = resolve_names(registry, name, names)
        if plot is not None:
            _check_plot(plot)  # before the comparison, which may run for hours
        limits = Limits(max_nodes=max_nodes, time_limit=time_limit)
        strategies = [(a, h) for a in (algorithms or (None,)) for h in heuristics]
        try:
            solvers = [Solver(registry, name, algorithm=a, heuristic=h, disabled=frozenset(no_prune),
                              limits=limits, options=options, engine=engine) for a, h in strategies]
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        columns = [h if len(algorithms) < 2 else f"{a}/{h}" for a, h in strategies]
        items = iter_cases(game, files, solvers[0].options)
        if jobs != "1":
            from searchkit.batch.run import parse_jobs, solve_in_workers

            try:
                n = parse_jobs(jobs)
            except click.BadParameter as exc:
                raise click.UsageError(f"--jobs: {exc.format_message()}") from None
            solved, items = solve_in_workers(solvers, items, n)
        else:
            solved = None
        try:
            report = run_compare(solvers, items, columns, on_input_error=_report_input, outcomes=solved)
        except SearchkitError as exc:
            fail(str(exc))
        for row in report.rows:
            if row.status == SEARCH_ERROR:
                error(f"{row.source}: case {row.case}: {row.strategy}: {row.error}")
        if not any(r.status != INPUT_ERROR for r in report.rows):
            fail("no cases to compare")
        _print_comparison(report, fmt)
        if plot is not None:
            _plot(report, plot, name)
        if report.cancelled:
            click.echo("searchkit: cancelled", err=True)
            ctx.exit(EXIT_CANCELLED)
        code = EXIT_INPUT if any(r.status in (INPUT_ERROR, SEARCH_ERROR) for r in report.rows) else 0  # as solve
        if any(r.status not in ("solved", "exhausted", "feasible", INPUT_ERROR, SEARCH_ERROR) for r in report.rows):
            code = max(code, EXIT_LIMIT)
        admissible = {h for h in heuristics if registry.heuristic(name, h).admissible}  # options included
        from searchkit.algorithm import OPTIMAL

        optimal = {a for a, alg in registry.algorithms.items() if alg.guarantee.kind == OPTIMAL}
        by_case = {}
        for r in report.rows:
            by_case.setdefault((r.source, r.case), set()).add(r.algorithm)
        loud = [d for d in report.disagreements
                if by_case[(d[0], d[1])] <= optimal and len({c for h, c in d[2].items() if h in admissible}) > 1]
        for source, case, costs in loud:
            detail = ", ".join(f"{h}={c}" for h, c in costs.items())
            click.secho(f"searchkit: BUG: admissible heuristics disagree under an optimal algorithm on {source} "
                        f"case {case}: {detail}", err=True, fg="red", bold=True)
        if loud:
            code = max(code, EXIT_LIMIT)
        ctx.exit(code)

    params = [
        click.argument("files", nargs=-1, required=True, type=str),
        click.option("--heuristic", "-H", "names", multiple=True, required=True,
                     help="Heuristic to compare (repeatable); 'all' for every registered one."),
        click.option("--algorithm", "-a", "algorithms", multiple=True, metavar="NAME[(KEY=VALUE,...)]",
                     help="Algorithm with its options, e.g. 'wastar(weight=2)' (repeatable: every algorithm with "
                          "every heuristic; default: the game's plan for each case)."),
        click.option("--no-prune", "no_prune", multiple=True,
                     type=click.Choice(rule_names) if rule_names else str,
                     help="Switch a pruning rule off (repeatable)."),
        *limit_options(),
        engine_option(),
        click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
                     show_default=True),
        click.option("--plot", default=None, metavar="OUT",
                     help="Also plot nodes per case and the cases solved within t seconds to OUT.svg or OUT.png "
                          "(needs matplotlib: pip install 'searchkit-puzzles[plots]')."),
        click.option("--jobs", "-j", default="1", show_default=True, metavar="N|auto",
                     help="Worker processes ('auto': the CPUs this process may use); the same table."),
        *[option_flag(opt) for opt in game.options],
    ]
    return click.command(name=name, help=(
        "Solve every case of FILES with every heuristic (and every -a algorithm) and tabulate costs, nodes, "
        "time and EBF, and per strategy the quality/time frontier: total cost, summed gap to the best cost "
        "found and to the best proven lower bound, and seconds.\n\n"
        "Cost disagreements between admissible heuristics under an optimal algorithm mean a bug: they "
        "are reported loudly and the exit status is 1.  A case that cannot be read is a row with status "
        "input_error, one whose search raised a row with status error (exit status 2 for both)."
    ))(apply(command, params))


def _check_plot(path: str) -> None:
    """Refuse a ``--plot`` OUT that could not be drawn: its suffix, matplotlib, its folder; one line, exit 2."""
    import importlib.util
    import os

    from searchkit.render.plots import PLOT_SUFFIXES, PLOTS_HINT

    if os.path.splitext(path)[1].lower() not in PLOT_SUFFIXES:
        fail(f"cannot tell the plot format of {path!r}: use a name ending in .svg or .png")
    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a None entry in sys.modules (as the tests hide it) or a broken install
        found = False
    if not found:
        fail(f"--plot needs matplotlib: {PLOTS_HINT}")
    check_writable(path)


def _plot(report, path: str, game: str) -> None:
    """Write ``compare --plot``'s figure (matplotlib imported only here); one line on failure."""
    import os

    from searchkit.render.plots import PLOT_SUFFIXES, PLOTS_HINT, MissingMatplotlib, plot_comparison

    if os.path.splitext(path)[1].lower() not in PLOT_SUFFIXES:
        fail(f"cannot tell the plot format of {path!r}: use a name ending in .svg or .png")
    try:
        plot_comparison(report.rows, path, title=f"searchkit compare {game}")
    except MissingMatplotlib:
        fail(f"--plot needs matplotlib: {PLOTS_HINT}")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    click.echo(f"searchkit: wrote {path}", err=True)


@click.group(cls=GameGroup, make=make_compare_command)
def compare() -> None:
    """Solve a game's cases with several heuristics and tabulate costs, nodes, time and EBF."""


def _fmt(value, digits=3):
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _report_input(value) -> None:
    """One line on stderr for an input error or warning, as ``solve`` prints it (file, line, case)."""
    (warning if getattr(value, "warning", False) else error)(str(value))


def _print_comparison(report, fmt):
    import json

    totals = report.totals()
    if fmt == "json":
        click.echo(json.dumps({
            "heuristics": list(report.heuristics),
            "rows": [r.to_dict() for r in report.rows],
            "totals": totals,
            "disagreements": [{"source": s, "case": c, "costs": costs} for s, c, costs in report.disagreements],
        }, indent=1))
        return
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["source", "case", "heuristic", "algorithm", "status", "cost", "depth", "expanded",
                         "generated", "evaluated", "before_last_layer", "seconds", "ebf", "lower_bound",
                         "gap_to_best", "proven_gap", "engine"])
        for r in report.rows:
            writer.writerow([r.source, _fmt(r.case), _fmt(r.heuristic), _fmt(r.algorithm), r.status, _fmt(r.cost),
                             _fmt(r.depth), r.expanded, r.generated, r.evaluated, _fmt(r.before_last_layer),
                             f"{r.seconds:.6f}", _fmt(r.ebf, 4), _fmt(r.lower_bound), "", "", _fmt(r.engine)])
        for name, t in totals.items():
            writer.writerow(["TOTAL", "", name, "", f"{t['solved']}/{t['cases']} solved", _fmt(t["cost"]), "",
                             t["expanded"], t["generated"], t["evaluated"], "", f"{t['seconds']:.6f}",
                             _fmt(t["ebf"], 4), "", t["gap_to_best"], _fmt(t["proven_gap"]), ""])
        click.echo(buf.getvalue(), nl=False)
        return
    import os

    from rich.console import Console
    from rich.table import Table

    disagree = {(s, c) for s, c, _ in report.disagreements}
    n_cases = len({r.key() for r in report.rows})
    algorithms = sorted({r.algorithm for r in report.rows if r.algorithm})
    table = Table(title=f"{'/'.join(algorithms) or '-'}: {n_cases} case{'s' if n_cases != 1 else ''}")
    for col, justify in (("case", "left"), ("heuristic", "left"), ("algorithm", "left"), ("cost", "right"),
                         ("bound", "right"), ("expanded", "right"), ("generated", "right"), ("seconds", "right"),
                         ("EBF", "right"), ("engine", "left"), ("agree", "center")):
        table.add_column(col, justify=justify)
    last = None
    for r in report.rows:
        key = (r.source, r.case)
        label = f"{_fmt(r.case)}: {os.path.basename(r.source)}" if key != last else ""
        agree = "[bold red]NO[/]" if key in disagree else "yes"
        cost = _fmt(r.cost) if r.status == "solved" else f"{r.cost} ({r.status})" if r.status == "feasible" \
            else r.status
        table.add_row(label, _fmt(r.heuristic), _fmt(r.algorithm), cost, _fmt(r.lower_bound), str(r.expanded),
                      str(r.generated),
                      f"{r.seconds:.4f}", _fmt(r.ebf), _fmt(r.engine),
                      agree if key != last and r.status != "input_error" else "")
        last = key
    table.add_section()
    for name, t in totals.items():
        table.add_row("[bold]total[/]", name, "", _fmt(t["cost"]), "", str(t["expanded"]), str(t["generated"]),
                      f"{t['seconds']:.4f}", _fmt(t["ebf"]), "", f"{t['solved']}/{t['cases']} solved")
    Console(width=max(120, Console().width)).print(table)
    common = next(iter(totals.values()))["common"] if totals else 0
    frontier = Table(title=f"quality / time over the {common} case{'s' if common != 1 else ''} every strategy "
                           f"solved: total cost, summed gap to the best cost found and to the best proven lower "
                           f"bound")
    for col in ("strategy", "total cost", "gap to best", "proven gap", "solved", "feasible", "unanswered",
                "seconds"):
        frontier.add_column(col, justify="left" if col == "strategy" else "right")
    for name, t in totals.items():
        frontier.add_row(name, _fmt(t["cost"]), _fmt(t["gap_to_best"]), _fmt(t["proven_gap"]), str(t["solved"]),
                         str(t["feasible"]), str(t["unanswered"]), f"{t['seconds']:.4f}")
    Console(width=max(120, Console().width)).print(frontier)


# -- check ------------------------------------------------------------------

def make_check_command(registry, name: str) -> click.Command:
    """Build ``searchkit check NAME``."""
    game = registry.game(name)
    gen = registry.generator(name)

    @click.pass_context
    def command(ctx, names, samples, min_size, max_size, shrink, seed, max_states, pairs, **flags):
        try:
            import hypothesis  # noqa: F401
        except ImportError:
            fail("searchkit check needs hypothesis: pip install 'searchkit-puzzles[tools]'")
        from searchkit.game import Case
        from searchkit.game import moves_to_json as to_json
        from searchkit.tools.check import MIN_EXPLORED_SHARE, check_heuristic, plain_puzzle

        heuristics = resolve_names(registry, name, names)
        options = _merged(flags, pairs, gen.options)
        code = 0
        for hname in heuristics:
            try:
                report = check_heuristic(registry, name, hname, samples=samples, max_size=max_size, seed=seed,
                                         min_size=min_size, shrink=shrink,
                                         max_states=max_states, generator_options=options)
            except SearchkitError as exc:
                fail(f"check {name} -H {hname}: {exc}")
            claimed = [p for p, on in report.claims.items() if on] or ["nothing"]
            tally = f"{report.checked} instances explored, {report.skipped} skipped (over {max_states} states)"
            if not report.examples:
                if not report.conclusive:
                    click.echo(f"{hname}: INCONCLUSIVE: {tally}; fewer than {MIN_EXPLORED_SHARE:.0%} of the drawn "
                               f"instances could be explored (raise --max-states or lower --max-size)")
                    code = max(code, EXIT_LIMIT)
                    continue
                click.echo(f"{hname}: OK: admissible and consistent; {tally} (claims {', '.join(claimed)})")
                continue
            for prop, (data, bad) in report.examples.items():
                verdict = "FAIL" if report.claims.get(prop) else "note"
                claim = "claims" if report.claims.get(prop) else "does not claim"
                which = "smallest counter-example found" if shrink else "counter-example"
                click.echo(f"{hname}: {verdict}: not {prop} ({claim} it); {which}:")
                click.echo(game.format_input([data]).rstrip("\n"))
                case = Case.generated(data)
                for v in bad[:5]:
                    where = " ".join(str(m) for m in to_json(game, case, v.path)) or "(the initial state)"
                    if v.kind == "inadmissible":
                        click.echo(f"  after moves {where}: h = {v.h} > true remaining cost {v.limit}")
                    else:
                        step = " ".join(str(m) for m in to_json(game, case, (v.move,)))
                        click.echo(f"  after moves {where}: h = {v.h} > c + h(after {step}) = {v.limit}")
                    draw = getattr(game, "format_state", None)
                    if draw is not None:
                        click.echo("  " + draw(plain_puzzle(registry, name, data), v.state).replace("\n", "\n  "))
                if len(bad) > 5:
                    click.echo(f"  ... and {len(bad) - 5} more states")
                if verdict == "FAIL":
                    code = max(code, EXIT_LIMIT)
        ctx.exit(code)

    params = [
        click.option("--heuristic", "-H", "names", multiple=True, required=True,
                     help="Heuristic to check (repeatable); 'all' for every registered one."),
        click.option("--samples", type=click.IntRange(min=1), default=100, show_default=True,
                     help="Instances drawn per property."),
        click.option("--min-size", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Smallest generator size (e.g. 3 with --max-size 3: only 8-puzzles)."),
        click.option("--max-size", type=click.IntRange(min=1), default=None,
                     help=f"Largest generator size (default: {gen.check_size}; true costs come from exhaustive "
                          f"search, so keep it small)."),
        click.option("--shrink/--no-shrink", default=True, show_default=True,
                     help="Shrink a counter-example to the smallest found (each try explores a whole state space)."),
        click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
        click.option("--max-states", type=click.IntRange(min=1), default=50_000, show_default=True,
                     help="Skip instances with more reachable states."),
        click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE",
                     help="A generator option given as NAME=VALUE (repeatable), the same as its --flag."),
        *[option_flag(opt) for opt in gen.options],
    ]
    return click.command(name=name, help=(
        "Check heuristics for admissibility and consistency on small generated instances.\n\n"
        "True remaining costs come from exhaustive search.  A violated property that the heuristic claims "
        "is printed with the smallest counter-example found (hypothesis shrinks it) and the exit status is 1; "
        "a violated property it does not claim is reported only.  Too few instances explored: INCONCLUSIVE, "
        "exit status 1."))(apply(command, params))


@click.group(cls=GameGroup, make=make_check_command, needs="generators")
def check() -> None:
    """Check a game's heuristics for admissibility and consistency on generated instances."""
