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

from .board import STANDARD, Shape, from_columns, raw_successors, to_columns
from .bound import INFINITE, colour_keys, table_for

__all__ = ["Outcome", "solve", "solve_columns", "format_moves", "main"]


class Outcome:
    """The result of a search.

    Attributes:
        moves: the answer as a list of ``(x, y, g)`` tuples, or None if there
            is none.
        nodes: boards expanded (their moves generated).
        generated: children built and settled.
        cuts: children cut by the lower bound (d) before being settled, or by
            the colour cut (b) after settling, plus boards found hopeless
            right after a vanishing.
        tt_hits: children skipped because the transposition table knew them.
    """

    __slots__ = ("moves", "nodes", "generated", "cuts", "tt_hits")

    def __init__(self, moves, nodes=0, generated=0, cuts=0, tt_hits=0) -> None:
        self.moves = moves
        self.nodes = nodes
        self.generated = generated
        self.cuts = cuts
        self.tt_hits = tt_hits

    def __repr__(self) -> str:
        return (f"Outcome(moves={self.moves!r}, nodes={self.nodes}, generated={self.generated}, "
                f"cuts={self.cuts}, tt_hits={self.tt_hits})")


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
    out.nodes, out.generated, out.cuts, out.tt_hits = search.counts
    return out


class _Search:
    """One search's state: rules, tables and counters (not part of the API).

    The colour state of a board is three values: ``keys``, the per-colour
    column-count keys (:func:`~searchkit_mayan.bound.colour_keys`); ``ds``,
    each colour's table value D (INFINITE exactly when the colour has 1..R-1
    blocks, which is rule (b)); and ``sd``, the sum of the ds.
    """

    def __init__(self, shape, same, skip_left, colour_cut, transposition, lower_bound):
        self.shape = shape
        self.same = same
        self.skip_left = skip_left
        self.colour_cut = colour_cut
        self.transposition = transposition
        self.lower_bound = lower_bound
        self.table = table_for(shape.width, shape.height, shape.run)
        self.failed: dict[int, set] = {}  # k -> boards that failed with k moves left
        self.path: list = []
        self.counts = [0, 0, 0, 0]  # nodes, generated, cuts, tt hits

    def colour_state(self, board):
        keys = colour_keys(board, self.shape)
        table = self.table
        ds = [table[k] for k in keys]
        return keys, ds, sum(ds)

    def hopeless(self, ds, sd, k):
        """True when rule (d) or (b), as switched on, proves k moves are not enough."""
        if self.lower_bound:
            return max(max(ds), (sd + 1) // 2) > k
        return self.colour_cut and max(ds) >= INFINITE

    def run(self, root: int, n: int) -> bool:
        """Exact-n search from ``root``; on success the moves are in ``self.path``."""
        self.path.clear()
        if n == 0 or root == 0:
            return n == 0 and root == 0
        keys, ds, sd = self.colour_state(root)
        if self.hopeless(ds, sd, n):
            return False
        for k in range(n + 1):
            self.failed.setdefault(k, set())
        return self._dfs(root, n, keys, ds, sd)

    def _dfs(self, root, n, keys, ds, sd):
        shape = self.shape
        w = shape.width
        clear = shape.clear_runs
        moves = raw_successors
        table = self.table
        powers = table.powers
        # Key step of a block leaving column x to the right (steps[1][x]) or
        # to the left (steps[-1][x]).
        steps = [None, [powers[x + 1] - powers[x] if x + 1 < w else 0 for x in range(w)],
                 [powers[x - 1] - powers[x] if x else 0 for x in range(w)]]
        same, skip_left = self.same, self.skip_left
        use_bound, use_tt = self.lower_bound, self.transposition
        failed = self.failed
        colour_state, hopeless = self.colour_state, self.hopeless
        path = self.path
        counts = self.counts
        palette = [c for c, key in enumerate(keys) if key]  # the colours; never grows

        def child(k, raw, move, keys, ds, a, a2, ka, da, kb, db, s):
            """Settle ``raw`` (the board after ``move``) and search it with k moves left.

            The move took one block of colour a into the column of key ka (D
            value da) and, for a swap (a2 != 0), one of colour a2 the other way
            (kb, db); s is the child's sum of D values.
            """
            counts[1] += 1
            settled = clear(raw)
            if k == 0:
                if settled == 0:
                    path.append(move)
                    return True
                return False
            if settled == 0:
                return False  # emptied too early: the empty board has no moves
            if use_tt and settled in failed[k]:
                counts[3] += 1
                return False
            path.append(move)
            if settled == raw:
                # Nothing vanished: patch the colour state in place, undo after.
                old = keys[a], ds[a], keys[a2], ds[a2]
                keys[a], ds[a] = ka, da
                if a2:
                    keys[a2], ds[a2] = kb, db
                ok = dfs(settled, k, keys, ds, s)
                keys[a], ds[a], keys[a2], ds[a2] = old
            else:
                nkeys, nds, nsd = colour_state(settled)
                if hopeless(nds, nsd, k):
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
            # The bound's max part: a colour whose D is k stays at k unless the
            # move shifts one of its blocks.  One such colour is `need`; two
            # are `pair`, and then only a swap of the two can pass.
            need = -1
            pair = ()
            if use_bound:
                crit = [c for c in palette if ds[c] > km1]
                if len(crit) == 1:
                    need = crit[0]
                elif crit:
                    pair = (crit[0], crit[1], crit[1], crit[0])
            for x, y, g, a, a2, raw in moves(b, shape, same_colour_swaps=same, skip_left_swaps=skip_left):
                if a2 == a:  # a same-colour swap: no column count changes
                    a2 = delta = 0
                else:
                    delta = steps[g][x]
                if need >= 0 and a != need and a2 != need:
                    counts[2] += 1
                    continue
                if pair and (a != pair[0] or a2 != pair[1]) and (a != pair[2] or a2 != pair[3]):
                    counts[2] += 1
                    continue
                ka = keys[a] + delta
                da = table[ka]
                s = sd - ds[a] + da
                if a2:
                    kb = keys[a2] - delta
                    db = table[kb]
                    s += db - ds[a2]
                else:
                    kb = db = 0
                if use_bound and (da > km1 or db > km1 or s > lim2):
                    counts[2] += 1
                    continue
                if child(km1, raw, (x, y, g), keys, ds, a, a2, ka, da, kb, db, s):
                    return True
            if use_tt:
                failed[k].add(b)
            return False

        return dfs(root, n, keys, ds, sd)


def main(argv=None) -> int:
    """Command line: read one case from stdin, print the answer (see the module docstring).

    Returns the exit status: 0 answered (including ``-1``), 2 bad input or usage.
    """
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
        elif a == "--max-moves" and i + 1 < len(args) and args[i + 1].isdigit():
            i += 1
            parse_opts["max_moves"] = int(args[i])
        elif a == "--stats":
            stats = True
        elif a in flags:
            opts[flags[a]] = False
        else:
            print(f"unknown option or missing value: {a!r}", file=sys.stderr)
            return 2
        i += 1
    from .parse import MayanInputError, parse

    try:
        n, columns = parse(sys.stdin.read(), **parse_opts)
    except MayanInputError as err:
        print(f"<stdin>:{err.line}: {err.message}", file=sys.stderr)
        return 2
    out = solve_columns(columns, n, mode=mode, **opts)
    print(format_moves(out.moves))
    if stats:
        print(out, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
