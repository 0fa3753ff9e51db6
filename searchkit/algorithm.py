"""Search algorithms as named, registered components with declared capabilities."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from searchkit.limits import Limiter, Limits
from searchkit.pruning import Pruner
from searchkit.result import SearchResult

#: The rule hooks a driver may call (see :mod:`searchkit.pruning`).
ALL_HOOKS = frozenset({"successors_within", "cut", "filter", "on_fail"})


@attrs.frozen
class Param:
    """An option of an algorithm, given on the command line as ``-a 'NAME(KEY=VALUE, ...)'``.

    Attributes:
        name: the key (a Python identifier, e.g. ``weight``).
        type: ``int``, ``float`` or ``str``.
        default: the value when not given.
        help: one line for listings.
        min: smallest allowed value of a number, or ``None``.
        max: largest allowed value of a number, or ``None``.
    """

    name: str
    type: type
    default: Any
    help: str = ""
    min: int | float | None = None
    max: int | float | None = None

    def parse(self, text: str) -> Any:
        """The typed value of ``text``.

        Numbers are read in plain ASCII decimal only (``2``, ``-3``, ``1.25``,
        ``1e3``): Python's ``int``/``float`` would also take ``1_0``, digits of
        other scripts, ``inf`` and ``nan``, which are refused rather than read
        one of several ways.

        Raises:
            ValueError: not a number of the declared type, or outside ``min``..``max``.
        """
        text = text.strip()
        if self.type in (int, float):
            try:
                value = plain_number(text, self.type)
            except ValueError:
                raise ValueError(f"option {self.name} expects {self.type.__name__}, got {text!r}") from None
        else:
            value = self.type(text)
        if self.min is not None and value < self.min:
            raise ValueError(f"option {self.name} must be at least {self.min}, got {value}")
        if self.max is not None and value > self.max:
            raise ValueError(f"option {self.name} must be at most {self.max}, got {value}")
        return value


def plain_number(text: str, kind: type = int) -> int | float:
    """``text`` as an ``int`` or a finite ``float``, written in ASCII decimal (an int may not have a point).

    Raises:
        ValueError: anything else, e.g. ``1_0``, ``٢``, ``0x10``, ``inf``, ``nan``, ``1.5`` for an int.
    """
    import re

    pattern = r"[+-]?[0-9]+" if kind is int else r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    if not re.fullmatch(pattern, text, flags=re.ASCII):
        raise ValueError(f"not a plain decimal {kind.__name__}: {text!r}")
    value = kind(text)
    if kind is float and value in (float("inf"), float("-inf")):  # 1e999
        raise ValueError(f"not a finite number: {text!r}")
    return value


def parse_spec(spec: str, kind: str = "algorithm") -> tuple[str, dict[str, str]]:
    """Split a spelling ``NAME`` or ``NAME(KEY=VALUE, ...)`` into the name and raw values.

    After Fast Downward's ``astar(lmcut())``: the options belong to the
    algorithm (or heuristic: ``kind`` names which in messages), so they are
    written with it and checked against its declared :class:`Param` list
    (see :func:`bind_params`).

    Raises:
        ValueError: unbalanced parentheses, an item without ``=``, or a key given twice.
    """
    text = spec.strip()
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not paren:
        return name, {}
    if not rest.endswith(")"):
        raise ValueError(f"{kind} {text!r}: expected NAME(KEY=VALUE, ...) with a closing parenthesis")
    body = rest[:-1].strip()
    values: dict[str, str] = {}
    for item in (part.strip() for part in body.split(",")) if body else ():
        if not item:
            raise ValueError(f"{kind} {text!r}: expected KEY=VALUE between the commas, got nothing")
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise ValueError(f"{kind} {text!r}: expected KEY=VALUE, got {item!r}")
        if key in values:
            raise ValueError(f"{kind} {text!r}: {key} given twice")
        values[key] = value.strip()
    return name, values


def bind_params(algorithm: "Algorithm", raw: dict[str, str], kind: str = "algorithm") -> dict[str, Any]:
    """Every declared option of ``algorithm`` (or a heuristic): the given values parsed, the rest at their defaults.

    Raises:
        ValueError: an option the algorithm does not declare (the message
            lists those it does), or a value :meth:`Param.parse` refuses.
    """
    declared = {p.name: p for p in algorithm.params}
    for key in raw:
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise ValueError(f"{kind} {algorithm.name!r} has no option {key!r} (its options: {known})")
    return {name: (p.parse(raw[name]) if name in raw else p.default) for name, p in declared.items()}


@attrs.frozen
class SearchRequest:
    """Everything a driver needs besides the puzzle.

    Attributes:
        heuristic: ``estimate(state) -> int`` or ``None``.
        pruners: bound pruning rules that act under the algorithm, in registration order.
        limits: the case's :class:`~searchkit.limits.Limiter` (started when
            the case started) or plain :class:`~searchkit.limits.Limits`.
        depth: cost/depth bound (``None``: unbounded; required by bounded DFS).
        mode: ``"exact"``, ``"at_most"`` or ``"shortest"`` for bounded DFS.
        params: the algorithm's options (:attr:`Algorithm.params`), every
            declared one present.
        admissible: the heuristic never overestimates, so a driver may prune
            on g + h and derive lower bounds from it.
        incumbent: ``(moves, cost)`` of a known valid solution (a seed), or
            ``None``; an anytime driver starts from it.  ``depth`` is then at
            most ``cost - 1`` (the Solver asks only for cheaper solutions).
        on_improve: ``on_improve(cost, lower_bound)`` called by an anytime
            driver each time it finds a cheaper solution, or ``None``.
    """

    heuristic: Callable[[Any], int] | None = None
    pruners: Sequence[Pruner] = ()
    limits: Limits | Limiter = attrs.field(factory=Limits)
    depth: int | None = None
    mode: str = "at_most"
    params: Mapping[str, Any] = attrs.field(factory=dict)
    admissible: bool = True
    incumbent: tuple | None = None
    on_improve: Callable[[int, int | None], None] | None = None


@attrs.frozen
class Algorithm:
    """A registered search algorithm.

    Attributes:
        name: short lowercase name, the ``--algorithm`` choice.
        run: ``run(puzzle, request) -> SearchResult``.
        optimal: returns a least-cost solution (given an admissible heuristic).
        uses_heuristic: needs a heuristic (``--heuristic``).
        takes_heuristic: can use one if given (default: ``uses_heuristic``;
            bounded DFS takes an optional one to cut children).
        summary: one line for listings.
        modes: the :class:`~searchkit.game.SearchPlan` modes it can honour
            (an optimal algorithm finds the least cost within the bound, which
            is what ``"at_most"`` and ``"shortest"`` ask; only a depth-first
            driver searches ``"exact"`` depths).
        needs_depth: it cannot run without ``SearchPlan.depth``.
        rule_hooks: the pruning hooks it calls: any of ``"successors_within"``,
            ``"cut"``, ``"filter"``, ``"on_fail"`` (rules fused into plain
            ``successors`` act under every algorithm that is not plain).
        plain: it runs with every pruning rule off (a test reference).
        keeps_order: among the solutions it may return (least-cost ones for
            an optimal algorithm), it returns the first in the puzzle's move
            order -- what a game asking for the lexicographically smallest
            answer needs (:attr:`searchkit.game.SearchPlan.first_in_order`).
        params: the options it takes (:class:`Param`), spelled
            ``-a 'NAME(KEY=VALUE, ...)'``.
        suboptimal: it trades optimality for speed: its answer is
            ``feasible`` with a proven lower bound unless the bound meets the
            cost (then ``solved``).
        seeded: it starts from a known solution when the game has an upper
            bound provider (``--upper-bound auto`` is implied).
    """

    name: str
    run: Callable[[Any, SearchRequest], SearchResult]
    optimal: bool
    uses_heuristic: bool
    summary: str = ""
    modes: tuple[str, ...] = ("at_most", "shortest")
    needs_depth: bool = False
    rule_hooks: frozenset[str] = attrs.field(default=frozenset({"cut", "filter", "on_fail"}), converter=frozenset)
    plain: bool = False
    keeps_order: bool = False
    takes_heuristic: bool = attrs.field(default=attrs.Factory(lambda self: self.uses_heuristic, takes_self=True))
    params: tuple[Param, ...] = ()
    suboptimal: bool = False
    seeded: bool = False
