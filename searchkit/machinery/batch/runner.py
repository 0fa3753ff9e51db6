"""Cases in, results out in input order, streamed; chunks sized to what the cases cost.

:func:`solve_ordered` reads the items lazily, hands cases to a backend of
:mod:`searchkit.machinery.batch.executors` in chunks and yields each item's result as
soon as it and every item before it are done.  At most ``window`` items are
held between reading and yielding, so the parent's memory does not grow with
the number of cases.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator

from searchkit.errors import InputError

#: Items read ahead of the first unfinished one, at most (the parent's memory is bounded by it).
WINDOW = 4096
#: Most cases in one chunk.
MAX_CHUNK = 256


class Chunker:
    """Chunk sizes from the mean cost of the cases finished so far.

    A chunk holds about ``target`` seconds of work (at least 1, at most
    :data:`MAX_CHUNK` cases); until a case has finished, chunks hold one case.
    Near the end of the input no chunk takes more than its share of what is
    left, so no worker sits idle while another works through a long chunk.
    """

    def __init__(self, target: float, workers: int) -> None:
        self.target, self.workers = target, workers
        self.done, self.seconds = 0, 0.0

    def add(self, seconds: float) -> None:
        self.done += 1
        self.seconds += seconds

    def size(self, waiting: int | None = None) -> int:
        if self.done == 0 or self.target <= 0:
            return 1
        mean = max(self.seconds / self.done, 1e-6)
        size = max(1, min(MAX_CHUNK, round(self.target / mean)))
        if waiting is not None:
            size = min(size, max(1, -(-waiting // (2 * self.workers))))
        return size


def _flush(held: dict, done: dict, next_out: int) -> Generator[tuple, None, int]:
    """Every finished item from ``next_out`` on, in input order, up to the first unfinished one; returns its
    sequence number."""
    while next_out in done:
        yield held.pop(next_out), done.pop(next_out)
        next_out += 1
    return next_out


def _stopped(held: dict, done: dict, running: set[int], next_out: int) -> Iterator[tuple]:
    """What a one-process run stopped at the first unfinished case prints: every case finished before it, then
    that case as cancelled if it had started.  The cases after it are dropped, as that run would not have
    reached them."""
    from searchkit.machinery.batch.executors import cancelled_result

    next_out = yield from _flush(held, done, next_out)
    if next_out in running:
        item = held.pop(next_out)
        yield item, cancelled_result(item.value, item.started)


def solve_ordered(items: Iterable, backend, *, window: int = WINDOW,
                  on_start: Callable | None = None, on_done: Callable | None = None,
                  idle: Callable | None = None, on_beat: Callable | None = None) -> Iterator[tuple]:
    """``(item, CaseResult or None)`` for every item, in input order, streamed.

    Args:
        items: :class:`~searchkit.machinery.reading.Item` values (cases and input errors).
        backend: an executor of :mod:`searchkit.machinery.batch.executors`.
        window: most items held at once between reading and yielding.
        on_start: called ``on_start(item)`` when a case begins in a worker.
        on_done: called ``on_done(item, result)`` when a case ends (completion order).
        idle: called about ten times a second while waiting (progress refresh).
        on_beat: called ``on_beat(item, rss_kb)`` about once a second while a case runs in a local worker.

    An input-error item passes through at its place with ``None``.

    Ctrl-C (``KeyboardInterrupt`` raised while waiting for the backend) yields what a one-process run stopped
    at the first unfinished case would: the finished cases before it, then that case with status
    ``cancelled`` (:func:`~searchkit.machinery.batch.executors.cancelled_result`) when it had started; then
    the ``KeyboardInterrupt`` is raised again.  Cases finished after it are not yielded.
    """
    source = iter(items)
    exhausted = False
    held: dict[int, object] = {}  # seq -> item, read and not yet yielded
    done: dict[int, object] = {}  # seq -> result (None for an input error)
    ready: list = []  # cases read, waiting for a chunk: (seq, case, started)
    running: set[int] = set()  # cases started in a worker and not yet finished
    chunker = Chunker(backend.target_seconds, backend.workers)
    next_in, next_out = 0, 0
    while True:
        # hand over what is finished before reading on: the next case's time counts from its first byte, so
        # it must not pay for the caller's work on this one (reporting it, hashing its data)
        next_out = yield from _flush(held, done, next_out)
        while not exhausted and len(held) < window:
            size = chunker.size()
            if len(ready) >= size:
                if backend.free() <= 0:
                    break
                backend.submit(ready[:size])
                del ready[:size]
                continue
            if backend.busy() and backend.free() <= 0:
                break  # read no further ahead than the backend takes (a case's time counts from its reading)
            try:
                item = next(source)
            except StopIteration:
                exhausted = True
                break
            held[next_in] = item
            if isinstance(item.value, InputError):
                done[next_in] = None
            else:
                ready.append((next_in, item.value, item.started))
            next_in += 1
        while ready and backend.free() > 0 and (exhausted or len(held) >= window or not backend.busy()):
            size = chunker.size(len(ready) if exhausted else None)
            backend.submit(ready[:size])
            del ready[:size]
        next_out = yield from _flush(held, done, next_out)
        if exhausted and not held:
            return
        if not backend.busy():
            continue
        try:
            events = backend.poll(0.1)
        except KeyboardInterrupt:
            yield from _stopped(held, done, running, next_out)
            raise
        for event in events:
            seq = event[1]
            if event[0] == "start":
                running.add(seq)
                if on_start is not None:
                    on_start(held[seq])
                continue
            if event[0] == "beat":
                if on_beat is not None and seq in held:
                    on_beat(held[seq], event[2])
                continue
            result = event[2]
            running.discard(seq)
            done[seq] = result
            if result.outcome is not None:
                chunker.add(result.outcome.seconds)
            if on_done is not None:
                on_done(held[seq], result)
        if idle is not None:
            idle()


def solve_in_workers(solvers, items, jobs: int, *, skip: Callable | None = None, on_start: Callable | None = None,
                     on_done: Callable | None = None, idle: Callable | None = None,
                     on_beat: Callable | None = None) -> tuple[dict, list]:
    """``(outcomes, items)``: every case solved by every solver in ``jobs`` worker processes.

    For :func:`searchkit.tools.compare.compare`, which reads the outcomes
    instead of solving: ``outcomes[(k, source, case)]`` is the
    :class:`~searchkit.machinery.solver.Outcome` of solver ``k`` on the case, or the
    :class:`~searchkit.errors.SearchkitError` to raise for it (the Solver's
    refusal in the worker).  A case whose worker died is reported on stderr
    here, and its outcome has status ``error``.  The items are held in memory
    (the comparison holds a row per case anyway).

    ``skip(k, case)`` true: solver ``k`` does not solve ``case`` (``compare
    --resume``: it is recorded).  ``on_done(k, item, result)`` is called as
    each case ends (a :class:`~searchkit.machinery.batch.executors.CaseResult`);
    ``on_start``, ``idle`` and ``on_beat`` as in :func:`solve_ordered`.
    """
    import sys

    from searchkit.machinery.batch.executors import LocalPool
    from searchkit.errors import SearchkitError
    from searchkit.machinery.output import error

    items = list(items)
    pool = LocalPool(solvers[0].config, jobs)
    outcomes: dict = {}
    try:
        for k, solver in enumerate(solvers):
            pool.config = solver.config
            mine = items if skip is None else [i for i in items if isinstance(i.value, InputError)
                                                or not skip(k, i.value)]
            done = None if on_done is None else (lambda item, res, k=k: on_done(k, item, res))
            for item, res in solve_ordered(mine, pool, on_start=on_start, on_done=done, idle=idle,
                                           on_beat=on_beat):
                if res is None:
                    continue
                case = item.value
                if res.message is not None:
                    outcomes[(k, case.source, case.index)] = SearchkitError(res.message)
                    continue
                if res.error is not None:
                    error(f"{case.source}: case {case.index}: {res.error}")
                outcomes[(k, case.source, case.index)] = res.outcome
    finally:
        pool.close(cancel=sys.exc_info()[0] is not None)
    return outcomes, items
