"""``searchkit generate``, ``compare`` and ``check GAME``: tools for trying heuristics and writing plugins.

Imported only when one of these commands runs, so ``searchkit solve`` starts fast.
Every option of a game (``compare``) or of its generator (``generate``,
``check``) is a ``--flag`` of the per-game command, spelled as under ``solve``;
``-o NAME=VALUE`` is still accepted for generator options.
"""

from __future__ import annotations

import click

from searchkit.cli.common import (EXIT_CANCELLED, EXIT_INPUT, EXIT_LIMIT, GameGroup, apply, check_writable,
                                  engine_option, error, fail, limit_options, option_flag, refuse_input,
                                  resolve_names, warning)
from searchkit.errors import SearchkitError
from searchkit.formats import choices


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
        if size is not None and gen.size_error(size) is not None:
            fail(f"cannot generate {name} instances: --{gen.size_error(size)}")
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
        click.option("--size", type=size_range, default=None,
                     help=f"{gen.size_help} (default {gen.default_size}"
                          f"{f', at least {gen.min_size}' if gen.min_size > 1 else ''})."),
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
        from searchkit.reading import iter_cases
        from searchkit.limits import Limits
        from searchkit.solver import Solver
        from searchkit.result import ERROR as SEARCH_ERROR, EXHAUSTED, FEASIBLE, INPUT_ERROR, SOLVED
        from searchkit.tools.compare import compare as run_compare

        heuristics = resolve_names(registry, name, names)
        if plot is not None:
            refuse_input(plot, files)  # never overwrite what it reads
            _check_plot(plot)  # before the comparison, which may run for hours
        limits = Limits(max_nodes=max_nodes, time_limit=time_limit)
        strategies = [(a, h) for a in (algorithms or (None,)) for h in heuristics]
        try:
            solvers = [Solver(registry, name, algorithm=a, heuristic=h, disabled=frozenset(no_prune),
                              limits=limits, options=options, engine=engine) for a, h in strategies]
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        columns = [h if len(algorithms) < 2 else f"{a}/{h}" for a, h in strategies]
        items = iter_cases(game, files, solvers[0].options, limits)
        if jobs != "1":
            from searchkit.batch.runner import solve_in_workers
            from searchkit.cli.batch import parse_jobs

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
        from searchkit.formats import writer

        writer(fmt, "compare")(report)
        if plot is not None:
            _plot(report, plot, name)
        if report.cancelled:
            click.echo("searchkit: cancelled", err=True)
            ctx.exit(EXIT_CANCELLED)
        code = EXIT_INPUT if any(r.status in (INPUT_ERROR, SEARCH_ERROR) for r in report.rows) else 0  # as solve
        if any(r.status not in (SOLVED, EXHAUSTED, FEASIBLE, INPUT_ERROR, SEARCH_ERROR) for r in report.rows):
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
        click.option("--format", "fmt", type=click.Choice(choices("compare")), default="text",
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


def _report_input(value) -> None:
    """One line on stderr for an input error or warning, as ``solve`` prints it (file, line, case)."""
    (warning if getattr(value, "warning", False) else error)(str(value))


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

        from searchkit.tools.instances import size_range

        heuristics = resolve_names(registry, name, names)
        options = _merged(flags, pairs, gen.options)
        try:
            size_range(gen, min_size, max_size, ("--min-size", "--max-size"))
        except ValueError as exc:
            fail(f"check {name}: {exc}")
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
        click.option("--min-size", type=click.IntRange(min=1), default=None,
                     help=f"Smallest generator size (default: {gen.min_size}, the generator's smallest; e.g. 3 "
                          f"with --max-size 3: only 8-puzzles)."),
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
