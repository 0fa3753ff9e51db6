"""Where things go in a picture: the geometry shared by the SVG and the Pillow drawers.

All lengths are in pixels (SVG user units).  A picture is a grid of frames
(``columns`` per row), each a board of ``W x H`` square cells with a label
line under it, then a legend: one swatch per value with the value beside it,
and a line saying what the outlined cells are.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import attrs

from searchkit.render import palette as pal
from searchkit.render.grid import Frame, Step, legend_values

FONT = 13  #: label font size
PAD = 12  #: margin around the picture
GAP = 14  #: space between frames
LABEL = 20  #: height of the label line under a frame
SWATCH = 16  #: legend swatch side
LEGEND_ITEM = 18  #: legend gap after the value text (per character about FONT * 0.62)


def cell_size(width: int, height: int, target: int = 240) -> int:
    """The cell side for a ``width x height`` board: about ``target`` pixels a board, 12..40 a cell."""
    return max(12, min(40, target // max(width, height)))


@attrs.frozen
class Layout:
    """The geometry of a picture of ``len(origins)`` frames.

    Attributes:
        cell: cell side.
        cols, rows: board size in cells (the largest over the frames).
        columns: frames per row of the picture.
        origins: top-left corner ``(x, y)`` of each frame's board.
        board_w, board_h: one board's size.
        legend_y: top of the legend.
        width, height: the whole picture.
        colours: value -> ``"#rrggbb"`` (``None`` -> the empty colour).
        legend: the legend values in order.
        mark: what outlined cells mean (``""``: no marks anywhere).
        label_width: the width a frame's label wraps at (:meth:`label_lines`).
        axis_left, axis_bottom: room left of and under each board for axis labels (0: no axis).
        legend_x: left edge of the legend.
    """

    cell: int
    cols: int
    rows: int
    columns: int
    origins: tuple[tuple[int, int], ...]
    board_w: int
    board_h: int
    legend_y: int
    width: int
    height: int
    colours: dict
    legend: tuple[Hashable, ...]
    mark: str
    label_width: int = 0
    axis_left: int = 0
    axis_bottom: int = 0
    legend_x: int = PAD

    def cell_box(self, frame_index: int, r: int, c: int) -> tuple[int, int, int, int]:
        """``(x, y, w, h)`` of cell ``(r, c)`` of a frame."""
        x0, y0 = self.origins[frame_index]
        return x0 + c * self.cell, y0 + r * self.cell, self.cell, self.cell

    def cell_centre(self, frame_index: int, r: int, c: int) -> tuple[int, int]:
        """The pixel at the middle of cell ``(r, c)`` of a frame."""
        x, y, w, h = self.cell_box(frame_index, r, c)
        return x + w // 2, y + h // 2

    def label_xy(self, frame_index: int) -> tuple[int, int]:
        """Baseline-left point of the first line of a frame's label (further lines :data:`LINE` below)."""
        x0, y0 = self.origins[frame_index]
        return x0 - self.axis_left, y0 + self.board_h + self.axis_bottom + FONT + 4

    def label_lines(self, step: Step) -> tuple[str, ...]:
        """``step``'s label broken into lines that fit its frame (:func:`wrap_label`)."""
        return wrap_label(step.label, self.label_width) if self.label_width else (step.label,)

    def axis_items(self, frame_index: int, frame: Frame) -> list[tuple[float, float, str, str]]:
        """``(x, y, text, anchor)`` of each axis label of a frame: ``anchor`` ``"middle"`` (under a
        column, ``y`` its baseline) or ``"end"`` (left of a row, right-aligned, ``y`` its middle)."""
        out = []
        x0, y0 = self.origins[frame_index]
        for c, text in enumerate(frame.x_labels):
            out.append((x0 + c * self.cell + self.cell / 2, y0 + self.board_h + AXIS_FONT + 2, text, "middle"))
        for r, text in enumerate(frame.y_labels):
            out.append((x0 - 4, y0 + r * self.cell + self.cell / 2, text, "end"))
        return out

    def legend_items(self) -> list[tuple[int, int, Hashable, str]]:
        """``(x, y, value, colour)`` of each legend swatch (top-left), wrapping at the picture's width."""
        out = []
        x, y = self.legend_x, self.legend_y
        for value in self.legend:
            w = SWATCH + 6 + text_width(str(value)) + LEGEND_ITEM
            if x + w > self.width - PAD and x > self.legend_x:
                x, y = self.legend_x, y + SWATCH + 8
            out.append((x, y, value, self.colours[value]))
            x += w
        return out

    def mark_line_y(self) -> int:
        """Top of the line explaining the marks (below the swatches)."""
        items = self.legend_items()
        last = items[-1][1] if items else self.legend_y - SWATCH - 8
        return last + SWATCH + 8


#: Distance between the baselines of a wrapped label's lines.
LINE = FONT + 4
#: Axis label font size.
AXIS_FONT = 11
#: The narrowest a frame's slot gets for its label, in characters (a label wraps beyond its slot).
MIN_LABEL_CHARS = 14


def text_width(text: str, size: int = FONT) -> int:
    """An estimate of ``text``'s width at font ``size`` (for layout only)."""
    return int(len(text) * size * 0.62) + 2


def wrap_label(text: str, width: int) -> tuple[str, ...]:
    """``text`` broken at spaces into lines of at most ``width`` pixels (a word longer than that stays whole)."""
    chars = max(1, int((width - 2) / (FONT * 0.62)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines) or ("",)


def layout(steps: Sequence[Step], *, columns: int | None = None, max_width: int = 1400,
           palette: pal.Palette | None = None) -> Layout:
    """Lay out ``steps`` (at least one) as a grid of frames with a legend under it.

    Args:
        steps: the pictures, in order.
        columns: frames per row (default: as many as fit in ``max_width``).
        max_width: the widest picture wanted when ``columns`` is not given.
        palette: the colours (default: :data:`searchkit.render.palette.DEFAULT`).

    A frame's slot is as wide as its board (with its axis labels), and at
    least :data:`MIN_LABEL_CHARS` characters; a longer label wraps at spaces
    onto more lines instead of widening every slot.

    Raises:
        ValueError: for no steps.
    """
    if not steps:
        raise ValueError("nothing to draw: no frames")
    frames: list[Frame] = [s.frame for s in steps]
    cols = max(f.width for f in frames)
    rows = max(f.height for f in frames)
    cell = cell_size(cols, rows)
    board_w, board_h = cols * cell, rows * cell
    ys = [t for f in frames for t in f.y_labels]
    axis_left = max(text_width(t, AXIS_FONT) for t in ys) + 6 if ys else 0
    axis_bottom = AXIS_FONT + 6 if any(f.x_labels for f in frames) else 0
    slot_w = max(axis_left + board_w, text_width("x" * MIN_LABEL_CHARS))
    label_lines = [wrap_label(s.label, slot_w) for s in steps]
    slot_w = max([slot_w] + [text_width(line) for lines in label_lines for line in lines])  # a long word
    label_h = LABEL + LINE * (max(len(lines) for lines in label_lines) - 1)
    frame_h = board_h + axis_bottom + label_h
    if columns is None:
        columns = max(1, min(len(steps), (max_width - 2 * PAD + GAP) // (slot_w + GAP)))
    columns = max(1, min(columns, len(steps)))
    origins = []
    for i in range(len(steps)):
        row, col = divmod(i, columns)
        origins.append((PAD + axis_left + col * (slot_w + GAP), PAD + row * (frame_h + GAP)))
    n_rows = (len(steps) + columns - 1) // columns
    width = 2 * PAD + columns * slot_w + (columns - 1) * GAP
    legend_y = PAD + n_rows * (frame_h + GAP)
    values = legend_values(frames)
    colours = pal.assign(values, palette)
    marks = list(dict.fromkeys(f.mark or "marked cells" for f in frames if f.marks))
    mark = " / ".join(marks)
    if mark:  # the line saying what the outline means fits in the picture
        width = max(width, 2 * PAD + SWATCH + 5 + text_width(f"outlined: {mark}"))
    partial = Layout(cell, cols, rows, columns, tuple(origins), board_w, board_h, legend_y, max(width, 200), 0,
                     colours, values, mark, slot_w, axis_left, axis_bottom)
    height = partial.mark_line_y() + (SWATCH + 8 if mark else 0) + PAD
    return attrs.evolve(partial, height=height)


def mark_segments(frame: Frame, box, inset: float) -> list[tuple[float, float, float, float]]:
    """The outline of a frame's marked cells as segments ``(x1, y1, x2, y2)``.

    A side is drawn where a marked cell meets an unmarked cell or the board's
    edge, ``inset`` pixels inside the cell (so the cell's centre keeps its
    colour), so a region gets one outline around it and a single cell a
    square.  ``box(r, c)`` gives a cell's ``(x, y, w, h)``.
    """
    marks = frame.marks
    out = []
    for r, c in sorted(marks):
        x, y, w, h = box(r, c)
        top, bottom = (r - 1, c) not in marks, (r + 1, c) not in marks
        left, right = (r, c - 1) not in marks, (r, c + 1) not in marks
        x1, x2 = x + (inset if left else 0), x + w - (inset if right else 0)
        y1, y2 = y + (inset if top else 0), y + h - (inset if bottom else 0)
        if top:
            out.append((x1, y + inset, x2, y + inset))
        if bottom:
            out.append((x1, y + h - inset, x2, y + h - inset))
        if left:
            out.append((x + inset, y1, x + inset, y2))
        if right:
            out.append((x + w - inset, y1, x + w - inset, y2))
    return out


def mark_width(cell: int) -> int:
    """Line width of the mark outline for a cell side."""
    return max(2, cell // 8)


def single_layout(steps: Sequence[Step], palette: pal.Palette | None = None) -> Layout:
    """The layout of one frame at a time (frame 0's place), with the legend of all ``steps`` under it.

    Used for the GIF's and the HTML page's frames, which must all have the same size
    (every step's label wraps at the same width).
    """
    lay = layout(steps, columns=1, palette=palette)  # as wide as one frame, its label, or the marks' line
    bottom = (lay.origins[1][1] if len(steps) > 1 else lay.legend_y) - GAP  # of the first frame, label included
    one = attrs.evolve(lay, origins=lay.origins[:1], legend_y=bottom + GAP, height=0)
    return attrs.evolve(one, height=one.mark_line_y() + (SWATCH + 8 if lay.mark else 0) + PAD)


def board_only(lay: Layout) -> Layout:
    """A :func:`single_layout` cut to its frame: the board, its axes and its label, no legend (HTML page)."""
    return attrs.evolve(lay, width=2 * PAD + lay.label_width, height=lay.legend_y - GAP + PAD, legend=(), mark="")


def legend_only(lay: Layout) -> Layout:
    """The legend of ``lay`` alone: its swatches, wrapping at the width of the widest of one swatch and the
    line saying what the outline means (HTML page)."""
    item = max([text_width(str(v)) for v in lay.legend] + [0]) + SWATCH + 6 + LEGEND_ITEM
    mark = SWATCH + 5 + text_width(f"outlined: {lay.mark}") if lay.mark else 0
    one = attrs.evolve(lay, origins=(), legend_x=PAD, legend_y=PAD, width=2 * PAD + max(item, mark), height=0)
    return attrs.evolve(one, height=one.mark_line_y() + (SWATCH + 8 if lay.mark else 0) + PAD)


#: Bytes of memory drawing takes per pixel of :func:`picture_pixels`, by format: a PNG is an RGB image (3 bytes)
#: and its encoder's rows and output; a GIF's frames are palette images (1 byte) held together until saved;
#: SVG and HTML are text, about 0.2 bytes a pixel (a 12-pixel cell's ``<rect>`` is about 100 bytes), held
#: a few times over while it is joined and written.
MEMORY_PER_PIXEL = {"png": 6, "gif": 2, "svg": 1, "html": 1}


def picture_pixels(steps: Sequence[Step], fmt: str, *, columns: int | None = None,
                   palette: pal.Palette | None = None) -> tuple[int, str]:
    """How large the ``fmt`` picture of ``steps`` is, before anything is drawn: ``(pixels, description)``.

    PNG and SVG: the one picture's width times height (:func:`layout`); GIF and
    HTML: one frame's (:func:`single_layout`) times the number of frames.
    """
    if fmt in ("png", "svg"):
        lay = layout(steps, columns=columns, palette=palette)
        return lay.width * lay.height, f"{lay.width:,} x {lay.height:,} pixels"
    lay = single_layout(steps, palette)
    return (lay.width * lay.height * len(steps),
            f"{len(steps):,} frames of {lay.width:,} x {lay.height:,} pixels")
