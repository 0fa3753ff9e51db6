"""``report``'s pictures and its HTML page: scatter, cactus and expanded-per-case plots, and one self-contained page.

The plots (matplotlib, the ``report`` or ``plots`` extra):

* **scatter**, one per column after the first: the first column (x) against
  it (y), per instance, log-log, for nodes expanded and for seconds.  An
  instance a column did not solve sits on the border line past the largest
  value (labelled ``unsolved``); the diagonal is drawn; a point below it is
  an instance where the y column needed less.
* **cactus**: for each column, how many instances it solved within t seconds.
* **time distribution**: a histogram of the solved instances' seconds, per
  column, on logarithmic bins;
* **expanded per instance**: nodes expanded by each column, instance by
  instance in the report's order (log scale).

The page needs nothing from the network (a Content-Security-Policy forbids
every load, as ``show``'s pages do): its tables are HTML, its plots inline SVG.
Above 4,000 points a scatter's markers are drawn as one embedded bitmap
(matplotlib's ``rasterized``), so a page of 25,000 instances stays a few MB.
"""

from __future__ import annotations

import io
from html import escape

from searchkit.render.palette import colours
from searchkit.render.plots import PLOTS_HINT, MissingMatplotlib, _figure_class, draw_cactus, draw_expanded

REPORT_HINT = "pip install 'searchkit-puzzles[report]'"
#: Above this many points, a scatter's markers become one embedded bitmap.
RASTER_POINTS = 4000

#: The page's style: (selectors, declarations).  The page uses them as they are; a notebook fragment prefixes
#: every selector with ``.searchkit-report`` (and drops ``body``), so it restyles nothing around it.
_RULES = (
    ("body", "font-family: DejaVu Sans, Verdana, sans-serif; margin: 1.5em; color: #222; background: #fff;"),
    ("h1", "font-size: 1.3em; font-weight: normal;"),
    ("h2", "font-size: 1.1em; margin-top: 1.6em;"),
    ("table.sk", "border-collapse: collapse; margin: .4em 0; font-size: .85em;"),
    ("table.sk th, table.sk td", "border: 1px solid #ccc; padding: .15em .5em;"),
    ("table.sk th", "background: #f2f2f2; text-align: left; position: sticky; top: 0;"),
    ("table.sk td.n", "text-align: right; font-variant-numeric: tabular-nums;"),
    ("p.note", "color: #555; font-size: .85em; max-width: 60em;"),
    ("div.plots", "display: flex; flex-wrap: wrap; gap: 1em;"),
    ("div.plots figure", "margin: 0;"),
    ("div.plots svg", "max-width: 100%; height: auto;"),
    ("details summary", "cursor: pointer;"),
)


def _css(scope: str = "") -> str:
    lines = []
    for selectors, body in _RULES:
        if scope:
            if selectors == "body":
                continue
            selectors = ", ".join(f"{scope} {sel.strip()}" for sel in selectors.split(","))
        lines.append(f"{selectors} {{ {body} }}")
    return "\n".join(lines)


def _plain(text: str) -> str:
    """``text`` as matplotlib shows it literally: a ``$`` would start its mathematical notation."""
    return str(text).replace("$", r"\$")


def _axes_figure(width: float = 5.2, height: float = 4.4):
    try:
        figure = _figure_class()(figsize=(width, height), layout="constrained")
    except ImportError:
        raise MissingMatplotlib("matplotlib is not installed") from None
    return figure, figure.subplots(1, 1)


def scatter_figure(report, x_label: str, y_label: str, attribute: str = "expanded"):
    """The scatter of column ``x_label`` against ``y_label`` for ``attribute`` (``expanded`` or ``seconds``).

    Raises:
        MissingMatplotlib: without matplotlib.
    """
    figure, ax = _axes_figure()
    xs_entries, ys_entries = report.entries[x_label], report.entries[y_label]
    floor = 1.0 if attribute != "seconds" else 0.001
    points = []
    for key in report.instances:
        a, b = xs_entries.get(key), ys_entries.get(key)
        if a is None or b is None or (a.status != "solved" and b.status != "solved"):
            continue
        va = max(getattr(a, attribute) or floor, floor) if a.status == "solved" else None
        vb = max(getattr(b, attribute) or floor, floor) if b.status == "solved" else None
        points.append((va, vb))
    values = [v for p in points for v in p if v is not None]
    top = max(values) if values else 10.0
    border = top * 4
    xs = [border if a is None else a for a, _ in points]
    ys = [border if b is None else b for _, b in points]
    raster = len(points) > RASTER_POINTS
    colour = colours(1)[0]
    ax.scatter(xs, ys, s=9 if len(points) > 500 else 20, alpha=0.6, color=colour, edgecolors="none",
               rasterized=raster)
    low = min([floor] + values)
    ax.plot([low, border], [low, border], color="#888", linewidth=0.8, linestyle="--")
    ax.axvline(border, color="#c33", linewidth=0.6)
    ax.axhline(border, color="#c33", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low / 1.5, border * 1.5)
    ax.set_ylim(low / 1.5, border * 1.5)
    ax.text(border, low, " unsolved", rotation=90, va="bottom", ha="right", fontsize="small", color="#c33")
    ax.text(low, border, "unsolved", va="bottom", ha="left", fontsize="small", color="#c33")
    what = "nodes expanded" if attribute == "expanded" else attribute
    ax.set_xlabel(_plain(f"{x_label}: {what} (log)"))
    ax.set_ylabel(_plain(f"{y_label}: {what} (log)"))
    ax.set_title(f"{what} per instance ({len(points)} instances)", fontsize="medium")
    ax.grid(True, alpha=0.3)
    return figure


def cactus_figure(report):
    """Instances solved within t seconds, one step line per column (t on a log scale): ``compare --plot``'s
    drawing (:func:`searchkit.render.plots.draw_cactus`)."""
    figure, ax = _axes_figure()
    palette = dict(zip(map(_plain, report.labels), colours(len(report.labels))))
    draw_cactus(ax, {_plain(label): [e.seconds for e in report.entries[label].values() if e.status == "solved"]
                     for label in report.labels}, palette, len(report.instances), noun="instances")
    return figure


def expanded_figure(report):
    """Nodes expanded per instance, in the report's instance order, one line per column (log scale):
    ``compare --plot``'s drawing (:func:`searchkit.render.plots.draw_expanded`)."""
    figure, ax = _axes_figure(width=7.0)
    palette = dict(zip(map(_plain, report.labels), colours(len(report.labels))))
    position = {key: i + 1 for i, key in enumerate(report.instances)}
    many = len(report.instances) > RASTER_POINTS
    draw_expanded(ax, {_plain(label): [(position[k], e.expanded) for k, e in report.entries[label].items()
                               if e.status in ("solved", "feasible", "exhausted")] for label in report.labels},
                  palette, markers=not many, rasterized=many)
    ax.set_xlabel("instance")
    ax.set_title("nodes expanded per instance")
    return figure


def time_distribution_figure(report):
    """How the solved instances' seconds are spread: a histogram per column on logarithmic bins (a long tail of
    hard boards shows as the bars far right)."""
    import math

    figure, ax = _axes_figure()
    palette = dict(zip(report.labels, colours(len(report.labels))))
    series = {label: [max(e.seconds or 0.0, 1e-4) for e in report.entries[label].values() if e.status == "solved"]
              for label in report.labels}
    values = [t for ts in series.values() for t in ts]
    if values:
        low, high = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
        high = max(high, low + 1)
        edges = [10 ** (low + k / 4) for k in range(4 * (high - low) + 1)]
        for label, ts in series.items():
            if ts:
                ax.hist(ts, bins=edges, histtype="step", linewidth=1.5, color=palette[label], label=_plain(label))
        ax.set_xscale("log")
        ax.legend(fontsize="small")
    ax.set_xlabel("seconds per solved instance (log scale)")
    ax.set_ylabel("instances")
    ax.set_title("time distribution", fontsize="medium")
    ax.grid(True, alpha=0.3)
    return figure


def report_figures(report) -> list[tuple[str, object]]:
    """``(title, Figure)`` for every plot of the report: the scatters, the cactus plot and expanded per instance.

    Raises:
        MissingMatplotlib: without matplotlib.
    """
    out = []
    labels = report.labels
    for other in labels[1:]:
        for attribute in ("expanded", "seconds"):
            out.append((f"{labels[0]} against {other}: {attribute}",
                        scatter_figure(report, labels[0], other, attribute)))
    out.append(("cactus plot", cactus_figure(report)))
    out.append(("time distribution", time_distribution_figure(report)))
    out.append(("nodes expanded per instance", expanded_figure(report)))
    return out


def svg_text(figure) -> str:
    """A figure as SVG text without the XML prolog or a date (reproducible, inlinable).

    A label in a script the fonts lack (CJK file names) is drawn with a missing glyph, without matplotlib's
    several-line warning per character on stderr.
    """
    import warnings

    buf = io.StringIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from")
        figure.savefig(buf, format="svg", metadata={"Date": None}, dpi=100)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _table_html(table) -> str:
    from searchkit.formats.report import cell

    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    rows = []
    for row in table.rows:
        rows.append("<tr>" + "".join(
            f'<td class="n">{escape(cell(v))}</td>' if isinstance(v, (int, float)) and not isinstance(v, bool)
            else f"<td>{escape(cell(v))}</td>" for v in row) + "</tr>")
    body = "\n".join(rows) if rows else f'<tr><td colspan="{len(table.columns)}">none</td></tr>'
    return (f'<table class="sk" id="table-{escape(table.name)}"><thead><tr>{head}</tr></thead>'
            f"<tbody>\n{body}\n</tbody></table>")


def _wide_html(report) -> str:
    """The per-instance table, one row per instance and four cells per column (built as one string: a report
    may hold 25,000 instances)."""
    from searchkit.formats.report import cell

    labels = report.labels
    head = ("<tr><th rowspan=\"2\">input</th><th rowspan=\"2\">case</th>"
            + "".join(f'<th colspan="4">{escape(lb)}</th>' for lb in labels) + "</tr><tr>"
            + "<th>status</th><th>cost</th><th>expanded</th><th>seconds</th>" * len(labels) + "</tr>")
    rows = []
    for key in report.instances:
        cells = []
        where = None
        for label in labels:
            e = report.entries[label].get(key)
            if e is None:
                cells.append('<td colspan="4">-</td>')
                continue
            where = where or e
            cells.append(f'<td>{escape(e.status)}</td><td class="n">{cell(e.cost)}</td>'
                         f'<td class="n">{e.expanded}</td><td class="n">{cell(e.seconds)}</td>')
        rows.append(f"<tr><td>{escape(str(where.source))}</td><td class=\"n\">{cell(where.case)}</td>"
                    + "".join(cells) + "</tr>")
    return f'<table class="sk" id="table-per_instance"><thead>{head}</thead><tbody>\n' + "\n".join(rows) \
        + "\n</tbody></table>"


def report_html(report, *, standalone: bool = True, plots: bool = True, per_instance: bool = True) -> str:
    """The report as HTML: a whole self-contained page, or (``standalone`` false) a fragment for Jupyter;
    ``per_instance`` false leaves out the per-instance table.

    Without matplotlib the page holds the tables and one line saying what to install.
    """
    parts = []
    title = f"searchkit report: {escape(str(report.game))}, {len(report.labels)} columns, " \
            f"{len(report.instances)} instances"
    parts.append(f"<h1>{title}</h1>")
    if report.warnings:
        parts.append('<ul class="warnings">' + "".join(f"<li>warning: {escape(w)}</li>" for w in report.warnings)
                     + "</ul>")
    tables = report.tables(per_instance=False)
    for table in tables:
        parts.append(f"<h2>{escape(table.title)}</h2>")
        if table.note:
            parts.append(f'<p class="note">{escape(table.note[0].upper() + table.note[1:])}.</p>')
        parts.append(_table_html(table))
    if plots:
        parts.append("<h2>Plots</h2>")
        try:
            figures = report_figures(report)
        except MissingMatplotlib:
            parts.append(f'<p class="note" id="no-plots">No plots: matplotlib is not installed ({escape(REPORT_HINT)}'
                         f", or {escape(PLOTS_HINT)}).</p>")
        else:
            parts.append('<div class="plots">')
            for name, figure in figures:
                parts.append(f'<figure class="plot" data-plot="{escape(name)}">{svg_text(figure)}'
                             f"<figcaption>{escape(name)}</figcaption></figure>")
            parts.append("</div>")
    if per_instance:
        parts.append("<h2>Per instance</h2>")
        parts.append('<p class="note">One row per instance: each column\'s status, cost, nodes expanded and '
                     "seconds (every field of every record: --format csv).</p>")
        parts.append(f"<details><summary>{len(report.instances)} instances</summary>{_wide_html(report)}</details>")
    body = "\n".join(parts)
    if not standalone:  # in a notebook: the style reaches this report only, not the notebook around it
        return f"<div class=\"searchkit-report\"><style>{_css('.searchkit-report')}</style>\n{body}\n</div>"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "img-src data:\">\n"
            f"<title>{title}</title>\n<style>{_css()}</style></head>\n<body>\n{body}\n</body></html>\n")
