"""Pattern databases, generic over games: build, store, cache, combine.

A *pattern database* (PDB; Culberson and Schaeffer, "Pattern databases",
Computational Intelligence 14, 1998) is the table of exact distances to the
goal in an *abstraction* of a game: a smaller state space in which some
pieces are indistinguishable.  Looked up for a concrete state it is a lower
bound on the concrete distance, because every concrete path maps onto an
abstract path that costs no more.

A game gives an :class:`Abstraction` (see :mod:`searchkit.machinery.pdb.abstraction`
and the guide's section "Giving a game an abstraction"); this package

- builds its table by 0-1 breadth-first search backwards from the abstract
  goals (:func:`build`): moves of pieces outside the pattern cost 0, so
  disjoint patterns' tables *add up* (Korf and Felner, "Disjoint pattern
  database heuristics", Artificial Intelligence 134, 2002);
- stores it under a perfect hash (:mod:`searchkit.machinery.pdb.ranking`) in one byte
  or four bits per entry, in the file format of :mod:`searchkit.machinery.pdb.store`
  (the native engine reads and writes the same files);
- caches it under the user's cache directory, verified when loaded
  (:func:`load_or_build`);
- combines lookups (:func:`additive`, :func:`maximum`, :func:`reflected`).

numpy is needed to build tables with the Python builder and to load them into the Python engine: ``pip
install 'searchkit-puzzles[pdb]'`` (the native engine and ``searchkit pdb build`` with the native builder
do without it).
"""

from __future__ import annotations

from searchkit.machinery.pdb.abstraction import Abstraction
from searchkit.machinery.pdb.combine import additive, maximum, reflected
from searchkit.machinery.pdb.store import (PatternDatabase, cache_dir, clear, ensure_file, finish_writes, load_or_build,
                                 make_folder, path_for, progress_bar)

__all__ = ["Abstraction", "PatternDatabase", "additive", "build", "cache_dir", "clear", "ensure_file", "finish_writes",
           "load_or_build", "make_folder", "maximum", "path_for", "progress_bar", "reflected"]


def build(abstraction, progress=None):
    """The folded distance table of ``abstraction`` (see :func:`searchkit.machinery.pdb.build.build`)."""
    from searchkit.machinery.pdb.build import build as _build

    return _build(abstraction, progress=progress)
