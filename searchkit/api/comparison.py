"""Heuristics and algorithms against each other (:func:`compare`) and record files together (:func:`report`)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from typing import Any


from searchkit.tools.compare import Row as _Row

#: The status of an outcome whose case could not be read (``error`` says why), as in the CLI's records
#: (:data:`searchkit.result.INPUT_ERROR`); ``ERROR``: the Solver refused the case or its search raised.
from searchkit.api._registry import registry
from searchkit.api.solving import _items, _solver, _threads, _with_threads

#: One case solved with one strategy: ``searchkit compare``'s own row, a plain frozen dataclass
#: (source, case, heuristic, algorithm, status, cost, depth, expanded, generated, evaluated,
#: before_last_layer, seconds, ebf, error, lower_bound, strategy).
ComparisonRow = _Row

@dataclasses.dataclass(frozen=True)
class Comparison:
    """Every case solved with every strategy, as ``searchkit compare`` tabulates it.

    Attributes:
        game: the game's name.
        strategies: the column names in order (heuristics, or ``ALGORITHM/HEURISTIC``).
        rows: one :class:`ComparisonRow` (a plain, frozen dataclass) per case and strategy, case by case.
        disagreements: ``(source, case, {strategy: cost})`` for each case whose solved costs differ.
        cancelled: stopped by Ctrl-C (the rows are partial).
    """

    game: str
    strategies: tuple[str, ...]
    rows: tuple[_Row, ...]
    disagreements: tuple[tuple[str, int, dict], ...] = ()
    cancelled: bool = False
    _report: Any = dataclasses.field(default=None, repr=False, compare=False)

    def totals(self) -> dict[str, dict]:
        """Per strategy: cases, solved, feasible, summed cost, gap to the best and to the proven bound,
        node counts, seconds and mean EBF (:meth:`searchkit.tools.compare.Comparison.totals`)."""
        return self._report.totals()

    def to_records(self) -> list[dict]:
        """The rows as dicts (one per row, the :class:`ComparisonRow` fields in order)."""
        return [dataclasses.asdict(r) for r in self.rows]

    def to_pandas(self):
        """The rows as a ``pandas.DataFrame`` (one row per case and strategy).

        Raises:
            ModuleNotFoundError: without pandas, saying what to install.
        """
        try:
            import pandas
        except ImportError:
            raise ModuleNotFoundError("Comparison.to_pandas() needs pandas: pip install 'searchkit-puzzles[pandas]' "
                                      "(or use .to_records())", name="pandas") from None
        return pandas.DataFrame.from_records(self.to_records(),
                                             columns=[f.name for f in dataclasses.fields(ComparisonRow)])

    def plot(self, path: str | os.PathLike | None = None):
        """``compare --plot``'s figure: nodes expanded per case, and cases solved within t seconds.

        Args:
            path: also write it here (``.svg`` or ``.png``).

        Returns:
            The matplotlib ``Figure`` (it draws itself in Jupyter).

        Raises:
            searchkit.render.plots.MissingMatplotlib: without matplotlib
                (``pip install 'searchkit-puzzles[plots]'``).
            ValueError: no rows to plot, or a path with another suffix.
        """
        from searchkit.render.plots import PLOTS_HINT, MissingMatplotlib, comparison_figure, save_figure

        try:
            figure = comparison_figure(self._report.rows, title=f"searchkit compare {self.game}")
        except MissingMatplotlib:
            raise MissingMatplotlib(f"Comparison.plot() needs matplotlib: {PLOTS_HINT}") from None
        if path is not None:
            save_figure(figure, os.fspath(path))
        return figure

    def _repr_html_(self) -> str:
        """Jupyter: the rows and the totals as two tables."""
        from html import escape

        def cell(value, digits=4):
            if value is None:
                return "-"
            return f"{value:.{digits}f}" if isinstance(value, float) else escape(str(value))

        names = ["source", "case", "strategy", "status", "cost", "lower_bound", "expanded", "generated", "seconds",
                 "ebf"]
        out = [f"<p><b>searchkit compare {escape(self.game)}</b>: {len({(r.source, r.case) for r in self.rows})} "
               f"cases, strategies {escape(', '.join(self.strategies))}"
               + (f"; <b>costs disagree on {len(self.disagreements)} case(s)</b>" if self.disagreements else "")
               + ("; <b>cancelled</b>" if self.cancelled else "") + "</p>"]
        out.append("<table><thead><tr>" + "".join(f"<th>{n}</th>" for n in names) + "</tr></thead><tbody>")
        for r in self.rows:
            values = [os.path.basename(r.source), r.case, r.strategy, r.status, r.cost, r.lower_bound, r.expanded,
                      r.generated, r.seconds, r.ebf]
            out.append("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in values) + "</tr>")
        out.append("</tbody></table>")
        heads = ["strategy", "solved", "feasible", "cases", "cost", "gap_to_best", "proven_gap", "expanded",
                 "generated", "seconds", "ebf"]
        out.append("<table><thead><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr></thead><tbody>")
        for name, t in self.totals().items():
            out.append(f"<tr><td>{escape(name)}</td>" + "".join(f"<td>{cell(t[h])}</td>" for h in heads[1:])
                       + "</tr>")
        out.append("</tbody></table>")
        return "\n".join(out)

    def __repr__(self) -> str:
        parts = []
        for name, t in self.totals().items():
            parts.append(f"{name}: {t['solved']}/{t['cases']} solved, cost {t['cost']}, expanded {t['expanded']}, "
                         f"{t['seconds']:.3f} s")
        return f"<Comparison {self.game}: " + "; ".join(parts) + ">"


def compare(game: str, source: Any, heuristics: str | Sequence[str] = "all", algorithms: str | Sequence[str] = (),
            *, jobs: int = 1, no_prune: Iterable[str] = (), time_limit: float | None = None,
            max_nodes: int | None = None, engine: str | None = None, threads: int | str = 1,
            **game_options: Any) -> Comparison:
    """Solve every case of ``source`` with every heuristic (and every algorithm), as ``searchkit compare``.

    Args:
        game: the game's name.
        source: as :func:`solve_all`.
        heuristics: a heuristic's name, several, or ``"all"`` (every registered one).
        algorithms: an algorithm (with its options, ``"wastar(weight=2)"``)
            or several: every algorithm with every heuristic; default: the
            game's plan for each case.
        jobs: worker processes (1: this process).
        no_prune: as :func:`solve`.
        time_limit: as :func:`solve`.
        max_nodes: as :func:`solve`.
        engine: as :func:`solve`.
        threads: the threads each search may use, as :func:`solve_all` (``"auto"``: the CPUs this process may
            use divided by ``jobs``).
        **game_options: as :func:`solve`.

    Returns:
        The :class:`Comparison` (a case that cannot be read is a row with
        status ``input_error``; one whose search raised, ``error``).

    Raises:
        searchkit.errors.UnknownNameError: as :func:`solve`.
        searchkit.errors.PlanError: as :func:`solve`.
        TypeError: as :func:`solve`.
        ValueError: as :func:`solve` (``threads`` too).
        searchkit.errors.SearchkitError: a case the Solver refuses.
    """
    from searchkit.errors import UnknownNameError
    from searchkit.tools.compare import compare as run_compare

    reg = registry()
    names = [heuristics] if isinstance(heuristics, str) else list(heuristics)
    algs = [algorithms] if isinstance(algorithms, str) else list(algorithms)
    for what, given in (("heuristics", names), ("algorithms", algs)):
        for value in given:  # None would silently run the default
            if not isinstance(value, str):
                raise TypeError(f"{what} must be names (str), got {value!r}")
    if "all" in names:
        names = [h.name for h in reg.heuristics_for(game)]
    if not names:
        raise UnknownNameError(f"no heuristic to compare for {game}")
    strategies = [(a, h) for a in (algs or [None]) for h in names]
    checked = _threads(threads)  # at the call, before anything runs
    solvers = [_solver(game, algorithm=a, heuristic=h, no_prune=no_prune, time_limit=time_limit,
                       max_nodes=max_nodes, upper_bound=None, engine=engine, options=game_options, threads=checked)
               for a, h in strategies]
    columns = [h if len(algs) < 2 else f"{a}/{h}" for a, h in strategies]
    items: Iterable = _items(solvers[0].game, source, solvers[0].options, solvers[0].config.limits)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a number of worker processes >= 1, got {jobs!r}")
    if threads == "auto":
        solvers = [_with_threads(s, _threads(threads, jobs)) for s in solvers]
    solved = None
    if jobs > 1:
        from searchkit.machinery.batch.runner import solve_in_workers

        solved, items = solve_in_workers(solvers, items, jobs)
    report = run_compare(solvers, items, columns, outcomes=solved)
    return Comparison(game, tuple(report.heuristics), tuple(report.rows), tuple(report.disagreements),
                      report.cancelled, report)


# -- instances ------------------------------------------------------------------------

def report(records: str | os.PathLike | Sequence[str | os.PathLike]):
    """``searchkit report``: the tables and plots of an experiment over JSON Lines record files.

    Args:
        records: one record file (``searchkit solve --output FILE``, ``solve_all(...)`` records) or several;
            each file, or each configuration inside one, is one column.

    Returns:
        A :class:`searchkit.tools.report.Report`: ``.coverage()``, ``.per_instance()``,
        ``.geometric_means()``, ``.quality()``, ``.contradictions()``, ``.errors()`` (each a table of plain
        values), ``.figures()``, ``.to_pandas()``; in Jupyter it draws itself (tables and plots).

    Raises:
        searchkit.tools.report.ReportError: a file cannot be read, holds no record, or the files are of
            different games (one line naming the file).
    """
    from searchkit.tools.report import load_report

    if isinstance(records, (str, os.PathLike)):
        records = [records]
    elif isinstance(records, (bytes, dict, set)) or not isinstance(records, Sequence):
        raise TypeError(f"records must be a path or a list of paths, not {type(records).__name__}")
    return load_report(list(records))
