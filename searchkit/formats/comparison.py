"""``compare``'s three formats: a rich table (text), one JSON document, CSV rows (see :mod:`searchkit.formats`)."""

from __future__ import annotations

import click


def _fmt(value, digits=3):
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def limit_text(seconds) -> str:
    """``time limit 60 s a case`` (``no time limit`` for ``None``): what the table says of the run's limit."""
    if seconds is None:
        return "no time limit"
    return f"time limit {seconds:g} s a case"


def write_json(report) -> None:
    """The report as one JSON document: heuristics, rows, totals, disagreements and the per-case time limit."""
    import json

    totals = report.totals()
    click.echo(json.dumps({
        "heuristics": list(report.heuristics),
        "rows": [r.to_dict() for r in report.rows],
        "totals": totals,
        "disagreements": [{"source": s, "case": c, "costs": costs} for s, c, costs in report.disagreements],
        "time_limit": report.time_limit,
    }, indent=1))


def write_csv(report) -> None:
    """One CSV row per case and strategy, then a ``TOTAL`` row per strategy."""
    import csv
    import io

    totals = report.totals()
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


def write_text(report) -> None:
    """Two rich tables: every case and strategy with totals, then quality against time."""
    import os

    from rich.console import Console
    from rich.table import Table

    from searchkit.result import FEASIBLE, INPUT_ERROR, SOLVED

    totals = report.totals()

    disagree = {(s, c) for s, c, _ in report.disagreements}
    n_cases = len({r.key() for r in report.rows})
    algorithms = sorted({r.algorithm for r in report.rows if r.algorithm})
    table = Table(title=f"{'/'.join(algorithms) or '-'}: {n_cases} case{'s' if n_cases != 1 else ''}, "
                        f"{limit_text(report.time_limit)}")
    for col, justify in (("case", "left"), ("heuristic", "left"), ("algorithm", "left"), ("cost", "right"),
                         ("bound", "right"), ("expanded", "right"), ("generated", "right"), ("seconds", "right"),
                         ("EBF", "right"), ("engine", "left"), ("agree", "center")):
        table.add_column(col, justify=justify)
    last = None
    for r in report.rows:
        key = (r.source, r.case)
        label = f"{_fmt(r.case)}: {os.path.basename(r.source)}" if key != last else ""
        agree = "[bold red]NO[/]" if key in disagree else "yes"
        cost = _fmt(r.cost) if r.status == SOLVED else f"{r.cost} ({r.status})" if r.status == FEASIBLE \
            else r.status
        table.add_row(label, _fmt(r.heuristic), _fmt(r.algorithm), cost, _fmt(r.lower_bound), str(r.expanded),
                      str(r.generated),
                      f"{r.seconds:.4f}", _fmt(r.ebf), _fmt(r.engine),
                      agree if key != last and r.status != INPUT_ERROR else "")
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
    # The geometric means and the quality table of `searchkit report`, computed by its code from these rows.
    from searchkit.formats.report import rich_table
    from searchkit.tools.report import Report

    experiment = Report.from_rows(report.rows, report.heuristics)
    for summary in (experiment.geometric_means(), experiment.quality()):
        Console(width=max(120, Console().width)).print(rich_table(summary))


