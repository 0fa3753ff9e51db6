"""What the registry holds (:func:`games`, :func:`heuristics`, :func:`rules`, :func:`algorithms`), and
:func:`generate`."""

from __future__ import annotations

import dataclasses
from typing import Any



#: The status of an outcome whose case could not be read (``error`` says why), as in the CLI's records
#: (:data:`searchkit.result.INPUT_ERROR`); ``ERROR``: the Solver refused the case or its search raised.
from searchkit.api._registry import registry

def generate(game: str, count: int = 1, *, seed: int = 0, size: int | None = None, **options: Any) -> str:
    """``count`` random instances of ``game`` in its input format: the text ``searchkit generate`` writes.

    Args:
        game: the game's name (one with a generator).
        count: instances (games whose format holds one case take 1).
        seed: the random seed (the same seed gives the same text).
        size: the generator's size (``searchkit generate GAME --help``; default: the generator's).
        **options: the generator's options, as ``--flag`` names with ``_``.

    Raises:
        searchkit.errors.UnknownNameError: an unknown game, a game without a generator, or an unknown option.
        TypeError: a count, size or seed that is not a whole number.
        ValueError: a count below 1 or over 10 000 000, text over 64 MiB (``count`` instances like the first:
            :data:`searchkit.tools.generate.MAX_HELD_TEXT`), or a size or option the generator refuses.
    """
    import random

    from searchkit.errors import UnknownNameError

    reg = registry()
    the_game, gen = reg.game(game), reg.generator(game)
    known = {opt.key: opt for opt in gen.options}
    for key, value in options.items():
        if key not in known:
            raise UnknownNameError(f"unknown generator option {key!r} for {game} "
                                   f"(known: {', '.join(o.name for o in gen.options) or 'none'})")
        known[key].check(value)
    given = {k: v for k, v in options.items() if v is not None}
    for name, value in (("count", count), ("size", size), ("seed", seed)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} expects a whole number, got {value!r}")
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    if size is not None and (size < gen.min_size or getattr(gen, "max_size", None) and size > gen.max_size):
        top, low = getattr(gen, "max_size", None), gen.min_size
        raise ValueError(f"size must be from {low} to {top}, got {size}" if top else
                         f"size must be at least {low}, got {size}"
                         + (" (the generator's min_size)" if low > 1 else ""))
    from searchkit.tools.generate import generated_text

    rng = random.Random(seed)  # the text held: estimated from the first instance and refused over 64 MiB
    return "".join(generated_text(the_game, gen, rng, size or gen.default_size, given, count, held=True))


# -- what is registered -------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class GameInfo:
    """A registered game: its name, one line on it, and the plugin that registered it."""

    name: str
    summary: str
    plugin: str


@dataclasses.dataclass(frozen=True)
class HeuristicInfo:
    """A game's heuristic and what it claims (the CLI's ``searchkit heuristics GAME``)."""

    name: str
    admissible: bool
    consistent: bool
    summary: str


@dataclasses.dataclass(frozen=True)
class RuleInfo:
    """A game's pruning rule: where it acts and under which algorithms (``searchkit rules GAME``)."""

    name: str
    where: str
    algorithms: tuple[str, ...]
    summary: str


@dataclasses.dataclass(frozen=True)
class AlgorithmInfo:
    """A search algorithm (``searchkit algorithms``).

    Attributes:
        name: as ``algorithm=`` takes it.
        kind: its guarantee as ``searchkit algorithms`` prints it: ``optimal``,
            ``bounded(weight)``, ``anytime`` or ``none``.
        summary: one line.
        modes: the plan modes it searches.
        params: its options and their defaults (``{"weight": 1.5}``).
        takes_heuristic: it uses a heuristic (``heuristic=`` applies).
    """

    name: str
    kind: str
    summary: str
    modes: tuple[str, ...]
    params: dict
    takes_heuristic: bool


def games() -> list[GameInfo]:
    """The registered games, by name."""
    reg = registry()
    return [GameInfo(name, reg.game_summary(name), reg.owner("game", name)) for name in sorted(reg.games)]


def heuristics(game: str) -> list[HeuristicInfo]:
    """The heuristics registered for ``game``.

    Raises:
        searchkit.errors.UnknownNameError: an unknown game.
    """
    reg = registry()
    reg.game(game)
    return [HeuristicInfo(h.name, h.admissible, h.consistent, h.summary) for h in reg.heuristics_for(game)]


def rules(game: str) -> list[RuleInfo]:
    """The pruning rules registered for ``game`` (switch one off with ``no_prune=``).

    Raises:
        searchkit.errors.UnknownNameError: an unknown game.
    """
    reg = registry()
    reg.game(game)
    return [RuleInfo(r.name, r.where, tuple(a.name for a in reg.algorithms.values() if r.acts_under(a)), r.summary)
            for r in reg.rules_for(game)]


def algorithms() -> list[AlgorithmInfo]:
    """The registered search algorithms, in the CLI's order."""
    out = []
    for name, alg in registry().algorithms.items():
        out.append(AlgorithmInfo(name, str(alg.guarantee), alg.summary, tuple(alg.modes),
                                 {p.name: p.default for p in alg.params}, bool(alg.takes_heuristic)))
    return out
