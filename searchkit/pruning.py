"""Pruning rules: named, switchable cuts, each saying where and under which algorithms it acts.

A rule is registered by a plugin for one game and acts in one of three places
(:attr:`PruningRule.where`):

* ``"successors"``: inside the game's own successor generation (the game
  receives the set of disabled rule names when it builds the puzzle);
* ``"successors_within"``: inside the puzzle's optional
  ``successors_within(state, remaining)``, a bound fused into move
  generation, which only the depth-bounded drivers call;
* ``"driver"``: a :class:`Pruner` of plain callables bound to the puzzle
  before the search and called by the driver (never through the plugin
  manager).

Each algorithm declares the rule hooks it calls
(:attr:`searchkit.algorithm.Algorithm.rule_hooks`, from :data:`ALL_HOOKS`);
a rule declares the hooks it needs (:attr:`PruningRule.needs`) and acts
under an algorithm when the algorithm calls every one of them (and the
rule's own ``algorithms`` list, if any, names it).  A *plain* algorithm
(``bfs``, the test reference) calls no hook, not even ``"successors"``, so it
runs with every rule off.  ``--no-prune NAME`` switches
a rule off so its effect can be measured (after Fast Downward's pruning
components), and the search statistics count each rule's cuts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from searchkit.pruner import Pruner

#: Where a rule acts (see the module docstring).
IN_SUCCESSORS = "successors"
IN_SUCCESSORS_WITHIN = "successors_within"
IN_DRIVER = "driver"
WHERE = (IN_SUCCESSORS, IN_SUCCESSORS_WITHIN, IN_DRIVER)

#: The hooks through which a rule acts, and which an algorithm declares it calls
#: (:attr:`searchkit.algorithm.Algorithm.rule_hooks`, :attr:`PruningRule.needs`):
HOOK_SUCCESSORS = "successors"  #: it searches the game's own ``successors``, with the rules fused into them
HOOK_SUCCESSORS_WITHIN = "successors_within"  #: it calls ``successors_within(state, remaining)`` when present
#: it asks ``cut(state, g, remaining)`` before expanding a state (depth-first: ``remaining`` is the cost left)
HOOK_CUT = "cut"
#: it asks ``cut(state, g, None)`` once per state, when a best-first driver pops it for its first expansion,
#: states being popped in the order of the driver's key (a dominance test that compares a state with those
#: expanded before it at the same g relies on that)
HOOK_CUT_ON_POP = "cut_on_pop"
HOOK_ON_FAIL = "on_fail"  #: it calls ``on_fail`` after a state was searched without a solution (depth-first)
ALL_HOOKS = frozenset({HOOK_SUCCESSORS, HOOK_SUCCESSORS_WITHIN, HOOK_CUT, HOOK_CUT_ON_POP, HOOK_ON_FAIL})


def _default_needs(rule: "PruningRule") -> frozenset[str]:
    if rule.where == IN_SUCCESSORS_WITHIN:
        return frozenset({HOOK_SUCCESSORS_WITHIN})
    if rule.where == IN_DRIVER:
        return frozenset({HOOK_CUT})
    return frozenset({HOOK_SUCCESSORS})


@attrs.frozen
class PruningRule:
    """A named pruning rule registered for one game.

    Attributes:
        game: the game it applies to.
        name: short lowercase name used by ``--no-prune NAME``.
        summary: one line: what is cut and why it is sound.
        factory: ``factory(puzzle) -> Pruner`` (or a ``"module:attr"`` string
            naming it), called once per search, for ``where="driver"``;
            ``None`` when the game implements the rule itself.
        sound_for: ``"optimal"`` (the default, the weaker claim) if the rule
            never changes an optimal cost; ``"first"`` if it also never changes
            which solution a first-solution driver returns.  The contract suite
            tests whichever is claimed.
        where: ``"successors"``, ``"successors_within"`` or ``"driver"``
            (default: ``"driver"`` with a factory, else ``"successors"``).
        needs: the hooks the rule needs (:data:`ALL_HOOKS`; it acts under an
            algorithm whose :attr:`~searchkit.algorithm.Algorithm.rule_hooks`
            hold them all): by default ``{"successors"}``,
            ``{"successors_within"}`` or ``{"cut"}`` by ``where``; a
            transposition table of failures needs ``{"cut", "on_fail"}``; a
            dominance test sound only when states are cut as a best-first
            search pops them needs ``{"cut_on_pop"}``.
        algorithms: names of the only algorithms it is valid under
            (``None``: every algorithm with the hooks it needs).  Prefer
            ``needs``: a hook says why, and a new algorithm that calls it is
            covered without editing the rule.
        native: the name of its native twin (same cuts, same counts) when
            that differs from ``name`` (``None``: the same name), or ``False``:
            none.  Whether the twin exists is read from the game's native
            module's manifest (:mod:`searchkit.machinery.engine`).
        path_in_state: the rule needs part of the path (the last move), which
            the game keeps in the state (a constant there when the rule is
            off), and it cuts only paths that reach a state already reached at
            no higher cost (an undo returns to the parent).  Under an
            algorithm that detects duplicates
            (:attr:`~searchkit.algorithm.Algorithm.detects_duplicates`) such a
            path is dropped anyway and the field would split one position into
            several states (A* expanded 12% more 8-puzzle states with
            sliding tiles' ``no-undo`` on), so the rule is off there: it acts
            under the depth-first drivers without a table.
    """

    game: str
    name: str
    summary: str
    factory: Callable[[Any], Pruner] | str | None = None
    sound_for: str = "optimal"
    where: str = attrs.field()
    needs: frozenset[str] = attrs.field(converter=frozenset)
    algorithms: tuple[str, ...] | None = None
    native: str | bool | None = None
    path_in_state: bool = False

    @where.default
    def _where_default(self):
        return IN_SUCCESSORS if self.factory is None else IN_DRIVER

    @needs.default
    def _needs_default(self):
        return _default_needs(self)

    def __attrs_post_init__(self):
        if self.where not in WHERE:
            raise ValueError(f"rule {self.name!r}: where must be one of {', '.join(WHERE)}, got {self.where!r}")
        if (self.where == IN_DRIVER) != (self.factory is not None):
            raise ValueError(f"rule {self.name!r}: a factory is given exactly for where='driver'")
        if not self.needs <= ALL_HOOKS:
            raise ValueError(f"rule {self.name!r}: unknown hooks {sorted(self.needs - ALL_HOOKS)} "
                             f"(known: {', '.join(sorted(ALL_HOOKS))})")

    def acts_under(self, algorithm) -> bool:
        """Whether the rule takes effect under ``algorithm`` (an :class:`~searchkit.algorithm.Algorithm`)."""
        if HOOK_SUCCESSORS not in algorithm.rule_hooks or not self.needs <= algorithm.rule_hooks:
            return False  # an algorithm that skips the game's own successors runs with every rule off
        if self.path_in_state and getattr(algorithm, "detects_duplicates", False):
            return False  # its duplicate detection drops what the rule cuts; the rule would split states
        return self.algorithms is None or algorithm.name in self.algorithms

    def bind(self, puzzle) -> Pruner:
        """The rule's :class:`Pruner` for ``puzzle`` (its factory resolved on first use), named after the rule."""
        from searchkit._refs import resolve

        pruner = resolve(self.factory)(puzzle)
        return attrs.evolve(pruner, name=self.name)


def failure_memo() -> Pruner:
    """A transposition table of states proven to fail with a given remaining cost.

    For depth-first drivers: after ``state`` was fully searched with
    ``remaining`` left and held no solution, a later visit of ``state`` with
    the *same* remaining cost is cut.  The key includes it because a state
    that fails with exactly 1 move left may succeed with 3 (and, in
    exact-depth search, one that fails with 3 may succeed with 2).  Sound for
    first-solution search too: a cut subtree holds no solution at all.  Needs
    the ``cut`` and ``on_fail`` hooks.

    Returns:
        A :class:`Pruner` whose ``cut`` and ``on_fail`` share one table
        (state -> bit set of failed remaining costs), fresh for every call.
    """
    from searchkit.pruner import Pruner

    failed: dict[Any, int] = {}
    get = failed.get

    def cut(state, g, remaining):
        return remaining is not None and (get(state, 0) >> remaining) & 1 == 1

    def on_fail(state, g, remaining):
        if remaining is not None:
            failed[state] = get(state, 0) | (1 << remaining)

    return Pruner(cut=cut, on_fail=on_fail)


def failure_memo_for(puzzle) -> Pruner:
    """:func:`failure_memo` as a rule factory (the puzzle is not needed): ``"searchkit.pruning:failure_memo_for"``."""
    return failure_memo()


def __getattr__(name: str) -> Any:
    # ``searchkit.pruning.Pruner``, its home before it had a module of its own: loaded on first use (a native
    # search binds no rule, and an attrs class costs every command's start-up about a millisecond).
    if name == "Pruner":
        from searchkit.pruner import Pruner

        return Pruner
    raise AttributeError(f"module 'searchkit.pruning' has no attribute {name!r}")
