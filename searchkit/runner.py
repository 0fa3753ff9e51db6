"""Old home of :class:`searchkit.solver.Solver`, kept for one release."""

from searchkit.solver import Outcome, Solver

__all__ = ["Outcome", "Solver"]
