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


def draw_expanded(ax, series: dict, palette: dict, *, markers: bool = True, rasterized: bool = False) -> None:
    """Nodes expanded per case: one line per strategy, y on a log scale (``compare --plot``, ``report``).

    Args:
        series: ``{label: [(case position, expanded), ...]}``.
        palette: ``{label: colour}``.
        markers: mark each case (few cases); ``rasterized``: draw the lines as one bitmap (many cases).
    """
    from matplotlib.ticker import MaxNLocator

    shapes = "osD^v<>ph*"
    for k, (name, points) in enumerate(series.items()):
        points = sorted(points)
        ax.plot([x for x, _ in points], [max(y, 1) for _, y in points], marker=shapes[k % len(shapes)] if markers
                else None, linestyle="-", linewidth=1 if markers else 0.8, markersize=4, color=palette[name],
                label=name, rasterized=rasterized)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("case")
    ax.set_ylabel("nodes expanded (log scale)")
    ax.set_title("nodes expanded per case")
    ax.grid(True, which="major", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")


def draw_cactus(ax, series: dict, palette: dict, total: int, *, noun: str = "cases") -> None:
    """The cactus plot: per strategy, how many cases it solved within t seconds (``compare --plot``, ``report``).

    Args:
        series: ``{label: [seconds of each solved case, ...]}``.
        palette: ``{label: colour}``.
        total: how many cases there are (the y axis ends there).
    """
    from matplotlib.ticker import MaxNLocator

    for name, seconds in series.items():
        times = sorted(max(t or 0.0, 1e-6) for t in seconds)
        if not times:
            continue
        ax.step([times[0]] + times, [0] + list(range(1, len(times) + 1)), where="post", color=palette[name],
                label=name, linewidth=1.5)
    ax.set_xscale("log")
    ax.set_xlabel(f"time t per {noun[:-1]} (seconds, log scale)")
    ax.set_ylabel(f"{noun} solved within t")
    ax.set_ylim(0, total + 0.5)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"{noun} solved within t ({total} {noun})")
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:  # no case solved: no line, and no legend (matplotlib would warn)
        ax.legend(fontsize="small", loc="lower right")


def comparison_figure(rows: Sequence, *, title: str = ""):
    """The comparison figure of ``rows`` (see the module) as a matplotlib ``Figure``.

    Raises:
        MissingMatplotlib: without matplotlib.
        ValueError: no rows to plot.
    """
    from searchkit.result import INPUT_ERROR

    rows = [r for r in rows if r.status != INPUT_ERROR]
    if not rows:
        raise ValueError("no rows to plot")
    try:
        import matplotlib  # noqa: F401
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

    draw_expanded(axes[0], {name: [(case_pos[(r.source, r.case)], r.expanded) for r in rows
                                   if _strategy(r, several) == name] for name in strategies}, palette,
                  markers=True)
    draw_cactus(axes[1], {name: [r.seconds for r in rows if _strategy(r, several) == name and r.status == "solved"]
                          for name in strategies}, palette, len(cases), noun="cases")

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
