"""The Mayan puzzle as a :class:`searchkit.puzzle.Puzzle` for the core's bounded DFS.

States are packed boards (plain ints, see :mod:`~searchkit_mayan.board`);
moves are ``(x, y, g)`` tuples generated in the answer's lexicographic order
(x, then y, then g = 1 before g = -1), so the core's ``bounded_dfs`` in exact
mode returns the lexicographically smallest solution (NOIP 2011 day 1
problem 3, Luogu P1312).

Pruning rules implemented here (names as registered in ``plugin.py``; each
switched off through ``disabled``):

* ``left-swap``: a left move onto an occupied cell is not generated: it gives
  the same board as the right move of the left neighbour, which sorts first;
* ``few-blocks``: a board with a colour of 1..R-1 blocks is cut (colours never
  change and a colour vanishes R or more at a time);
* ``lower-bound``: the admissible bound of :mod:`~searchkit_mayan.bound`,
  evaluated for a child from its parent's per-colour column counts and the
  move alone, before the child is settled, and again after settling when
  something vanished.

The transposition table (rule ``transposition``) is the core's generic
:func:`searchkit.pruning.failure_memo`.
"""

from __future__ import annotations

from searchkit_mayan.board import raw_successors
from searchkit_mayan.bound import INFINITE, colour_keys, table_for
from searchkit_mayan.instance import MayanInstance

RULE_LEFT = "left-swap"
RULE_FEW = "few-blocks"
RULE_BOUND = "lower-bound"
RULE_TT = "transposition"


class MayanPuzzle:
    """One Mayan board, ready for ``bounded_dfs``.

    Args:
        board: a packed board (a run on it is settled first).
        shape: its :class:`~searchkit_mayan.board.Shape`.
        same_colour_swaps: swapping two blocks of one colour is a legal move
            that changes nothing (AcWing) rather than no move (Luogu, default).
        disabled: names of the pruning rules switched off.
    """

    @classmethod
    def from_instance(cls, instance: MayanInstance, **kwargs) -> "MayanPuzzle":
        """The puzzle of a parsed case (colours renumbered 1..K).

        Raises:
            ValueError: when the board does not fit its shape.
        """
        board, shape = instance.packed()
        return cls(board, shape, **kwargs)

    def __init__(self, board: int, shape, *, same_colour_swaps: bool = False,
                 disabled: frozenset[str] = frozenset()) -> None:
        self.shape = shape
        self.start = shape.clear_runs(board)
        self.same = same_colour_swaps
        self.use_left_swap = RULE_LEFT not in disabled
        self.use_few_blocks = RULE_FEW not in disabled
        self.use_lower_bound = RULE_BOUND not in disabled
        self.table = table_for(shape.width, shape.height, shape.run)
        self._left_skipped = [0]
        self._cuts = {RULE_FEW: 0, RULE_BOUND: 0}

    @property
    def rule_cuts(self) -> dict[str, int]:
        """Cuts made so far by the rules fused into move generation (read by the Solver after a search)."""
        out = {RULE_LEFT: self._left_skipped[0]} if self.use_left_swap else {}
        if self.use_few_blocks:
            out[RULE_FEW] = self._cuts[RULE_FEW]
        if self.use_lower_bound:
            out[RULE_BOUND] = self._cuts[RULE_BOUND]
        return out

    def initial_state(self) -> int:
        return self.start

    def is_goal(self, board: int) -> bool:
        return board == 0

    def solvable(self, board: int) -> bool | None:
        """``True`` for the empty board (the goal), ``False`` when some colour has 1 .. R-1 blocks on ``board`` (it
        can never be emptied), else ``None``.

        Proof of ``False``: no move changes a block's colour, and whenever
        blocks vanish, the blocks of one colour c that vanish together are a
        union of runs of R or more c-blocks, so c's count drops by 0 or by at
        least R.  A count of 1 .. R-1 therefore never reaches 0, and the goal
        is the empty board.  (The ``few-blocks`` rule cuts on the same fact.)

        ``None`` otherwise: whether the board can be emptied at all (the
        question is any number of moves; the case asks for exactly n, or at
        most n under ``--shortest``) is decided here only by search.  The
        NOIP puzzle is a bounded search problem with no known cheap exact
        test; the admissible bound of :mod:`~searchkit_mayan.bound` proves
        that a board needs more than n moves, not that it can never be
        emptied, so it answers another question.
        """
        if board == 0:
            return True
        counts = [0] * (self.shape.max_colour + 1)
        cb, cm = self.shape.cell_bits, self.shape.cell_mask
        for x in range(self.shape.width):
            col = self.shape.column(board, x)
            while col:
                counts[col & cm] += 1
                col >>= cb
        if any(0 < k < self.shape.run for k in counts[1:]):
            return False
        return None

    def successors(self, board: int):
        """Every legal move's settled child, in lexicographic move order (no bound)."""
        clear = self.shape.clear_runs
        for x, y, g, _a, _a2, raw in raw_successors(board, self.shape, same_colour_swaps=self.same,
                                                     skip_left_swaps=self.use_left_swap, skipped=self._left_skipped):
            yield (x, y, g), clear(raw), 1

    def colour_state(self, board: int):
        """``(keys, ds, sd)``: per-colour column-count keys, their bound values D, and the sum of the Ds."""
        keys = colour_keys(board, self.shape)
        table = self.table
        ds = [table[k] for k in keys]
        return keys, ds, sum(ds)

    def hopeless(self, ds, sd, k: int) -> bool:
        """True when the switched-on rules prove that ``k`` moves cannot empty the board."""
        if self.use_lower_bound:
            return max(ds) > k or (sd + 1) // 2 > k
        return self.use_few_blocks and max(ds) >= INFINITE

    @staticmethod
    def _critical(ds, km1: int) -> tuple[int, tuple]:
        """``(need, pair)``: a colour whose D already equals the budget must have a block moved now.

        One such colour: ``need`` is it (a move must take one of its blocks);
        two or more: ``pair`` holds the two orders in which one swap moves a
        block of each of the first two (sound with three or more too: a swap
        moves blocks of two colours at most, so no child can then empty the
        board in time, and keeping fewer of them is no loss); none:
        ``(-1, ())``.
        """
        crit = [c for c, d in enumerate(ds) if c and d > km1]
        if len(crit) == 1:
            return crit[0], ()
        if crit:
            return -1, (crit[0], crit[1], crit[1], crit[0])
        return -1, ()

    def successors_within(self, board: int, budget: int):
        """The successors that may still empty the board within ``budget`` moves in all.

        A child is left out, before it is settled, when the bound computed from
        this board's colour counts and the move exceeds ``budget - 1``; and,
        when the move made blocks vanish, when the settled child's bound does.
        With one move left only a child that is the empty board is kept.
        """
        keys, ds, sd = self.colour_state(board)
        cuts = self._cuts
        if self.hopeless(ds, sd, budget):
            cuts[RULE_BOUND if self.use_lower_bound else RULE_FEW] += 1
            return
        shape = self.shape
        clear = shape.clear_runs
        table = self.table
        powers = table.powers
        km1 = budget - 1
        lim2 = 2 * km1
        use_bound = self.use_lower_bound
        hopeless, colour_state = self.hopeless, self.colour_state
        need, pair = self._critical(ds, km1) if use_bound else (-1, ())
        for x, y, g, a, a2, raw in raw_successors(board, shape, same_colour_swaps=self.same,
                                                  skip_left_swaps=self.use_left_swap, skipped=self._left_skipped):
            if use_bound:
                if a2 == a:  # a same-colour swap changes no column count
                    a2, delta = 0, 0
                else:
                    delta = (powers[x + 1] - powers[x]) if g == 1 else (powers[x - 1] - powers[x])
                if need >= 0 and a != need and a2 != need:
                    cuts[RULE_BOUND] += 1
                    continue
                if pair and (a != pair[0] or a2 != pair[1]) and (a != pair[2] or a2 != pair[3]):
                    cuts[RULE_BOUND] += 1
                    continue
                da = table[keys[a] + delta]
                if da > km1:
                    cuts[RULE_BOUND] += 1
                    continue
                s = sd - ds[a] + da
                if a2:
                    db = table[keys[a2] - delta]
                    if db > km1:
                        cuts[RULE_BOUND] += 1
                        continue
                    s += db - ds[a2]
                if s > lim2:
                    cuts[RULE_BOUND] += 1
                    continue
            settled = clear(raw)
            if km1 == 0:
                if settled == 0:
                    yield (x, y, g), 0, 1
                continue
            if settled != raw and settled:
                _, cds, csd = colour_state(settled)
                if hopeless(cds, csd, km1):
                    cuts[RULE_BOUND if use_bound else RULE_FEW] += 1
                    continue
            yield (x, y, g), settled, 1
