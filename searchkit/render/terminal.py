"""The terminal view of a solution (rich): coloured cells, move labels and a legend.

On a colour terminal each cell is a block in its value's colour (the same
palette as the pictures), the value written in it with ``labels``, marked
cells showing a dot (or bold underlined values).  Without colour (a pipe, a
file, ``NO_COLOR``) the values are written as text, ``.`` for an empty cell,
so the output stays readable and has no escape codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from searchkit.render import palette as pal
from searchkit.render.grid import Frame, Step, legend_values


def _cell_width(values: Sequence, labels: bool) -> int:
    widest = max((len(str(v)) for v in values), default=1)
    return max(2, widest + 1) if labels else 2


def frame_text(frame: Frame, colours: dict, *, labels: bool = False, colour: bool = True, trim: bool = False,
               width: int | None = None):
    """One frame as a :class:`rich.text.Text` (no trailing newline).

    Args:
        frame: the board.
        colours: value -> ``"#rrggbb"`` (as :func:`searchkit.render.palette.assign` gives).
        labels: write each value in its cell (also when the frame asks for it).
        colour: draw coloured blocks; ``False``: plain text (values, ``.`` for empty).
        trim: leave out the empty rows at the top (a board of falling blocks);
            an all-empty board is ``(empty)``.
        width: characters per cell (default: from the widest value).
    """
    from rich.style import Style
    from rich.text import Text

    rows = list(frame.rows)
    offset = 0
    if trim:
        while rows and all(v is None for v in rows[0]):
            rows.pop(0)
            offset += 1
        if not rows:
            return Text("(empty)")
    show = labels or frame.labels
    values = [v for row in rows for v in row if v is not None]
    text = Text()
    ys = frame.y_labels[offset:]
    yw = max((len(t) for t in ys), default=0)

    def y_axis(r: int) -> None:  # the row's y label, right-aligned, before the row
        if ys:
            text.append(ys[r].rjust(yw) + " ", style="dim")

    def x_axis(cell: int, sep: int) -> None:  # the column labels under the board
        if frame.x_labels:
            text.append("\n" + " " * (yw + 1 if ys else 0)
                        + (" " * sep).join(t.center(cell) for t in frame.x_labels).rstrip(), style="dim")

    if not colour:
        w = width or max((len(str(v)) for v in values), default=1)
        w = max([w] + [len(t) for t in frame.x_labels])
        for r, row in enumerate(rows):
            if r:
                text.append("\n")
            y_axis(r)
            text.append(" ".join(("." if v is None else str(v)).rjust(w) for v in row))
        x_axis(w, 1)
        return text
    w = width or _cell_width(values or frame.values, show)
    w = max([w] + [len(t) for t in frame.x_labels])
    for r, row in enumerate(rows):
        if r:
            text.append("\n")
        y_axis(r)
        for c, value in enumerate(row):
            bg = colours.get(value, pal.EMPTY)
            marked = (r + offset, c) in frame.marks
            ink = pal.ink_on(bg)
            if show and value is not None:
                cell = str(value).center(w)
                style = Style(color=ink, bgcolor=bg, bold=marked, underline=marked)
            else:
                cell = ("•" if marked else "").center(w)
                style = Style(color=ink, bgcolor=bg, bold=marked)
            text.append(cell, style=style)
    x_axis(w, 0)
    return text


def legend_text(values: Sequence, colours: dict, mark: str = "", *, colour: bool = True):
    """The legend: each value's colour block and the value; what marked cells mean."""
    from rich.style import Style
    from rich.text import Text

    text = Text()
    if colour:
        for i, value in enumerate(values):
            if i:
                text.append("  ")
            text.append("  ", style=Style(bgcolor=colours[value]))
            text.append(f" {value}")
        if mark:
            text.append(f"\n• (or bold values): {mark}")
    return text


def render_terminal(steps: Sequence[Step], console=None, *, labels: bool = False, trim: bool = False,
                    across: bool | None = None, palette: pal.Palette | None = None) -> None:
    """Print every step (its label, then the board) and the legend to ``console``.

    Args:
        steps: the pictures in order.
        console: a :class:`rich.console.Console` (default: standard output).
        labels: write each value in its cell.
        trim: leave out empty top rows (see :func:`frame_text`).
        across: put as many boards side by side as the console's width
            holds (default: on a colour console; plain text stays one board
            under the other, for pipes and ``grep``).
        palette: the colours (default: the pictures' Okabe-Ito).
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    colour = console.color_system is not None and not console.no_color
    frames = [s.frame for s in steps]
    values = legend_values(frames)
    colours = pal.assign(values, palette)
    marks = " / ".join(dict.fromkeys(f.mark or "marked cells" for f in frames if f.marks))
    boards = [frame_text(s.frame, colours, labels=labels, colour=colour, trim=trim) for s in steps]
    if across is None:
        across = colour
    if not across:
        for step, board in zip(steps, boards):
            console.print(step.label, highlight=False, markup=False)
            console.print(board, highlight=False, soft_wrap=True)  # a row stays one line, however wide
    else:
        cell = max(len(line) for board in boards for line in board.plain.split("\n"))
        slot = max(cell, max(len(s.label) for s in steps)) + 3
        per_row = max(1, (console.width + 3) // slot)
        for start in range(0, len(steps), per_row):
            grid = Table.grid(padding=(0, 3, 0, 0))
            chunk = range(start, min(start + per_row, len(steps)))
            for _ in chunk:
                grid.add_column(no_wrap=True)
            grid.add_row(*[Text(steps[i].label) for i in chunk])
            grid.add_row(*[boards[i] for i in chunk])
            console.print(grid)
            console.print()
    legend = legend_text(values, colours, marks, colour=colour)
    if legend.plain:
        console.print(legend, highlight=False)
