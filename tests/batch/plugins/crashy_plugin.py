"""A throwaway game for the batch tests: each input line says what its case does.

``ok N`` is solved in N moves; ``exit`` ends its process with ``os._exit(7)``;
``kill`` sends itself SIGKILL; ``hog`` allocates 512 MiB (to be run under --memory-limit);
``sleep S`` sleeps S seconds, then is solved in one move; ``raise`` raises
ZeroDivisionError (a plugin's defect); ``pairs N`` is solved in N moves that are tuples
``(from, to)``, with no ``moves_to_json`` (records hold them as lists).  Found through the
``searchkit`` entry point of the dist-info beside this file when this folder
is on ``PYTHONPATH``.
"""

import os
import signal
import time

from searchkit.errors import InputError
from searchkit.game import Case, SearchPlan
from searchkit.plugin import LazyGame, UpperBound, hookimpl


@hookimpl
def register_games(register):
    register(LazyGame("crashy", "crashy_plugin:CrashyGame", "test game whose cases crash their worker"))


@hookimpl
def register_upper_bounds(register):
    register(UpperBound("crashy", "nothing", "crashy_plugin:no_solution", "finds nothing: returns None"))


def no_solution(puzzle):
    """An upper-bound provider that never finds a solution."""
    return None


class Line:
    def __init__(self, goal, pairs=False):
        self.goal, self.pairs = goal, pairs

    def initial_state(self):
        return 0

    def is_goal(self, state):
        return state == self.goal

    def successors(self, state):
        return [((state, state + 1) if self.pairs else 1, state + 1, 1)]


class CrashyGame:
    name = "crashy"
    summary = "test game whose cases crash their worker"
    options = ()

    def parse(self, text, source, options):
        for number, line in enumerate(text.splitlines(), 1):
            words = line.split()
            if not words:
                continue
            if words[0] not in ("ok", "exit", "kill", "hog", "sleep", "raise", "pairs"):
                yield InputError(f"unknown word {words[0]!r}", source=source, line=number, case=number, fatal=False)
                continue
            yield Case(number, tuple(words), source, number)

    def puzzle(self, case, options, disabled):
        word = case.data[0]
        if word == "exit":
            os._exit(7)
        if word == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if word == "hog":
            hoard = []
            for _ in range(32):  # at most 512 MiB: never run it without --memory-limit
                hoard.append(bytearray(16 << 20))
            return Line(1)
        if word == "sleep":
            time.sleep(float(case.data[1]))
            return Line(1)
        if word == "raise":
            raise ZeroDivisionError("planted")
        return Line(int(case.data[1]), pairs=word == "pairs")

    def plan(self, case, options):
        return SearchPlan(algorithm="bfs")

    def format_result(self, case, result, options):
        return str(result.cost) if result.solved else f"? ({result.status})"
