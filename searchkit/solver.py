"""Solving cases: resolves a game's plan, heuristic, pruning rules and algorithm
into plain callables and runs the driver.  Shared by the CLI's ``solve`` and
``compare`` commands and usable from Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from searchkit.algorithm import SearchRequest
from searchkit.errors import UnknownNameError
from searchkit.game import Case
from searchkit.limits import Limits
from searchkit.result import SearchResult


@attrs.frozen
class Solver:
    """A game with the user's choices, ready to solve its cases.

    Attributes:
        registry: the loaded :class:`~searchkit.plugin.manager.Registry`.
        game: the game's name.
        algorithm: algorithm name, or ``None`` for the game's plan.
        heuristic: heuristic name, or ``None`` for the game's plan.
        disabled: pruning-rule names switched off.
        limits: node and time limits per case.
        options: the game's own option values (``GameOption.key`` -> value).
    """

    registry: Any
    game: str
    algorithm: str | None = None
    heuristic: str | None = None
    disabled: frozenset[str] = frozenset()
    limits: Limits = attrs.field(factory=Limits)
    options: Mapping[str, Any] = attrs.field(factory=dict)

    def check(self) -> None:
        """Validate every name now, before any case is read.

        Raises:
            UnknownNameError: for an unknown game, algorithm, heuristic or rule.
        """
        self.registry.game(self.game)
        if self.algorithm is not None:
            self.registry.algorithm(self.algorithm)
        if self.heuristic is not None:
            self.registry.heuristic(self.game, self.heuristic)
        known = {rule.name for rule in self.registry.rules_for(self.game)}
        for name in sorted(self.disabled - known):
            raise UnknownNameError(
                f"unknown pruning rule {name!r} for {self.game} (known: {', '.join(sorted(known)) or 'none'})"
            )

    def names(self, case: Case) -> tuple[str, str | None]:
        """The algorithm and heuristic names that :meth:`solve` uses for ``case``."""
        _, algorithm, heuristic = self._choose(case)
        return algorithm.name, heuristic

    def _choose(self, case: Case):
        """``(plan, algorithm, heuristic name)`` for ``case``: the user's choices over the game's plan."""
        plan = self.registry.game(self.game).plan(case, self.options)
        algorithm = self.registry.algorithm(self.algorithm or plan.algorithm)
        heuristic = self.heuristic
        if heuristic is None and algorithm.uses_heuristic:
            heuristic = plan.heuristic
        return plan, algorithm, heuristic

    def solve(self, case: Case) -> SearchResult:
        """Search one case and return the driver's result.

        Raises:
            UnknownNameError: for a name nothing registered.
            ValueError: when the algorithm needs a heuristic and none is chosen,
                cannot search the plan's mode, or needs a depth the plan lacks.
        """
        game = self.registry.game(self.game)
        plan, algorithm, heuristic_name = self._choose(case)
        if plan.mode not in algorithm.modes:
            raise ValueError(
                f"algorithm {algorithm.name!r} cannot search in {plan.mode!r} mode, which {self.game} asks for "
                f"(it searches: {', '.join(algorithm.modes)})"
            )
        if plan.depth is None and algorithm.needs_depth:
            raise ValueError(f"algorithm {algorithm.name!r} needs a depth bound, and {self.game} gives none")
        if algorithm.uses_heuristic and heuristic_name is None:
            raise ValueError(f"algorithm {algorithm.name!r} needs a heuristic (--heuristic)")
        puzzle = game.puzzle(case, self.options, self.disabled)
        estimate = None
        if heuristic_name is not None:
            estimate = self.registry.heuristic(self.game, heuristic_name).bind(puzzle)
        pruners = [
            rule.factory(puzzle)
            for rule in self.registry.rules_for(self.game)
            if rule.factory is not None and rule.name not in self.disabled
        ]
        request = SearchRequest(
            heuristic=estimate, pruners=pruners, limits=self.limits, depth=plan.depth, mode=plan.mode
        )
        return algorithm.run(puzzle, request)

