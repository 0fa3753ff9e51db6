"""Search algorithms as named, registered components with declared capabilities."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from searchkit.pruning import ALL_HOOKS

if TYPE_CHECKING:
    from searchkit.request import SearchRequest
    from searchkit.result import SearchResult


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
        choices: the only values allowed (e.g. the names of a heuristic's
            tables), or ``None``: another value is refused when the option
            is read, before any case is, in one usage line.
        decimals: for a ``float``, the most digits after the point its exact value may need (``1.25``
            needs 2, ``1.5e-3`` 4), or ``None``: a value that needs more is refused rather than rounded.
            The weights use it so that their exact ratios stay within the native engine's integer keys
            (:data:`WEIGHT_DECIMALS`).
    """

    name: str
    type: type
    default: Any
    help: str = ""
    min: int | float | None = None
    max: int | float | None = None
    choices: tuple | None = None
    decimals: int | None = None

    def parse(self, text: str) -> Any:
        """The typed value of ``text``.

        Numbers are read in plain ASCII decimal only (``2``, ``-3``, ``1.25``,
        ``1e3``): Python's ``int``/``float`` would also take ``1_0``, digits of
        other scripts, ``inf`` and ``nan``, which are refused rather than read
        one of several ways.

        Raises:
            ValueError: not a number of the declared type, or outside ``min``..``max``, or not one of ``choices``.
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
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"option {self.name} must be one of {', '.join(map(str, self.choices))}, got {text!r}")
        if self.decimals is not None and self.type is float:
            from fractions import Fraction

            if (Fraction(text) * 10**self.decimals).denominator != 1:  # the text's exact value, not the float's
                raise ValueError(f"option {self.name} takes at most {self.decimals} digits after the point, "
                                 f"got {text}")
        return value


#: The weights' range (``wastar``'s and ``anytime``'s ``weight``, ``anytime``'s ``step``): at most
#: :data:`WEIGHT_MAX`, at most :data:`WEIGHT_DECIMALS` digits after the point.  Both engines order a weighted
#: open list on the exact integer key ``q g + p h`` for w = p/q; within this range p <= 10^9 and q <= 10^4, so
#: the native engine's 64-bit key holds it for every 32-bit g and h (a larger weight overflowed it from
#: about 1e19, and past 2^64 the ratio could not even be handed over), and both engines give the same answer.
WEIGHT_MAX = 100_000
WEIGHT_DECIMALS = 4


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


def bind_params(algorithm: Any, raw: dict[str, str], kind: str = "algorithm") -> dict[str, Any]:
    """Every declared option of ``algorithm`` (or a heuristic): the given values parsed, the rest at their defaults.

    ``algorithm`` is an :class:`Algorithm` or a :class:`~searchkit.heuristic.Heuristic`
    (anything with ``name`` and ``params``; typed ``Any`` because naming the
    heuristic here would make the two modules import each other).

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


#: The kinds of :class:`Guarantee`.
OPTIMAL = "optimal"
BOUNDED = "bounded"
ANYTIME = "anytime"
NO_GUARANTEE = "none"
GUARANTEE_KINDS = (OPTIMAL, BOUNDED, ANYTIME, NO_GUARANTEE)


@attrs.frozen
class Guarantee:
    """What an algorithm's answer promises, given an admissible heuristic.

    Attributes:
        kind: ``"optimal"`` (a solution it returns is least-cost: ``solved``
            with ``lower_bound == cost``); ``"bounded"`` (its cost is at most
            w x optimal, w read from the option named ``weight``; ``feasible``
            unless its proven bound meets the cost); ``"anytime"`` (improving
            solutions, each ``feasible`` with a proven bound, ``solved`` when
            the bound meets the cost); ``"none"`` (any valid solution: the
            first found in move order, or a greedy or beam answer).
        weight: for ``"bounded"``, the name of the :class:`Param` holding w.

    Written ``optimal``, ``bounded(weight)``, ``anytime``, ``none``.
    """

    kind: str = attrs.field(validator=attrs.validators.in_(GUARANTEE_KINDS))
    weight: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.kind == BOUNDED) != (self.weight is not None):
            raise ValueError("a bounded guarantee names the option holding its weight, and only it")

    def factor(self, params: Mapping[str, Any]) -> float | None:
        """w of a ``bounded`` guarantee under ``params`` (the algorithm's bound options), else ``None``."""
        return None if self.weight is None else float(params[self.weight])

    @property
    def solved_is_optimal(self) -> bool:
        """A ``solved`` answer is a least-cost one by the algorithm's own design (optimal and anytime drivers)."""
        return self.kind in (OPTIMAL, ANYTIME)

    def __str__(self) -> str:
        return f"bounded({self.weight})" if self.kind == BOUNDED else self.kind


#: :class:`Guarantee` values (``bounded`` needs the option's name: ``Guarantee(BOUNDED, "weight")``).
GUARANTEE_OPTIMAL = Guarantee(OPTIMAL)
GUARANTEE_ANYTIME = Guarantee(ANYTIME)
GUARANTEE_NONE = Guarantee(NO_GUARANTEE)


def bounded(weight: str = "weight") -> Guarantee:
    """The guarantee "cost <= w x optimal", w being the algorithm's option ``weight``."""
    return Guarantee(BOUNDED, weight)


#: What an algorithm compares with its cost bound (:attr:`Algorithm.prunes_on`).
PRUNES_ON_F = "f"  #: g + h, whatever the heuristic: an overestimate may cut every solution under the bound
PRUNES_ON_F_IF_ADMISSIBLE = "f_if_admissible"  #: g + h with an admissible heuristic, g alone otherwise
PRUNES_ON_G = "g"  #: g alone (no heuristic)
PRUNES_ON = (PRUNES_ON_F, PRUNES_ON_F_IF_ADMISSIBLE, PRUNES_ON_G)

#: How an algorithm takes a heuristic (:attr:`Algorithm.heuristic`).
HEURISTIC_REQUIRED = "required"
HEURISTIC_OPTIONAL = "optional"
HEURISTIC_NONE = "none"


def _hook_set(hooks: Iterable[str]) -> frozenset[str]:
    return frozenset(hooks)


@attrs.frozen
class Algorithm:
    """A registered search algorithm: its driver and what it promises, as data.

    Each driver module declares its own (``ALGORITHMS`` beside the code, as
    Fast Downward's plugins declare theirs); :mod:`searchkit.machinery.drivers.builtin`
    only collects them.  Callers read these fields and never test a name.

    Attributes:
        name: short lowercase name, the ``--algorithm`` choice.
        run: ``run(puzzle, request: SearchRequest) -> SearchResult``.
        guarantee: what a returned solution promises (:class:`Guarantee`).
        prunes_on: what the cost bound (:attr:`SearchRequest.max_cost`) is
            compared with: ``"f"`` (g + h, so with an inadmissible heuristic
            ``exhausted`` under a bound proves nothing), ``"f_if_admissible"``
            (g + h only when the request says the heuristic is admissible,
            else g) or ``"g"``.
        needs_depth: it cannot run without a cost bound
            (``SearchPlan.depth``); it then searches to that depth.
        heuristic: ``"required"`` (``--heuristic`` or the plan's),
            ``"optional"`` (used when given: bounded DFS cuts children on it)
            or ``"none"``.
        summary: one line for listings.
        modes: the :class:`~searchkit.game.SearchPlan` modes it can honour
            (an optimal algorithm finds the least cost within the bound, which
            is what ``"at_most"`` and ``"shortest"`` ask; only a depth-first
            driver searches ``"exact"`` depths).
        rule_hooks: the pruning hooks it calls
            (:data:`searchkit.pruning.ALL_HOOKS`): ``"successors"`` (it runs
            on the game's own successors with their fused rules; absent only
            in the plain test reference, which runs with every rule off),
            ``"successors_within"``, ``"cut"``, ``"cut_on_pop"`` (``cut``
            asked once per state as a best-first driver pops it),
            ``"on_fail"``.
        keeps_order: among the solutions it may return (least-cost ones for
            an optimal algorithm), it returns the first in the puzzle's move
            order -- what a game asking for the lexicographically smallest
            answer needs (:attr:`searchkit.game.SearchPlan.first_in_order`).
        params: the options it takes (:class:`Param`), spelled
            ``-a 'NAME(KEY=VALUE, ...)'``.
        seeded: it starts from a known solution when the game has an upper
            bound provider (``--upper-bound auto`` is implied).
        native: the name of its native twin (same counts, order and bounds)
            when that differs from ``name`` (``None``: the same name), or
            ``False``: none.  Whether the twin exists is read from the game's
            native module's manifest (:mod:`searchkit.machinery.engine`); the core crate's
            drivers are in every manifest.
        detects_duplicates: it never expands a state reached again at no
            lower g than before (a closed set, a transposition table, a beam's
            seen set), so a rule that keeps the path in the state
            (:attr:`searchkit.pruning.PruningRule.path_in_state`: "never undo
            the last move") is off under it: the search drops such paths anyway,
            and the rule's field would only split one position into several
            states.
    """

    name: str
    run: Callable[[Any, SearchRequest], SearchResult]
    guarantee: Guarantee
    prunes_on: str = attrs.field(validator=attrs.validators.in_(PRUNES_ON))
    heuristic: str = attrs.field(validator=attrs.validators.in_((HEURISTIC_REQUIRED, HEURISTIC_OPTIONAL,
                                                                 HEURISTIC_NONE)))
    summary: str = ""
    modes: tuple[str, ...] = ("at_most", "shortest")
    needs_depth: bool = False
    rule_hooks: frozenset[str] = attrs.field(default=frozenset({"successors", "cut", "on_fail"}),
                                             converter=_hook_set)
    keeps_order: bool = False
    params: tuple[Param, ...] = ()
    seeded: bool = False
    native: str | bool | None = None
    detects_duplicates: bool = False

    def __attrs_post_init__(self) -> None:
        unknown = self.rule_hooks - ALL_HOOKS
        if unknown:
            raise ValueError(f"algorithm {self.name!r}: unknown rule hooks {sorted(unknown)} "
                             f"(known: {', '.join(sorted(ALL_HOOKS))})")
        if self.guarantee.weight is not None and self.guarantee.weight not in {p.name for p in self.params}:
            raise ValueError(f"algorithm {self.name!r}: its guarantee reads option {self.guarantee.weight!r}, "
                             f"which it does not declare")

    @property
    def uses_heuristic(self) -> bool:
        """It needs a heuristic."""
        return self.heuristic == HEURISTIC_REQUIRED

    @property
    def takes_heuristic(self) -> bool:
        """It can use a heuristic if one is given."""
        return self.heuristic != HEURISTIC_NONE

    @property
    def plain(self) -> bool:
        """It runs with every pruning rule off (the test reference): it does not call the game's fused rules."""
        return "successors" not in self.rule_hooks


def __getattr__(name: str) -> Any:
    # ``searchkit.algorithm.SearchRequest``, its home before it had a module of its own: loaded on first use (a
    # native search makes none, and an attrs class costs every command's start-up about a millisecond).
    if name == "SearchRequest":
        from searchkit.request import SearchRequest

        return SearchRequest
    raise AttributeError(f"module 'searchkit.algorithm' has no attribute {name!r}")
