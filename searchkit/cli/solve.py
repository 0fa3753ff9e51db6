"""``searchkit solve GAME``: the per-game solve command, built from the registry.

The loop itself is in :mod:`searchkit.machinery.reporting`: the one reader
(:func:`searchkit.machinery.reading.iter_cases`), :func:`~searchkit.machinery.reporting.solve_items`
(cases to outcomes, in order) and :class:`~searchkit.machinery.reporting.Reporter` (one
output line or record per case, errors and statistics on stderr, the exit
status).
"""

from __future__ import annotations

import sys
import click

from searchkit.cli.common import (EXIT_HELP, GameGroup, HeuristicType, OnceCommand, apply, engine_option, finite,
                                  limit_options, option_flag, record_file, refuse_input, threads_option)
from searchkit.formats import choices, solve_writer
from searchkit.limits import MAX_COST, MAX_MEMORY_MB
from searchkit.machinery.reporting import run_files
from searchkit.errors import SearchkitError


def make_solve_command(registry, name: str) -> click.Command:
    """Build the click command ``searchkit solve NAME``."""
    game = registry.game(name)
    heuristic_names = [h.name for h in registry.heuristics_for(name)]
    rule_names = [r.name for r in registry.rules_for(name)]

    @click.pass_context
    def command(ctx, files, algorithm, heuristic, no_prune, max_nodes, time_limit, engine, stats, fmt, upper_bound,
                seed_solution, jobs, executor, scheduler, scheduler_timeout, dashboard, memory_limit, output, resume,
                keep_stopped, force, progress, oversubscribe, threads, **options):
        from searchkit.limits import Limits
        from searchkit.machinery.solver import Solver

        if output is not None and seed_solution is not None:
            refuse_input(output, (seed_solution,))  # a seed file is an input too (the cases' files: run_batch)
        try:
            seeds = None
            if seed_solution is not None:
                from searchkit.seeds import load_seeds

                try:
                    seeds = load_seeds(seed_solution)
                except SearchkitError as exc:
                    raise click.BadParameter(str(exc), param_hint="'--seed-solution'") from None
            solver = Solver(registry, name, algorithm=algorithm, heuristic=heuristic, disabled=frozenset(no_prune),
                            limits=Limits(max_nodes=max_nodes, time_limit=time_limit), options=options,
                            upper_bound=upper_bound, seeds=seeds, engine=engine,
                            threads=1 if threads == "auto" else threads)  # auto: once --jobs is known (_run)
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        if not files and sys.stdin is not None and sys.stdin.isatty():
            click.echo("searchkit: reading cases from standard input (end with Ctrl-D; see --help)", err=True)
        ctx.exit(_run(solver, files or ("-",), fmt=fmt, stats=stats, jobs=jobs, executor=executor,
                      scheduler=scheduler, dashboard=dashboard, memory_limit=memory_limit, output=output,
                      resume=resume, keep_stopped=keep_stopped, force=force, progress=progress,
                      oversubscribe=oversubscribe, scheduler_timeout=scheduler_timeout, threads=threads))

    params = [
        click.argument("files", nargs=-1, type=str),
        click.option("--algorithm", "-a", default=None, metavar="NAME[(KEY=VALUE,...)]",
                     help="Search algorithm with its options, e.g. -a 'wastar(weight=2)' (default: the game's plan "
                          "for each case): " + algorithm_choices(registry) + ".  A game asking for exactly n moves "
                          "(exact mode, e.g. mayan) is a decision, not a cost to optimise: it refuses the bounded-"
                          "suboptimal and anytime drivers.  See 'searchkit algorithms'."),
        click.option("--heuristic", "-H", default=None,
                     type=HeuristicType(registry, name) if heuristic_names else str,
                     help="Heuristic (default: the game's plan for each case; see 'searchkit heuristics GAME')."),
        click.option("--no-prune", "no_prune", multiple=True,
                     type=click.Choice(rule_names) if rule_names else str,
                     help="Switch a pruning rule off (repeatable; see 'searchkit rules GAME')."),
        *limit_options(),
        engine_option(),
        threads_option(),
        click.option("--upper-bound", "upper_bound", default=None, metavar="N|auto", callback=_upper_bound,
                     help="Seek only solutions cheaper than N: states with g + h >= N are pruned and a case with "
                          "none below N is 'exhausted'.  auto: the game's quick solution is the bound, and is "
                          "returned when nothing cheaper exists.  gbfs and wastar with an inadmissible heuristic "
                          "stop at their first solution (kept if under the bound, else the quick one; "
                          "'incomplete' when there is none): to keep improving, use -a anytime."),
        click.option("--seed-solution", "seed_solution", default=None, metavar="MOVES|FILE",
                     help="A known solution (moves as printed by --moves, or a file of an earlier run's text or "
                          "json records, one per case): checked by replay, its cost is the upper bound, and it is "
                          "returned when nothing cheaper exists."),
        click.option("--stats", is_flag=True, help="Print search statistics (and improvements) to stderr."),
        click.option("--format", "fmt", type=click.Choice(choices("solve")), default=None,
                     help="text (default): the judge's output; json: one object per case (the same keys for every "
                          "case), after its improvement events under an anytime driver or --seed-solution (objects "
                          "with 'event': docs/anytime.md); jsonl: resumable records (docs/records.md; the default "
                          "with --output)."),
        *batch_options(),
    ]
    params += [option_flag(opt) for opt in game.options]
    plan_help = (getattr(type(game).plan, "__doc__", None) or "").strip().split("\n")[0].replace("``", "")
    text = (f"{game.summary}\n\nFILES are read in order; - (or none) is standard input.  "
            f"Default plan: {plan_help or 'the game chooses per case'}\n\n{EXIT_HELP}")
    return click.command(cls=OnceCommand, name=name, help=text)(apply(command, params))


def batch_options() -> list:
    """``--jobs``, ``--executor``, ``--scheduler``, ``--scheduler-timeout``, ``--dashboard``, ``--memory-limit``,
    ``--output``, ``--resume``, ``--keep-stopped``, ``--force``, ``--progress``."""
    return [
        click.option("--jobs", "-j", default="1", show_default=True, metavar="N|auto",
                     help="Worker processes ('auto': the CPUs this process may use; more are capped at that, "
                          "unless --oversubscribe); output stays in input order."),
        click.option("--oversubscribe", is_flag=True,
                     help="Start every --jobs worker even beyond the CPUs this process may use (they then share "
                          "them: more memory, no more speed)."),
        click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="local: worker processes on this machine; dask: a Dask cluster "
                          "(pip install 'searchkit-puzzles[dask]')."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="With --executor dask: the scheduler's address (default: a LocalCluster here)."),
        click.option("--scheduler-timeout", type=click.FloatRange(min=0, min_open=True, max=86400), default=None,
                     metavar="SECONDS", callback=finite,
                     help="With --scheduler: how long the scheduler has to answer before the run is refused "
                          "[default: 5]."),
        click.option("--dashboard", is_flag=False, flag_value="", default=None, metavar="[ADDR]",
                     callback=_dashboard_address,
                     help="With --executor dask and no --scheduler: serve the Dask dashboard on 127.0.0.1 "
                          "(ADDR: [HOST:]PORT; default any free port; needs bokeh). Off by default."),
        click.option("--memory-limit", type=click.FloatRange(min=1, max=MAX_MEMORY_MB), default=None, metavar="MB",
                     callback=finite,
                     help="Memory (MiB of address space) each case may use; over it, status memory_limit."),
        click.option("--output", "-O", default=None, metavar="FILE", callback=record_file,
                     help="Write the JSON Lines records to FILE, one line as each case finishes."),
        click.option("--resume", is_flag=True,
                     help="With --output: skip the cases FILE already answers (same source, case and data "
                          "hash, and an answer to this run's question: docs/records.md) and append the rest."),
        click.option("--keep-stopped", is_flag=True,
                     help="With --resume: count the cases FILE records as stopped (time_limit, node_limit, "
                          "memory_limit, error) or without a proven answer (feasible, incomplete) as done; by "
                          "default they are solved again."),
        click.option("--force", is_flag=True,
                     help="With --output: start FILE afresh even if it already holds records (without --resume "
                          "or --force such a file is refused, never truncated)."),
        click.option("--progress/--no-progress", default=None,
                     help="Show a progress bar on stderr (default: when stderr is a terminal)."),
    ]


def _run(solver, files, *, fmt: str | None, stats: bool, jobs: str = "1", executor: str = "local",
         scheduler=None, memory_limit=None, output=None, resume=False, progress=None, dashboard=None,
         force=False, keep_stopped=False, oversubscribe=False, scheduler_timeout=None, threads=1) -> int:
    """Solve every case of every file, printing as it goes; return the exit status.

    Without a batch option this is :func:`searchkit.machinery.reporting.run_files`.
    Any of the batch options (``--jobs`` other than 1, a Dask executor, a
    memory limit, ``jsonl`` records, ``--output``, ``--resume``,
    ``--progress``) hands the run to :func:`searchkit.cli.batch.run_batch`.
    ``threads`` is ``--threads``: the solver's already, or ``"auto"``, resolved here once the workers are known.
    """
    fmt = fmt or ("jsonl" if output else "text")
    # the batch options' pairings, checked whichever path runs: a one-process run ignored them silently
    refusal = next((why for bad, why in (
        (output and fmt != "jsonl", "--output writes JSON Lines records: use it with --format jsonl (or no --format)"),
        (resume and not output, "--resume needs --output FILE (the records to resume from)"),
        (keep_stopped and not resume, "--keep-stopped goes with --resume"),
        (force and not output, "--force goes with --output FILE"),
        (oversubscribe and jobs == "1", "--oversubscribe goes with --jobs N"),
        (force and resume, "--force starts --output afresh, --resume appends to it: give one of them"),
        (scheduler and executor != "dask", "--scheduler goes with --executor dask"),
        (scheduler_timeout is not None and not scheduler, "--scheduler-timeout goes with --scheduler ADDRESS"),
        (dashboard is not None and (executor != "dask" or scheduler),
         "--dashboard goes with --executor dask and no --scheduler (a scheduler you started serves its own)"),
    ) if bad), None)
    if refusal:
        raise click.UsageError(refusal)
    if scheduler:
        from searchkit.machinery.batch.executors import scheduler_address

        try:
            scheduler = scheduler_address(scheduler)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    if (jobs != "1" or executor != "local" or memory_limit is not None or fmt == "jsonl" or output or resume
            or progress):
        from searchkit.cli.batch import run_batch

        n = _batch_workers(jobs, oversubscribe, executor, memory_limit, dashboard)
        solver = _with_threads(solver, threads, n)
        return run_batch(solver, files, fmt=fmt, stats=stats, jobs=n, executor=executor, scheduler=scheduler,
                         memory_limit=memory_limit, output=output, resume=resume, progress=progress,
                         dashboard=dashboard, force=force, keep_stopped=keep_stopped,
                         scheduler_timeout=scheduler_timeout)
    solver = _with_threads(solver, threads, 1)
    return run_files(solver, files, solve_writer(fmt, solver, stats=stats, headers=len(files) > 1))


def _with_threads(solver, threads, workers: int):
    """``solver`` itself, or under ``--threads auto`` the same choices with the CPUs divided by ``workers``."""
    if threads != "auto":
        return solver
    import attrs

    from searchkit.machinery.batch.executors import resolve_threads
    from searchkit.machinery.solver import Solver

    return Solver(solver.registry, attrs.evolve(solver.config, threads=resolve_threads("auto", workers)),
                  on_improve=solver.on_improve)


def _batch_workers(jobs: str, oversubscribe: bool, executor: str, memory_limit, dashboard) -> int:
    """``--jobs`` as a number of workers, after checking what the batch run needs: bokeh for ``--dashboard``,
    and how local workers start (``SEARCHKIT_START_METHOD``).

    Raises:
        click.UsageError: in one line, naming the option or the variable.
    """
    from searchkit.cli.batch import parse_jobs

    if dashboard is not None:
        try:
            import bokeh  # noqa: F401
        except ImportError:
            raise click.UsageError("--dashboard needs bokeh: pip install 'bokeh>=3.1'") from None
    try:
        n = parse_jobs(jobs, oversubscribe=oversubscribe)
    except click.BadParameter as exc:
        raise click.UsageError(f"--jobs: {exc.format_message()}") from None
    if executor == "local" and (n > 1 or memory_limit is not None):  # local workers: how they start
        from searchkit.machinery.batch.executors import check_start_method
        from searchkit.errors import PlanError

        try:
            check_start_method()
        except PlanError as exc:
            raise click.UsageError(str(exc)) from None
    return n


def _dashboard_address(ctx, param, value):
    """``--dashboard``'s optional ``[HOST:]PORT``: refuse anything else (a file name taken as the address)."""
    import re

    if value is None or value == "" or re.fullmatch(r"(?:[\w.\-\[\]:]*:)?\d{1,5}", value):
        return value
    raise click.BadParameter(f"expected [HOST:]PORT, got {value!r} (write --dashboard with no value after the "
                             f"files, or --dashboard=:0)", ctx, param)


def algorithm_choices(registry) -> str:
    """``astar, wastar(weight=2.0), ...``: every algorithm with its options at their defaults."""
    out = []
    for alg in sorted(registry.algorithms.values(), key=lambda a: a.name):
        args = ", ".join(f"{p.name}={p.default}" for p in alg.params)
        out.append(f"{alg.name}({args})" if args else alg.name)
    return ", ".join(out)


def _upper_bound(ctx, param, value):
    if value is None or value == "auto":
        return value
    from searchkit.algorithm import plain_number

    try:
        number = plain_number(value.strip())
    except ValueError:
        raise click.BadParameter(f"expected a cost (an integer >= 0) or auto, got {value!r}", ctx, param) from None
    if not 0 <= number <= MAX_COST:
        raise click.BadParameter(f"{number} is not in the range 0<=x<={MAX_COST} (or auto)", ctx, param)
    return number


@click.group(cls=GameGroup, make=make_solve_command)
def solve() -> None:
    """Solve the cases in FILE(s) (or - for standard input) of a game."""
