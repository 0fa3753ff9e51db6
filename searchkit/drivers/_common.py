"""Helpers shared by the drivers (not public)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from searchkit.limits import Limiter, LimitReached
from searchkit.pruning import Pruner
from searchkit.result import CANCELLED, SearchStats


def split_pruners(pruners: Sequence[Pruner]):
    """Return ``(cut, filter, on_fail, cuts)``: plain callables or ``None`` each, and the cut counts.

    Several rules of a kind are folded into one callable, so a driver makes at
    most one call per kind per node.  ``cuts`` is a dict rule name -> number
    of states its ``cut`` skipped plus successors its ``filter`` dropped,
    updated as the search runs (one increment per cut, nothing per kept node).
    """
    cuts: dict[str, int] = {}
    cut_fns = [(p.name or f"rule{i}", p.cut) for i, p in enumerate(pruners) if p.cut is not None]
    filters = [(p.name or f"rule{i}", p.filter) for i, p in enumerate(pruners) if p.filter is not None]
    fails = [p.on_fail for p in pruners if p.on_fail is not None]
    for name, _ in cut_fns + filters:
        cuts[name] = 0

    cut = None
    if cut_fns:
        def cut(state, g, remaining, _cuts=tuple(cut_fns)):
            for name, c in _cuts:
                if c(state, g, remaining):
                    cuts[name] += 1
                    return True
            return False

    filt = None
    if filters:
        def filt(state, succs, _filters=tuple(filters)):
            for name, f in _filters:
                before = len(succs)
                succs = list(f(state, succs))
                cuts[name] += before - len(succs)
            return succs

    on_fail = None
    if len(fails) == 1:
        on_fail = fails[0]
    elif fails:
        def on_fail(state, g, remaining, _fails=tuple(fails)):
            for f in _fails:
                f(state, g, remaining)

    return cut, filt, on_fail, cuts


def run_guarded(search: Callable[[], str]) -> str:
    """Run ``search`` (which returns a status) and map a limit or Ctrl-C to its status."""
    try:
        return search()
    except LimitReached as stop:
        return stop.status
    except KeyboardInterrupt:
        return CANCELLED


def path_to(parent: dict, goal) -> tuple:
    """Moves from the root to ``goal`` through ``parent`` (state -> ``(parent_state, move)``, root -> ``None``)."""
    moves = []
    node = goal
    while parent[node] is not None:
        node, move = parent[node]
        moves.append(move)
    moves.reverse()
    return tuple(moves)


def expander(puzzle):
    """``(expand, within)``: ``expand(state, remaining)`` for a depth-bounded driver.

    ``within`` is true when the puzzle has ``successors_within(state,
    remaining)`` (a bound fused into move generation, which may omit a
    successor that cannot reach a goal within ``remaining``); otherwise
    ``expand`` ignores ``remaining`` and calls ``successors``.
    """
    within = getattr(puzzle, "successors_within", None) or getattr(puzzle, "bounded_successors", None)
    if within is not None:
        return within, True
    plain = puzzle.successors

    def expand(state, _remaining):
        return plain(state)

    return expand, False


def best_first_setup(puzzle, pruners: Sequence[Pruner], limits):
    """What every best-first driver starts from.

    Returns:
        ``(limiter, successors, is_goal, cut, filt, cuts, tie_break, start)``:
        the started :class:`~searchkit.limits.Limiter`, the puzzle's plain
        callables, the folded pruners of :func:`split_pruners` (without
        ``on_fail``, which best-first drivers never call), the puzzle's
        optional ``tie_break`` (or ``None``) and the initial state.
    """
    limiter = Limiter.of(limits)
    cut, filt, _, cuts = split_pruners(pruners)
    return (limiter, puzzle.successors, puzzle.is_goal, cut, filt, cuts, getattr(puzzle, "tie_break", None),
            puzzle.initial_state())


def counted_stats(counts: dict, limiter, cuts: dict) -> SearchStats:
    """The :class:`~searchkit.result.SearchStats` of a driver that kept its counters in ``counts``
    (keys ``expanded``, ``generated``, ``evaluated``, ``peak``)."""
    return SearchStats(expanded=counts["expanded"], generated=counts["generated"], evaluated=counts["evaluated"],
                       elapsed=limiter.elapsed(), peak_stored=counts["peak"], rule_cuts=tuple(cuts.items()))
