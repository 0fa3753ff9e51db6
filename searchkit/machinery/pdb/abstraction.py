"""What a game declares to get a pattern database: an :class:`Abstraction`."""

from __future__ import annotations

import json
from typing import Any


class Abstraction:
    """An abstract state space, numbered ``0 .. size-1``, with its goals and backward moves.

    Subclass it and set or define:

    Attributes:
        game: the game's registered name.
        pattern: what the abstraction keeps (for sliding tiles: the tiles it
            tells apart), a tuple of JSON values.
        options: anything else that changes the table (board side, goal), a
            dict of JSON values.
        size: the number of abstract states; :meth:`predecessors` and
            :meth:`goals` speak in ranks ``0 .. size-1`` (a perfect hash,
            e.g. :func:`searchkit.machinery.pdb.ranking.rank`).
        fold: ``size`` is a multiple of it; each run of ``fold`` consecutive
            ranks is stored as one entry, the minimum of their distances
            (sliding tiles: the blank's cell is the last rank digit, and the
            table forgets it).  Default 1: no folding.

    Methods to define:
        ``goals()``: the ranks of the abstract goal states (an int array or
        sequence); their distance is 0.

        ``predecessors(ranks)``: for an int64 numpy array of ranks, an
        iterable of ``(preds, costs)`` pairs, one per kind of move: ``preds``
        an int64 array aligned with ``ranks`` holding the rank of a state from
        which that move reaches the state, or ``-1`` where there is none;
        ``costs`` its cost, an int or an array aligned with ``ranks``, each
        **0 or 1**.  A move must cost 1 when it moves a piece of the pattern
        and 0 otherwise: then a concrete path of cost c maps onto an abstract
        path costing the number of pattern moves on it, and the tables of
        disjoint patterns add up to at most c (admissible).  For a game whose
        moves are their own inverses (sliding tiles) predecessors are the
        successors.

    The key (:meth:`key`) names the table in the cache: two abstractions with
    the same key must have the same table.
    """

    game: str = ""
    pattern: tuple = ()
    options: dict[str, Any] = {}
    size: int = 0
    fold: int = 1

    @property
    def entries(self) -> int:
        """The number of stored entries, ``size // fold``."""
        return self.size // self.fold

    def key(self) -> str:
        """Canonical JSON of the game, pattern, options, size and fold: the table's identity."""
        return json.dumps({"game": self.game, "pattern": list(self.pattern), "options": self.options,
                           "size": self.size, "fold": self.fold}, sort_keys=True, separators=(",", ":"))

    def label(self) -> str:
        """A short human name, e.g. ``sliding-tiles 4x4 tiles 1-2-3-5-6``."""
        return f"{self.game} {'-'.join(map(str, self.pattern))}"

    def goals(self):
        raise NotImplementedError

    def predecessors(self, ranks):
        raise NotImplementedError

    def native_builder(self):
        """``builder(abstraction, path, key, progress) -> bool`` that writes this table natively, or ``None``
        (default).

        It must write exactly the file :mod:`searchkit.machinery.pdb.store` would
        (same entries, format and key); the result is verified when read.
        ``progress`` is ``None`` or ``progress(reached, total)``, to call as
        the build goes (it moves the progress bar); ``False`` declines.
        """
        return None


class ExplicitAbstraction(Abstraction):
    """An abstraction given by plain Python functions, one state at a time (for small or toy spaces).

    Args:
        game, pattern, options, size, fold: as in :class:`Abstraction`.
        goals: the goal ranks.
        predecessors: ``predecessors(rank) -> iterable of (rank, cost)``,
            cost 0 or 1.

    Slow (a Python call per state) but the simplest way to give a game a
    table; the builder is the same.
    """

    def __init__(self, game, pattern, options, size, goals, predecessors, fold=1):
        self.game, self.pattern, self.options, self.size, self.fold = game, tuple(pattern), dict(options), size, fold
        self._goals = list(goals)
        self._pred = predecessors

    def goals(self):
        return self._goals

    def predecessors(self, ranks):
        import numpy as np

        lists = [list(self._pred(int(r))) for r in ranks]
        width = max((len(x) for x in lists), default=0)
        for slot in range(width):
            preds = np.full(len(lists), -1, dtype=np.int64)
            costs = np.zeros(len(lists), dtype=np.int64)
            for i, moves in enumerate(lists):
                if slot < len(moves):
                    preds[i], costs[i] = moves[slot]
            yield preds, costs
