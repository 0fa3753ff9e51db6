"""Exceptions shared by the core, the plugins and the CLI."""

from __future__ import annotations


class SearchkitError(Exception):
    """Base class of every error searchkit raises on purpose."""


class InputError(SearchkitError):
    """A puzzle input that does not follow its format.

    Attributes:
        source: the file name (``"<stdin>"`` for standard input).
        line: 1-based line number of the offending token, or ``None``.
        case: 1-based number of the case being read, or ``None``.
        message: what was expected and what was found, one line.
        fatal: ``True`` when the parser cannot resynchronise and stops reading
            the file; ``False`` when later cases are still read.
        warning: ``True`` for input a judge would ignore and that cannot
            hide a case (not data after a terminator, which may be cases):
            the CLI prints it as a warning and the exit status stays 0.  It
            names no case and leaves no output line.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<input>",
        line: int | None = None,
        case: int | None = None,
        fatal: bool = True,
        warning: bool = False,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.case = case
        self.fatal = fatal
        self.warning = warning
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
        parts = [where]
        if self.case is not None:
            parts.append(f"case {self.case}")
        parts.append(self.message)
        return ": ".join(parts)


class PluginError(SearchkitError):
    """A plugin that cannot be registered (import failure, duplicate name, bad hook)."""


class UnknownNameError(SearchkitError):
    """A game, heuristic, pruning rule or algorithm name that nothing registered."""


class PlanError(SearchkitError):
    """A search that cannot run as asked: the algorithm cannot answer the game's
    question (its mode, its tie-break, a missing depth or heuristic), or a
    switched-off rule does not act under the chosen algorithm.

    Raised by :class:`searchkit.machinery.solver.Solver`; the CLI reports it as a usage
    or per-case error.  A plain ``ValueError`` from a plugin is a bug, never
    this.
    """


class FailureMessage(str):
    """The one line of a case whose search raised (:func:`failure_message`), as opposed to a refusal's.

    A ``str``, so it goes wherever a refused plan's message goes (a worker's
    result, a record's ``error``, the API's outcome); its type tells the
    command line that the search failed, exit status 1, where a refusal (a
    plan that cannot run as asked) is a usage error, exit status 2.
    """

    __slots__ = ()


def failure_message(exc: BaseException) -> FailureMessage:
    """The one line for an exception a game, heuristic or rule raised while a case was solved.

    Such an exception is a defect (of a plugin, or of searchkit); the command
    line reports it for its case, as a refused plan is, and goes on with the
    other cases instead of ending the whole run in a traceback, with exit
    status 1 (the search failed, the input was not bad).  A
    :class:`MemoryError` is no defect: the process ran out of memory (under
    ``ulimit -v``, or a full machine), and the line says so and names
    ``--memory-limit``, which stops such a case at a limit instead.
    """
    if isinstance(exc, MemoryError):
        return FailureMessage("the search ran out of memory (MemoryError); give --memory-limit MB to stop a case at "
                              "that limit (memory_limit); the other cases go on")
    return FailureMessage(f"the search raised {type(exc).__name__}: {exc} (a defect in the game's plugin or in "
                          f"searchkit; the other cases go on)")
