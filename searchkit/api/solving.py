"""Solve one case (:func:`solve`) or a dataset (:func:`solve_all`: worker processes, Dask, resumable records)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from searchkit.errors import InputError
from searchkit.result import CANCELLED, SearchResult

#: The status of an outcome whose case could not be read (``error`` says why), as in the CLI's records
#: (:data:`searchkit.result.INPUT_ERROR`); ``ERROR``: the Solver refused the case or its search raised.
from searchkit.api.outcome import ENGINES, ERROR, INPUT_ERROR, Outcome
from searchkit.api._registry import registry

def _solver(game: str, *, algorithm: str | None, heuristic: str | None, no_prune: Iterable[str],
            time_limit: float | None, max_nodes: int | None, upper_bound: int | str | None, engine: str | None,
            options: Mapping[str, Any], threads: int = 1):
    """The :class:`~searchkit.machinery.solver.Solver` for the user's choices, the game's options checked as the CLI
    does."""
    from searchkit.errors import UnknownNameError
    from searchkit.limits import Limits
    from searchkit.machinery.solver import Solver

    if engine is None:
        from searchkit.machinery.engine import default_engine

        engine = default_engine()  # SEARCHKIT_ENGINE, as the CLI reads it (a PlanError if it names none)
    if engine not in ENGINES:
        raise UnknownNameError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if isinstance(no_prune, str):
        no_prune = (no_prune,)
    reg = registry()
    by_key = {opt.key: opt for opt in reg.game(game).options}
    for key, value in options.items():
        opt = by_key.get(key)
        if opt is None or value is None:
            continue  # an unknown name: the Solver says which are known
        want = opt.type
        ok = isinstance(value, bool) if want is bool else (
            isinstance(value, want) and not isinstance(value, bool) or want is float and isinstance(value, int)
            and not isinstance(value, bool))
        if not ok:
            raise TypeError(f"option {key} of {game} expects {want.__name__}, got {value!r}")
        opt.check(value)
    import math

    from searchkit.limits import MAX_COST, MAX_NODES, MAX_SECONDS

    for name, value, example in (("algorithm", algorithm, "'wastar(weight=1.3)'"),
                                 ("heuristic", heuristic, "'pdb(partition=6-6-3)'")):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} expects a name (a str, e.g. {example}) or None, got {value!r}")
    for name, value, kinds, top in (("time_limit", time_limit, (int, float), MAX_SECONDS),
                                    ("max_nodes", max_nodes, (int,), MAX_NODES)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TypeError(f"{name} expects {'seconds' if name == 'time_limit' else 'a whole number'} "
                            f"or None, got {value!r}")
        if math.isnan(value) or not 0 <= value <= top:  # the CLI's ranges (searchkit.limits)
            raise ValueError(f"{name} must be a number from 0 to {top}, got {value!r}")
    if upper_bound is not None and upper_bound != "auto":
        if isinstance(upper_bound, bool) or not isinstance(upper_bound, int):
            raise TypeError(f"upper_bound expects a cost (an int), 'auto' or None, got {upper_bound!r}")
        if not 0 <= upper_bound <= MAX_COST:
            raise ValueError(f"upper_bound must be a cost from 0 to {MAX_COST}, got {upper_bound!r}")
    return Solver(reg, game, algorithm=algorithm, heuristic=heuristic, disabled=frozenset(no_prune),
                  limits=Limits(max_nodes=max_nodes, time_limit=time_limit), options=options,
                  upper_bound=upper_bound, engine=engine, threads=threads)


def _threads(value, workers: int = 1) -> int:
    """The API's ``threads=`` (a whole number, or ``"auto"``: the usable CPUs divided by ``workers``) as a number.

    Raises:
        ValueError: 0, a negative number or anything else, naming ``threads``.
    """
    from searchkit.machinery.batch.executors import resolve_threads

    try:
        return resolve_threads(value, workers)
    except ValueError as exc:
        raise ValueError(f"threads: {exc}") from None


def _with_threads(solver, threads: int):
    """``solver`` with its search's threads set to ``threads`` (a new Solver; the same one when they are equal)."""
    if threads == solver.config.threads:
        return solver
    from searchkit.machinery.solver import Solver

    return Solver(solver.registry, attrs.evolve(solver.config, threads=threads), on_improve=solver.on_improve)


def _checked_source(source):
    """``source`` itself, once it is a text, a path, or a sequence of them (else ``TypeError``).

    A dict's keys and a set's arbitrary order are not an input order, and ``bytes`` is not a text (decode
    it).  A list or tuple is checked item by item; any other iterable is left whole (reading it here would
    use it up).
    """
    if (isinstance(source, (Mapping, set, frozenset, bytes, bytearray))
            or not isinstance(source, (str, os.PathLike, Iterable))):
        raise TypeError(f"expected a text, a path or a sequence of them, got {type(source).__name__}")
    for part in source if isinstance(source, (list, tuple)) else ():
        if not isinstance(part, (str, os.PathLike)):
            raise TypeError(f"expected a text, a path or an iterable of them, got {type(part).__name__}")
    return source


def _items(game, source, options, limits=None) -> Iterator:
    """Every case and input error of ``source`` (a text, a path, or an iterable of either), in order.

    A ``str`` holding no newline and naming an existing file is read as that
    file; any other ``str`` is the text itself; an ``os.PathLike`` is always a
    file.  Texts are named ``<text>`` (``<text N>`` in an iterable).  Each case is read under ``limits``
    (:func:`searchkit.machinery.reading.timed_items`).

    Raises:
        ValueError: a ``str`` that names an existing file and also reads, as a
            text, as cases without an error (``"1221"`` with a file of that
            name here): it could be read two ways, so it is refused, saying to
            pass ``pathlib.Path(...)`` for the file or the text with a newline.
    """
    from searchkit.machinery.reading import iter_cases, iter_text_cases

    def is_path(value) -> bool:
        if isinstance(value, os.PathLike):
            return True
        if "\n" in value or not os.path.isfile(value):
            return False
        as_text = [item.value for item in iter_text_cases(game, value, "<text>", options)]
        if as_text and not any(isinstance(v, InputError) for v in as_text):
            raise ValueError(f"{value!r} names a file here and is also a text of {len(as_text)} case(s): pass "
                             f"pathlib.Path({value!r}) for the file, or {value + chr(10)!r} for the text")
        return True

    single = isinstance(source, (str, os.PathLike))
    parts = [source] if single else list(_checked_source(source))
    _checked_source(parts)  # each item (an iterator's too, now that it is read)
    for k, part in enumerate(parts):
        if is_path(part):
            for item in iter_cases(game, [os.fspath(part)], options, limits):
                yield attrs.evolve(item, file=k)
            continue
        items = iter_text_cases(game, part, "<text>" if single else f"<text {k + 1}>", options, k, limits)
        for item in items:
            if "\n" not in part and isinstance(item.value, InputError) and not item.value.warning:
                # one line, no file of that name: say so, a mistyped path is likelier than a bad one-line text
                item.value.message = f"no file named {part!r} here, and as a text: {item.value.message}"
            yield item


def _public(solver, item, outcome, message: str | None, error: str | None = None) -> Outcome | None:
    """The :class:`Outcome` of one item read (``None`` for a warning, which is reported as a Python warning)."""
    value = item.value
    common = {"game": solver.config.game, "options": dict(solver.options), "upper_bound": solver.config.upper_bound}
    if isinstance(value, InputError):
        if value.warning:
            import warnings

            warnings.warn(str(value), stacklevel=3)
            return None
        return Outcome(None, SearchResult(status=INPUT_ERROR), None, None, 0.0, None,
                       error=value.message, place=(item.source, value.case, value.line), **common)
    if outcome is None:
        return Outcome(value, SearchResult(status=ERROR), None, None, 0.0, None, error=message, **common)
    fields = {f.name: getattr(outcome, f.name) for f in attrs.fields(type(outcome))}
    return Outcome(**fields, error=error, **common)


def solve(game: str, data: str, *, algorithm: str | None = None, heuristic: str | None = None,
          no_prune: Iterable[str] = (), time_limit: float | None = None, max_nodes: int | None = None,
          upper_bound: int | str | None = None, engine: str | None = None, threads: int | str = 1,
          **game_options: Any) -> Outcome:
    """Solve the one case in ``data``, as ``searchkit solve GAME`` does.

    Args:
        game: the game's name (:func:`games`).
        data: the text of one case, in any input format the game reads.
        algorithm: ``"ida_star"``, ``"wastar(weight=2)"``, ... (:func:`algorithms`);
            default: the game's plan for the case.
        heuristic: a heuristic of the game (:func:`heuristics`); default: the plan's.
        no_prune: pruning rules to switch off (:func:`rules`).
        time_limit: seconds for the case, reading and set-up included.
        max_nodes: most states to expand.
        upper_bound: seek only solutions cheaper than this cost, or ``"auto"``
            (start from the game's own upper-bound solution).
        engine: ``"auto"``, ``"python"`` or ``"native"`` (:class:`~searchkit.machinery.solver.SolverConfig`;
            ``auto`` runs the native engine where every component has a native twin; :attr:`Outcome.engine` says
            which ran);
            ``None`` (default): the ``SEARCHKIT_ENGINE`` environment variable's, else ``"auto"``, as the
            command line's ``--engine``.
        threads: the threads the search may use (default 1), or ``"auto"`` for the CPUs this process may use,
            as ``solve --threads``.  Only a native search that can split its work uses more than one (native
            IDA* today); the others, and the Python engine always, run on one, and
            ``outcome.stats.threads`` says how many the search ran on.
        **game_options: the game's options by their ``--flag`` names with
            ``_`` for ``-`` (Flood-It: ``input_format="lines"``, ``start="centre"``);
            the others take their defaults, as on the CLI.

    Returns:
        The :class:`Outcome`; a case stopped at a limit is an outcome too
        (``status`` ``time_limit`` or ``node_limit``).

    Raises:
        searchkit.errors.InputError: ``data`` cannot be read, is empty, or holds
            several cases (:func:`solve_all` solves those).
        searchkit.errors.UnknownNameError: an unknown game, algorithm, heuristic,
            rule, option or engine.
        searchkit.errors.PlanError: choices that cannot work together (an
            algorithm that takes no heuristic given one, one that cannot
            search the case's plan, ...).
        TypeError, ValueError: a game option, limit, upper bound, algorithm or heuristic of the wrong type
            or out of range (the command line's ranges: :mod:`searchkit.limits`).
        ValueError: ``threads`` is not a whole number from 1 to :data:`searchkit.limits.MAX_THREADS` or
            ``"auto"`` (0, a negative number, a fraction, other text), naming ``threads``.
    """
    if not isinstance(data, str):
        raise TypeError(f"solve takes the text of one case (a str); for files use solve_all, got "
                        f"{type(data).__name__}")
    solver = _solver(game, algorithm=algorithm, heuristic=heuristic, no_prune=no_prune, time_limit=time_limit,
                     max_nodes=max_nodes, upper_bound=upper_bound, engine=engine, options=game_options,
                     threads=_threads(threads))
    from searchkit.machinery.reading import iter_text_cases

    first = None
    for item in iter_text_cases(solver.game, data, "<text>", solver.options, limits=solver.config.limits):
        if isinstance(item.value, InputError):
            if item.value.warning:  # input the game ignores (a plugin's warning): said, not refused
                import warnings

                warnings.warn(str(item.value), stacklevel=2)
                continue
            raise item.value
        if first is not None:
            raise InputError("the text holds more than one case; solve takes one: use searchkit.solve_all(game, "
                             "text) for several", source="<text>", line=item.value.line, case=item.value.index)
        first = item
    if first is None:
        raise InputError("no case in the text", source="<text>")
    return _public(solver, first, solver.solve(first.value, started=first.started), None)


def solve_all(game: str, source: Any, *, jobs: int | str = 1, executor: str | None = None,
              scheduler: str | None = None, algorithm: str | None = None, heuristic: str | None = None,
              no_prune: Iterable[str] = (), time_limit: float | None = None, max_nodes: int | None = None,
              upper_bound: int | str | None = None, engine: str | None = None, oversubscribe: bool = False,
              output: str | os.PathLike | None = None, resume: bool = False, force: bool = False,
              keep_stopped: bool = False, threads: int | str = 1, **game_options: Any) -> Iterator[Outcome]:
    """Solve every case of ``source``, yielding each :class:`Outcome` in input order as it is ready.

    Args:
        game: the game's name.
        source: a text, a path (``os.PathLike``, or a ``str`` naming an
            existing file and holding no newline), or an iterable of texts
            and paths.  A ``str`` that names a file and also reads as a text
            without an error is refused (``ValueError``): pass a
            ``pathlib.Path`` or end the text with a newline.
        jobs: worker processes (1: this process), or ``"auto"`` for the CPUs
            this process may use, as ``solve --jobs``; more than those CPUs
            are capped at them (a :class:`UserWarning` says so) unless
            ``oversubscribe``.  Local workers are fresh interpreters that
            never import the caller's main module, so a script without an
            ``if __name__ == "__main__":`` guard, code on standard input and
            a notebook all work (``SEARCHKIT_START_METHOD=fork`` or
            ``forkserver`` chooses multiprocessing's instead).
        oversubscribe: start every one of ``jobs`` local workers even beyond
            the usable CPUs.
        executor: ``None`` or ``"local"`` (worker processes on this machine),
            or ``"dask"`` (a Dask ``LocalCluster`` of ``jobs`` workers, or the
            cluster at ``scheduler``; needs ``searchkit-puzzles[dask]``).
        scheduler: a Dask scheduler's address (``tcp://host:8786``).
        algorithm: as :func:`solve`.
        heuristic: as :func:`solve`.
        no_prune: as :func:`solve`.
        time_limit: as :func:`solve`.
        max_nodes: as :func:`solve`.
        upper_bound: as :func:`solve`.
        engine: as :func:`solve`.
        threads: the threads each case's search may use, as :func:`solve`; each of the ``jobs`` workers
            (local or Dask) runs its search on them (``jobs`` x ``threads`` in all).  ``"auto"``: the CPUs
            this process may use divided by ``jobs`` (at least 1), as ``solve --jobs J --threads auto``.
        **game_options: as :func:`solve`.
        output: a JSON Lines record file to write, one record a case as
            ``solve --output`` writes it (``docs/records.md``), appended as
            each case finishes, so an interrupted run loses nothing.  The
            file is never an input, never a file that is not a record file,
            and never one that already holds records unless ``resume`` or
            ``force``, as ``solve --output`` (one policy:
            :func:`searchkit.machinery.records.resume_plan`).
        resume: with ``output``, skip the cases whose records already answer
            this run's question and append the others (``--resume``): the
            loop yields only the cases solved now; lines it cannot use are
            said in a :class:`UserWarning` each.
        force: with ``output``, start a record file that holds records afresh.
        keep_stopped: with ``resume``, count cases recorded as stopped (a
            limit, an error) as done (``--keep-stopped``).

    A case that cannot be read is an outcome with status ``input_error``
    (its ``error`` says why, :attr:`Outcome.line` where); one the Solver
    refuses, or whose search raised, has status ``error``.  Input the game
    ignores (an ``InputError`` with ``warning=True``) gives a Python warning.  Leaving
    the loop early stops the workers; Ctrl-C ends the run after the case it
    interrupted (its outcome has status ``cancelled``), or raises
    ``KeyboardInterrupt`` when workers are running.

    Raises:
        searchkit.errors.UnknownNameError: as :func:`solve`, at the call,
            before anything is read (not at the first step of the loop).
        searchkit.errors.PlanError: as :func:`solve`, at the call.
        TypeError: as :func:`solve`, at the call.
        ValueError: as :func:`solve`, at the call (``threads`` too).
        ValueError: when the loop reaches a ``str`` that names a file and also
            reads as a text (see ``source``).
        searchkit.errors.PlanError: local workers (``jobs`` > 1) and a
            ``SEARCHKIT_START_METHOD`` other than spawn, forkserver or fork.
        ValueError: a malformed ``scheduler`` (``[tcp://]HOST:PORT`` expected);
            ``resume``, ``force`` or ``keep_stopped`` without ``output``.
        searchkit.machinery.records.ResumeRefused: (a ``ValueError``) ``output`` may
            not be written, or not resumed, in one line saying why.
        ConnectionError: when the loop begins, a ``scheduler`` that cannot
            be reached (it has 5 s to answer:
            :data:`searchkit.machinery.batch.executors.SCHEDULER_TIMEOUT`).
    """
    checked = _threads(threads)  # at the call; auto is divided by the workers below
    solver = _solver(game, algorithm=algorithm, heuristic=heuristic, no_prune=no_prune, time_limit=time_limit,
                     max_nodes=max_nodes, upper_bound=upper_bound, engine=engine, options=game_options,
                     threads=checked)
    if executor not in (None, "local", "dask"):
        raise ValueError(f"unknown executor {executor!r} (known: local, dask)")
    if scheduler is not None and executor != "dask":
        raise ValueError("scheduler goes with executor='dask'")
    if scheduler is not None:
        from searchkit.machinery.batch.executors import scheduler_address

        scheduler = scheduler_address(scheduler)  # ValueError: malformed, at the call
    if jobs == "auto":
        from searchkit.machinery.batch.executors import usable_cpus

        jobs = usable_cpus()
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a number of worker processes >= 1 or 'auto', got {jobs!r}")
    if executor != "dask" and jobs > 1:
        from searchkit.machinery.batch.executors import check_start_method, usable_cpus

        check_start_method()  # SEARCHKIT_START_METHOD: a PlanError now, not every case's error
        cpus = usable_cpus()
        if jobs > cpus and not oversubscribe:
            import warnings

            warnings.warn(f"jobs={jobs} is more than the {cpus} CPU(s) this process may use: {cpus} worker(s) "
                          f"(oversubscribe=True to start {jobs})", stacklevel=2)
            jobs = cpus
    if threads == "auto":
        solver = _with_threads(solver, _threads(threads, jobs))
    _checked_source(source)  # now, not when the loop begins (the items of an iterator as the loop reaches them)
    plan = None
    if output is not None:
        if not isinstance(source, (str, os.PathLike, list, tuple)):
            source = list(source)  # its paths must be known now: the record file is never one of the inputs
        plan = _resume_plan(solver, source, os.fspath(output), resume=resume, force=force, keep_stopped=keep_stopped)
    elif resume or force or keep_stopped:
        raise ValueError("resume, force and keep_stopped go with output= (a record file)")
    items = _items(solver.game, source, solver.options, solver.config.limits)
    if plan is not None:
        return _solve_recorded(solver, items, jobs, executor, scheduler, os.fspath(output), resume, plan)
    return _solve_all(solver, items, jobs, executor, scheduler)


def _resume_plan(solver, source, output: str, **how):
    """``solve_all``'s :func:`searchkit.machinery.records.resume_plan`, its warnings as :class:`UserWarning`."""
    import warnings

    from searchkit.machinery.records import resume_plan

    from searchkit.machinery.records import ResumeRefused

    parts = [source] if isinstance(source, (str, os.PathLike)) else source
    inputs = [os.fspath(p) for p in parts
              if isinstance(p, os.PathLike) or ("\n" not in p and os.path.isfile(p))]  # a superset is safe
    try:
        plan = resume_plan(output, inputs, solver.game, solver.options, optimal=solver.seeks_optimum,
                           upper_bound=solver.config.upper_bound, **how)
    except ResumeRefused as refusal:  # the policy's line, with the keywords of this API for the CLI's options
        raise ResumeRefused(_keywords(str(refusal))) from None
    for line in plan.warnings:
        warnings.warn(line, stacklevel=4)
    return plan


#: The command line's options in the resume policy's lines -> :func:`solve_all`'s keywords.
_KEYWORDS = (("--resume", "resume=True"), ("--force", "force=True"), ("--output", "output="))


def _keywords(line: str) -> str:
    """A line of the resume policy (:func:`searchkit.machinery.records.resume_plan`) with :func:`solve_all`'s
    keywords for the command line's options."""
    for option, keyword in _KEYWORDS:
        line = line.replace(option, keyword)
    return line


def _solve_recorded(solver, items, jobs: int, executor: str | None, scheduler: str | None, output: str,
                    resume: bool, plan) -> Iterator[Outcome]:
    """:func:`solve_all` with ``output``: each case's record written as the CLI writes it, the recorded
    cases skipped (``plan``), through the executors the CLI uses (so records carry the same data hash,
    peak memory and improvement events)."""
    import warnings

    from searchkit.machinery.batch import executors
    from searchkit.machinery.batch.runner import solve_ordered
    from searchkit.formats import solve_writer
    from searchkit.machinery.records import RecordFile

    try:
        sink = RecordFile(output, append=resume, truncate_to=plan.truncate, lock=plan.lock)
    except OSError as exc:  # named by the user's path, not the temporary name it is written through
        if plan.lock is not None:
            plan.lock.release()
        raise type(exc)(exc.errno, f"cannot write {output}: {exc.strerror or exc}") from None
    reporter = solve_writer("jsonl", solver, quiet=True, sink=sink)
    backend = None
    finished = False
    try:
        if executor == "dask":
            backend = executors.DaskPool(solver.config, scheduler, jobs, hash_data=True)
        elif jobs == 1:
            backend = executors.InProcess(solver.config, solver)
        else:
            backend = executors.LocalPool(solver.config, jobs, hash_data=True)
        for item, res in solve_ordered(plan.pending(items), backend):
            outcome = None if res is None else res.outcome
            message = None if res is None else res.message
            reporter.extra = res
            for event in () if res is None else res.events:  # before the case's record, as the CLI writes them
                reporter.improvement(event)
            reporter.report(item, outcome, message)
            public = _public(solver, item, outcome, message, None if res is None else res.error)
            if public is not None:
                yield public
                if public.status == CANCELLED:
                    return
        finished = True
    finally:
        try:
            if backend is not None:
                backend.close(cancel=not finished)
        finally:
            sink.close()
    unmatched = plan.no_match(output)
    if unmatched:
        warnings.warn(unmatched, stacklevel=2)


def _solve_all(solver, items, jobs: int, executor: str | None, scheduler: str | None) -> Iterator[Outcome]:
    """:func:`solve_all`'s loop, a generator of its own so that the arguments are checked at the call."""
    if jobs == 1 and executor != "dask":
        from searchkit.machinery.reporting import solve_items

        for item, outcome, message in solve_items(solver, items):
            public = _public(solver, item, outcome, message)
            if public is not None:
                yield public
                if public.status == CANCELLED:  # Ctrl-C: the search said so; the run ends here, as in the CLI
                    return
        return
    from searchkit.machinery.batch import executors
    from searchkit.machinery.batch.runner import solve_ordered

    backend = (executors.DaskPool(solver.config, scheduler, jobs) if executor == "dask"
               else executors.LocalPool(solver.config, jobs))
    finished = False
    try:
        for item, res in solve_ordered(items, backend):
            public = _public(solver, item, None if res is None else res.outcome,
                             None if res is None else res.message, None if res is None else res.error)
            if public is not None:
                yield public
        finished = True
    finally:
        backend.close(cancel=not finished)


# -- comparing ----------------------------------------------------------------------

