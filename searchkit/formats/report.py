"""``report``'s text formats: rich tables (text), Markdown, CSV and one JSON document.

Each writer takes a :class:`searchkit.tools.report.Report` and returns the text
to write (``searchkit report`` sends it to stdout or ``-o FILE``).  The HTML
page is :func:`searchkit.render.report.report_html`.
"""

from __future__ import annotations

import csv
import io
import json


def cell(value) -> str:
    """A table value as a person reads it: ``-`` for none, floats to a sensible precision."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if abs(value) >= 1000:
            return f"{value:.0f}"
        if abs(value) >= 0.1:  # 0.600 beside 1.000: one format for the usual scores and ratios
            return f"{value:.3f}"
        return f"{value:.4g}"
    return str(value)


def rich_table(table):
    """One :class:`~searchkit.tools.report.Table` as a rich table: every cell a ``Text``, so a label, path or
    message holding ``[b]`` or ``[/red]`` is shown as it is, not as markup (``compare`` prints with it too)."""
    from rich.table import Table as RichTable
    from rich.text import Text

    rich = RichTable(title=Text(table.title), title_justify="left",
                     caption=Text(table.note) if table.note else None, caption_justify="left")
    for k, name in enumerate(table.columns):
        numeric = any(isinstance(row[k], (int, float)) and not isinstance(row[k], bool) for row in table.rows)
        rich.add_column(Text(name), justify="right" if numeric else "left", overflow="fold")
    for row in table.rows:
        rich.add_row(*(Text(cell(v)) for v in row))
    return rich


def write_text(report, *, per_instance: bool = True, width: int | None = None) -> str:
    """Every table as a rich table, warnings first."""
    from rich.console import Console
    from rich.text import Text

    buf = io.StringIO()
    console = Console(file=buf, width=width or 160, color_system=None, highlight=False, markup=False)
    for table in report.tables(per_instance=per_instance):
        if not table.rows and table.name in ("contradictions", "errors"):
            console.print(Text(f"{table.title}: none"))
            console.print()
            continue
        console.print(rich_table(table))
        console.print()
    return buf.getvalue()


def _md(value) -> str:
    if value is None:
        return "-"
    if type(value) is int:  # most cells: nothing to escape
        return str(value)
    return cell(value).replace("|", "\\|").replace("\n", " ")


def write_markdown(report, *, per_instance: bool = True) -> str:
    """Every table as a GitHub-flavoured Markdown table under a ``##`` heading."""
    out = [f"# searchkit report: {report.game}", ""]
    for warning in report.warnings:
        out.append(f"- warning: {_md(warning)}")
    if report.warnings:
        out.append("")
    for table in report.tables(per_instance=per_instance):
        out += [f"## {table.title}", ""]
        if table.note:
            out += [table.note[0].upper() + table.note[1:] + ".", ""]
        if not table.rows:
            out += ["None.", ""]
            continue
        out.append("| " + " | ".join(_md(c) for c in table.columns) + " |")
        out.append("|" + "|".join(" --- " if not any(isinstance(r[k], (int, float)) for r in table.rows)
                                  else " ---: " for k in range(len(table.columns))) + "|")
        for row in table.rows:
            out.append("| " + " | ".join(_md(v) for v in row) + " |")
        out.append("")
    return "\n".join(out)


def write_csv(report, **_) -> str:
    """The per-instance table (one row per instance and column): the data every summary is computed from."""
    table = report.per_instance()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([c.replace(" ", "_") for c in table.columns])
    for row in table.rows:
        writer.writerow(["" if v is None else v for v in row])
    return buf.getvalue()


def write_json(report, *, per_instance: bool = True) -> str:
    """One JSON document: the columns, every table (columns and rows; the per-instance one unless
    ``per_instance`` is false) and the warnings."""
    doc = report.to_dict(per_instance=per_instance)
    try:
        import orjson
    except ImportError:
        return json.dumps(doc, indent=1) + "\n"
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode() + "\n"


#: ``--format`` name -> writer.
WRITERS = {"text": write_text, "markdown": write_markdown, "csv": write_csv, "json": write_json}
