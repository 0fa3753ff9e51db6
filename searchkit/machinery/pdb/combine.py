"""Combining lower bounds: sums over disjoint pattern databases, maxima, reflections.

Each takes and returns plain ``estimate(state) -> int`` callables.

- :func:`additive`: admissible when every concrete move is charged to at most
  one of the parts (disjoint patterns whose abstract moves cost 1 only for the
  pattern's own pieces; Korf and Felner 2002).  The sum of consistent parts
  each changed by a move only when the move is charged to it is consistent.
- :func:`maximum`: the maximum of admissible bounds is admissible, and of
  consistent ones consistent (h_i(s) <= c + h_i(s') <= c + max h(s')).
- :func:`reflected`: ``max(h(s), h(sym(s)))`` for a symmetry ``sym`` of the
  game that fixes the goal (the distance of ``sym(s)`` equals that of ``s``),
  so ``h(sym(s))`` is as admissible as ``h``; a maximum as above (Culberson
  and Schaeffer 1998; Korf and Felner 2002, the 15-puzzle's main diagonal).
"""

from __future__ import annotations


def additive(parts):
    """``estimate(s) = sum(part(s) for part in parts)``."""
    parts = tuple(parts)

    def estimate(state):
        return sum(p(state) for p in parts)

    return estimate


def maximum(parts):
    """``estimate(s) = max(part(s) for part in parts)``."""
    parts = tuple(parts)

    def estimate(state):
        return max(p(state) for p in parts)

    return estimate


def reflected(estimate, symmetry):
    """``max(estimate(s), estimate(symmetry(s)))``."""

    def both(state):
        a = estimate(state)
        b = estimate(symmetry(state))
        return a if a >= b else b

    return both
