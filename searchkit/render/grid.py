"""The plain values a game's render hook returns: one :class:`Frame` per picture.

A frame is a grid of cells, top row first, each cell a value of the game's
input (a colour value, a tile number, ...) or ``None`` for an empty cell,
plus per-cell marks (the flooded region, the two swapped blocks, the blocks
about to vanish, the tile that just moved).  Values are drawn by the core with
one colour per distinct value (:mod:`searchkit.render.palette`); the legend
shows each colour with the value itself, so a picture speaks the input's
language.

Nothing here imports a drawing library; games import this module freely.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import attrs


def _rows(rows: Iterable[Iterable[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _texts(values: Iterable[Any]) -> tuple[str, ...]:
    return tuple(str(v) for v in values)


def _marks(marks: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    return frozenset((int(r), int(c)) for r, c in marks)


@attrs.frozen
class Frame:
    """One picture of a board: a grid of cell values with optional marks.

    Attributes:
        rows: ``H`` rows of ``W`` cells each, the top row first; a cell is a
            hashable value of the input (drawn in that value's colour) or
            ``None`` (an empty cell, drawn in the background colour).
        marks: ``(row, column)`` cells to outline (0-based, row 0 at the top),
            e.g. Flood-It's flooded region.
        mark: what the marks mean, for the legend (``"flooded region"``).
        values: every value the puzzle can show, in legend order, so a value
            keeps its colour in every frame even when it has left the board
            (``()``: the values seen in the frames, in order of first sight).
        caption: a short text for this frame (``"swap"``, ``"vanish"``);
            ``""``: the drawer writes ``start`` or the move.
        labels: the game prefers every value written in its cell (tile
            numbers); ``--labels`` writes them for any game.
        x_labels, y_labels: axis labels, one per column (left to right) and
            one per row (top row first), so a move's coordinates can be
            found on the board (Mayan: ``x`` from 0 at the left, ``y`` from
            0 at the bottom); ``()``: no axis.

    Raises:
        ValueError: rows of different lengths, no rows, or a mark outside the grid.
    """

    rows: tuple[tuple[Any, ...], ...] = attrs.field(converter=_rows)
    marks: frozenset[tuple[int, int]] = attrs.field(default=frozenset(), converter=_marks)
    mark: str = ""
    values: tuple[Hashable, ...] = attrs.field(default=(), converter=tuple)
    caption: str = ""
    labels: bool = False
    x_labels: tuple[str, ...] = attrs.field(default=(), converter=_texts)
    y_labels: tuple[str, ...] = attrs.field(default=(), converter=_texts)

    def __attrs_post_init__(self) -> None:
        if not self.rows or not self.rows[0]:
            raise ValueError("a frame needs at least one row of at least one cell")
        width = len(self.rows[0])
        for i, row in enumerate(self.rows):
            if len(row) != width:
                raise ValueError(f"row {i} has {len(row)} cells, row 0 has {width}")
        if self.x_labels and len(self.x_labels) != width:
            raise ValueError(f"{len(self.x_labels)} x labels for {width} columns")
        if self.y_labels and len(self.y_labels) != len(self.rows):
            raise ValueError(f"{len(self.y_labels)} y labels for {len(self.rows)} rows")
        for r, c in self.marks:
            if not (0 <= r < len(self.rows) and 0 <= c < width):
                raise ValueError(f"mark ({r}, {c}) is outside the {width}x{len(self.rows)} grid")

    @property
    def width(self) -> int:
        """Number of columns W."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """Number of rows H."""
        return len(self.rows)

    def cells(self) -> Iterable[tuple[int, int, Any]]:
        """``(row, column, value)`` for every cell, row by row from the top."""
        for r, row in enumerate(self.rows):
            for c, value in enumerate(row):
                yield r, c, value


@attrs.frozen
class Step:
    """One picture of a solution: a frame and what led to it.

    Attributes:
        frame: the picture.
        index: the move it belongs to: 0 for the start, ``i`` for the
            intermediate frames of the i-th move and for the state after it.
        move: the move's text (``None`` for the start).
        settled: ``True`` for the state after a whole move (or the start);
            ``False`` for an intermediate frame of a move (a fall, a vanish).
        label: the text under the frame (``"start"``, ``"move 3: 4"``, ``"move 3: 2 1 1 (vanish)"``).
    """

    frame: Frame
    index: int
    move: str | None
    settled: bool
    label: str


def natural_key(value: Any) -> tuple:
    """A sort key that orders numbers (and digit strings) by value, then other text; ``None`` last."""
    if value is None:
        return (3, 0, "")
    if isinstance(value, bool):
        return (1, 0, str(value))
    if isinstance(value, (int, float)):
        return (0, value, "")
    text = str(value)
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0, text)


def legend_values(frames: Sequence[Frame]) -> tuple[Hashable, ...]:
    """The values to colour, in legend order: the first frame's ``values``, then any other value seen.

    ``None`` (an empty cell) is never a legend value.
    """
    out: dict[Hashable, None] = {}
    for frame in frames[:1]:
        out.update(dict.fromkeys(v for v in frame.values if v is not None))
    for frame in frames:
        for _r, _c, value in frame.cells():
            if value is not None:
                out.setdefault(value, None)
    return tuple(out)
