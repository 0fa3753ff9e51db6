"""SVG pictures of solutions: plain text, no dependency.

:func:`render_svg` draws every step as a grid of frames with move labels and
a legend; :func:`frame_svg` draws one step alone (the HTML page inlines one
per step).  Every cell is a ``<rect class="cell">`` with ``data-row``,
``data-col`` and ``fill`` (its value's colour), inside a ``<g class="frame"
data-step="i">`` per frame, so the pictures can be checked with an XML parser.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from searchkit.limits import setup_check
from searchkit.render import palette as pal
from searchkit.render.grid import Step
from searchkit.render.layout import (AXIS_FONT, FONT, LINE, SWATCH, Layout, layout, mark_segments, mark_width,
                                     single_layout)

SVG_NS = "http://www.w3.org/2000/svg"


def _num(v: float) -> str:
    return f"{v:g}"


def frame_elements(lay: Layout, i: int, step: Step, *, labels: bool = False, number: int | None = None) -> list[str]:
    """The SVG elements of frame ``i`` of ``lay`` (a ``<g class="frame">`` group) as lines of text.

    Args:
        lay: the picture's layout.
        i: the frame's position in ``lay``.
        step: what to draw.
        labels: write each cell's value in it (also when the frame asks for it).
        number: the step's number for ``data-step`` (default ``i``).
    """
    frame = step.frame
    show = labels or frame.labels
    out = [f'<g class="frame" data-step="{i if number is None else number}" data-move="{step.index}" '
           f'data-settled="{"1" if step.settled else "0"}" stroke="{pal.GRID}" stroke-width="1">']
    for r, c, value in frame.cells():
        x, y, w, h = lay.cell_box(i, r, c)
        colour = lay.colours[value]
        out.append(f'<rect class="cell" x="{x}" y="{y}" width="{w}" height="{h}" fill="{colour}" '
                   f'data-row="{r}" data-col="{c}"/>')
        if show and value is not None:
            size = max(8, min(FONT + 3, int(lay.cell * 0.5)))
            out.append(f'<text class="cell-label" x="{x + w / 2:g}" y="{y + h / 2:g}" font-size="{size}" '
                       f'text-anchor="middle" dominant-baseline="central" stroke="none" fill="{pal.ink_on(colour)}">'
                       f'{escape(str(value))}</text>')
    if frame.marks:
        width = mark_width(lay.cell)
        inset = width / 2 + 1
        segs = mark_segments(frame, lambda r, c: lay.cell_box(i, r, c), inset)
        path = " ".join(f"M{_num(a)} {_num(b)}L{_num(c)} {_num(d)}" for a, b, c, d in segs)
        out.append(f'<g class="marks" data-mark={quoteattr(frame.mark)}>'
                   f'<path d="{path}" stroke="#FFFFFF" stroke-width="{width + 2}" fill="none" stroke-linecap="square"/>'
                   f'<path d="{path}" stroke="#000000" stroke-width="{width}" fill="none" stroke-linecap="square"/>'
                   f'</g>')
    for x, y, text, anchor in lay.axis_items(i, frame):
        baseline = ' dominant-baseline="central"' if anchor == "end" else ""
        out.append(f'<text class="axis-label" x="{x:g}" y="{y:g}" font-size="{AXIS_FONT}" text-anchor="{anchor}"'
                   f'{baseline} stroke="none" fill="{pal.INK}">{escape(text)}</text>')
    lx, ly = lay.label_xy(i)
    lines = lay.label_lines(step)
    if len(lines) == 1:
        out.append(f'<text class="frame-label" x="{lx}" y="{ly}" font-size="{FONT}" stroke="none" fill="{pal.INK}">'
                   f'{escape(step.label)}</text>')
    else:  # wrapped: one <tspan> a line, the whole label still the element's text
        spans = "".join(f'<tspan x="{lx}" y="{ly + k * LINE}">{escape(line if k == 0 else " " + line)}</tspan>'
                        for k, line in enumerate(lines))
        out.append(f'<text class="frame-label" x="{lx}" y="{ly}" font-size="{FONT}" stroke="none" '
                   f'fill="{pal.INK}">{spans}</text>')
    out.append("</g>")
    return out


def legend_elements(lay: Layout) -> list[str]:
    """The legend: a swatch per value with the value beside it, and what the outline means."""
    if not lay.legend and not lay.mark:
        return []
    out = ['<g class="legend">']
    for x, y, value, colour in lay.legend_items():
        out.append(f'<rect class="swatch" x="{x}" y="{y}" width="{SWATCH}" height="{SWATCH}" fill="{colour}" '
                   f'stroke="#888888" stroke-width="1" data-value={quoteattr(str(value))}/>')
        out.append(f'<text x="{x + SWATCH + 5}" y="{y + SWATCH - 3}" font-size="{FONT}" fill="{pal.INK}">'
                   f'{escape(str(value))}</text>')
    if lay.mark:
        y = lay.mark_line_y()
        x = lay.legend_x
        out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{SWATCH - 4}" height="{SWATCH - 4}" fill="none" '
                   f'stroke="#000000" stroke-width="2"/>')
        out.append(f'<text x="{x + SWATCH + 5}" y="{y + SWATCH - 3}" font-size="{FONT}" fill="{pal.INK}">'
                   f'outlined: {escape(lay.mark)}</text>')
    out.append("</g>")
    return out


def _document(lay: Layout, body: list[str], title: str) -> str:
    head = (f'<svg xmlns="{SVG_NS}" width="{lay.width}" height="{lay.height}" '
            f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Verdana, sans-serif">')
    lines = [head]
    if title:
        lines.append(f"<title>{escape(title)}</title>")
    lines.append(f'<rect class="background" x="0" y="0" width="{lay.width}" height="{lay.height}" '
                 f'fill="{pal.BACKGROUND}"/>')
    lines += body
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def render_svg(steps: Sequence[Step], *, labels: bool = False, columns: int | None = None, title: str = "",
               palette: pal.Palette | None = None) -> str:
    """Every step as one SVG picture: a grid of frames with labels, and a legend.

    Args:
        steps: the pictures in order (at least one).
        labels: write the value in every cell.
        columns: frames per row (default: as many as fit 1400 pixels).
        title: the document's ``<title>``.
        palette: the colours (:func:`searchkit.render.palette.load_palette`; default: Okabe-Ito).

    Raises:
        ValueError: no steps.
    """
    lay = layout(steps, columns=columns, palette=palette)
    body: list[str] = []
    for i, step in enumerate(steps):
        setup_check()  # a time limit (show --time-limit) holds while drawing too
        body += frame_elements(lay, i, step, labels=labels)
    body += legend_elements(lay)
    return _document(lay, body, title)


def frame_svg(step: Step, all_steps: Sequence[Step], *, labels: bool = False, number: int = 0,
              palette: pal.Palette | None = None, lay: Layout | None = None) -> str:
    """One step as its own SVG document, for the HTML page.

    ``lay``: :func:`~searchkit.render.layout.single_layout` of ``all_steps``
    (computed when not given: the legend of the whole solution under the
    board), or its :func:`~searchkit.render.layout.board_only` cut (no legend).
    """
    lay = lay or single_layout(all_steps, palette)
    body = frame_elements(lay, 0, step, labels=labels, number=number) + legend_elements(lay)
    return _document(lay, body, "")


def legend_svg(lay: Layout) -> str:
    """The legend alone as an SVG document (lay: :func:`~searchkit.render.layout.legend_only`)."""
    return _document(lay, legend_elements(lay), "")
