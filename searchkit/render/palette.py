"""Colours for cell values: colour-blind safe up to 8 values, distinct up to 16, deterministic beyond.

* up to 8 values: the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal
  Design"), distinguishable under the common colour-vision deficiencies;
* 9 to 16 values: those 8 and 8 more of Kelly's colours of maximum contrast
  (Kelly 1965), chosen away from the first 8;
* more: golden-ratio steps around the hue circle at alternating lightness,
  the same colours for the same number of values on every run.

Colours are ``"#rrggbb"`` strings; the i-th legend value gets ``colours(n)[i]``.
"""

from __future__ import annotations

import colorsys
from collections.abc import Hashable, Sequence

#: Okabe-Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")

#: Kelly's colours added for 9..16 values: purple, red, buff, grey, yellow-green, brown, pink, olive.
KELLY_EXTRA = ("#875692", "#BE0032", "#C2B280", "#848482", "#8DB600", "#882D17", "#E68FAC", "#2B3D26")

#: An empty cell.
EMPTY = "#F2F2F2"
#: Grid lines and frame borders.
GRID = "#FFFFFF"
#: The page background.
BACKGROUND = "#FFFFFF"
#: Text.
INK = "#222222"


def colours(n: int) -> tuple[str, ...]:
    """``n`` distinct colours (``n >= 0``), the same ones for the same ``n`` on every call."""
    if n <= len(OKABE_ITO):
        return OKABE_ITO[:n]
    if n <= len(OKABE_ITO) + len(KELLY_EXTRA):
        return (OKABE_ITO + KELLY_EXTRA)[:n]
    out = list(OKABE_ITO + KELLY_EXTRA)
    golden = 0.618033988749895
    i = 0
    while len(out) < n:
        hue = (i * golden) % 1.0
        light = (0.45, 0.65, 0.35)[i % 3]
        sat = (0.75, 0.55, 0.9)[(i // 3) % 3]
        r, g, b = colorsys.hls_to_rgb(hue, light, sat)
        colour = f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"
        if colour not in out:
            out.append(colour)
        i += 1
    return tuple(out)


def assign(values: Sequence[Hashable]) -> dict[Hashable, str]:
    """A colour for each value, in order (``values`` without repeats; ``None`` maps to :data:`EMPTY`)."""
    table = dict(zip(values, colours(len(values))))
    table[None] = EMPTY
    return table


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as an ``(r, g, b)`` tuple of 0..255."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def luminance(colour: str) -> float:
    """Relative luminance 0..1 (WCAG 2), to choose text and mark colours that show on a cell."""
    def lin(v: int) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = rgb(colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    return "#000000" if luminance(colour) > 0.22 else "#FFFFFF"
