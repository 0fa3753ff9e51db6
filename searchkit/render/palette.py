"""Colours for cell values: colour-blind safe up to 8 values, distinct up to 16, deterministic beyond.

* up to 8 values: the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal
  Design"), distinguishable under the common colour-vision deficiencies;
* 9 to 16 values: those 8 and 8 more of Kelly's colours of maximum contrast
  (Kelly 1965), chosen away from the first 8;
* more: golden-ratio steps around the hue circle at alternating lightness,
  the same colours for the same number of values on every run.

Colours are ``"#rrggbb"`` strings; the i-th legend value gets ``colours(n)[i]``.

Other colours are chosen with a :class:`Palette` (``show --palette NAME|FILE``,
``palette=`` in Python, :func:`load_palette`): a named sequence
(:data:`NAMED`), and colours fixed for given values, so a game's walls can be
grey and its floor white whatever else is on the board.
"""

from __future__ import annotations

import colorsys
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import attrs

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


def game_palette(game, spec: Any = None) -> "Palette":
    """The palette a picture of ``game`` uses: ``spec`` when the user gave one, else the game's own
    ``palette`` attribute (a game may map its values to colours: walls grey, floor white), else the default.

    Raises:
        ValueError: as :func:`load_palette`.
    """
    return load_palette(spec if spec is not None else getattr(game, "palette", None))


def assign(values: Sequence[Hashable], palette: "Palette | None" = None) -> dict[Hashable, str]:
    """A colour for each value, in order (``values`` without repeats; ``None`` maps to :data:`EMPTY`).

    ``palette``: the colours to use (default: :func:`colours`).
    """
    if palette is not None:
        return palette.assign(values)
    table = dict(zip(values, colours(len(values))))
    table[None] = EMPTY
    return table


#: Paul Tol's "bright" scheme, colour-blind safe (https://personal.sron.nl/~pault/).
TOL_BRIGHT = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB")


def greys(n: int) -> tuple[str, ...]:
    """``n`` greys from dark to light (for printing in black and white)."""
    if n <= 1:
        return ("#606060",)[:n]
    return tuple(f"#{v:02X}{v:02X}{v:02X}" for v in (round(0x30 + (0xE8 - 0x30) * i / (n - 1)) for i in range(n)))


@attrs.frozen
class Palette:
    """Which colour each value of a picture gets.

    Attributes:
        name: what the user called it (a name or a file), for messages.
        sequence: ``sequence(n)`` gives ``n`` colours for the values in legend
            order (the values in ``fixed`` are skipped).
        fixed: a value's text (``str(value)``) -> its colour, whatever the sequence says.
    """

    name: str
    sequence: Any = colours
    fixed: Mapping[str, str] = attrs.field(factory=dict)

    def assign(self, values: Sequence[Hashable]) -> dict[Hashable, str]:
        """A colour for each of ``values`` (legend order); ``None`` maps to :data:`EMPTY`."""
        rest = [v for v in values if str(v) not in self.fixed]
        table: dict[Hashable, str] = dict(zip(rest, self.sequence(len(rest))))
        table.update((v, self.fixed[str(v)]) for v in values if str(v) in self.fixed)
        table[None] = EMPTY
        return table


def _cycle(base: Sequence[str]):
    def sequence(n: int) -> tuple[str, ...]:
        return tuple(base[i % len(base)] for i in range(n)) if n <= len(base) else tuple(base) + colours(n)[len(base):]

    return sequence


#: The palettes known by name: ``okabe-ito`` (the default), ``tol`` (Paul
#: Tol's bright), ``kelly`` (Kelly's colours first), ``greys``.
NAMED: dict[str, Palette] = {
    "okabe-ito": Palette("okabe-ito"),
    "tol": Palette("tol", _cycle(TOL_BRIGHT)),
    "kelly": Palette("kelly", _cycle(KELLY_EXTRA + OKABE_ITO)),
    "greys": Palette("greys", greys),
}

DEFAULT = NAMED["okabe-ito"]


def _colour(text: Any, where: str, quote: bool = True) -> str:
    """``text`` as ``"#RRGGBB"`` (``#rgb`` is widened).

    Raises:
        ValueError: not a hex colour, naming ``where`` (and quoting ``text`` only with ``quote``: never the
            content of a file, which may be any file, not a palette).
    """
    value = str(text).strip()
    digits = value[1:]
    if value.startswith("#") and len(digits) in (3, 6) and all(c in "0123456789abcdefABCDEF" for c in digits):
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return "#" + digits.upper()
    raise ValueError(f"{where}: expected a colour #rrggbb" + (f", got {value!r}" if quote else ""))


def load_palette(spec: Any = None) -> Palette:
    """The :class:`Palette` named or described by ``spec``.

    Args:
        spec: ``None`` (the default palette); a :class:`Palette`; a name of
            :data:`NAMED`; a file (JSON: an object value -> colour, or a list
            of colours; or text: one ``VALUE COLOUR`` pair a line, e.g.
            ``# #888888`` for walls; blank lines skipped); a dict value ->
            colour (the other values take the default sequence); or a list of
            colours (given to the values in legend order).

    Raises:
        ValueError: an unknown name, a file that cannot be read or parsed, or a bad colour (one line).
    """
    if spec is None:
        return DEFAULT
    if isinstance(spec, Palette):
        return spec
    return _load(spec, quote=True)


def _load(spec: Any, quote: bool) -> Palette:
    """:func:`load_palette` of ``spec``; ``quote``: its messages may quote the values (not those of a file)."""
    if isinstance(spec, Mapping):
        return Palette("dict", colours, {str(k): _colour(v, f"palette value {k!r}" if quote else "a palette value",
                                                         quote) for k, v in spec.items()})
    if isinstance(spec, (list, tuple)):
        base = tuple(_colour(v, f"palette colour {i + 1}", quote) for i, v in enumerate(spec))
        if not base:
            raise ValueError("a palette needs at least one colour")
        return Palette("list", _cycle(base))
    import os

    name = os.fspath(spec)
    if name in NAMED:
        return NAMED[name]
    if not os.path.isfile(name):
        raise ValueError(f"unknown palette {name!r}: give one of {', '.join(NAMED)}, or a file of VALUE COLOUR "
                         f"lines or JSON")
    try:
        with open(name, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{name}: cannot read the palette: {getattr(exc, 'strerror', None) or exc}") from None
    import json

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than json reads: no JSON palette
        data = None
    if isinstance(data, (dict, list)):
        try:
            loaded = _load(data, quote=False)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        return attrs.evolve(loaded, name=name)
    fixed = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        value, _, colour = line.strip().rpartition(" ")
        if not value.strip():  # the file's content is never quoted: it may be any file (/etc/shadow), not a palette
            raise ValueError(f"{name}:{number}: expected VALUE COLOUR (a value, a space, a colour #rrggbb): not a "
                             f"palette file")
        fixed[value.strip()] = _colour(colour, f"{name}:{number}", quote=False)
    return Palette(name, colours, fixed)


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
