"""Flood-It on the native engine: the problem object the Solver hands a native request to.

The native domain is the crate ``searchkit-flood`` in ``plugins/flood/native`` (Rust, built with searchkit's
kit crate ``searchkit-pyo3``), the optional package ``searchkit-puzzles-flood-native`` whose module is
``searchkit_flood_native``.  It is the twin of :class:`~searchkit_flood.areas.FloodPuzzle`: the same area numbering,
successors in the same order with the same rules fused in (``frontier-colours``, ``no-growth``,
``completion``, ``exposure``), the same heuristics with the same values (``colours``, ``eccentricity``,
``layered``, ``puchert``, ``greedy``, ``two-best``), the ``dominance`` rule cutting the same states, and the
same tie-break; the differential tests (``tests/native/test_flood_differential.py``) hold it to that.
Moves are colour indices, as in the Python puzzle.
"""

from __future__ import annotations

from searchkit.limits import setup_check

#: Colour indices are 16-bit in the native engine: a board with more colours stays on the Python engine.
NATIVE_MAX_COLOURS = 1 << 16
#: Boards of more same-colour areas than this are searched by the Python engine.  The native domain holds a
#: bitset of every area for each area (``areas * areas / 8`` bytes: 2 MiB at 4096 areas), built before its
#: first limit check; a 2000x2000 board of some 2 million areas would ask for 500 GB of it.  The largest
#: ColorFill boards (24x24) have at most 576.
NATIVE_MAX_AREAS = 4096


class NativeFlood:
    """One board as a native problem: ``solve(request) -> result`` (the dicts of ``searchkit/protocol.py``).

    Attributes:
        board: the :class:`~searchkit_flood.board.Board` (its pivot set from ``--start``).
    """

    __slots__ = ("_module", "board")

    def __init__(self, module, board) -> None:
        self._module = module
        self.board = board

    def solve(self, request: dict) -> dict:
        """Search the board as ``request`` asks; the result dict's moves are colour indices.

        Raises:
            ValueError: a request the native engine refuses (an unknown heuristic or rule name).
        """
        b = self.board
        return self._module.solve((b.width, b.height, b.cells, b.pivot), request)


def native_problem(board, disabled) -> NativeFlood | None:
    """The native problem of ``board``, or ``None`` without the native package (the rules ``disabled`` off
    cross in the request).

    Raises:
        PlanError: a board the native engine does not take, saying why: more than :data:`NATIVE_MAX_COLOURS`
            colours, or more than :data:`NATIVE_MAX_AREAS` areas (reckoned natively, in time linear in the
            cells).  Under ``--engine auto`` the Solver then searches on the Python engine; under ``native``
            its plan error quotes the reason.
    """
    try:
        import searchkit_flood_native as module
    except ImportError:
        return None
    from searchkit.plugin import PlanError

    if board.colours > NATIVE_MAX_COLOURS:
        raise PlanError(f"the board has {board.colours} colours, and the native engine takes at most "
                        f"{NATIVE_MAX_COLOURS}")
    if len(board.cells) > NATIVE_MAX_AREAS:  # fewer cells cannot make more areas: no need to count them
        areas, _words = module.flood_areas(board.width, board.height, board.cells, board.pivot)
        if areas > NATIVE_MAX_AREAS:
            raise PlanError(f"the board has {areas} areas (same-colour regions), and the native engine takes at "
                            f"most {NATIVE_MAX_AREAS}: it holds a bitset of every area for each area "
                            f"({areas}x{areas} bits); use --engine auto or python")
    return NativeFlood(module, board)


class CellReplay:
    """Flood-It on the cells themselves, to check a native solution: a puzzle of ``initial_state``,
    ``successors`` and ``is_goal`` whose state is the flooded region as a cell bitset (bit ``y * W + x``).

    It shares no code with the area graph the engines search (neither Python's
    :class:`~searchkit_flood.areas.AreaGraph` nor the native one): a move recolours the region and absorbs the
    4-connected cells of the new colour that touch it, found by shifting the whole bitset (one shift per
    direction, masked at the board's left and right edges) until nothing is added.  Every colour is a move
    (cost 1), as in the plain puzzle with every rule off; :meth:`successor` gives the child of one move, so a
    replay grows only the colours played.  Building it and replaying a 14x14 solution takes about 0.06 ms (0.19 ms
    before ``successor`` and the masks read from the cells' bytes, same run), against about 1 ms for building the
    plain :class:`~searchkit_flood.areas.FloodPuzzle` and replaying on it; PC19's 1000 answers replay in 48 to
    85 ms of CPU (60 to 100 ms before :meth:`_grow` kept its free cells, in turns, 2026-12-02).
    """

    __slots__ = ("_width", "_all", "_not_left", "_not_right", "_masks", "_start")

    def __init__(self, board) -> None:
        w, h = board.width, board.height
        self._width = w
        self._all = (1 << (w * h)) - 1
        self._masks = _colour_masks(board)
        left = int(("0" * (w - 1) + "1") * h, 2)  # column 0 (the bit string's last character is cell 0)
        self._not_left = self._all & ~left
        self._not_right = self._all & ~(left << (w - 1))
        self._start = self._grow(1 << board.pivot, self._masks[board.cells[board.pivot]])

    def _grow(self, region: int, mask: int) -> int:
        """``region`` with the cells of ``mask`` 4-connected to it through cells of ``mask``.

        ``free`` (the cells of ``mask`` outside the region so far) lies on the board, so the shift by a row
        needs no mask of its own: a bit shifted past the last row meets no free cell.
        """
        w, not_left, not_right = self._width, self._not_left, self._not_right
        free = mask & ~region
        edge = region
        while True:
            add = (((edge << 1) & not_left) | ((edge >> 1) & not_right) | (edge << w) | (edge >> w)) & free
            if not add:
                return region
            region |= add
            free ^= add
            edge = add

    def initial_state(self) -> int:
        return self._start

    def is_goal(self, state: int) -> bool:
        return state == self._all

    def successors(self, state: int):
        """Every colour in index order (a generator: a replay stops at the move it looks for)."""
        for c, mask in enumerate(self._masks):
            yield c, self._grow(state, mask), 1

    def successor(self, state: int, move) -> tuple[int, int] | None:
        """``(child, 1)`` of colour ``move``, as :meth:`successors` gives it, or ``None`` for a move that is
        not a colour index; the replay check asks this instead of growing every colour before the move."""
        if not (isinstance(move, int) and 0 <= move < len(self._masks)):
            return None
        return self._grow(state, self._masks[move]), 1


#: Boards of at most this many colours get their masks from the bytes of their cells (one pass in C per colour,
#: 4 to 18 times faster than the loop over the cells on 8x8 to 1000x1000 boards with 6 to 64 colours).
_BYTES_COLOURS = 256
_ZEROS = b"0" * 256


def _colour_masks(board) -> list[int]:
    """The cells of each colour as a bitset (bit ``y * W + x``), ``masks[c]`` for colour index ``c``.

    With at most :data:`_BYTES_COLOURS` colours each cell is a byte: the cells' bytes, reversed (cell 0 is the
    last binary digit), are translated to ``"1"`` where the colour is and ``"0"`` elsewhere and read in base 2,
    the case's clock read before each colour.  With more, a loop over each row's cells, the clock read before
    each row (on a 1600 x 1600 board, 1600 rows of 1600 cells).
    """
    w, h, cells = board.width, board.height, board.cells
    if board.colours <= _BYTES_COLOURS:
        setup_check()
        data = bytes(cells)[::-1]
        masks = []
        for c in range(board.colours):
            setup_check()
            masks.append(int(data.translate(_ZEROS[:c] + b"1" + _ZEROS[c + 1:]), 2))
        return masks
    masks = [0] * board.colours
    for y in range(h):  # a row's masks first (w bits each), then one shift into the board's per colour
        setup_check()
        row: dict[int, int] = {}
        for x, c in enumerate(cells[y * w:(y + 1) * w]):
            row[c] = row.get(c, 0) | 1 << x
        for c, bits in row.items():
            masks[c] |= bits << (y * w)
    return masks
