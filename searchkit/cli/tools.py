"""``searchkit generate``, ``compare`` and ``check GAME``: tools for trying heuristics and writing plugins.

Imported only when one of these commands runs, so ``searchkit solve`` starts fast.
Every option of a game (``compare``) or of its generator (``generate``,
``check``) is a ``--flag`` of the per-game command, spelled as under ``solve``;
``-o NAME=VALUE`` is still accepted for generator options.
"""

from __future__ import annotations

import click

from searchkit.cli.common import (OnceCommand, EXIT_CANCELLED, EXIT_INPUT, EXIT_LIMIT, GameGroup, apply, check_writable,
                                  engine_option, error, fail, limit_options, option_flag, record_file, refuse_input,
                                  resolve_names, threads_option, warning)
import sys

from searchkit.errors import SearchkitError
from searchkit.formats import choices
from searchkit.limits import MAX_SECONDS
from searchkit.tools.compare import DEFAULT_TIME_LIMIT
from searchkit.tools.generate import MAX_COUNT, MAX_TEXT


def _parse_pairs(ctx, options, pairs) -> dict:
    """Turn ``-o NAME=VALUE`` pairs into typed values for the given options (a name given twice is refused)."""
    known = {opt.key: opt for opt in options}
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        key = name.strip().lstrip("-").replace("-", "_")
        if not sep or key not in known:
            names = ", ".join(o.name for o in options) or "none"
            raise click.UsageError(f"expected -o NAME=VALUE with NAME one of: {names}; got {pair!r}")
        if key in out:
            _given_twice(ctx, known[key], f"-o {known[key].name}=... twice")
        try:
            out[key] = known[key].parse(value)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    return out


def _given_twice(ctx, opt, how: str):
    """A generator option given a second time (``how``): two readings of one setting, as OnceCommand says."""
    flag = f"--{opt.name}/--no-{opt.name}" if opt.type is bool else f"--{opt.name} VALUE"
    raise click.UsageError(f"option --{opt.name} is given more than once ({how}): give it once, as {flag} or as "
                           f"-o {opt.name}=VALUE (only one of the values could be used)", ctx)


def _merged(ctx, flags: dict, pairs, options) -> dict:
    """The generator options: each ``--flag`` and ``-o NAME=VALUE`` given, over the flags' defaults.

    An option given both ways (or by ``-o`` twice) is a usage error naming it: ``-o NAME=VALUE`` is the same as
    its ``--flag``, and OnceCommand refuses a flag given twice.
    """
    from click.core import ParameterSource

    pairs_given = _parse_pairs(ctx, options, pairs)
    for opt in options:
        if opt.key in pairs_given and ctx.get_parameter_source(opt.key) == ParameterSource.COMMANDLINE:
            _given_twice(ctx, opt, f"as --{opt.name} and as -o {opt.name}=...")
    merged = {k: v for k, v in flags.items() if v is not None}
    merged.update(pairs_given)
    return merged


# -- generate ---------------------------------------------------------------

def make_generate_command(registry, name: str) -> click.Command:
    """Build ``searchkit generate NAME``."""
    game = registry.game(name)
    gen = registry.generator(name)

    @click.pass_context
    def command(ctx, count, seed, size, pairs, **flags):
        import random

        options = _merged(ctx, flags, pairs, gen.options)
        rng = random.Random(seed)
        if size is not None and gen.size_error(size) is not None:
            fail(f"cannot generate {name} instances: --{gen.size_error(size)}")
        size = size or gen.default_size
        from searchkit.tools.generate import TooMuchText, generated_text

        out = sys.stdout
        try:
            for piece in generated_text(game, gen, rng, size, options, count):
                out.write(piece)  # the stream's buffer, not a flush per instance (click.echo's)
            out.flush()
        except TooMuchText as exc:
            if exc.so_far:  # instances longer than the first: the cap is reached part-way
                fail(f"cannot generate {name} instances: stopped after {exc.cap} bytes, the most generate writes "
                     f"(the instances came out longer than the first): give a smaller --count")
            fail(f"cannot generate {name} instances: --count {count}: {count} instances like the first come to "
                 f"about {exc.estimate} bytes, over the {exc.cap} generate writes at most: give a smaller --count "
                 f"or --size (or several runs with other --seed values)")
        except (ValueError, SearchkitError) as exc:
            fail(f"cannot generate {name} instances: {exc}")

    size_range = click.IntRange(min=1, max=getattr(gen, "max_size", None))
    params = [
        click.option("--count", "-n", type=click.IntRange(min=1, max=MAX_COUNT), default=1, show_default=True,
                     help=f"Instances to write (in one file, each as it is made; games whose format holds one "
                          f"case take 1); at most {MAX_COUNT} instances and {MAX_TEXT // 2**30} GiB of text."),
        click.option("--seed", "-s", type=int, default=0, show_default=True, help="Random seed."),
        click.option("--size", type=size_range, default=None,
                     help=f"{gen.size_help} (default {gen.default_size}"
                          f"{f', at least {gen.min_size}' if gen.min_size > 1 else ''})."),
        click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE",
                     help="A generator option given as NAME=VALUE (repeatable), the same as its --flag."),
        *[option_flag(opt) for opt in gen.options],
    ]
    return click.command(cls=OnceCommand, name=name,
                         help=f"Write COUNT random {name} instances in the game's input format "
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
                output, resume, keep_stopped, force, progress, threads, **options):
        from searchkit.machinery.reading import iter_cases
        from searchkit.limits import Limits
        from searchkit.machinery.solver import Solver
        from searchkit.result import ERROR as SEARCH_ERROR, EXHAUSTED, FEASIBLE, INPUT_ERROR, SOLVED
        from searchkit.tools.compare import compare as run_compare

        _check_record_options(fmt, output, resume, keep_stopped, force)
        heuristics = resolve_names(registry, name, names)
        if plot is not None:
            refuse_input(plot, files)  # never overwrite what it reads
            if output is not None and _same_file(plot, output):
                raise click.UsageError("--plot and --output name the same file: name two")
            _check_plot(plot)  # before the comparison, which may run for hours
        limits = Limits(max_nodes=max_nodes, time_limit=time_limit)
        strategies = [(a, h) for a in (algorithms or (None,)) for h in heuristics]
        try:
            solvers = [Solver(registry, name, algorithm=a, heuristic=h, disabled=frozenset(no_prune),
                              limits=limits, options=options, engine=engine) for a, h in strategies]
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        columns = [h if len(algorithms) < 2 else f"{a}/{h}" for a, h in strategies]
        n = 1
        if jobs != "1":
            from searchkit.cli.batch import parse_jobs

            try:
                n = parse_jobs(jobs)
            except click.BadParameter as exc:
                raise click.UsageError(f"--jobs: {exc.format_message()}") from None
        if threads != 1:  # every strategy's search may use them (auto: the CPUs divided by the workers)
            import attrs

            from searchkit.machinery.batch.executors import resolve_threads

            solvers = [Solver(registry, attrs.evolve(s.config, threads=resolve_threads(threads, n)))
                       for s in solvers]
        records = CompareRecords(game, solvers, columns, files, fmt, output, resume, keep_stopped, force)
        items = iter_cases(game, files, solvers[0].options, limits)
        from searchkit.cli.progress import make_progress

        show = progress if progress is not None else (sys.stderr is not None and sys.stderr.isatty())
        total = None
        if show and not resume:
            from searchkit.cli.batch import _count_cases  # solve's count, for the bar's ETA

            counted = _count_cases(solvers[0], files, set(), limits)
            total = None if counted is None else counted * len(solvers)
        bar = make_progress(show, total=total)
        try:
            with bar:
                if n != 1:
                    from searchkit.machinery.batch.runner import solve_in_workers

                    def finished(k, item, res):
                        if res.message is None:
                            records.write(k, item.value, res.outcome, error=res.error, peak_rss_kb=res.peak_rss_kb)
                        bar.done(item, res)

                    solved, items = solve_in_workers(solvers, items, n, skip=records.skip, on_start=bar.start,
                                                     on_done=finished, idle=bar.refresh, on_beat=bar.beat)
                    on_start = on_outcome = None
                else:
                    solved = None

                    def on_outcome(k, item, outcome, row):
                        records.write(k, item.value, outcome, error=row.error)
                        bar.done(item, _Finished(outcome, row.status))

                    on_start = bar.start
                try:
                    report = run_compare(solvers, items, columns, on_input_error=_report_input, outcomes=solved,
                                         recorded=records.row if records.rows else None, on_start=on_start,
                                         on_outcome=on_outcome)
                except SearchkitError as exc:
                    fail(str(exc))
        finally:
            records.close()
        for row in report.rows:
            if row.status == SEARCH_ERROR:
                error(f"{row.source}: case {row.case}: {row.strategy}: {row.error}")
        if not any(r.status != INPUT_ERROR for r in report.rows):
            fail("no cases to compare")
        if records.matched_none(report):
            warning(f"0 of the records in {output} match a case and strategy of this run (same source, case, "
                    f"data hash and strategy): every case was solved again")
        from searchkit.formats import writer

        if fmt != "jsonl" or output is not None:  # jsonl alone: the records on stdout are the output
            writer("text" if fmt in (None, "jsonl") else fmt, "compare")(report)
        if output is not None:
            click.echo(f"searchkit: {records.written} record(s) written to {output}"
                       + (f", {report.recorded} already there" if report.recorded else ""), err=True)
        if plot is not None:
            _plot(report, plot, name)
        if report.cancelled:
            click.echo("searchkit: cancelled", err=True)
            ctx.exit(EXIT_CANCELLED)
        code = EXIT_INPUT if any(r.status == INPUT_ERROR for r in report.rows) else 0
        if any(r.status not in (SOLVED, EXHAUSTED, FEASIBLE, INPUT_ERROR) for r in report.rows):
            code = max(code, EXIT_LIMIT)  # a limit, or a search that raised (its row's error), as solve
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
        limit_options()[0],
        click.option("--time-limit", default=None, metavar="SECONDS|none", callback=_compare_time_limit,
                     help=f"Stop each case and strategy after this many seconds, counted from the case's first "
                          f"byte (default {DEFAULT_TIME_LIMIT:g}, which the table states, so that one hopeless "
                          f"strategy cannot hold the table back; 'none': no limit; 0 stops at once)."),
        engine_option(),
        threads_option(),
        click.option("--format", "fmt", type=click.Choice(choices("compare")), default=None,
                     help="text (default): rich tables; json: one document; csv: one row per case and strategy; "
                          "jsonl: the records (one per case and strategy, as each finishes; docs/records.md) "
                          "instead of a table, or with --output the text table while the records go to FILE."),
        click.option("--plot", default=None, metavar="OUT",
                     help="Also plot nodes per case and the cases solved within t seconds to OUT.svg or OUT.png "
                          "(needs matplotlib: pip install 'searchkit-puzzles[plots]')."),
        click.option("--jobs", "-j", default="1", show_default=True, metavar="N|auto",
                     help="Worker processes ('auto': the CPUs this process may use); the same table."),
        click.option("--output", "-O", default=None, metavar="FILE", callback=record_file,
                     help="Also write a JSON Lines record of each case and strategy to FILE as it finishes "
                          "(solve's records, with the strategy's column name in 'strategy'); the table still goes "
                          "to stdout."),
        click.option("--resume", is_flag=True,
                     help="With --output: take the rows FILE already answers (same source, case, data hash and "
                          "strategy) from it instead of solving them again, append the rest, and show the whole "
                          "table."),
        click.option("--keep-stopped", is_flag=True,
                     help="With --resume: count the rows FILE records as stopped at a limit (or without a proven "
                          "answer) as done; by default they are solved again."),
        click.option("--force", is_flag=True,
                     help="With --output: start FILE afresh even if it already holds records (without --resume "
                          "or --force such a file is refused, never truncated)."),
        click.option("--progress/--no-progress", default=None,
                     help="Show a progress bar on stderr, a step per case and strategy (default: when stderr is a "
                          "terminal)."),
        *[option_flag(opt) for opt in game.options],
    ]
    return click.command(cls=OnceCommand, name=name, help=(
        "Solve every case of FILES with every heuristic (and every -a algorithm) and tabulate costs, nodes, "
        "time and EBF, and per strategy the quality/time frontier: total cost, summed gap to the best cost "
        "found and to the best proven lower bound, and seconds.\n\n"
        "Cost disagreements between admissible heuristics under an optimal algorithm mean a bug: they "
        "are reported loudly and the exit status is 1.  A case that cannot be read is a row with status "
        "input_error, one whose search raised a row with status error (exit status 2 for both).  Each case "
        f"and strategy stops after --time-limit seconds ({DEFAULT_TIME_LIMIT:g} unless given; the table "
        "says so)."
    ))(apply(command, params))


def _compare_time_limit(ctx, param, value):
    """``compare --time-limit``: seconds (default :data:`~searchkit.tools.compare.DEFAULT_TIME_LIMIT`) or ``none``."""
    if value is None:
        return DEFAULT_TIME_LIMIT
    if value.strip().lower() == "none":
        return None
    try:
        seconds = float(value)
    except ValueError:
        raise click.BadParameter(f"expected seconds or none, got {value!r}", ctx, param) from None
    if not 0 <= seconds <= MAX_SECONDS:  # nan fails both
        raise click.BadParameter(f"{value} is not in the range 0<=x<={MAX_SECONDS} (or none)", ctx, param)
    return seconds


def _check_record_options(fmt, output, resume, keep_stopped, force) -> None:
    """The pairings of compare's record options, as ``solve`` checks its own (one usage line each)."""
    if resume and not output:
        raise click.UsageError("--resume needs --output FILE (the records to resume from)")
    if keep_stopped and not resume:
        raise click.UsageError("--keep-stopped goes with --resume")
    if force and not output:
        raise click.UsageError("--force goes with --output FILE")
    if force and resume:
        raise click.UsageError("--force starts --output afresh, --resume appends to it: give one of them")


def _same_file(a: str, b: str) -> bool:
    import os

    return os.path.realpath(a) == os.path.realpath(b)


class _Finished:
    """What the progress bar's ``done`` reads of a case: ``outcome`` (its ``result.status``)."""

    def __init__(self, outcome, status: str) -> None:
        import types

        self.outcome = outcome if outcome is not None else types.SimpleNamespace(
            result=types.SimpleNamespace(status=status))


class CompareRecords:
    """``compare``'s records: solve's record file, schema and resume rules, one record per case and strategy.

    Each record is :func:`searchkit.machinery.records.make_record`'s, with ``strategy``
    (the column's name) added; ``--resume`` reads the file with
    :func:`~searchkit.machinery.records.load_records` and keeps, per strategy, the cases
    :func:`~searchkit.machinery.records.done_keys` counts as done, as ``solve --resume``
    does.  Writes go to a :class:`~searchkit.machinery.records.RecordFile` (``--output``)
    or to stdout (``--format jsonl`` alone).
    """

    def __init__(self, game, solvers, columns, files, fmt, output, resume, keep_stopped, force) -> None:
        self.game, self.solvers, self.columns = game, solvers, columns
        self.on = output is not None or fmt == "jsonl"
        self.sink = None
        self.rows: dict = {}  # (k, source key, case, data hash) -> Row
        self.held = 0  # records of this run's strategies read from the file
        self.written = 0  # records this run wrote (a cancelled search and an input error write none)
        self.used = set()
        if output is None:
            return
        from searchkit.machinery.records import ResumeRefused, lock_output

        try:
            lock = lock_output(output)  # held until the records are closed: one run writes a file at a time
        except ResumeRefused as exc:
            raise click.UsageError(str(exc)) from None
        try:
            self._open(output, files, resume, force, keep_stopped, lock)
        except BaseException:
            if lock is not None:
                lock.release()
            raise

    def _open(self, output, files, resume, force, keep_stopped, lock) -> None:
        """Check ``output`` for writing, read its records with ``--resume``, and open it, under ``lock``."""
        from searchkit.machinery.records import RecordFile, output_refusal

        refusal = output_refusal(output, files, resume=resume, force=force,
                                 stdin=sys.stdin.fileno() if sys.stdin is not None and "-" in files else None)
        if refusal:
            raise click.UsageError(refusal)
        truncate = self._load(output, keep_stopped) if resume else None
        try:
            self.sink = RecordFile(output, append=resume, truncate_to=truncate, lock=lock)
        except OSError as exc:
            raise click.UsageError(f"cannot write {output}: {exc.strerror or exc}") from None

    def _load(self, output, keep_stopped) -> int | None:
        """Read ``output``'s records for ``--resume``; return the length to cut a torn last line to, or ``None``."""
        from collections import Counter

        from searchkit.machinery.records import (done_keys, foreign_record, load_records, not_regular,
                                                 options_conflict, source_key, which_record)
        from searchkit.tools.compare import Row

        refusal = not_regular(output, "--resume")
        if refusal:  # /dev/zero would be read forever, a FIFO block
            raise click.UsageError(f"cannot resume {refusal}")
        loaded = load_records(output)
        for record in loaded.records:
            where = which_record(record)
            conflict = foreign_record(record, self.game.name)
            if not conflict and "strategy" not in record:
                conflict = "is not a compare record (it names no strategy: solve wrote it)"
            if conflict:
                raise click.UsageError(f"cannot resume {output}: {where} {conflict}; write to another --output")
            conflict = options_conflict(self.game, record, self.solvers[0].options)
            if conflict:
                raise click.UsageError(f"cannot resume {output}: {where} was {conflict}; run with the same "
                                       f"options, or write to another --output")
        again: Counter = Counter()
        for k, (column, solver) in enumerate(zip(self.columns, self.solvers)):
            mine = [r for r in loaded.records if r.get("strategy") == column]
            self.held += len(mine)
            done, other = done_keys(mine, keep_stopped, optimal=solver.seeks_optimum,
                                    upper_bound=solver.config.upper_bound)
            again.update(other.values())
            for record in mine:
                key = (source_key(record.get("source")), record.get("case"), record.get("data_hash"))
                if key in done:
                    self.rows[(k, *key)] = Row.from_record(record, column)
        if again:
            why = "; ".join(f"{n} {reason}" for reason, n in again.most_common())
            warning(f"{output}: {sum(again.values())} recorded row(s) have no answer to this run's question and "
                    f"are solved again ({why})")
        for number in loaded.bad_lines:
            warning(f"{output}: line {number} is not a JSON record; ignored")
        if loaded.torn:
            warning(f"{output}: the last line is not a complete JSON record (the run was killed while writing "
                    f"it, or the line was damaged); it is dropped and its row solved again")
            return loaded.good_bytes
        return None

    def row(self, k, case):
        """The recorded row of strategy ``k`` on ``case``, or ``None`` (it is solved)."""
        from searchkit.machinery.records import data_hash, source_key

        key = (k, source_key(case.source), case.index, data_hash(case))
        found = self.rows.get(key)
        if found is not None:
            self.used.add(key)
        return found

    def skip(self, k, case) -> bool:
        return self.row(k, case) is not None

    def write(self, k, case, outcome, *, error=None, peak_rss_kb=None) -> None:
        """The record of strategy ``k`` on ``case`` (a cancelled search writes none: resume solves it again)."""
        from searchkit.machinery.records import data_hash, dumps, make_record
        from searchkit.result import CANCELLED, ERROR

        if not self.on:
            return
        status = ERROR if outcome is None else outcome.result.status
        if status == CANCELLED:
            return
        solver = self.solvers[k]
        record = make_record(self.game, source=case.source, case=case.index, status=status, outcome=outcome,
                             data_hash=data_hash(case), error=error, line=case.line, peak_rss_kb=peak_rss_kb,
                             options=solver.options, upper_bound=solver.config.upper_bound)
        record["strategy"] = self.columns[k]
        if self.sink is None:
            click.echo(dumps(record))
        else:
            self.sink.write(record)
        self.written += 1

    def matched_none(self, report) -> bool:
        """``--resume`` read records of this run's strategies and not one matched a case of the input."""
        return bool(self.held) and not self.used and not report.cancelled

    def close(self) -> None:
        if self.sink is not None:
            self.sink.close()
            self.sink = None


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
        options = _merged(ctx, flags, pairs, gen.options)  # usage first
        try:
            import hypothesis  # noqa: F401
        except ImportError:
            fail("searchkit check needs hypothesis: pip install 'searchkit-puzzles[tools]'")
        from searchkit.game import Case
        from searchkit.game import moves_to_json as to_json
        from searchkit.tools.check import MIN_EXPLORED_SHARE, check_heuristic, plain_puzzle

        from searchkit.tools.instances import size_range

        heuristics = resolve_names(registry, name, names)
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
    return click.command(cls=OnceCommand, name=name, help=(
        "Check heuristics for admissibility and consistency on small generated instances.\n\n"
        "True remaining costs come from exhaustive search.  A violated property that the heuristic claims "
        "is printed with the smallest counter-example found (hypothesis shrinks it) and the exit status is 1; "
        "a violated property it does not claim is reported only.  Too few instances explored: INCONCLUSIVE, "
        "exit status 1."))(apply(command, params))


@click.group(cls=GameGroup, make=make_check_command, needs="generators")
def check() -> None:
    """Check a game's heuristics for admissibility and consistency on generated instances."""
