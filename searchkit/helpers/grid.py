"""Grids of cells: parsing, indexing, neighbour steps, same-value regions and bitmask flood fill.

Cells are numbered row by row from the top-left: cell ``i = y * width + x``
(``x`` the column from the left, ``y`` the row from the top).  A set of cells
is a Python int with bit ``i`` set for cell ``i`` (a *bitmask*), so set
operations and a flood fill cost a few big-int operations each, not a Python
loop over cells (see the hot-loop notes in ``docs/plugin-guide.md``).

Set-up loops here call :func:`searchkit.limits.setup_check` every
:data:`CHECK_EVERY` cells, so a case's time limit holds while a huge board is
being read or labelled.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import attrs

from searchkit.errors import InputError
from searchkit.limits import setup_check

#: Cells between two checks of the running case's time limit in set-up loops.
CHECK_EVERY = 4096

#: The four orthogonal steps as ``(name, dx, dy)``; ``y`` grows downwards.
STEPS4: tuple[tuple[str, int, int], ...] = (("up", 0, -1), ("down", 0, 1), ("left", -1, 0), ("right", 1, 0))
#: The four orthogonal and the four diagonal steps.
STEPS8: tuple[tuple[str, int, int], ...] = STEPS4 + (("up-left", -1, -1), ("up-right", 1, -1),
                                                    ("down-left", -1, 1), ("down-right", 1, 1))


def index(x: int, y: int, width: int) -> int:
    """The number of cell ``(x, y)``: ``y * width + x``."""
    return y * width + x


def coords(i: int, width: int) -> tuple[int, int]:
    """``(x, y)`` of cell ``i``."""
    y, x = divmod(i, width)
    return x, y


def _as_tuple(values) -> tuple:
    """``tuple(values)``, as a Python function: attrs reads a converter's signature, and a builtin's costs
    milliseconds of start-up (``inspect`` tokenizes its text signature, compiling tokenize's patterns)."""
    return tuple(values)


@attrs.frozen
class Grid:
    """A rectangular grid of cell values, row by row from the top-left.

    Attributes:
        width, height: size in cells (>= 1 each).
        cells: ``width * height`` values; cell ``(x, y)`` is ``cells[y * width + x]``.

    Raises:
        ValueError: a size below 1, or a number of cells other than ``width * height``.
    """

    width: int
    height: int
    cells: tuple[Any, ...] = attrs.field(converter=_as_tuple)

    def __attrs_post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a grid needs at least one row and one column, got {self.width}x{self.height}")
        if len(self.cells) != self.width * self.height:
            raise ValueError(f"a {self.width}x{self.height} grid has {self.width * self.height} cells, "
                             f"got {len(self.cells)}")

    def __getitem__(self, xy: tuple[int, int]) -> Any:
        x, y = xy
        return self.cells[y * self.width + x]

    def index(self, x: int, y: int) -> int:
        """The number of cell ``(x, y)``."""
        return y * self.width + x

    def coords(self, i: int) -> tuple[int, int]:
        """``(x, y)`` of cell ``i``."""
        return coords(i, self.width)

    def rows(self) -> list[tuple[Any, ...]]:
        """The values as rows, the top row first (a render hook's ``Frame(rows)``)."""
        return rows_of(self.cells, self.width)

    def find(self, value: Any) -> list[int]:
        """The cells holding ``value``, in order."""
        return [i for i, v in enumerate(self.cells) if v == value]

    def mask(self, test: Callable[[Any], bool]) -> int:
        """The bitmask of the cells whose value passes ``test``."""
        return mask_of(i for i, v in enumerate(self.cells) if test(v))

    def neighbours(self, steps: Sequence[tuple[str, int, int]] = STEPS4) -> tuple[tuple[int, ...], ...]:
        """Per cell, the numbers of its neighbours inside the grid (:func:`neighbour_table`)."""
        return neighbour_table(self.width, self.height, steps)


def rows_of(cells: Sequence[Any], width: int) -> list[tuple[Any, ...]]:
    """``cells`` (row by row) cut into rows of ``width``."""
    return [tuple(cells[y:y + width]) for y in range(0, len(cells), width)]


def mask_of(cells: Iterable[int]) -> int:
    """The bitmask of the cell numbers ``cells``."""
    bits = 0
    for i in cells:
        bits |= 1 << i
    return bits


def cells_of(mask: int) -> list[int]:
    """The cell numbers in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_char_grid(text: str, *, source: str = "<input>", line: int = 1, allowed: str | None = None,
                    pad: str | None = None) -> Grid:
    """A grid of one character per cell from lines of text (a Sokoban level, a maze).

    Args:
        text: the rows, one a line; blank lines at either end are dropped.
        source: the file's name (for messages).
        line: the line ``text`` starts on (for messages).
        allowed: the characters a cell may hold (``None``: any but a newline).
        pad: fill short rows with this character up to the longest
            (``None``: rows of different lengths are an error).

    Raises:
        InputError: no rows, a character not in ``allowed``, or a short row
            without ``pad``; the message names the line and column.
    """
    lines = text.split("\n")
    while lines and not lines[0].strip("\r"):
        lines.pop(0)
        line += 1
    while lines and not lines[-1].strip("\r"):
        lines.pop()
    rows = [ln.rstrip("\r") for ln in lines]
    if not rows:
        raise InputError("expected a grid, found no rows", source=source, line=line)
    width = max(len(r) for r in rows)
    cells: list[str] = []
    for k, row in enumerate(rows):
        if allowed is not None:
            for col, ch in enumerate(row):
                if ch not in allowed:
                    raise InputError(f"column {col + 1}: unexpected {ch!r} (expected one of {allowed!r})",
                                     source=source, line=line + k)
        if len(row) < width:
            if pad is None:
                raise InputError(f"row {k + 1} has {len(row)} cells, the longest has {width}", source=source,
                                 line=line + k)
            row = row + pad * (width - len(row))
        cells.extend(row)
    return Grid(width, len(rows), cells)


def parse_int_grid(text: str, *, width: int | None = None, source: str = "<input>", line: int = 1) -> Grid:
    """A grid of integers: whitespace-separated, one row a line (or ``width`` a row, whatever the lines).

    Raises:
        InputError: a token that is not an integer, rows of different
            lengths, or a number of values that ``width`` does not divide.
    """
    rows: list[list[int]] = []
    values: list[int] = []
    for k, raw in enumerate(text.split("\n")):
        tokens = raw.split()
        if not tokens:
            continue
        row = []
        for tok in tokens:
            try:
                row.append(int(tok))
            except ValueError:
                raise InputError(f"expected an integer, got {tok!r}", source=source, line=line + k) from None
        if width is None and rows and len(row) != len(rows[0]):
            raise InputError(f"this row has {len(row)} values, the first has {len(rows[0])}", source=source,
                             line=line + k)
        rows.append(row)
        values.extend(row)
    if not values:
        raise InputError("expected a grid, found no values", source=source, line=line)
    if width is None:
        width = len(rows[0])
    if len(values) % width:
        raise InputError(f"{len(values)} values do not make rows of {width}", source=source, line=line)
    return Grid(width, len(values) // width, values)


def neighbour_table(width: int, height: int, steps: Sequence[tuple[str, int, int]] = STEPS4
                    ) -> tuple[tuple[int, ...], ...]:
    """Per cell, the numbers of its neighbours inside the grid, in ``steps`` order (precomputed once)."""
    out = []
    for y in range(height):
        for x in range(width):
            out.append(tuple((y + dy) * width + x + dx for _, dx, dy in steps
                             if 0 <= x + dx < width and 0 <= y + dy < height))
    return tuple(out)


def step_table(width: int, height: int, steps: Sequence[tuple[str, int, int]] = STEPS4
               ) -> tuple[tuple[int, ...], ...]:
    """Per cell, per step, the cell the step leads to, or ``-1`` off the grid (a move table for pushes)."""
    return tuple(tuple((y + dy) * width + x + dx if 0 <= x + dx < width and 0 <= y + dy < height else -1
                       for _, dx, dy in steps)
                 for y in range(height) for x in range(width))


def label_regions(cells: Sequence[Hashable], width: int) -> tuple[array, array]:
    """Number the 4-connected regions of equal values (a flood fill from every unlabelled cell).

    Args:
        cells: the values, row by row (``len(cells)`` a multiple of ``width``).
        width: cells per row.

    Returns:
        ``(label, first)``, ``array('i')`` each: ``label[i]`` is the region of
        cell ``i``; regions are numbered in the order of their first cell in
        the scan, ``first[r]`` being that cell (so region ``r``'s value is
        ``cells[first[r]]``).  Linear in the cells; one depth-first fill per
        region with an explicit stack (no recursion limit).

    Raises:
        searchkit.limits.LimitReached: the running case's time limit passed
            (checked every :data:`CHECK_EVERY` cells).
    """
    w = width
    n = len(cells)
    label = array("i", [-1]) * n
    first = array("i")
    stack = []
    done = 0
    every = CHECK_EVERY - 1
    for seed in range(n):
        if label[seed] >= 0:
            continue
        a = len(first)
        col = cells[seed]
        first.append(seed)
        label[seed] = a
        stack.append(seed)
        while stack:
            i = stack.pop()
            done += 1
            if not done & every:
                setup_check()
            x = i % w
            if x and label[i - 1] < 0 and cells[i - 1] == col:
                label[i - 1] = a
                stack.append(i - 1)
            if x + 1 < w and label[i + 1] < 0 and cells[i + 1] == col:
                label[i + 1] = a
                stack.append(i + 1)
            if i >= w and label[i - w] < 0 and cells[i - w] == col:
                label[i - w] = a
                stack.append(i - w)
            j = i + w
            if j < n and label[j] < 0 and cells[j] == col:
                label[j] = a
                stack.append(j)
    return label, first


def region_pairs(label: Sequence[int], width: int) -> tuple[array, array]:
    """The adjacencies between regions: ``(src, dst)``, both directions of every pair of 4-adjacent cells
    whose regions differ (with repeats: one pair per touching cell side).

    Feed them to a sparse-row builder to get the region graph.

    Raises:
        searchkit.limits.LimitReached: as :func:`label_regions`.
    """
    w = width
    n = len(label)
    src, dst = array("i"), array("i")
    every = CHECK_EVERY - 1
    for i in range(n):
        if not i & every:
            setup_check()
        a = label[i]
        if (i + 1) % w and label[i + 1] != a:
            b = label[i + 1]
            src.append(a)
            dst.append(b)
            src.append(b)
            dst.append(a)
        if i + w < n and label[i + w] != a:
            b = label[i + w]
            src.append(a)
            dst.append(b)
            src.append(b)
            dst.append(a)
    return src, dst


@attrs.frozen
class Masks:
    """The bitmasks a grid's flood fill shifts by (:func:`masks`).

    Attributes:
        width, height: the grid's size.
        full: every cell.
        not_left: every cell but the left column (where a shift one step right may land from the row above).
        not_right: every cell but the right column.
    """

    width: int
    height: int
    full: int
    not_left: int
    not_right: int


def masks(width: int, height: int) -> Masks:
    """The :class:`Masks` of a ``width x height`` grid (compute once per puzzle)."""
    full = (1 << (width * height)) - 1
    left = mask_of(range(0, width * height, width))
    right = left << (width - 1)
    return Masks(width, height, full, full & ~left, full & ~right)


def spread(cells: int, grid: Masks) -> int:
    """``cells`` and their 4-neighbours, as a bitmask (one step of a flood fill)."""
    w = grid.width
    return (cells | (cells << w) | (cells >> w) | ((cells << 1) & grid.not_left)
            | ((cells >> 1) & grid.not_right)) & grid.full


def flood_fill(seed: int, open_cells: int, grid: Masks) -> int:
    """The cells of ``open_cells`` 4-connected to ``seed`` within it (bitmasks): reachability.

    E.g. the squares a Sokoban player reaches without pushing: ``seed`` the
    player, ``open_cells`` the floor without boxes.  Costs one :func:`spread`
    per step of the longest shortest path, each a few big-int operations.
    """
    reach = seed & open_cells
    while True:
        grown = spread(reach, grid) & open_cells
        if grown == reach:
            return reach
        reach = grown


def distances(seed: int, open_cells: int, grid: Masks) -> list[int]:
    """Breadth-first layers from ``seed`` through ``open_cells``: ``layers[d]`` is the bitmask of the cells
    at distance ``d`` (``layers[0] == seed & open_cells``)."""
    reach = seed & open_cells
    layers = [reach] if reach else []
    while reach:
        grown = spread(reach, grid) & open_cells
        new = grown & ~reach
        if not new:
            break
        layers.append(new)
        reach = grown
    return layers
