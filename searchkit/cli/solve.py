"""``searchkit solve GAME``: the per-game solve command, built from the registry.

The loop is split in three so other runners can reuse the parts: the one
reader (:func:`searchkit.cli.io.iter_cases`), :func:`solve_items` (cases to
outcomes, in order) and :class:`Reporter` (one output line or record per
case, errors and statistics on stderr, the exit status).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

import click

from searchkit.cli.common import (
    EXIT_CANCELLED,
    EXIT_HELP,
    EXIT_INPUT,
    EXIT_LIMIT,
    GameGroup,
    apply,
    error,
    limit_options,
    option_flag,
    warning,
)
from searchkit.errors import InputError, SearchkitError
from searchkit.result import CANCELLED, EXHAUSTED, SOLVED

INPUT_ERROR = "input_error"  #: the status of a record for a case that could not be read
ERROR = "error"  #: the status of a case whose search could not run (the message says why)


def make_solve_command(registry, name: str) -> click.Command:
    """Build the click command ``searchkit solve NAME``."""
    game = registry.game(name)
    heuristic_names = [h.name for h in registry.heuristics_for(name)]
    rule_names = [r.name for r in registry.rules_for(name)]

    @click.pass_context
    def command(ctx, files, algorithm, heuristic, no_prune, max_nodes, time_limit, stats, fmt, jobs, executor,
                scheduler, memory_limit, output, resume, progress, **options):
        from searchkit.limits import Limits
        from searchkit.solver import Solver

        try:
            solver = Solver(registry, name, algorithm=algorithm, heuristic=heuristic, disabled=frozenset(no_prune),
                            limits=Limits(max_nodes=max_nodes, time_limit=time_limit), options=options)
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        if not files and sys.stdin is not None and sys.stdin.isatty():
            click.echo("searchkit: reading cases from standard input (end with Ctrl-D; see --help)", err=True)
        batch = dict(jobs=jobs, executor=executor, scheduler=scheduler, memory_limit=memory_limit, output=output,
                     resume=resume, progress=progress)
        ctx.exit(run_files(solver, files or ("-",), fmt=fmt, stats=stats, **batch))

    params = [
        click.argument("files", nargs=-1, type=str),
        click.option("--algorithm", "-a", default=None, type=click.Choice(sorted(registry.algorithms)),
                     help="Search algorithm (default: the game's plan for each case; see 'searchkit algorithms').")
        ,
        click.option("--heuristic", "-H", default=None,
                     type=click.Choice(heuristic_names) if heuristic_names else str,
                     help="Heuristic (default: the game's plan for each case; see 'searchkit heuristics GAME')."),
        click.option("--no-prune", "no_prune", multiple=True,
                     type=click.Choice(rule_names) if rule_names else str,
                     help="Switch a pruning rule off (repeatable; see 'searchkit rules GAME')."),
        *limit_options(),
        click.option("--stats", is_flag=True, help="Print search statistics to stderr."),
        click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default=None,
                     help="text (default): the judge's output; json: one object per case (the same keys for every "
                          "case); jsonl: resumable records (docs/records.md; the default with --output)."),
        *batch_options(),
    ]
    params += [option_flag(opt) for opt in game.options]
    plan_help = (getattr(type(game).plan, "__doc__", None) or "").strip().split("\n")[0]
    text = (f"{game.summary}\n\nFILES are read in order; - (or none) is standard input.  "
            f"Default plan: {plan_help or 'the game chooses per case'}\n\n{EXIT_HELP}")
    return click.command(name=name, help=text)(apply(command, params))


@click.group(cls=GameGroup, make=make_solve_command)
def solve() -> None:
    """Solve the cases in FILE(s) (or - for standard input) of a game."""


def solve_items(solver, items: Iterable) -> Iterator[tuple]:
    """``(item, outcome or None, error message or None)`` for each item read, in order.

    An input-error item passes through with neither; a case the Solver
    refuses (a plan it cannot run) gives its message instead of an outcome.
    """
    for item in items:
        if isinstance(item.value, InputError):
            yield item, None, None
            continue
        try:
            outcome = solver.solve(item.value, started=item.started)
        except SearchkitError as exc:
            yield item, None, str(exc)
            continue
        yield item, outcome, None


class Reporter:
    """Writes one line (text) or one record (json) per case and keeps the exit status.

    Args:
        solver: the :class:`~searchkit.solver.Solver` (for the game and its options).
        fmt: ``"text"`` or ``"json"``.
        stats: also print statistics to stderr.
        headers: print ``==> FILE <==`` before each file's output (text, several files).
    """

    def __init__(self, solver, fmt: str, stats: bool = False, headers: bool = False) -> None:
        self.solver, self.fmt, self.stats, self.headers = solver, fmt, stats, headers
        self.code = 0
        self._file = None
        self._cases_in_file = 0

    def report(self, item, outcome, message) -> bool:
        """Report one item; return ``False`` when the run must stop (Ctrl-C)."""
        if item.file != self._file:
            if self.headers and self.fmt == "text":
                if self._file is not None:
                    click.echo()
                click.echo(f"==> {item.source} <==")
            self._file, self._cases_in_file = item.file, 0
        value = item.value
        if isinstance(value, InputError):
            if getattr(value, "warning", False):
                warning(str(value))
                return True
            error(str(value))
            self.code = max(self.code, EXIT_INPUT)
            case = value.case
            if case is None and value.line is not None:  # a file-wide error of a game whose format holds one case
                case = self._cases_in_file + 1
            if case is not None:
                self._cases_in_file = max(self._cases_in_file, case)
            if case is not None or self.fmt == "json":
                self._record(item.source, case, INPUT_ERROR, error=value.message, line=value.line)
            return True
        self._cases_in_file = max(self._cases_in_file, value.index)
        if message is not None:
            error(f"{value.source}: case {value.index}: {message}")
            self.code = max(self.code, EXIT_INPUT)
            self._record(value.source, value.index, ERROR, error=message, line=value.line)
            return True
        self.emit(outcome)
        status = outcome.result.status
        if status == CANCELLED:
            click.echo("searchkit: cancelled", err=True)
            self.code = EXIT_CANCELLED
            return False
        if status not in (SOLVED, EXHAUSTED):
            self.code = max(self.code, EXIT_LIMIT)
        return True

    def _record(self, source, case, status, *, error=None, line=None, outcome=None) -> None:
        if self.fmt != "json":
            click.echo(f"? ({'input error' if status == INPUT_ERROR else status})")
            return
        import json

        from searchkit.game import moves_to_json

        result = outcome.result if outcome is not None else None
        solved = result is not None and result.solved
        record = {
            "source": source,
            "case": case,
            "status": status,
            "cost": result.cost if result is not None else None,
            "length": len(result.moves) if solved else None,
            "moves": moves_to_json(self.solver.game, outcome.case, result.moves) if solved else [],
            "algorithm": outcome.algorithm if outcome is not None else None,
            "heuristic": outcome.heuristic if outcome is not None else None,
            "seconds": round(outcome.seconds, 6) if outcome is not None else None,
            "stats": result.stats.to_dict() if result is not None else None,
            "error": error,
            "line": line,
        }
        click.echo(json.dumps(record))

    def emit(self, outcome) -> None:
        """Write one solved (or stopped) case."""
        case, result = outcome.case, outcome.result
        if self.fmt == "json":
            self._record(case.source, case.index, result.status, outcome=outcome, line=case.line)
        else:
            click.echo(self.solver.game.format_result(case, result, self.solver.options))
        if self.stats:
            click.echo(format_stats(outcome), err=True)


def batch_options() -> list:
    """``--jobs``, ``--executor``, ``--scheduler``, ``--memory-limit``, ``--output``, ``--resume``, ``--progress``."""
    return [
        click.option("--jobs", "-j", default="1", show_default=True, metavar="N|auto",
                     help="Worker processes ('auto': the CPUs this process may use); output stays in input order."),
        click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="local: worker processes on this machine; dask: a Dask cluster "
                          "(pip install 'searchkit-puzzles[dask]')."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="With --executor dask: the scheduler's address (default: a LocalCluster here)."),
        click.option("--memory-limit", type=click.FloatRange(min=1), default=None, metavar="MB",
                     help="Memory (MiB of address space) each case may use; over it, status memory_limit."),
        click.option("--output", "-O", default=None, metavar="FILE",
                     help="Write the JSON Lines records to FILE, one line as each case finishes."),
        click.option("--resume", is_flag=True,
                     help="With --output: skip the cases FILE already records (same source, case and data "
                          "hash) and append the rest."),
        click.option("--progress/--no-progress", default=None,
                     help="Show a progress bar on stderr (default: when stderr is a terminal)."),
    ]


def run_files(solver, files, *, fmt: str | None, stats: bool, jobs: str = "1", executor: str = "local",
              scheduler=None, memory_limit=None, output=None, resume=False, progress=None) -> int:
    """Solve every case of every file, printing as it goes; return the exit status.

    Any of the batch options (``--jobs`` other than 1, a Dask executor, a
    memory limit, ``jsonl`` records, ``--output``, ``--resume``,
    ``--progress``) hands the run to :func:`searchkit.batch.run.run_batch`.
    """
    from searchkit.cli.io import iter_cases

    fmt = fmt or ("jsonl" if output else "text")
    if (jobs != "1" or executor != "local" or memory_limit is not None or fmt == "jsonl" or output or resume
            or progress):
        from searchkit.batch.run import parse_jobs, run_batch

        if output and fmt != "jsonl":
            raise click.UsageError("--output writes JSON Lines records: use it with --format jsonl (or no --format)")
        if resume and not output:
            raise click.UsageError("--resume needs --output FILE (the records to resume from)")
        if scheduler and executor != "dask":
            raise click.UsageError("--scheduler goes with --executor dask")
        try:
            n = parse_jobs(jobs)
        except click.BadParameter as exc:
            raise click.UsageError(f"--jobs: {exc.format_message()}") from None
        return run_batch(solver, files, fmt=fmt, stats=stats, jobs=n, executor=executor, scheduler=scheduler,
                         memory_limit=memory_limit, output=output, resume=resume, progress=progress)

    reporter = Reporter(solver, fmt, stats, headers=len(files) > 1)
    for item, outcome, message in solve_items(solver, iter_cases(solver.game, files, solver.options)):
        if not reporter.report(item, outcome, message):
            break
    return reporter.code


def format_stats(outcome) -> str:
    """The statistics of one case as lines of text (for stderr)."""
    case, result = outcome.case, outcome.result
    s = result.stats
    ran = f"{outcome.algorithm}/{outcome.heuristic or '-'}" if outcome.algorithm else "no search (the game's verdict)"
    lines = [
        f"{case.source} case {case.index}: {result.status}, cost {'-' if result.cost is None else result.cost}, "
        f"{ran}, expanded {s.expanded}, generated {s.generated}, evaluated {s.evaluated}, "
        f"{s.elapsed:.4f} s search, {outcome.seconds:.4f} s in all"
        + (f", peak stored {s.peak_stored}" if s.peak_stored else "")
    ]
    if s.rule_cuts:
        lines.append("  rule cuts: " + ", ".join(f"{name} {n}" for name, n in s.rule_cuts))
    layer = "f-layer" if outcome.algorithm == "astar" else "bound"
    for it in s.iterations:
        lines.append(f"  {layer} {it.bound}: expanded {it.expanded}, generated {it.generated}, "
                     f"evaluated {it.evaluated}, {it.elapsed:.4f} s")
    before = s.before_last_layer()
    if outcome.algorithm == "astar" and before is not None:
        lines.append(f"  expanded before the last f-layer: {before}")
    if s.per_depth and any(s.per_depth):
        lines.append("  depth  expanded  seconds")
        times = s.per_depth_seconds or (0.0,) * len(s.per_depth)
        for d, (n, t) in enumerate(zip(s.per_depth, times)):
            lines.append(f"  {d:>5}  {n:>8}  {t:.4f}")
    return "\n".join(lines)
