"""Running a Solver over what the reader produced: outcomes in order, and one line or record per case.

Machinery (it was ``searchkit/cli/run.py``; that path is gone, see CHANGELOG.md).  Free of click, so the
judges' plain ``searchkit solve GAME FILE...`` can run without importing it (see :func:`searchkit.cli.main`).
:func:`solve_items` turns items into outcomes in input order; :class:`Reporter` writes them and keeps the exit
status; :func:`run_files` glues them to the one reader.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from searchkit.machinery.output import EXIT_CANCELLED, EXIT_INPUT, EXIT_LIMIT, echo, error, stopped_by, warning
from searchkit.errors import FailureMessage, InputError, SearchkitError, failure_message
from searchkit.result import CANCELLED, ERROR, EXHAUSTED, FEASIBLE, INPUT_ERROR, SOLVED


def solve_items(solver, items: Iterable) -> Iterator[tuple]:
    """``(item, outcome or None, error message or None)`` for each item read, in order.

    An input-error item passes through with neither; a case the Solver
    refuses (a plan it cannot run), or whose search raised an exception (a
    defect, or out of memory: :func:`searchkit.errors.failure_message`, a
    :class:`~searchkit.errors.FailureMessage`), gives its message instead of
    an outcome.
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
        except Exception as exc:  # a plugin's defect: this case's error line, not the run's end
            yield item, None, failure_message(exc)
            continue
        yield item, outcome, None


class Reporter:
    """Writes one line (text) or one record (json) per case and keeps the exit status.

    Args:
        solver: the :class:`~searchkit.machinery.solver.Solver` (for the game and its options).
        fmt: ``"text"`` or ``"json"``.
        stats: also print statistics to stderr.
        headers: print ``==> FILE <==`` before each file's output (text, several files).
        quiet: say nothing on stderr (an input error, a refused case, Ctrl-C): the Python API, whose
            outcomes say it, writes records this way.
        sink: where records go (:class:`~searchkit.machinery.records.RecordFile`), for a writer that writes them to a
            file (``jsonl``'s :class:`~searchkit.formats.cases.RecordReporter`); text and json print to
            stdout and take none.

    Every ``solve`` writer takes these arguments (the one writer protocol of
    :data:`searchkit.formats.WRITERS`) and has :meth:`report`,
    :meth:`improvement`, ``code`` and ``extra``.
    """

    def __init__(self, solver, fmt: str, stats: bool = False, headers: bool = False, quiet: bool = False,
                 sink=None) -> None:
        if sink is not None:
            raise ValueError(f"--format {fmt} prints to stdout; records go to a file with jsonl")
        self.solver, self.fmt, self.stats, self.headers = solver, fmt, stats, headers
        self.quiet = quiet
        self.code = 0
        self._file = None
        self._cases_in_file = 0
        self.case = None  # the Case being reported (for its data hash), None for an input error
        self.extra = None  # a batch run's CaseResult of that case (data hash, peak memory, error), if any
        #: says how the run was stopped when a case comes back cancelled (a batch run's: Ctrl-C or SIGTERM, once)
        self.say_stop = lambda: echo(f"searchkit: {stopped_by()}", err=True)

    def report(self, item, outcome, message) -> bool:
        """Report one item; return ``False`` when the run must stop (Ctrl-C)."""
        if item.file != self._file:
            if self.headers and self.fmt == "text":
                if self._file is not None:
                    echo()
                echo(f"==> {item.source} <==")
            self._file, self._cases_in_file = item.file, 0
        value = item.value
        self.case = None if isinstance(value, InputError) else value
        if isinstance(value, InputError):
            if getattr(value, "warning", False):
                if not self.quiet:
                    warning(str(value))
                return True
            if not self.quiet:
                error(str(value))
            self.code = max(self.code, EXIT_INPUT)
            case = value.case
            if case is None and value.line is not None:  # a file-wide error of a game whose format holds one case
                case = self._cases_in_file + 1
            if case is not None:
                self._cases_in_file = max(self._cases_in_file, case)
            # a file that cannot be read at all (missing, empty, a folder) still gives its line: text's `?`, as
            # json's record
            self._record(item.source, case, INPUT_ERROR, error=value.message, line=value.line)
            return True
        self._cases_in_file = max(self._cases_in_file, value.index)
        if message is not None:
            if not self.quiet:
                error(f"{value.source}: case {value.index}: {message}")
            # a search that raised failed (1, as a case a limit stopped); a plan refused for the case is usage (2)
            self.code = max(self.code, EXIT_LIMIT if isinstance(message, FailureMessage) else EXIT_INPUT)
            self._record(value.source, value.index, ERROR, error=message, line=value.line)
            return True
        self.emit(outcome)
        status = outcome.result.status
        if status == CANCELLED:
            if not self.quiet:
                self.say_stop()
            self.code = EXIT_CANCELLED
            return False
        if status not in (SOLVED, EXHAUSTED, FEASIBLE):
            self.code = max(self.code, EXIT_LIMIT)
        return True

    def improvement(self, event: dict) -> None:
        """Report one improvement event (a :attr:`searchkit.machinery.solver.Solver.on_improve` callback).

        json: the event as a record of its own, before the case's final
        record; text: a line on stderr with ``--stats``.
        """
        if self.fmt == "json":
            import json

            echo(json.dumps(event))
        elif self.stats:
            lb = event["lower_bound"]
            bound = "no bound" if lb is None else f">= {lb}, gap {event['gap']}"
            echo(f"{event['source']} case {event['case']}: best {event['cost']} ({bound}) at "
                 f"{event['seconds']:.3f} s [{event['origin']}]", err=True)

    def _record(self, source, case, status, *, error=None, line=None, outcome=None) -> None:
        if self.fmt != "json":
            echo(f"? ({'input error' if status == INPUT_ERROR else status})")
            return
        import json

        echo(json.dumps(self.make_record(source, case, status, error=error, line=line, outcome=outcome)))

    def make_record(self, source, case, status, *, error=None, line=None, outcome=None) -> dict:
        """The case's record, one schema for ``--format json`` and ``jsonl`` (``records.make_record``).

        The data hash and peak memory come from a batch run's worker when it
        measured them (:attr:`extra`), else from this process.
        """
        from searchkit.machinery.batch.executors import peak_rss_kb
        from searchkit.machinery.records import data_hash, make_record

        res = self.extra
        digest = None if res is None else res.data_hash  # computed in the worker
        if digest is None and status != INPUT_ERROR:
            value = outcome.case if outcome is not None else self.case
            digest = None if value is None else data_hash(value)
        if res is not None and res.error is not None:
            error = res.error
        if res is not None:
            peak = res.peak_rss_kb
        else:
            peak = None if status == INPUT_ERROR else peak_rss_kb()
        return make_record(self.solver.game, source=source, case=case, status=status, outcome=outcome,
                           data_hash=digest, error=error, line=line, peak_rss_kb=peak, options=self.solver.options,
                           upper_bound=self.solver.config.upper_bound)

    def emit(self, outcome) -> None:
        """Write one solved (or stopped) case."""
        case, result = outcome.case, outcome.result
        if self.fmt == "json":
            self._record(case.source, case.index, result.status, outcome=outcome, line=case.line)
        else:
            echo(self.solver.game.format_result(case, result, self.solver.options))
        if self.stats:
            echo(format_stats(outcome), err=True)


def run_files(solver, files, reporter) -> int:
    """Solve every case of every file, reporting each with ``reporter`` as it goes; return the exit status.

    ``reporter`` is the run's writer (:class:`Reporter` or another of the
    same protocol), as the command line takes it from
    :func:`searchkit.formats.solve_writer`.

    When stderr is a terminal, one closing line there counts the cases by
    status with the wall time, as a batch run prints it (judges, whose
    stderr is a file or a pipe, see nothing new).
    """
    import sys
    import time

    from searchkit.machinery.reading import iter_cases
    from searchkit.machinery.output import summary

    begun = time.perf_counter()
    counts: dict = {}
    solver.on_improve = reporter.improvement
    cancelled = False
    items = iter_cases(solver.game, files, solver.options, solver.config.limits)
    for item, outcome, message in solve_items(solver, items):
        if isinstance(item.value, InputError):
            status = None if getattr(item.value, "warning", False) else INPUT_ERROR
        else:
            status = ERROR if message is not None else outcome.result.status
        if status is not None and status != CANCELLED:
            counts[status] = counts.get(status, 0) + 1
        if not reporter.report(item, outcome, message):
            cancelled = True
            break
    if sys.stderr is not None and sys.stderr.isatty():
        summary(counts, time.perf_counter() - begun, cancelled=cancelled)
    return reporter.code


def format_stats(outcome) -> str:
    """The statistics of one case as lines of text (for stderr)."""
    case, result = outcome.case, outcome.result
    s = result.stats
    ran = (f"{outcome.algorithm}/{outcome.heuristic or '-'} on {getattr(outcome, 'engine', None) or 'python'}"
           if outcome.algorithm else "no search (the game's verdict)")
    lines = [
        f"{case.source} case {case.index}: {result.status}, cost {'-' if result.cost is None else result.cost}, "
        f"lower bound {'-' if result.lower_bound is None else result.lower_bound}, {ran}, "
        f"expanded {s.expanded}, generated {s.generated}, evaluated {s.evaluated}, "
        f"{s.elapsed:.4f} s search, {outcome.seconds:.4f} s in all"
        + (f", peak stored {s.peak_stored}" if s.peak_stored else "")
        + (f", {s.threads} threads" if s.threads != 1 else "")
    ]
    if s.rule_cuts:
        lines.append("  rule cuts: " + ", ".join(f"{name} {n}" for name, n in s.rule_cuts))
    for it in s.iterations:
        lines.append(f"  {it.kind} {it.bound}: expanded {it.expanded}, generated {it.generated}, "
                     f"evaluated {it.evaluated}, {it.elapsed:.4f} s")
    before = s.before_last_layer()
    if before is not None:
        lines.append(f"  expanded before the last f-layer: {before}")
    if s.per_depth and any(s.per_depth):
        lines.append("  depth  expanded  seconds")
        times = s.per_depth_seconds or (0.0,) * len(s.per_depth)
        for d, (n, t) in enumerate(zip(s.per_depth, times)):
            lines.append(f"  {d:>5}  {n:>8}  {t:.4f}")
    return "\n".join(lines)
