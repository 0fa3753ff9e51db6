"""Admissibility and consistency checking of heuristics by exhaustive search.

For one instance, :func:`cost_to_goal` explores every reachable state under
the game's plain rules (all pruning rules off) and computes each state's true
remaining cost by Dijkstra's algorithm on the reversed state graph.
:func:`violations` then lists every state where the heuristic overestimates
(h(s) > h*(s): inadmissible) or drops by more than a step's cost
(h(s) > c(s, s') + h(s'): inconsistent).  :func:`check_heuristic` draws
instances from the game's generator through hypothesis, which shrinks a
failing instance to the smallest counter-example it can find.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from searchkit.errors import SearchkitError
from searchkit.game import Case, option_defaults

#: ``check`` calls a run inconclusive when fewer than this share of the drawn
#: instances could be explored exhaustively (the rest were too large).
MIN_EXPLORED_SHARE = 0.5

INADMISSIBLE = "inadmissible"
INCONSISTENT = "inconsistent"


class StateSpaceTooLarge(SearchkitError):
    """The reachable state space exceeds the exploration limit."""


@attrs.frozen
class Violation:
    """One state where a heuristic breaks a property it may claim.

    Attributes:
        kind: ``"inadmissible"`` or ``"inconsistent"``.
        path: moves from the initial state to the state.
        state: the state.
        h: the heuristic's estimate there.
        limit: the value ``h`` must not exceed: the true remaining cost
            (inadmissible) or ``c(s, s') + h(s')`` (inconsistent).
        move: the move to ``s'`` (inconsistent only).
    """

    kind: str
    path: tuple
    state: Any
    h: int
    limit: int
    move: Any = None


@attrs.frozen
class StateSpace:
    """Every state reachable from the initial state, with true remaining costs.

    Attributes:
        parent: state -> ``(parent_state, move)`` (``None`` for the initial state).
        edges: state -> list of ``(move, child, cost)``.
        cost: state -> least cost to a goal (absent: no goal reachable).
    """

    parent: dict
    edges: dict
    cost: dict

    def path(self, state) -> tuple:
        """Moves from the initial state to ``state`` (fewest moves first found)."""
        moves = []
        while self.parent[state] is not None:
            state, move = self.parent[state]
            moves.append(move)
        return tuple(reversed(moves))


def explore(puzzle, max_states: int = 200_000) -> StateSpace:
    """Explore ``puzzle`` exhaustively and compute true remaining costs.

    Raises:
        StateSpaceTooLarge: when more than ``max_states`` states are reachable.
    """
    start = puzzle.initial_state()
    parent: dict = {start: None}
    edges: dict = {}
    queue = deque([start])
    successors = puzzle.successors
    while queue:
        state = queue.popleft()
        succ = list(successors(state))
        edges[state] = succ
        for move, child, _ in succ:
            if child not in parent:
                parent[child] = (state, move)
                if len(parent) > max_states:
                    raise StateSpaceTooLarge(f"more than {max_states} reachable states")
                queue.append(child)
    reverse: dict = {}
    for state, succ in edges.items():
        for _move, child, c in succ:
            reverse.setdefault(child, []).append((state, c))
    cost: dict = {}
    heap = [(0, i, s) for i, s in enumerate(s for s in parent if puzzle.is_goal(s))]
    heapq.heapify(heap)
    tie = len(heap)
    while heap:
        d, _, state = heapq.heappop(heap)
        if state in cost:
            continue
        cost[state] = d
        for prev, c in reverse.get(state, ()):
            if prev not in cost:
                tie += 1
                heapq.heappush(heap, (d + c, tie, prev))
    return StateSpace(parent, edges, cost)


def violations(space: StateSpace, estimate: Callable[[Any], int],
               kinds=(INADMISSIBLE, INCONSISTENT)) -> list[Violation]:
    """Every violation of the given kinds in ``space``, nearest the initial state first."""
    found = []
    h = {s: estimate(s) for s in space.parent}
    for state in space.parent:
        hs = h[state]
        if INADMISSIBLE in kinds:
            true = space.cost.get(state)
            if true is not None and hs > true:
                found.append(Violation(INADMISSIBLE, space.path(state), state, hs, true))
        if INCONSISTENT in kinds and space.cost.get(state) is not None:
            for move, child, c in space.edges[state]:
                if hs > c + h[child]:
                    found.append(Violation(INCONSISTENT, space.path(state), state, hs, c + h[child], move))
                    break
    found.sort(key=lambda v: len(v.path))
    return found


@attrs.frozen
class CheckReport:
    """The outcome of checking one heuristic.

    Attributes:
        heuristic: the heuristic's name.
        claims: property -> claimed (``{"admissible": True, "consistent": False}``).
        examples: property -> ``(case_data, [Violation, ...])`` of the shrunk
            counter-example, for each property found violated.
        samples: instances drawn per property.
        checked: instances whose whole state space was explored (both properties).
        skipped: instances skipped for having more than ``max_states`` states.
    """

    heuristic: str
    claims: dict
    examples: dict
    samples: int
    checked: int = 0
    skipped: int = 0

    @property
    def conclusive(self) -> bool:
        """Enough instances were explored for a verdict: at least :data:`MIN_EXPLORED_SHARE` of those drawn."""
        drawn = self.checked + self.skipped
        return self.checked > 0 and self.checked >= MIN_EXPLORED_SHARE * drawn


def plain_puzzle(registry, game_name: str, data, options: Mapping[str, Any] | None = None):
    """Build the puzzle of ``data`` with the game's default options and every pruning rule off."""
    game = registry.game(game_name)
    opts = option_defaults(game.options)
    opts.update(options or {})
    disabled = frozenset(r.name for r in registry.rules_for(game_name))
    return game.puzzle(Case.generated(data), opts, disabled)


def check_heuristic(
    registry,
    game_name: str,
    heuristic_name: str,
    *,
    samples: int = 100,
    max_size: int | None = None,
    min_size: int | None = None,
    shrink: bool = True,
    seed: int = 0,
    max_states: int = 50_000,
    generator_options: Mapping[str, Any] | None = None,
) -> CheckReport:
    """Check a heuristic's admissibility and consistency on generated instances.

    Instances come from the game's registered generator with sizes ``min_size``..``max_size``
    (default: the generator's ``min_size`` and ``check_size``); hypothesis draws up to
    ``samples`` per property (seeded by ``seed``) and shrinks the first failing
    instance (``shrink=False``: report the first one as drawn -- shrinking explores
    every candidate's whole space, far too slow on e.g. 8-puzzles).  Instances whose state space exceeds
    ``max_states`` are skipped
    and counted in the report.

    Raises:
        UnknownNameError: for an unknown game, heuristic or missing generator.
        ValueError: a ``min_size`` or ``max_size`` below the generator's ``min_size``, or a ``max_size``
            below ``min_size`` (one line).
    """
    from searchkit.tools.instances import instances

    spec = registry.heuristic(game_name, heuristic_name)
    strategy = instances(game_name, registry=registry, max_size=max_size, min_size=min_size,
                         options=generator_options)
    claims = {"admissible": spec.admissible, "consistent": spec.consistent}
    examples = {}
    tally = [0, 0]  # explored, skipped
    for prop, kind in (("admissible", INADMISSIBLE), ("consistent", INCONSISTENT)):
        found = _probe(registry, game_name, spec, strategy, kind, samples, seed, max_states, tally, shrink)
        if found:
            examples[prop] = found
    return CheckReport(spec.name, claims, examples, samples, checked=tally[0], skipped=tally[1])


def _probe(registry, game_name, spec, strategy, kind, samples, seed, max_states, tally, shrink=True):
    """Search instances for a violation of ``kind``; return the shrunk ``(data, violations)`` or ``None``."""
    from hypothesis import HealthCheck, Phase, assume, given, settings
    from hypothesis import seed as hseed
    from hypothesis.reporting import with_reporter

    found: list = []

    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)

    @hseed(seed)
    @settings(max_examples=samples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
              phases=phases)
    @given(strategy)
    def probe(data):
        puzzle = plain_puzzle(registry, game_name, data)
        try:
            space = explore(puzzle, max_states)
        except StateSpaceTooLarge:
            tally[1] += 1
            assume(False)
        tally[0] += 1
        bad = violations(space, spec.bind(puzzle), kinds=(kind,))
        if bad:
            found.append((data, bad))
            raise AssertionError(kind)

    from hypothesis.errors import Unsatisfiable

    with with_reporter(lambda *_: None):
        try:
            probe()
        except AssertionError:
            return found[-1]
        except Unsatisfiable:
            raise StateSpaceTooLarge(
                f"no generated instance had at most {max_states} reachable states; lower --max-size"
            ) from None
    return None
