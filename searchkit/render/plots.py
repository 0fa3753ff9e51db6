"""Plots of a ``compare`` run (matplotlib, the ``plots`` extra; imported only by ``compare --plot``).

One figure, written as SVG or PNG by the file's suffix:

* nodes expanded per case by each heuristic (strategy), on a log scale;
* the cactus plot: for each strategy, how many cases it solved within t
  seconds (t on a log scale; a curve further up and left is better);
* cost against time, when the rows carry anytime data (a ``trace`` of
  ``(seconds, cost)`` improvements per row); otherwise that panel is left out.

Colours are the Okabe-Ito palette of the pictures.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from searchkit.render.palette import colours

PLOT_SUFFIXES = (".svg", ".png")
PLOTS_HINT = "pip install 'searchkit-puzzles[plots]'"


class MissingMatplotlib(ImportError):
    """matplotlib is not installed."""


def _strategy(row, several_algorithms: bool) -> str:
    name = row.heuristic or "-"
    return f"{name} ({row.algorithm})" if several_algorithms and row.algorithm else name


def plot_comparison(rows: Sequence, path: str, *, title: str = "") -> None:
    """Write the comparison figure of ``rows`` (:class:`searchkit.tools.compare.Row` values) to ``path``.

    Args:
        rows: the comparison's rows (input-error rows are ignored).
        path: ``*.svg`` or ``*.png``.
        title: the figure's title.

    Raises:
        MissingMatplotlib: without matplotlib.
        ValueError: a suffix other than ``.svg`` or ``.png``, or no rows to plot.
        OSError: the file cannot be written.
    """
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in PLOT_SUFFIXES:
        raise ValueError(f"cannot tell the plot format of {path!r}: use a name ending in .svg or .png")
    save_figure(comparison_figure(rows, title=title), path)


def save_figure(fig, path: str) -> None:
    """Write a figure of :func:`comparison_figure` as SVG (without a date, so the file is reproducible) or PNG.

    Raises:
        ValueError: a suffix other than ``.svg`` or ``.png``.
        OSError: the file cannot be written.
    """
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in PLOT_SUFFIXES:
        raise ValueError(f"cannot tell the plot format of {path!r}: use a name ending in .svg or .png")
    metadata = {"Date": None} if suffix == ".svg" else {}
    fig.savefig(path, format=suffix[1:], dpi=110, metadata=metadata)


_FIGURE_CLASS: list = []


def _figure_class():
    """A matplotlib ``Figure`` that draws itself in Jupyter without pyplot (``_repr_svg_``, ``_repr_png_``)."""
    if not _FIGURE_CLASS:
        from matplotlib.figure import Figure

        class ComparisonFigure(Figure):
            """The figure of a comparison; in Jupyter it shows itself as SVG (PNG for other front ends)."""

            def _repr_svg_(self) -> str:
                import io

                buf = io.StringIO()
                self.savefig(buf, format="svg", metadata={"Date": None})
                return buf.getvalue()

            def _repr_png_(self) -> bytes:
                import io

                buf = io.BytesIO()
                self.savefig(buf, format="png", dpi=110)
                return buf.getvalue()

        _FIGURE_CLASS.append(ComparisonFigure)
    return _FIGURE_CLASS[0]


def comparison_figure(rows: Sequence, *, title: str = ""):
    """The comparison figure of ``rows`` (see the module) as a matplotlib ``Figure``.

    Raises:
        MissingMatplotlib: without matplotlib.
        ValueError: no rows to plot.
    """
    rows = [r for r in rows if r.status != "input_error"]
    if not rows:
        raise ValueError("no rows to plot")
    try:
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise MissingMatplotlib("matplotlib is not installed") from None

    several = len({r.algorithm for r in rows if r.algorithm}) > 1
    strategies = list(dict.fromkeys(_strategy(r, several) for r in rows))
    cases = list(dict.fromkeys((r.source, r.case) for r in rows))
    case_pos = {key: i + 1 for i, key in enumerate(cases)}
    palette = dict(zip(strategies, colours(len(strategies))))
    traces = [r for r in rows if getattr(r, "trace", None)]
    panels = 3 if traces else 2
    fig = _figure_class()(figsize=(5.2 * panels, 4.2), layout="constrained")
    axes = fig.subplots(1, panels)
    markers = "osD^v<>ph*"

    ax = axes[0]
    for k, name in enumerate(strategies):
        mine = [r for r in rows if _strategy(r, several) == name]
        xs = [case_pos[(r.source, r.case)] for r in mine]
        ys = [max(r.expanded, 1) for r in mine]
        ax.plot(xs, ys, marker=markers[k % len(markers)], linestyle="-", linewidth=1, markersize=4,
                color=palette[name], label=name)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("case")
    ax.set_ylabel("nodes expanded (log scale)")
    ax.set_title("nodes expanded per case")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")

    ax = axes[1]
    for k, name in enumerate(strategies):
        times = sorted(max(r.seconds, 1e-6) for r in rows if _strategy(r, several) == name and r.status == "solved")
        if not times:
            continue
        xs = [times[0]] + times
        ys = [0] + list(range(1, len(times) + 1))
        ax.step(xs, ys, where="post", color=palette[name], label=name, linewidth=1.5)
    ax.set_xscale("log")
    ax.set_xlabel("time t per case (seconds, log scale)")
    ax.set_ylabel("cases solved within t")
    ax.set_ylim(0, len(cases) + 0.5)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"cases solved within t ({len(cases)} cases)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")

    if traces:
        ax = axes[2]
        for row in traces:
            name = _strategy(row, several)
            pts = sorted(row.trace)
            ax.step([t for t, _ in pts], [c for _, c in pts], where="post", color=palette[name], alpha=0.7,
                    linewidth=1)
        ax.set_xscale("log")
        ax.set_xlabel("seconds (log scale)")
        ax.set_ylabel("best cost found")
        ax.set_title("cost against time (anytime)")
        ax.grid(True, alpha=0.3)
    if title:
        fig.suptitle(title)
    return fig
