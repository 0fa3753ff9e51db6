"""Mayan puzzle boards (NOIP 2011 "Mayan game", Luogu P1312) as packed integers.

A board is a plain ``int``: immutable, hashable and cheap to compare, so it can
go straight into sets and dicts.  It is read under a :class:`Shape` (width W,
height H, minimum run length R, bits per cell); the standard NOIP board is
:data:`STANDARD` (5 x 7, runs of 3, 4-bit cells, colours 1..15).

Layout: cell (x, y), with (0, 0) the bottom-left corner, x the column and y the
row, is the ``cell_bits``-wide lane number ``x * H + y`` (column-major, bottom
up); 0 is an empty cell and a colour is a positive integer that fits the lane.
A *settled* board has no floating block (every column is a stack from the
bottom) and no run; every function here returns settled boards, except
:func:`from_columns`, which builds stacks but leaves any run in place, and
:func:`raw_successors`, which gives each child before its runs clear (for
bounds that look at a child before settling it).

Rules (NOIP 2011 day 1 problem 3, as worded on Luogu P1312):

* a move ``(x, y, g)`` takes the block at (x, y) one column sideways, ``g = 1``
  to the right, ``g = -1`` to the left.  If the target cell holds a block the
  two swap; if it is empty the block leaves its column (the blocks above it
  fall) and falls down the target column;
* then the board settles: every block falls; every horizontal or vertical run
  of at least R same-coloured blocks is marked, all runs at once (a block in a
  horizontal and a vertical run counts once, so L, T and + shapes and runs of 4
  or 5 go whole); the marked blocks vanish; blocks fall again; and this repeats
  while anything vanishes.  Nothing vanishes while blocks are falling;
* swapping two blocks of the same colour is not a move (the Luogu convention);
  with ``same_colour_swaps=True`` (the AcWing convention) it is a legal move
  that changes nothing.

Run detection is bit-parallel: one XOR compares every cell with its right (or
upper) neighbour, and a SWAR zero-lane test turns that into one bit per lane,
so finding all runs costs a dozen big-int operations whatever the board.
"""

from __future__ import annotations

__all__ = [
    "Shape",
    "STANDARD",
    "from_columns",
    "to_columns",
    "settle",
    "apply_move",
    "successors",
    "raw_successors",
    "is_empty",
    "format_board",
    "run_cells",
]


class Shape:
    """The geometry of a board and the packed-integer constants derived from it.

    Args:
        width: number of columns W (>= 1).
        height: number of rows H (>= 1).
        run: minimum run length R that vanishes (>= 2).
        cell_bits: bits per cell (>= 2); colours 1 .. 2**cell_bits - 1 fit.

    Raises:
        ValueError: if a dimension is out of range.

    Shapes compare and hash by ``(width, height, run, cell_bits)``.  Three
    attributes are functions specialised to the shape (searches bind them to
    local names):

    * ``clear_runs(board) -> board`` settles a board whose columns are
      already stacks: clear all runs at once, let the columns close up,
      repeat while anything vanishes;
    * ``run_mask(board) -> int``: every lane in a run of >= R, all its bits
      set (0 if no run);
    * ``compact(column) -> column``: a packed column with its holes removed.
    """

    __slots__ = (
        "width", "height", "run", "cell_bits", "max_colour", "cell_mask",
        "column_bits", "column_mask", "run_mask", "clear_runs", "compact",
    )

    def __init__(self, width: int = 5, height: int = 7, run: int = 3, cell_bits: int = 4) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"the board must be at least 1 x 1, got {width} x {height}")
        if run < 2:
            raise ValueError(f"the minimum run length must be at least 2, got {run}")
        if cell_bits < 2:
            raise ValueError(f"cells need at least 2 bits, got {cell_bits}")
        self.width = width
        self.height = height
        self.run = run
        self.cell_bits = cell_bits
        self.max_colour = (1 << cell_bits) - 1
        self.cell_mask = self.max_colour
        self.column_bits = height * cell_bits
        self.column_mask = (1 << self.column_bits) - 1
        self.run_mask, self.clear_runs, self.compact = _make_kernels(self)

    def _key(self) -> tuple[int, int, int, int]:
        return (self.width, self.height, self.run, self.cell_bits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shape) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Shape(width={}, height={}, run={}, cell_bits={})".format(*self._key())

    def offset(self, x: int, y: int) -> int:
        """Bit offset of cell (x, y)'s lane."""
        return (x * self.height + y) * self.cell_bits

    def cell(self, board: int, x: int, y: int) -> int:
        """The colour at (x, y) of ``board`` (0 for empty); no range check."""
        return (board >> ((x * self.height + y) * self.cell_bits)) & self.cell_mask

    def column(self, board: int, x: int) -> int:
        """Column ``x`` of ``board`` as its own packed int (bottom cell in the low lane)."""
        return (board >> (x * self.column_bits)) & self.column_mask

    def column_height(self, column: int) -> int:
        """Number of cells up to the topmost block of a packed column (holes included)."""
        return (column.bit_length() + self.cell_bits - 1) // self.cell_bits


def _make_kernels(shape: Shape):
    """Build ``(run_mask, clear_runs, compact)`` for ``shape``, constants bound as closure cells."""
    w, h, r, cb = shape.width, shape.height, shape.run, shape.cell_bits
    cm, colmask = shape.cell_mask, shape.column_mask
    ones = 0
    for lane in range(w * h):
        ones |= 1 << (lane * cb)
    low = ones * ((1 << (cb - 1)) - 1)  # all but the top bit of every lane
    high = ones << (cb - 1)  # the top bit of every lane
    sh = shape.column_bits  # shift that lines cell (x+1, y) up with (x, y)
    hstart = 0  # top bit of every lane that can start a horizontal run
    vstart = 0  # ... a vertical run
    for x in range(w):
        for y in range(h):
            bit = 1 << ((x * h + y) * cb + cb - 1)
            if x <= w - r:
                hstart |= bit
            if y <= h - r:
                vstart |= bit
    # A run longer than the board's width (height) can never lie in a row (column):
    # hstart (vstart) is then 0, and no shift list is built (R may be 10**9).
    hshifts = [i * sh for i in range(1, r)] if r <= w else []
    vshifts = [i * cb for i in range(1, r)] if r <= h else []
    col_offsets = [x * sh for x in range(w)]
    top = cb - 1

    def run_mask(b: int) -> int:
        # A lane is 0 iff adding `low` to its low bits carries nothing into
        # the top bit and its own top bit is clear (no carry between lanes).
        nz = (((b & low) + low) | b) & high
        t = b ^ (b >> sh)
        eh = ~(((t & low) + low) | t) & high  # lane == its right neighbour
        t = b ^ (b >> cb)
        ev = ~(((t & low) + low) | t) & high  # lane == the lane above
        hs = nz & hstart  # lanes starting a horizontal run of r
        vs = nz & vstart  # ... a vertical run of r
        for s in hshifts:
            hs &= eh >> (s - sh)
        for s in vshifts:
            vs &= ev >> (s - cb)
        if not (hs or vs):
            return 0
        m = hs | vs
        for s in hshifts:
            m |= hs << s
        for s in vshifts:
            m |= vs << s
        return (m >> top) * cm

    def compact(col: int) -> int:
        out = 0
        k = 0
        while col:
            v = col & cm
            if v:
                out |= v << k
                k += cb
            col >>= cb
        return out

    def clear_runs(b: int) -> int:
        while True:
            m = run_mask(b)
            if not m:
                return b
            b &= ~m
            for off in col_offsets:
                if (m >> off) & colmask:
                    col = (b >> off) & colmask
                    b ^= (col ^ compact(col)) << off

    return run_mask, clear_runs, compact


STANDARD = Shape()
"""The NOIP 2011 board: 5 columns, 7 rows, runs of 3, colours 1..15."""


def from_columns(columns, shape: Shape = STANDARD) -> int:
    """Pack column lists into a board.

    Args:
        columns: W sequences of colours, left column first, each bottom-up
            without the terminating 0 (fewer than W sequences: the rest are
            empty).
        shape: the board geometry.

    Returns:
        The packed board (stacks; runs, if any, are left in place: use
        :func:`settle` or :func:`run_cells`).

    Raises:
        ValueError: more than W columns, a column taller than H, or a colour
            that is not an integer in 1 .. ``shape.max_colour``.
    """
    if len(columns) > shape.width:
        raise ValueError(f"{len(columns)} columns given, the board is {shape.width} wide")
    board = 0
    for x, col in enumerate(columns):
        if len(col) > shape.height:
            raise ValueError(f"column {x} has {len(col)} blocks, the board is {shape.height} high")
        for y, colour in enumerate(col):
            if type(colour) is not int or not 1 <= colour <= shape.max_colour:
                raise ValueError(
                    f"colour {colour!r} at ({x}, {y}) is not an integer in 1..{shape.max_colour}"
                )
            board |= colour << shape.offset(x, y)
    return board


def to_columns(board: int, shape: Shape = STANDARD) -> list[list[int]]:
    """Unpack a board into W lists of colours, bottom-up (empty cells above a block are kept as 0)."""
    out = []
    for x in range(shape.width):
        col = shape.column(board, x)
        cells = []
        while col:
            cells.append(col & shape.cell_mask)
            col >>= shape.cell_bits
        out.append(cells)
    return out


def is_empty(board: int) -> bool:
    """True when no block is left (the solved position)."""
    return board == 0


def settle(board: int, shape: Shape = STANDARD) -> int:
    """Let every block fall, then clear runs and cascade until nothing vanishes.

    Args:
        board: any packed board (floating blocks allowed).
        shape: the board geometry.

    Returns:
        The settled board: stacks only, no run of ``shape.run`` or more.
    """
    compact = shape.compact
    cb = shape.column_bits
    mask = shape.column_mask
    fallen = 0
    for x in range(shape.width):
        fallen |= compact((board >> (x * cb)) & mask) << (x * cb)
    return shape.clear_runs(fallen)


def run_cells(board: int, shape: Shape = STANDARD) -> list[tuple[int, int]]:
    """Cells (x, y) that belong to a run of ``shape.run`` or more, sorted; [] if none.

    ``board`` should have stacked columns (as :func:`from_columns` gives).
    """
    mask = shape.run_mask(board)
    return [(x, y) for x in range(shape.width) for y in range(shape.height)
            if (mask >> shape.offset(x, y)) & 1]


def raw_successors(board: int, shape: Shape = STANDARD, *, same_colour_swaps: bool = False,
                   skip_left_swaps: bool = False, skipped: list | None = None):
    """Yield ``(x, y, g, a, a2, moved)`` for every legal move, in lexicographic order.

    This is the one implementation of the move rule; :func:`successors`,
    :func:`apply_move` and the search all use it.

    Args:
        board: a settled board.
        shape: the board geometry.
        same_colour_swaps: see :func:`apply_move`.
        skip_left_swaps: leave out left moves onto an occupied cell (each
            gives the same board as the left neighbour's right move, which
            comes earlier).
        skipped: a one-element list whose item is increased by the number
            of left moves skipped (for the ``left-swap`` rule's cut count).

    Yields:
        The move (x, y, g); ``a``, the colour of the moved block; ``a2``, the
        colour of the block it swapped with (0 for a move into an empty cell;
        equal to ``a`` for a same-colour swap, which changes nothing); and
        ``moved``, the board right after the move, with the source column
        closed up and the block fallen, but before any run is cleared.
    """
    w, cb, cm = shape.width, shape.cell_bits, shape.cell_mask
    sh, colmask = shape.column_bits, shape.column_mask
    cols = [(board >> (x * sh)) & colmask for x in range(w)]
    heights = [(c.bit_length() + cb - 1) // cb for c in cols]
    heights.append(-1)  # heights[-1] is also the missing left neighbour of column 0
    for x in range(w):
        col = cols[x]
        xo = x * sh
        right, left = heights[x + 1], heights[x - 1]
        for y in range(heights[x]):
            yo = y * cb
            a = (col >> yo) & cm
            here = xo + yo
            if right >= 0:
                if y < right:
                    a2 = (cols[x + 1] >> yo) & cm
                    if a != a2:
                        d = a ^ a2
                        yield x, y, 1, a, a2, board ^ (d << here) ^ (d << (here + sh))
                    elif same_colour_swaps:
                        yield x, y, 1, a, a, board
                else:  # the source column closes up, the block lands on the target column
                    closed = (col & ((1 << yo) - 1)) | ((col >> (yo + cb)) << yo)
                    yield x, y, 1, a, 0, (board ^ ((col ^ closed) << xo)) | (a << (xo + sh + right * cb))
            if left >= 0:
                if y < left:
                    if skip_left_swaps:
                        if skipped is not None:
                            skipped[0] += 1
                        continue
                    a2 = (cols[x - 1] >> yo) & cm
                    if a != a2:
                        d = a ^ a2
                        yield x, y, -1, a, a2, board ^ (d << here) ^ (d << (here - sh))
                    elif same_colour_swaps:
                        yield x, y, -1, a, a, board
                else:
                    closed = (col & ((1 << yo) - 1)) | ((col >> (yo + cb)) << yo)
                    yield x, y, -1, a, 0, (board ^ ((col ^ closed) << xo)) | (a << (xo - sh + left * cb))


def apply_move(board: int, x: int, y: int, g: int, shape: Shape = STANDARD, *,
               same_colour_swaps: bool = False) -> int | None:
    """Play move ``(x, y, g)`` on a settled board and settle the result.

    Args:
        board: a settled board (stacks, no run).
        x, y: the cell of the block to move, (0, 0) bottom-left.
        g: 1 to move right, -1 to move left.
        shape: the board geometry.
        same_colour_swaps: if True, swapping two blocks of the same colour is a
            legal move that changes nothing (AcWing); if False it is not a
            move (Luogu P1312).

    Returns:
        The settled board after the move, or None if the move is illegal: no
        block at (x, y), ``g`` not 1 or -1, the target column off the board,
        or a same-colour swap when those are not moves.
    """
    for mx, my, mg, _, _, moved in raw_successors(board, shape, same_colour_swaps=same_colour_swaps):
        if (mx, my, mg) == (x, y, g):
            return shape.clear_runs(moved)
    return None


def successors(board: int, shape: Shape = STANDARD, *, same_colour_swaps: bool = False,
               skip_left_swaps: bool = False):
    """Yield ``((x, y, g), child)`` for every legal move, in lexicographic order.

    The order is the answer order of NOIP 2011: by x, then y, then g with 1
    before -1.  ``child`` is settled.  ``skip_left_swaps`` is as in
    :func:`raw_successors`.  The empty board yields nothing.
    """
    clear = shape.clear_runs
    for x, y, g, _, _, moved in raw_successors(board, shape, same_colour_swaps=same_colour_swaps,
                                               skip_left_swaps=skip_left_swaps):
        yield (x, y, g), clear(moved)


def format_board(board: int, shape: Shape = STANDARD) -> str:
    """Draw the board as text: top row first, cells separated by spaces, one column each.

    Colours are written in decimal right-aligned to the widest colour, empty
    cells as ``.``; rows above the tallest column are omitted (the empty board
    is ``"(empty)"``).
    """
    cols = to_columns(board, shape)
    top = max((len(c) for c in cols), default=0)
    if top == 0:
        return "(empty)"
    width = max(len(str(v)) for c in cols for v in c)
    rows = []
    for y in range(top - 1, -1, -1):
        cells = []
        for c in cols:
            v = c[y] if y < len(c) else 0
            cells.append(str(v).rjust(width) if v else ".".rjust(width))
        rows.append(" ".join(cells))
    return "\n".join(rows)
