"""``searchkit report RECORDS...``: the tables and plots of an experiment, from JSON Lines record files."""

from __future__ import annotations

import click

from searchkit.cli.common import (EXIT_INPUT, EXIT_LIMIT, EXIT_OK, OnceCommand, check_writable, fail, refuse_input,
                                  warning)

FORMATS = ("text", "markdown", "csv", "json", "html")
_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".csv": "csv", ".json": "json", ".html": "html",
             ".htm": "html", ".txt": "text"}


def _format_of(fmt: str | None, output: str | None) -> str:
    """The format: ``--format``, else the suffix of ``-o``, else text; a suffix that disagrees is refused."""
    import os

    if output and output.lower().endswith(".gz"):  # a report is plain text; and .jsonl.gz names a record file
        fail(f"-o {output} names a gzip-compressed file: a report is written uncompressed; name another -o")
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
    """A report never replaces a record file, compressed or not: its first line that is not blank is a searchkit
    record, or it is gzip-compressed (as record files are kept: a report is never written compressed)."""
    from searchkit.machinery.records import GZIP_MAGIC, is_record_line

    if not _regular(output):  # a pipe or a device is written to, never read (a FIFO would block)
        return
    try:
        with open(output, "rb") as fh:
            if fh.read(2) == GZIP_MAGIC:
                fail(f"{output} is gzip-compressed (record files are kept so): a report does not replace it; name "
                     f"another -o")
            fh.seek(0)
            first = b""
            for _ in range(1000):
                first = fh.readline(1 << 20)
                if not first or first.strip():
                    break
    except OSError:
        return
    if first.strip() and is_record_line(first, first.endswith(b"\n")):
        fail(f"{output} holds searchkit records: a report does not replace them; name another -o")


@click.command(cls=OnceCommand,
               epilog="Exit status: 0 the report was written; 1 it could not be written (a full disk, a closed "
                      "stdout); 2 a record file could not be read (the report of the others is still written) or "
                      "bad usage.")
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=True, allow_dash=False))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (rich tables), markdown, csv (one row per instance and column), json (every table), "
                   "html (a self-contained page with SVG plots).  [default: by -o's suffix, else text]")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=False), default=None,
              help="Write the report to FILE (written whole under a temporary name, then renamed); default, and "
                   "'-', stdout.")
@click.option("--per-instance/--no-per-instance", default=True, show_default=True,
              help="Include the per-instance table (one row per instance and column) in text, markdown, json "
                   "and html; csv is that table, so it refuses --no-per-instance.")
def report(records, fmt, output, per_instance):
    """Tables and plots over record files: coverage, per instance, geometric means, quality, errors.

    Each RECORDS file (from 'searchkit solve --output FILE'), or each configuration inside one (algorithm,
    heuristic, engine, options, upper bound), is one column.  Columns are compared over the same instances,
    matched by the records' data hash and game options (another --shortest or --start asks another question);
    the last record of an instance counts.  Definitions: docs/report.md.
    """
    from searchkit.tools.report import ReportError, load_report

    if output == "-":  # as is common: stdout
        output = None
    fmt = _format_of(fmt, output)
    if fmt == "csv" and not per_instance:
        fail("--no-per-instance with --format csv: csv is the per-instance table; drop one")
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
        text = report_html(result, per_instance=per_instance)
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

