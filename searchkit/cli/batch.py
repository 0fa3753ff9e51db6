"""``searchkit solve`` over whole datasets: workers, records, resume, memory limits, progress, the summary.

:func:`run_batch` is what ``solve`` runs when any of ``--jobs``,
``--executor``, ``--memory-limit``, ``--format jsonl``, ``--output``,
``--resume`` or ``--progress`` is given.  Text and JSON output go through the
same writer (:func:`searchkit.formats.solve_writer`) as a plain run, so they are byte
for byte the same with any number of workers.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import attrs
import click

from searchkit.errors import InputError
from searchkit.machinery.output import (EXIT_CANCELLED, cancelled_code, error, note_terminated, stopped_by, summary,
                                       warning)
from searchkit.formats import solve_writer
from searchkit.result import CANCELLED, ERROR as REFUSED, INPUT_ERROR


def run_batch(solver, files, *, fmt: str, stats: bool, jobs: int = 1, executor: str = "local",
              scheduler: str | None = None, memory_limit: float | None = None, output: str | None = None,
              resume: bool = False, progress: bool | None = None, start_method: str | None = None,
              dashboard: str | None = None, force: bool = False, keep_stopped: bool = False,
              scheduler_timeout: float | None = None) -> int:
    """Solve every case of ``files`` with the batch runner; return the exit status.

    Args:
        solver: the :class:`~searchkit.machinery.solver.Solver` (built in this process to
            check the user's choices; workers rebuild their own).
        files: paths (``-`` for standard input).
        fmt: ``text``, ``json`` or ``jsonl``.
        jobs: local worker processes (1 with no memory limit: this process).
        executor: ``local`` or ``dask``.
        scheduler: a Dask scheduler's address (``None``: a ``LocalCluster``).
        memory_limit: MiB each case may add to its worker's address space.
        output: write the records to this file instead of stdout.
        resume: skip the cases already recorded in ``output`` and append.
        force: truncate an ``output`` that already holds records (else refused without ``resume``).
        keep_stopped: with ``resume``, count cases recorded as stopped (a limit, an error) as done.
        progress: show the progress bar (``None``: when stderr is a terminal).
        dashboard: a LocalCluster's Dask dashboard address (``None``: no dashboard).
        scheduler_timeout: seconds ``scheduler`` has to answer (``None``:
            :data:`~searchkit.machinery.batch.executors.SCHEDULER_TIMEOUT`).

    Output goes to stdout (or ``output``); the error lines, the progress bar
    and one summary line go to stderr.  A Ctrl-C at any moment of the run
    (reading records, starting workers, solving, closing) ends it with that
    summary and, with ``output``, the ``--resume`` hint; exit status 130.
    The line saying so (``searchkit: cancelled``) is printed once: a second
    Ctrl-C or SIGTERM while the run closes its workers and writes the summary
    is ignored (``timeout -s INT`` sends SIGINT twice: to the process and to
    its group).
    """
    import signal
    import threading

    tally = _Tally()

    def terminated(signum, frame):  # SIGTERM ends the run as Ctrl-C does: the summary, the --resume hint
        note_terminated()
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, terminated) if main else None
    try:
        code = _run_batch(solver, files, fmt=fmt, stats=stats, jobs=jobs, executor=executor, scheduler=scheduler,
                          memory_limit=memory_limit, output=output, resume=resume, progress=progress,
                          start_method=start_method, dashboard=dashboard, force=force, keep_stopped=keep_stopped,
                          scheduler_timeout=scheduler_timeout, tally=tally)
    except KeyboardInterrupt:  # outside the solving loop (which handles its own): setting up, or closing
        tally.winding_down()
        tally.say_stop()
        if not tally.summarised:
            tally.summarised = True
            summary(tally.counts, time.perf_counter() - tally.begun, skipped=tally.skipped, output=output,
                    cancelled=True, unsolved=tally.unsolved)
        code = EXIT_CANCELLED
    finally:
        tally.restore_signals()
        if main:
            signal.signal(signal.SIGTERM, old)
    return cancelled_code() if code == EXIT_CANCELLED else code  # 143 under SIGTERM, as a shell reports it


class _Tally:
    """What a batch run has counted so far, for its summary line (also after a Ctrl-C)."""

    def __init__(self) -> None:
        self.begun = time.perf_counter()
        self.counts: Counter = Counter()
        self.skipped = 0
        self.unsolved: Counter = Counter()  #: statuses of the skipped cases recorded without an answer
        self.summarised = False
        self.said = False  #: the line saying how the run was stopped is printed
        self.held: dict = {}  #: signum -> the handler to restore once the run has ended

    def skipped_one(self, status) -> None:
        """A case ``--resume`` skipped, recorded with ``status``
        (:meth:`searchkit.machinery.records.ResumePlan.pending`)."""
        self.skipped += 1
        if status not in ("solved", "exhausted", "feasible"):  # kept by --keep-stopped
            self.unsolved[status] += 1

    def say_stop(self) -> None:
        """Print ``searchkit: cancelled`` (or how the run was stopped): once, however many times it is stopped."""
        if not self.said:
            self.said = True
            click.echo(f"searchkit: {stopped_by()}", err=True)

    def winding_down(self) -> None:
        """From the first Ctrl-C or SIGTERM on, the run is ending: later ones are ignored (main thread only)
        while it closes its workers and prints its summary, so nothing is left half closed or said twice."""
        import signal
        import threading

        if self.held or threading.current_thread() is not threading.main_thread():
            return
        for name in ("SIGINT", "SIGTERM"):
            signum = getattr(signal, name, None)
            if signum is not None:
                self.held[signum] = signal.signal(signum, _ignored)

    def restore_signals(self) -> None:
        import signal

        for signum, handler in self.held.items():
            signal.signal(signum, handler)
        self.held = {}


def _ignored(signum, frame) -> None:
    """A Ctrl-C or SIGTERM while a stopped run winds down: it is already ending."""


def _run_batch(solver, files, *, fmt: str, stats: bool, jobs: int, executor: str, scheduler: str | None,
               memory_limit: float | None, output: str | None, resume: bool, progress: bool | None,
               start_method: str | None, dashboard: str | None, force: bool, keep_stopped: bool,
               scheduler_timeout: float | None, tally: _Tally) -> int:
    from searchkit.machinery.batch.runner import solve_ordered
    from searchkit.cli.progress import make_progress
    from searchkit.machinery.reading import iter_cases

    config = attrs.evolve(solver.config, limits=attrs.evolve(solver.config.limits, memory_mb=memory_limit))
    plan, sink = _open_output(solver, files, output, resume=resume, force=force, keep_stopped=keep_stopped)
    reporter = solve_writer(fmt, solver, stats=stats, headers=len(files) > 1, sink=sink)
    reporter.say_stop = lambda: (tally.winding_down(), tally.say_stop())  # "terminated (SIGTERM)" under SIGTERM
    backend = None
    cancelled = False
    try:
        backend = _backend(config, solver, fmt=fmt, jobs=jobs, executor=executor, scheduler=scheduler,
                           memory_limit=memory_limit, start_method=start_method, dashboard=dashboard,
                           scheduler_timeout=scheduler_timeout)
        show = progress if progress is not None else (sys.stderr is not None and sys.stderr.isatty())
        bar = make_progress(show, total=_count_cases(solver, files, plan.skip, config.limits) if show else None)
        with bar:
            items = plan.pending(iter_cases(solver.game, files, solver.options, config.limits), tally.skipped_one)
            for item, res in solve_ordered(items, backend,
                                           on_start=bar.start, on_done=bar.done, idle=bar.refresh, on_beat=bar.beat):
                if not _report(reporter, item, res, tally.counts, stats=stats and fmt == "jsonl"):
                    cancelled = True
                    break
    except KeyboardInterrupt:
        cancelled = True
        tally.winding_down()
        tally.say_stop()
        reporter.code = EXIT_CANCELLED
    finally:
        try:
            if backend is not None:
                backend.close(cancel=cancelled)
        finally:
            if sink is not None:
                sink.close()
    unmatched = None if cancelled else plan.no_match(output)
    if unmatched:
        warning(unmatched)
    tally.summarised = True
    summary(tally.counts, time.perf_counter() - tally.begun, skipped=tally.skipped, output=output,
            cancelled=cancelled, unsolved=tally.unsolved)
    if cancelled:
        return EXIT_CANCELLED
    if tally.unsolved:  # as a run that stopped those cases now would exit
        from searchkit.machinery.output import EXIT_LIMIT

        return max(reporter.code, EXIT_LIMIT)
    return reporter.code


def _open_output(solver, files, output: str | None, *, resume: bool, force: bool, keep_stopped: bool):
    """``(plan, sink)``: the run's resume plan (:func:`searchkit.machinery.records.resume_plan`, its warnings said) and
    its open record file, or an empty plan and ``None`` without ``--output``.

    Raises:
        click.UsageError: the file may not be written or resumed, or cannot be opened (status 2).
    """
    from searchkit.machinery.records import RecordFile, ResumePlan, ResumeRefused, resume_plan

    if output is None:
        return ResumePlan(), None
    try:
        plan = resume_plan(output, files, solver.game, solver.options, resume=resume, force=force,
                           keep_stopped=keep_stopped, optimal=solver.seeks_optimum,
                           upper_bound=solver.config.upper_bound,
                           stdin=sys.stdin.fileno() if sys.stdin is not None and "-" in files else None)
    except ResumeRefused as exc:
        raise click.UsageError(str(exc)) from None
    for line in plan.warnings:
        warning(line)
    try:
        return plan, RecordFile(output, append=resume, truncate_to=plan.truncate, lock=plan.lock)
    except OSError as exc:
        if plan.lock is not None:
            plan.lock.release()
        raise click.UsageError(f"cannot write {output}: {exc.strerror or exc}") from None  # a bad --output: 2


def _backend(config, solver, *, fmt: str, jobs: int, executor: str, scheduler: str | None,
             memory_limit: float | None, start_method: str | None, dashboard: str | None,
             scheduler_timeout: float | None):
    """The run's executor: a Dask pool, this process (one job, no memory limit) or local worker processes.

    Raises:
        click.ClickException: an unreachable Dask scheduler, in one line with exit status 2.
    """
    from searchkit.machinery.batch import executors

    hashes = fmt in ("json", "jsonl")  # one record schema: json records carry the data hash too
    if executor == "dask":
        try:
            return executors.DaskPool(config, scheduler, None if jobs == 1 else jobs, hash_data=hashes,
                                      dashboard=dashboard,
                                      scheduler_timeout=scheduler_timeout or executors.SCHEDULER_TIMEOUT)
        except ConnectionError as exc:  # an unreachable scheduler: one line, not 'cannot write the output'
            unreachable = click.ClickException(str(exc))
            unreachable.exit_code = 2
            raise unreachable from None
    if jobs == 1 and memory_limit is None:
        return executors.InProcess(config, solver)
    return executors.LocalPool(config, jobs, start_method, hash_data=hashes)


def _report(reporter, item, res, counts, *, stats: bool) -> bool:
    """Count and report one finished item (``res``: its worker's result, ``None`` for an input error); ``stats``:
    its statistics on stderr beside a jsonl record.  ``False`` when the run must stop (Ctrl-C)."""
    outcome = None if res is None else res.outcome
    message = None if res is None else res.message
    if res is not None and res.error is not None:
        error(f"{item.source}: case {item.value.index}: {res.error}")
    if isinstance(item.value, InputError):
        if not getattr(item.value, "warning", False):
            counts[INPUT_ERROR] += 1
    elif message is not None:
        counts[REFUSED] += 1
    elif outcome.result.status != CANCELLED:
        counts[outcome.result.status] += 1
    reporter.extra = res  # the worker's data hash and peak memory, for json and jsonl alike
    for event in () if res is None else res.events:  # as one process writes them: before the record
        reporter.improvement(event)
    if not reporter.report(item, outcome, message):
        return False
    if stats and outcome is not None:
        from searchkit.machinery.reporting import format_stats

        click.echo(format_stats(outcome), err=True)
    return True


def _count_cases(solver, files, skip, limits) -> int | None:
    """The cases a run will solve, by reading the files once more (``None`` for standard input).

    Only done for the progress bar, so it can show an ETA: parsing costs
    microseconds a case next to milliseconds of search.  Read under the
    run's ``limits``, as the run reads them (a case too large to read is
    still counted).
    """
    import os

    from searchkit.machinery.records import data_hash, source_key
    from searchkit.machinery.reading import iter_cases

    if any(path == "-" or not os.path.isfile(path) for path in files):
        return None
    total = 0
    for item in iter_cases(solver.game, files, solver.options, limits):
        if isinstance(item.value, InputError):
            continue
        if skip and (source_key(item.source), item.value.index, data_hash(item.value)) in skip:
            continue
        total += 1
    return total


def parse_jobs(value: str, oversubscribe: bool | None = None) -> int:
    """``--jobs`` as a number of workers: a positive integer, or ``auto`` for the usable CPUs.

    Above the usable CPUs it is capped at them, with one warning line,
    unless ``oversubscribe`` (``--oversubscribe``): ``--jobs 40`` on 2 CPUs
    started 40 workers (about 1 GB resident before a case was done).
    ``None``: the command has no ``--oversubscribe`` (the warning offers none).

    Raises:
        click.BadParameter: anything else.
        click.UsageError: more than one worker, and ``SEARCHKIT_START_METHOD`` names no start method.
    """
    if value == "auto":
        from searchkit.machinery.batch.executors import usable_cpus

        value = str(usable_cpus())
    try:
        n = int(value)
    except ValueError:
        raise click.BadParameter(f"expected a number of workers or 'auto', got {value!r}") from None
    if n < 1:
        raise click.BadParameter(f"must be at least 1, got {n}")
    from searchkit.machinery.batch.executors import usable_cpus

    cpus = usable_cpus()
    if n > cpus:
        if oversubscribe:
            warning(f"--jobs {n} is more than the {cpus} CPU{'s' if cpus != 1 else ''} this process may use: "
                    f"--oversubscribe starts them all, sharing the CPUs (more memory, no more speed)")
        else:
            offer = f" (--oversubscribe to start {n})" if oversubscribe is not None else ""
            warning(f"--jobs {n} is more than the {cpus} CPU{'s' if cpus != 1 else ''} this process may use: "
                    f"{cpus} worker{'s' if cpus != 1 else ''}{offer}")
            n = cpus
    if n > 1:  # local workers will start (solve and compare alike): SEARCHKIT_START_METHOD says how
        from searchkit.machinery.batch.executors import check_start_method
        from searchkit.errors import PlanError

        try:
            check_start_method()
        except PlanError as exc:
            raise click.UsageError(str(exc)) from None
    return n
