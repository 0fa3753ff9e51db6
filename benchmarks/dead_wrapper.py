"""What counting DEAD states costs a Python IDA* search (issue 32 item 25), in one run.

The Solver counts the states a heuristic calls :data:`searchkit.DEAD` by wrapping its estimate
(:func:`searchkit.heuristic.counting_dead`), a Python call per evaluated state.  Since item 25 it wraps only
a heuristic registered with ``dead_states=True``.  This script solves the same random pancake stacks (the game
a third-party author wrote from the plugin guide, defined here) with Python IDA* and the gap heuristic as
registered (it declares no dead states: not wrapped) and with a twin registered with ``dead_states=True``
(wrapped, as every heuristic was before), in alternating rounds so that a change of load
falls on both alike, and prints each one's CPU time (``time.process_time``, the median over rounds) and the
ratio.  The two searches must expand the same states; the script exits 1 if they do not.

    python benchmarks/dead_wrapper.py [--boards 20] [--rounds 5] [--seed 1] [--size 12]
    python benchmarks/dead_wrapper.py --game flood --heuristic colours --size 8   # any installed game
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import types


class PancakePuzzle:
    """Sort a stack (top first) by flipping its top k pancakes (move k, cost 1): the third-party plugin's game."""

    def __init__(self, stack):
        self.stack = stack

    def initial_state(self):
        return self.stack

    def is_goal(self, state):
        return all(a < b for a, b in zip(state, state[1:]))

    def successors(self, state):
        return [(k, state[:k][::-1] + state[k:], 1) for k in range(2, len(state) + 1)]


def gap(puzzle):
    """Helmert's gap heuristic (ICAPS 2010): neighbours, the plate included, that are not consecutive."""
    plate = len(puzzle.stack) + 1

    def estimate(state):
        return sum(1 for a, b in zip(state, state[1:] + (plate,)) if abs(a - b) != 1)

    return estimate


class PancakeGame:
    name = "pancake"
    summary = "sort a stack of pancakes by prefix flips (benchmark)"
    options = ()

    def parse(self, text, source, options):
        from searchkit.game import Case

        for index, line in enumerate(text.splitlines(), 1):
            yield Case(index, tuple(int(v) for v in line.split()), source, index)

    def puzzle(self, case, options, disabled):
        return PancakePuzzle(case.data)

    def plan(self, case, options):
        from searchkit.game import SearchPlan

        return SearchPlan("ida_star", "gap")

    def format_result(self, case, result, options):
        return str(result.cost)

    def format_input(self, datas):
        return "".join(" ".join(map(str, d)) + "\n" for d in datas)


def pancake_generate(rng, size, options):
    stack = list(range(1, size + 1))
    rng.shuffle(stack)
    return tuple(stack)


def registry_with_twin(game: str, heuristic: str):
    """The installed plugins with the pancake game, and ``HEURISTIC-dead``: the heuristic declaring
    ``dead_states``."""
    import attrs

    from searchkit.generator import Generator
    from searchkit.heuristic import Heuristic
    from searchkit.plugin.manager import load_registry
    from searchkit.plugin.spec import hookimpl

    pancake = types.ModuleType("dead_wrapper_pancake")

    @hookimpl
    def register_games(register):
        register(PancakeGame())

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("pancake", "gap", gap, admissible=True, consistent=True, summary="the gap heuristic"))

    @hookimpl
    def register_generators(register):
        register(Generator("pancake", pancake_generate, default_size=12, min_size=2))

    pancake.register_games, pancake.register_heuristics = register_games, register_heuristics
    pancake.register_generators = register_generators
    base = load_registry(extra=[("dead_wrapper_pancake", pancake)])
    twin = attrs.evolve(base.heuristic(game, heuristic), name=f"{heuristic}-dead", dead_states=True, native=None)
    mod = types.ModuleType("dead_wrapper_bench")

    @hookimpl
    def register_twin(register):
        register(twin)

    mod.register_heuristics = register_twin
    return load_registry(extra=[("dead_wrapper_pancake", pancake), ("dead_wrapper_bench", mod)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="pancake", help="pancake (defined here), or an installed game")
    parser.add_argument("--heuristic", default="gap")
    parser.add_argument("--size", type=int, default=None, help="generator size (default: the generator's)")
    args = parser.parse_args()

    from searchkit.game import Case
    from searchkit.machinery.solver import Solver

    registry = registry_with_twin(args.game, args.heuristic)
    game = registry.game(args.game)
    gen, rng = registry.generator(args.game), random.Random(args.seed)
    text = game.format_input([gen(rng, args.size or gen.default_size) for _ in range(args.boards)])
    names = (args.heuristic, f"{args.heuristic}-dead")
    solvers = {name: Solver(registry, args.game, algorithm="ida_star", heuristic=name, engine="python")
               for name in names}
    options = solvers[args.heuristic].options
    cases = [c for c in game.parse(text, "<generated>", options) if isinstance(c, Case)]
    seconds = {name: [] for name in solvers}
    expanded = {}
    for _ in range(args.rounds):
        for name, solver in solvers.items():
            start = time.process_time()
            results = [solver.solve(case).result for case in cases]
            seconds[name].append(time.process_time() - start)
            expanded[name] = [(r.status, r.cost, r.stats.expanded) for r in results]
    if expanded[names[0]] != expanded[names[1]]:
        print("the two searches differ: the wrapper changed the search", file=sys.stderr)
        return 1
    plain, wrapped = (statistics.median(seconds[n]) for n in names)
    nodes = sum(e for _, _, e in expanded[names[0]])
    print(f"{len(cases)} {args.game} cases, Python IDA*/{args.heuristic}, {nodes} expanded per round, "
          f"median of {args.rounds} rounds (CPU s)")
    print(f"not wrapped (dead_states=False, the default): {plain:.3f} s")
    print(f"wrapped (dead_states=True):                  {wrapped:.3f} s")
    print(f"not wrapped / wrapped: {plain / wrapped:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
