"""Heuristics: named lower-bound estimators registered by plugins.

Modelled on Fast Downward's heuristic properties: each heuristic declares
whether it is *admissible* (never above the true remaining cost) and
*consistent* (h(s) <= c(s, s') + h(s') for every successor s'), and tools such
as the comparison and checking commands rely on these flags.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

Estimator = Callable[[Any], int]

#: What an estimate returns for a *dead* state, one from which no goal can be
#: reached (a Sokoban box pushed into a corner): ``float("inf")``, the true
#: remaining cost, so returning it keeps a heuristic admissible exactly when
#: the state really is dead.  Every driver drops such a state instead of
#: storing or expanding it, and for a heuristic that declares it may return
#: it (:attr:`Heuristic.dead_states`) the Solver counts the drops in the
#: search's ``rule_cuts`` under :data:`DEAD_CUTS`.  Compare with
#: ``h == DEAD`` (any infinite float is the same value).
DEAD: float = float("inf")

#: The ``rule_cuts`` key counting the states an estimate called :data:`DEAD`.
DEAD_CUTS = "dead-state"


def counting_dead(estimate: Estimator) -> tuple[Estimator, list[int]]:
    """``(wrapped, count)``: ``estimate`` with ``count[0]`` raised each time it returns :data:`DEAD`.

    The one place the Solver counts dead states: the drivers only drop them
    (``h == DEAD``, or ``g + h`` above a finite bound).  The wrapper is a
    Python call per evaluated state (13% of a Python IDA* search), so the
    Solver wraps only a heuristic that declares :attr:`Heuristic.dead_states`.
    """
    count = [0]

    def wrapped(state):
        h = estimate(state)
        if h == DEAD:
            count[0] += 1
        return h

    return wrapped, count


@attrs.frozen
class Heuristic:
    """A heuristic registered for one game.

    Attributes:
        game: name of the game it applies to.
        name: short lowercase name, the command-line choice (``--heuristic NAME``).
        factory: ``factory(puzzle) -> estimate`` where ``estimate(state) -> int``
            is a lower bound on the cost still needed from ``state``, or a
            ``"package.module:attr"`` string naming the factory (imported on
            first use, so registering costs no import).  The factory may
            precompute per-instance tables; ``estimate`` runs in the search
            loop and must be cheap.
        admissible: the estimate never exceeds the true remaining cost.
        consistent: h(s) <= c(s, s') + h(s') for every successor s'.
        summary: one line for listings.
        params: the options it takes (:class:`~searchkit.algorithm.Param`),
            spelled like an algorithm's: ``-H 'NAME(KEY=VALUE, ...)'``.  A
            heuristic with options has ``factory(puzzle, **options)``.
        options: the bound values, every declared one present (set by
            :meth:`with_options`; the registered heuristic holds the defaults).
        databases: for a heuristic that looks up pattern databases,
            ``databases(**options) -> list of Abstraction`` (or its
            ``"module:attr"``): what ``searchkit pdb build|info|clear`` acts on.
        claims: for a heuristic whose properties depend on its options,
            ``claims(**options) -> {"admissible": bool, "consistent": bool,
            "native": False}`` (any key may be left out); applied by
            :meth:`with_options`.
        native: the name of its native twin when that differs from ``name``
            (``None``: the same name), or ``False``: no native twin (a
            ``claims`` result may set it for some options).  Whether the twin
            exists is read from the game's native module's manifest
            (:mod:`searchkit.machinery.engine`), never from this field alone; the
            options cross to it typed, as the request's ``heuristic_params``.
        dead_states: the estimate may return :data:`DEAD` (it recognises dead
            states).  Only then does the Solver count the states it calls dead
            (``rule_cuts`` under :data:`DEAD_CUTS`), which costs a wrapper call
            per evaluation; every driver drops a ``DEAD`` state either way, so
            an undeclared one is still never expanded, only not counted.
    """

    game: str
    name: str
    factory: Callable[[Any], Estimator] | str
    admissible: bool = True
    consistent: bool = False
    summary: str = ""
    params: tuple = ()
    options: Mapping[str, Any] = attrs.field(
        default=attrs.Factory(lambda self: {p.name: p.default for p in self.params}, takes_self=True), hash=False)
    databases: Callable[..., list] | str | None = None
    claims: Callable[..., Mapping[str, bool]] | None = attrs.field(default=None, eq=False)
    native: str | bool | None = None
    dead_states: bool = False

    def with_options(self, raw: Mapping[str, str]) -> "Heuristic":
        """This heuristic with the options ``raw`` (``KEY -> text``) parsed; its name spells them.

        Raises:
            ValueError: an undeclared option or a value its :class:`Param` refuses.
        """
        from searchkit.algorithm import bind_params

        options = bind_params(self, dict(raw), kind="heuristic")
        name = f"{self.name}({', '.join(f'{k}={v}' for k, v in raw.items())})" if raw else self.name
        native = self.name if self.native is None else self.native  # the twin's name, before `name` spells options
        flags: dict[str, Any] = {"native": native, **(self.claims(**options) if self.claims is not None else {})}
        return attrs.evolve(self, name=name, options=options, **flags)

    def abstractions(self) -> list:
        """The pattern databases' abstractions this heuristic uses with its options (``[]``: none)."""
        if self.databases is None:
            return []
        from searchkit._refs import resolve

        return list(resolve(self.databases)(**self.options))

    def bind(self, puzzle: Any) -> Estimator:
        """Return the plain ``estimate(state) -> int`` callable for ``puzzle``.

        This is the one way to build an estimator: it resolves a string
        factory on first use.

        Raises:
            ImportError, AttributeError: a string factory that names nothing.
        """
        from searchkit._refs import resolve

        if self.params:
            return resolve(self.factory)(puzzle, **self.options)
        return resolve(self.factory)(puzzle)
