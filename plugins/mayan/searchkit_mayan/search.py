"""Depth-first search for the Mayan puzzle (temporary, until the core's driver takes over).

:func:`solve` answers NOIP 2011 day 1 problem 3 (Luogu P1312): the
lexicographically smallest sequence of exactly n moves that empties the board
(moves compared in order, each by x, then y, then g with 1 before -1), or
None.  Children are tried in that order, so the first solution found is the
answer.  ``mode="shortest"`` instead finds the fewest moves d <= n and the
smallest sequence of exactly d moves.

Pruning rules, each switchable (all on by default, none changes the answer):

* ``skip_left_swaps`` (a): a left move onto an occupied cell gives the same
  board as the left neighbour's right move, which sorts earlier;
* ``colour_cut`` (b): a board with a colour of 1..R-1 blocks cannot be
  emptied (colours never change, and vanishing takes R of one colour);
* ``transposition`` (c): a board that failed with k moves left fails again
  (key: board and k);
* ``lower_bound`` (d): the child's :mod:`~searchkit_mayan.bound` lower bound,
  evaluated from the parent's per-colour column counts and the move alone,
  before the child is built or settled, must not exceed the moves left.

Run ``python -m searchkit_mayan.search [options] < case.in``; options are
``--shortest``, ``--same-colour-swaps``, ``--settle-start``,
``--max-moves N``, ``--no-RULE`` (``--no-left-swap-skip``, ``--no-colour-cut``,
``--no-transposition``, ``--no-bound``) and ``--stats`` (counts on stderr).
"""

from __future__ import annotations

from .board import Shape, STANDARD, to_columns, from_columns
from .bound import INFINITE, table_for

__all__ = ["Outcome", "solve", "solve_columns", "format_moves", "main"]


class Outcome:
    """The result of a search.

    Attributes:
        moves: the answer as a list of ``(x, y, g)`` tuples, or None if there
            is none.
        nodes: boards expanded (their moves generated).
        generated: children built and settled.
        bound_cuts: children cut by the lower bound before being built.
        tt_hits: children skipped because the transposition table knew them.
    """

    __slots__ = ("moves", "nodes", "generated", "bound_cuts", "tt_hits")

    def __init__(self, moves, nodes=0, generated=0, bound_cuts=0, tt_hits=0) -> None:
        self.moves = moves
        self.nodes = nodes
        self.generated = generated
        self.bound_cuts = bound_cuts
        self.tt_hits = tt_hits

    def __repr__(self) -> str:
        return (f"Outcome(moves={self.moves!r}, nodes={self.nodes}, generated={self.generated}, "
                f"bound_cuts={self.bound_cuts}, tt_hits={self.tt_hits})")


def format_moves(moves) -> str:
    """The judge's output: one ``x y g`` line per move, or ``-1`` for None."""
    if moves is None:
        return "-1"
    return "\n".join(f"{x} {y} {g}" for x, y, g in moves)


def solve_columns(columns, n: int, *, width: int = 5, height: int = 7, run: int = 3, **options) -> Outcome:
    """:func:`solve` for a board given as column lists (bottom-up, any positive colours).

    Colours are renumbered 1..K in order of value (moves do not depend on
    them).  Raises ValueError as :func:`~searchkit_mayan.board.from_columns`.
    """
    palette = sorted({c for col in columns for c in col})
    index = {c: i for i, c in enumerate(palette, 1)}
    shape = Shape(width, height, run, max(4, len(palette).bit_length()))
    board = from_columns([[index[c] for c in col] for col in columns], shape)
    return solve(board, n, shape, **options)


def solve(board: int, n: int, shape: Shape = STANDARD, *, mode: str = "exact",
          same_colour_swaps: bool = False, skip_left_swaps: bool = True, colour_cut: bool = True,
          transposition: bool = True, lower_bound: bool = True) -> Outcome:
    """Find the lexicographically smallest solution of exactly (or at most) n moves.

    Args:
        board: a packed board (stacks; a run on it is settled first).
        n: the number of moves (>= 0).
        shape: the board geometry; colours above 255 are renumbered.
        mode: ``"exact"``: exactly n moves, the board empty only at the end
            (the empty board has no moves, so a solution may spend moves and
            undo them); ``"shortest"``: the fewest moves d <= n, then the
            smallest sequence of exactly d moves.
        same_colour_swaps: swapping two blocks of one colour is a move that
            changes nothing (AcWing) instead of no move (Luogu).
        skip_left_swaps, colour_cut, transposition, lower_bound: the pruning
            rules (a)-(d) of the module docstring.

    Returns:
        An :class:`Outcome`.

    Raises:
        ValueError: an unknown mode or a negative n.
    """
    if mode not in ("exact", "shortest"):
        raise ValueError(f"mode must be 'exact' or 'shortest', got {mode!r}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if shape.max_colour > 255:
        columns = [[c for c in col if c] for col in to_columns(board, shape)]
        return solve_columns(columns, n, width=shape.width, height=shape.height, run=shape.run,
                             mode=mode, same_colour_swaps=same_colour_swaps,
                             skip_left_swaps=skip_left_swaps, colour_cut=colour_cut,
                             transposition=transposition, lower_bound=lower_bound)
    board = shape.clear_runs(board)
    search = _Search(shape, same_colour_swaps, skip_left_swaps, colour_cut, transposition, lower_bound)
    depths = range(n + 1) if mode == "shortest" else (n,)
    out = Outcome(None)
    for depth in depths:
        if search.run(board, depth):
            out.moves = list(search.path)
            break
    out.nodes, out.generated, out.bound_cuts, out.tt_hits = search.counts
    return out


class _Search:
    """One search's state: rules, tables and counters (not part of the API)."""

    def __init__(self, shape, same, skip_left, colour_cut, transposition, lower_bound):
        self.shape = shape
        self.same = same
        self.skip_left = skip_left
        self.colour_cut = colour_cut
        self.transposition = transposition
        self.lower_bound = lower_bound
        self.table = table_for(shape.width, shape.height, shape.run)
        self.failed: dict[int, set] = {}
        self.path: list = []
        self.counts = [0, 0, 0, 0]  # nodes, generated, bound cuts, tt hits

    def colour_state(self, board):
        """Per-colour lists (indexed by colour) of count keys and D values, and sum D."""
        shape = self.shape
        size = shape.max_colour + 1
        keys = [0] * size
        cb, cm = shape.cell_bits, shape.cell_mask
        powers = self.table.powers
        for x in range(shape.width):
            col = shape.column(board, x)
            p = powers[x]
            while col:
                c = col & cm
                if c:
                    keys[c] += p
                col >>= cb
        table = self.table
        ds = [table[k] for k in keys]
        return keys, ds, sum(ds)

    def run(self, root: int, n: int) -> bool:
        """Exact-n search from ``root``; on success the moves are in ``self.path``."""
        self.path.clear()
        if n == 0 or root == 0:
            return n == 0 and root == 0
        keys, ds, sd = self.colour_state(root)
        if self.lower_bound and max(max(ds), (sd + 1) // 2) > n:
            return False
        if self.colour_cut and max(ds) >= INFINITE:
            return False
        return self._dfs(root, n, keys, ds, sd)

    def _dfs(self, root, n, keys, ds, sd):
        shape = self.shape
        w, cb = shape.width, shape.cell_bits
        cm, colmask, sh = shape.cell_mask, shape.column_mask, shape.column_bits
        cb1 = cb - 1
        clear = shape.clear_runs
        table = self.table
        powers = table.powers
        xoff = [x * sh for x in range(w + 1)]
        ycb = [y * cb for y in range(shape.height + 1)]
        lowmask = [(1 << s) - 1 for s in ycb]
        # Key steps of a block moving right / left from column x.
        step_r = [powers[x + 1] - powers[x] if x + 1 < w else 0 for x in range(w)]
        step_l = [powers[x - 1] - powers[x] if x else 0 for x in range(w)]
        same, skip_left = self.same, self.skip_left
        use_bound, use_tt, use_cut = self.lower_bound, self.transposition, self.colour_cut
        failed = self.failed
        for k in range(n + 1):
            failed.setdefault(k, set())
        colour_state = self.colour_state
        path = self.path
        counts = self.counts
        run_len = shape.run
        digit_mask = (1 << table.digit_bits) - 1
        digit_shifts = [j * table.digit_bits for j in range(w)]

        def too_few(keys):
            # Rule (b) without the bound: some colour has 1..R-1 blocks.
            for key in keys:
                if key:
                    t = 0
                    for s in digit_shifts:
                        t += (key >> s) & digit_mask
                    if t < run_len:
                        return True
            return False

        def child(b, k, raw, move, keys, ds, a, a2, ka, da, kb, db, s):
            """Settle ``raw`` (b after ``move``) and search it with k moves left.

            The move took one block of colour a into the column of key ka
            (D value da) and, for a swap, one of colour a2 the other way
            (kb, db); s is the child's sum of D values.  Without the bound only
            ka and kb are meaningful.
            """
            counts[1] += 1
            settled = clear(raw)
            if k == 0:
                if settled == 0:
                    path.append(move)
                    return True
                return False
            if settled == 0 or (use_tt and settled in failed[k]):
                counts[3] += settled != 0
                return False
            path.append(move)
            if settled == raw:
                # Nothing vanished: patch the colour state in place, undo after.
                old = keys[a], ds[a], keys[a2], ds[a2]
                keys[a] = ka
                ds[a] = da
                if a2:
                    keys[a2] = kb
                    ds[a2] = db
                ok = dfs(settled, k, keys, ds, s)
                keys[a], ds[a], keys[a2], ds[a2] = old
            else:
                nkeys, nds, nsd = colour_state(settled)
                if use_bound:
                    cut = max(max(nds), (nsd + 1) // 2) > k
                else:
                    cut = use_cut and too_few(nkeys)
                if cut:
                    counts[2] += 1
                    ok = False
                    if use_tt:
                        failed[k].add(settled)
                else:
                    ok = dfs(settled, k, nkeys, nds, nsd)
            if ok:
                return True
            path.pop()
            return False

        def dfs(b, k, keys, ds, sd):
            counts[0] += 1
            km1 = k - 1
            lim2 = 2 * km1
            # With the bound, a colour whose D is k must be moved by every
            # child's move: one such colour is `need`, two are `pair`.
            need = -1
            pair = ()
            if use_bound:
                crit = [c for c, d in enumerate(ds) if d > km1]
                if len(crit) == 1:
                    need = crit[0]
                elif crit:
                    pair = (crit[0], crit[1], crit[1], crit[0])
            cols = [(b >> o) & colmask for o in xoff[:w]]
            hts = [(c.bit_length() + cb1) // cb for c in cols]
            hts.append(-1)
            db = s = kb = 0
            for x in range(w):
                col = cols[x]
                hl = hts[x - 1] if x else -1
                hr = hts[x + 1]
                xo = xoff[x]
                for y in range(hts[x]):
                    yo = ycb[y]
                    a = (col >> yo) & cm
                    for g in (1, -1):
                        if g == 1:
                            ht = hr
                            if ht < 0:
                                continue
                            delta = step_r[x]
                            to = xo + sh
                        else:
                            ht = hl
                            if ht < 0 or (skip_left and y < ht):
                                continue
                            delta = step_l[x]
                            to = xo - sh
                        if y < ht:  # swap
                            a2 = (cols[x + g] >> yo) & cm
                            if a == a2:
                                if not same:
                                    continue
                                a2 = delta = 0  # a no-op move
                                raw = b
                            else:
                                d = a ^ a2
                                raw = b ^ (d << (xo + yo)) ^ (d << (to + yo))
                        else:  # shift: column x closes up, the block lands on column x+g
                            a2 = 0
                            raw = None
                        ka = keys[a] + delta
                        if use_bound:
                            if need >= 0 and a != need and a2 != need:
                                counts[2] += 1
                                continue
                            if pair and (a != pair[0] or a2 != pair[1]) and (a != pair[2] or a2 != pair[3]):
                                counts[2] += 1
                                continue
                            da = table[ka]
                            if da > km1:
                                counts[2] += 1
                                continue
                            s = sd - ds[a] + da
                            if a2:
                                kb = keys[a2] - delta
                                db = table[kb]
                                if db > km1:
                                    counts[2] += 1
                                    continue
                                s += db - ds[a2]
                            if s > lim2:
                                counts[2] += 1
                                continue
                        else:
                            da = 0
                            if a2:
                                kb = keys[a2] - delta
                        if raw is None:
                            closed = (col & lowmask[y]) | ((col >> ycb[y + 1]) << yo)
                            raw = (b ^ ((col ^ closed) << xo)) | (a << (to + ycb[ht]))
                        if child(b, km1, raw, (x, y, g), keys, ds, a, a2, ka, da, kb, db, s):
                            return True
            if use_tt:
                failed[k].add(b)
            return False

        return dfs(root, n, keys, ds, sd)


def main(argv=None) -> int:
    """Command line: read one case from stdin, print the answer (see the module docstring)."""
    import sys

    args = sys.argv[1:] if argv is None else list(argv)
    opts = {}
    parse_opts = {}
    stats = False
    mode = "exact"
    flags = {
        "--no-left-swap-skip": "skip_left_swaps", "--no-colour-cut": "colour_cut",
        "--no-transposition": "transposition", "--no-bound": "lower_bound",
    }
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--shortest":
            mode = "shortest"
        elif a == "--same-colour-swaps":
            opts["same_colour_swaps"] = True
        elif a == "--settle-start":
            parse_opts["settle_start"] = True
        elif a == "--max-moves":
            i += 1
            parse_opts["max_moves"] = int(args[i])
        elif a == "--stats":
            stats = True
        elif a in flags:
            opts[flags[a]] = False
        else:
            print(f"unknown option {a!r}", file=sys.stderr)
            return 2
        i += 1
    from .parse import MayanInputError, parse

    try:
        n, columns = parse(sys.stdin.read(), **parse_opts)
    except MayanInputError as err:
        print(f"<stdin>:{err}", file=sys.stderr)
        return 1
    out = solve_columns(columns, n, mode=mode, **opts)
    print(format_moves(out.moves))
    if stats:
        print(out, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
