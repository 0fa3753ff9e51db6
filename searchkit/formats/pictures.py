"""``show``'s picture files: SVG, PNG, GIF and the step-through HTML page (see :mod:`searchkit.formats`).

Each writer takes the output path and the frames of
:func:`searchkit.render.steps.replay_steps`, and raises
:class:`~searchkit.formats.WriteError` with the one line to print when it
cannot write (a missing Pillow, a path it cannot open).  Each file is written
through an exclusive temporary name in its folder and renamed into place
(:mod:`searchkit.machinery.atomic`): an interrupted write leaves the previous picture
whole, and a link at the output's name is replaced, never followed.
"""

from __future__ import annotations

from searchkit.machinery.atomic import replacing, write_file
from searchkit.formats import WriteError

PICTURES_HINT = "pip install 'searchkit-puzzles[pictures]'"


def write_svg(output: str, steps, *, labels: bool, columns, title: str, palette=None) -> None:
    """The frames side by side (``columns`` a row) in one SVG file."""
    from searchkit.render.svg import render_svg

    _save_text(output, render_svg(steps, labels=labels, columns=columns, title=title, palette=palette))


def write_html(output: str, steps, *, labels: bool, columns, title: str, palette=None) -> None:
    """A self-contained page stepping through the frames (``columns`` is not used)."""
    from searchkit.render.html import render_html

    _save_text(output, render_html(steps, labels=labels, title=title, palette=palette))


def write_png(output: str, steps, *, labels: bool, columns, title: str, palette=None) -> None:
    """The frames side by side in one PNG image (Pillow)."""
    _raster("png", output, steps, labels=labels, columns=columns, palette=palette)


def write_gif(output: str, steps, *, labels: bool, columns, title: str, palette=None) -> None:
    """The frames as an animated GIF (Pillow; ``columns`` and ``title`` are not used)."""
    _raster("gif", output, steps, labels=labels, columns=columns, palette=palette)


def _raster(kind: str, output: str, steps, *, labels: bool, columns, palette) -> None:
    from searchkit.render import raster

    try:
        with replacing(output) as fh:  # the previous picture survives Ctrl-C, SIGTERM or a full disk
            if kind == "png":
                raster.save_png(fh, steps, labels=labels, columns=columns, palette=palette)
            else:
                raster.save_gif(fh, steps, labels=labels, palette=palette)
    except raster.MissingPillow:
        raise WriteError(f"{kind.upper()} output needs Pillow: {PICTURES_HINT}") from None
    except OSError as exc:
        raise WriteError(f"cannot write {output}: {exc.strerror or exc}") from None


def _save_text(path: str, text: str) -> None:
    try:
        write_file(path, text)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
