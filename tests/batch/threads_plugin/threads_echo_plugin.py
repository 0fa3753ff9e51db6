"""A throwaway game for the ``--threads`` tests, with a native module written in Python (``threads_echo_native``).

A case ``ok N`` is a line of N unit steps.  Its native problem answers every request as a native module built
with the kit does (``searchkit/protocol.py``), and reports the request's ``threads`` as the threads its search
ran on: so a record's ``stats.threads`` shows what reached the native request, through the CLI's options, the
``--jobs`` workers or Dask's tasks, the Solver's :class:`~searchkit.machinery.engine.seam.Task` and the engine's
request.  The Python engine searches the same line with the real ``bfs`` driver.  Found through the
``searchkit`` entry point of the dist-info beside this file when this folder is on ``PYTHONPATH``.
"""

from searchkit.errors import InputError
from searchkit.game import Case, SearchPlan
from searchkit.plugin import Heuristic, LazyGame, hookimpl


@hookimpl
def register_games(register):
    register(LazyGame("threads-echo", "threads_echo_plugin:EchoGame", "test game echoing the native request's threads",
                      native_module="threads_echo_native"))


@hookimpl
def register_heuristics(register):
    register(Heuristic("threads-echo", "steps-left", "threads_echo_plugin:steps_left", admissible=True,
                       consistent=True, summary="the steps left to the end of the line"))


def steps_left(puzzle):
    """The steps from a state to the line's end (exact, so admissible and consistent)."""
    return lambda state: puzzle.goal - state


class Line:
    def __init__(self, goal):
        self.goal = goal

    def initial_state(self):
        return 0

    def is_goal(self, state):
        return state == self.goal

    def successors(self, state):
        return [(1, state + 1, 1)] if state < self.goal else []


class Problem:
    """A case's native problem: ``solve(request) -> result`` (the protocol's dicts)."""

    def __init__(self, goal):
        self.goal = goal

    def solve(self, request):
        threads = request.get("threads", 1)
        stats = {"expanded": self.goal, "generated": self.goal, "evaluated": 0, "elapsed": 0.0, "iterations": [],
                 "per_depth": [], "per_depth_seconds": [], "peak_stored": 0, "rule_cuts": [], "peak_bytes": 0,
                 "pruner_bytes": 0, "states_stored": 0}
        if threads != 1:
            stats["threads"] = threads
        return {"engine": "native", "status": "solved", "moves": [1] * self.goal, "cost": self.goal,
                "lower_bound": self.goal, "message": None, "stats": stats}


class EchoGame:
    name = "threads-echo"
    summary = "test game echoing the native request's threads"
    options = ()
    native_module = "threads_echo_native"

    def parse(self, text, source, options):
        for number, line in enumerate(text.splitlines(), 1):
            words = line.split()
            if not words:
                continue
            if len(words) != 2 or words[0] != "ok" or not words[1].isdigit():
                yield InputError(f"expected 'ok N', got {line!r}", source=source, line=number, case=number,
                                 fatal=False)
                continue
            yield Case(number, int(words[1]), source, number)

    def puzzle(self, case, options, disabled):
        return Line(case.data)

    def native_problem(self, case, options, disabled):
        return Problem(case.data)

    def plan(self, case, options):
        return SearchPlan(algorithm="bfs")

    def format_result(self, case, result, options):
        return str(result.cost) if result.solved else f"? ({result.status})"
