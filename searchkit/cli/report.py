"""``searchkit report RECORDS...``: the tables and plots of an experiment, from JSON Lines record files."""

from __future__ import annotations

import click

from searchkit.cli.common import EXIT_INPUT, EXIT_LIMIT, EXIT_OK, check_writable, fail, refuse_input, warning

FORMATS = ("text", "markdown", "csv", "json", "html")
_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".csv": "csv", ".json": "json", ".html": "html",
             ".htm": "html", ".txt": "text"}


def _format_of(fmt: str | None, output: str | None) -> str:
    """The format: ``--format``, else the suffix of ``-o``, else text; a suffix that disagrees is refused."""
    import os

    by_suffix = _SUFFIXES.get(os.path.splitext(output)[1].lower()) if output else None
    if fmt and by_suffix and fmt != by_suffix:
        fail(f"--format {fmt} but -o {output} names a {by_suffix} file: drop one, or make them agree")
    return fmt or by_suffix or "text"


def _regular(path: str) -> bool | None:
    """Whether ``path`` is a regular file (``None``: it does not exist)."""
    import os
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return None


def _refuse_records(output: str) -> None:
    """A report never replaces a record file: its first line that is not blank is a searchkit record."""
    from searchkit.machinery.records import is_record_line

    if not _regular(output):  # a pipe or a device is written to, never read (a FIFO would block)
        return
    try:
        with open(output, "rb") as fh:
            first = b""
            for _ in range(1000):
                first = fh.readline(1 << 20)
                if not first or first.strip():
                    break
    except OSError:
        return
    if first.strip() and is_record_line(first, first.endswith(b"\n")):
        fail(f"{output} holds searchkit records: a report does not replace them; name another -o")


@click.command(epilog="Exit status: 0 the report was written; 1 it could not be written (a full disk, a closed "
                      "stdout); 2 a record file could not be read (the report of the others is still written) or "
                      "bad usage.")
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (rich tables), markdown, csv (one row per instance and column), json (every table), "
                   "html (a self-contained page with SVG plots).  [default: by -o's suffix, else text]")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=False), default=None,
              help="Write the report to FILE (written whole under a temporary name, then renamed); default "
                   "stdout.")
@click.option("--per-instance/--no-per-instance", default=True, show_default=True,
              help="Include the per-instance table (one row per instance and column) in text and markdown.")
def report(records, fmt, output, per_instance):
    """Tables and plots over record files: coverage, per instance, geometric means, quality, errors.

    Each RECORDS file (from 'searchkit solve --output FILE'), or each configuration inside one (algorithm,
    heuristic, engine, options, upper bound), is one column.  Columns are compared over the same instances,
    matched by the records' data hash; the last record of an instance counts.  Definitions: docs/report.md.
    """
    from searchkit.tools.report import ReportError, load_report

    fmt = _format_of(fmt, output)
    if output is not None:
        check_writable(output)
        refuse_input(output, records)
        _refuse_records(output)
    failed: list[str] = []
    try:
        result = load_report(records, on_error=failed.append)
    except ReportError as exc:
        if not failed:  # "no record file could be read" after each file's own line says nothing more
            failed.append(str(exc))
        result = None
    for message in dict.fromkeys(failed):
        click.echo(f"searchkit: error: {message}", err=True)
    status = EXIT_INPUT if failed else EXIT_OK
    if result is None:
        raise SystemExit(status)
    for line in result.warnings:
        warning(line)
    if fmt == "html":
        from searchkit.render.report import REPORT_HINT, report_html

        try:
            import matplotlib  # noqa: F401
        except ImportError:
            warning(f"the page has no plots: matplotlib is not installed ({REPORT_HINT})")
        text = report_html(result)
    else:
        from searchkit.formats.report import WRITERS

        text = WRITERS[fmt](result, per_instance=per_instance)
    try:
        if output is None:
            click.echo(text, nl=False)
        else:  # an exclusive temporary name renamed into place; a pipe or device written to as it is
            from searchkit.machinery.atomic import write_file

            write_file(output, text)
    except OSError as exc:
        click.echo(f"searchkit: error: cannot write the report to {output or 'stdout'}: {exc.strerror or exc}",
                   err=True)
        raise SystemExit(EXIT_LIMIT) from None
    if output is not None:
        columns, instances = len(result.labels), len(result.instances)
        click.echo(f"searchkit: report of {columns} column{'s' if columns != 1 else ''}, {instances} "
                   f"instance{'s' if instances != 1 else ''} in {output}", err=True)
    raise SystemExit(status)

