"""PNG and animated GIF pictures of solutions, drawn with Pillow (the ``pictures`` extra).

The geometry is the SVG's (:mod:`searchkit.render.layout`), so a PNG looks
like the SVG of the same steps; the pixel at each cell's centre is exactly
its value's colour.  A GIF has one frame per step (the start, each move's
intermediate frames, each move), all the same size, with its own exact
palette (no dithering) and a longer pause on the last.

Pillow is imported when a function here runs; without it they raise
:class:`MissingPillow`.
"""

from __future__ import annotations

from collections.abc import Sequence

from searchkit.limits import setup_check
from searchkit.render import palette as pal
from searchkit.render.grid import Step
from searchkit.render.layout import (AXIS_FONT, FONT, LINE, SWATCH, Layout, layout, mark_segments, mark_width,
                                     single_layout)

#: Milliseconds a GIF shows a settled state, an intermediate frame (a fall, a vanish), and the last frame.
STEP_MS, INTERMEDIATE_MS, LAST_MS = 800, 350, 3000


class MissingPillow(ImportError):
    """Pillow is not installed."""


def _pil():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise MissingPillow("Pillow is not installed") from None
    return Image, ImageDraw, ImageFont


_FONTS: dict = {}
_SWATCH_EDGE = "#888888"


def _font(size: int):
    if size not in _FONTS:
        _, _, ImageFont = _pil()
        try:
            _FONTS[size] = ImageFont.load_default(size=size)
        except TypeError:  # Pillow < 10.1: one bitmap size
            _FONTS[size] = ImageFont.load_default()
    return _FONTS[size]


def _draw_frame(draw, lay: Layout, i: int, step: Step, labels: bool, ink=str) -> None:
    frame = step.frame
    show = labels or frame.labels
    for r, c, value in frame.cells():
        x, y, w, h = lay.cell_box(i, r, c)
        colour = lay.colours[value]
        draw.rectangle([x, y, x + w - 1, y + h - 1], fill=ink(colour), outline=ink(pal.GRID), width=1)
        if show and value is not None:
            size = max(8, min(FONT + 3, int(lay.cell * 0.5)))
            draw.text((x + w / 2, y + h / 2), str(value), fill=ink(pal.ink_on(colour)), font=_font(size), anchor="mm")
    if frame.marks:
        width = mark_width(lay.cell)
        inset = width / 2 + 1
        segs = mark_segments(frame, lambda r, c: lay.cell_box(i, r, c), inset)
        for colour, extra in (("#FFFFFF", 2), ("#000000", 0)):
            for x1, y1, x2, y2 in segs:
                half = (width + extra) / 2
                if y1 == y2:
                    draw.rectangle([x1 - half, y1 - half, x2 + half - 1, y1 + half - 1], fill=ink(colour))
                else:
                    draw.rectangle([x1 - half, y1 - half, x1 + half - 1, y2 + half - 1], fill=ink(colour))
    for x, y, text, anchor in lay.axis_items(i, frame):
        draw.text((x, y), text, fill=ink(pal.INK), font=_font(AXIS_FONT), anchor="ms" if anchor == "middle" else "rm")
    lx, ly = lay.label_xy(i)
    for k, line in enumerate(lay.label_lines(step)):
        draw.text((lx, ly + k * LINE), line, fill=ink(pal.INK), font=_font(FONT), anchor="ls")


def _draw_legend(draw, lay: Layout, ink=str) -> None:
    font = _font(FONT)
    for x, y, value, colour in lay.legend_items():
        draw.rectangle([x, y, x + SWATCH - 1, y + SWATCH - 1], fill=ink(colour), outline=ink(_SWATCH_EDGE), width=1)
        draw.text((x + SWATCH + 5, y + SWATCH - 3), str(value), fill=ink(pal.INK), font=font, anchor="ls")
    if lay.mark:
        y = lay.mark_line_y()
        x = lay.legend_x
        draw.rectangle([x + 2, y + 2, x + SWATCH - 3, y + SWATCH - 3], outline=ink("#000000"), width=2)
        draw.text((x + SWATCH + 5, y + SWATCH - 3), f"outlined: {lay.mark}", fill=ink(pal.INK), font=font,
                  anchor="ls")


def picture(steps: Sequence[Step], *, labels: bool = False, columns: int | None = None,
            palette: pal.Palette | None = None):
    """Every step as one RGB :class:`PIL.Image.Image`, laid out as :func:`searchkit.render.svg.render_svg` does.

    Raises:
        MissingPillow: without Pillow.
        ValueError: no steps.
    """
    Image, ImageDraw, _ = _pil()
    lay = layout(steps, columns=columns, palette=palette)
    image = Image.new("RGB", (lay.width, lay.height), pal.BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, step in enumerate(steps):
        setup_check()  # a time limit (show --time-limit) holds while drawing too
        _draw_frame(draw, lay, i, step, labels)
    _draw_legend(draw, lay)
    return image


def frames(steps: Sequence[Step], *, labels: bool = False, palette: pal.Palette | None = None) -> list:
    """One palette (``P``) image per step, all the same size, the legend of the whole solution on each.

    The images share one palette holding exactly the colours drawn (cells,
    marks, text); text is drawn without antialiasing, so every pixel has one
    of them.

    Raises:
        MissingPillow: without Pillow.
    """
    Image, ImageDraw, _ = _pil()
    lay = single_layout(steps, palette)
    used = [pal.BACKGROUND, pal.INK, pal.GRID, "#000000", "#FFFFFF", _SWATCH_EDGE]
    for colour in lay.colours.values():
        used += [colour, pal.ink_on(colour)]
    index = {c: i for i, c in enumerate(dict.fromkeys(c.upper() for c in used))}
    if len(index) > 256:
        raise ValueError(f"a GIF holds 256 colours, these frames need {len(index)}")
    flat = [v for colour in index for v in pal.rgb(colour)]
    flat += [0] * (768 - len(flat))

    def ink(colour: str) -> int:
        return index[colour.upper()]

    out = []
    for step in steps:
        setup_check()
        image = Image.new("P", (lay.width, lay.height), ink(pal.BACKGROUND))
        image.putpalette(flat)
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"
        _draw_frame(draw, lay, 0, step, labels, ink)
        _draw_legend(draw, lay, ink)
        out.append(image)
    return out


def save_png(path, steps: Sequence[Step], *, labels: bool = False, columns: int | None = None,
             palette: pal.Palette | None = None) -> None:
    """Write :func:`picture` as a PNG file (``path``: a name or a binary file object).

    Raises:
        MissingPillow: without Pillow.
        OSError: the file cannot be written.
    """
    picture(steps, labels=labels, columns=columns, palette=palette).save(path, format="PNG", optimize=True)


def durations(steps: Sequence[Step]) -> list[int]:
    """Milliseconds per GIF frame.

    :data:`STEP_MS` for a settled state, :data:`INTERMEDIATE_MS` for an
    intermediate frame of a move, :data:`LAST_MS` for the last frame.
    """
    out = [STEP_MS if s.settled else INTERMEDIATE_MS for s in steps]
    if out:
        out[-1] = LAST_MS
    return out


def save_gif(path, steps: Sequence[Step], *, labels: bool = False, palette: pal.Palette | None = None) -> None:
    """Write an animated GIF, one frame per step, looping, with a pause of :data:`LAST_MS` on the last.

    ``path``: a name or a binary file object.

    The frames share one palette holding every colour drawn exactly (see :func:`frames`).

    Raises:
        MissingPillow: without Pillow.
        OSError: the file cannot be written.
    """
    images = frames(steps, labels=labels, palette=palette)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=durations(steps),
                   loop=0, optimize=False, disposal=1)

