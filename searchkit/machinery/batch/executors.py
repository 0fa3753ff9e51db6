"""Where cases run: this process, local worker processes, or a Dask cluster.

Every backend takes *chunks* -- lists of ``(seq, case)`` pairs, ``seq`` being
the case's 0-based position in the whole run -- and reports *events*:
``("start", seq)`` when a case begins, ``("beat", seq, figures)`` (resident
memory and the search's live figures, a dict) about once a
second while it runs (local workers), and ``("done", seq, CaseResult)`` when it
ends, in completion order (:mod:`searchkit.machinery.batch.runner` restores the input
order).

A worker receives plain data only: the :class:`~searchkit.machinery.solver.SolverConfig`
(frozen and picklable: game, algorithm, heuristic, rules, limits -- the
memory limit included --, options, upper bound, seeds), whether records need
each case's data hash, and the cases (a :class:`~searchkit.game.Case` holds
the game's plain, picklable data).  It rebuilds the registry and one
:class:`~searchkit.machinery.solver.Solver` per process from the config, cached while
the config stays the same, never per case.

Local workers are processes of the ``spawn`` start method (``forkserver`` and
``fork`` work as well): each has its own pipe, so the parent knows which case
a worker was running when it died, fails only that case (status ``error``,
or ``memory_limit`` when a memory limit is set and the worker was killed),
starts a replacement and hands the rest of the chunk to it.
:class:`concurrent.futures.ProcessPoolExecutor` cannot do this: one dead
worker breaks the whole pool and every pending future, without saying which
case killed it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Literal, overload

import attrs

from searchkit.result import ERROR, MEMORY_LIMIT

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from distributed import Client, LocalCluster

#: Exit code of a worker that ends itself after a case hit its memory limit (it is replaced).
RETIRED = 3


@attrs.frozen
class CaseResult:
    """What a worker sends back for one case.

    Attributes:
        outcome: the :class:`~searchkit.machinery.solver.Outcome`, or ``None`` when the
            Solver refused the case (``message`` says why).
        message: the Solver's refusal (a plan it cannot run), else ``None``.
        error: why the case could not finish (a dead worker), else ``None``;
            the outcome's status is then ``error`` or ``memory_limit``.
        peak_rss_kb: the worker process's peak resident set size so far, in
            KiB (``getrusage``; an upper bound on the case's own peak), or ``None``.
        data_hash: the case's :func:`~searchkit.machinery.records.data_hash`
            when the run asks for it (records), else ``None``.
        events: the improvement events of the case's search, in order (the
            parent writes them before the case's record, as one process does).
    """

    outcome: Any
    message: str | None = None
    error: str | None = None
    peak_rss_kb: int | None = None
    data_hash: str | None = None
    events: tuple = ()


# -- in the worker -------------------------------------------------------------

_SOLVER: list = []  # [config, solver] of the last config solved with in this process


def worker_solver(config):
    """The worker's :class:`~searchkit.machinery.solver.Solver` for ``config`` (a
    :class:`~searchkit.machinery.solver.SolverConfig`), built on first use and kept while the config stays the same."""
    if _SOLVER and _SOLVER[0] == config:
        return _SOLVER[1]
    from searchkit.plugin.manager import load_registry
    from searchkit.machinery.solver import Solver

    solver = Solver(load_registry(report=None), config)
    _SOLVER[:] = [config, solver]
    return solver


def peak_rss_kb() -> int | None:
    """This process's peak resident set size in KiB (``None`` where ``resource`` is missing)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # macOS counts bytes


def resident_kb() -> int | None:
    """This process's current resident set size in KiB (Linux ``/proc/self/statm``), or ``None``."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, ValueError, IndexError):
        return None


def _address_space() -> int | None:
    """This process's current virtual size in bytes (Linux ``/proc/self/statm``), or ``None``."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _load_numpy() -> None:
    """Import numpy now if it is installed (the ``pdb`` extra), so its libraries load outside a case's allowance."""
    import importlib.util

    if "numpy" not in sys.modules and importlib.util.find_spec("numpy") is not None:
        import numpy  # noqa: F401


class _MemoryLimit:
    """``RLIMIT_AS`` set to the current size plus the allowance while a case runs, restored after."""

    def __init__(self, mb: float | None, game=None) -> None:
        self.mb, self.game = mb, game
        self.saved = None

    def __enter__(self):
        if self.mb is None:
            return self
        import resource

        from searchkit.machinery.engine import game_module

        # the native engine's library belongs to the program, not to a case: loaded inside a small allowance,
        # its mapping failed and the engine was reported "not installed" instead of the case's memory_limit.
        # So does numpy (the Python engine's pattern databases): imported inside it, OpenBLAS could not map
        # its library or its threads' buffers, and the case was an ImportError or a dead worker
        if self.game is not None:
            game_module(self.game)
        _load_numpy()
        size = _address_space()
        if size is None:
            size = 0
        self.saved = resource.getrlimit(resource.RLIMIT_AS)
        soft = size + int(self.mb * 1024 * 1024)
        hard = self.saved[1]
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        from searchkit.limits import set_memory_allowance

        set_memory_allowance(int(self.mb * 1024 * 1024))
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, self.saved)
            self.saved = None
            from searchkit.limits import set_memory_allowance

            set_memory_allowance(None)
        return False


def solve_case(config, case, started: float | None = None) -> CaseResult:
    """Solve one case with the Solver of ``config`` (a :class:`~searchkit.machinery.solver.SolverConfig`) in this
    process.

    A :class:`MemoryError` under the memory limit gives status
    ``memory_limit`` (the search's objects are freed as the error unwinds).
    The Solver's refusal (:class:`~searchkit.errors.SearchkitError`), or
    any other exception of the search (a plugin's defect, or a
    :class:`MemoryError` with no memory limit set: the process ran out, as
    under ``ulimit -v``), gives a ``message`` and no outcome, as in one
    process (:func:`searchkit.machinery.reporting.solve_items`).
    """
    from searchkit.errors import SearchkitError
    from searchkit.result import SearchResult, SearchStats
    from searchkit.machinery.solver import Outcome

    solver = worker_solver(config)
    memory_mb = config.limits.memory_mb
    events: list = []
    solver.on_improve = events.append
    begin = time.perf_counter() if started is None else started
    try:
        with _MemoryLimit(memory_mb, solver.game):
            outcome = solver.solve(case, started=begin)
    except SearchkitError as exc:
        return CaseResult(None, message=str(exc), peak_rss_kb=peak_rss_kb())
    except MemoryError as exc:
        if memory_mb is None:  # not our limit: the process ran out, as in one process
            from searchkit.errors import failure_message

            return CaseResult(None, message=failure_message(exc), peak_rss_kb=peak_rss_kb())
        seconds = time.perf_counter() - begin
        result = SearchResult(status=MEMORY_LIMIT, stats=SearchStats(elapsed=seconds))
        return CaseResult(Outcome(case, result, None, None, seconds),
                          error=f"over the memory limit of {memory_mb:g} MiB", peak_rss_kb=peak_rss_kb(),
                          events=tuple(events))
    except Exception as exc:  # a plugin's defect: this case's error, and the worker lives on
        from searchkit.errors import failure_message

        return CaseResult(None, message=failure_message(exc), peak_rss_kb=peak_rss_kb())
    return CaseResult(outcome, peak_rss_kb=peak_rss_kb(), events=tuple(events))


def cancelled_result(case, started: float) -> CaseResult:
    """The result of a case stopped by Ctrl-C in a worker, as the parent reports it: status ``cancelled``, no
    solution, no bound and no peak memory (``started``: its :func:`time.perf_counter` at its first byte)."""
    from searchkit.machinery.solver import Outcome

    return CaseResult(Outcome.cancelled(case, time.perf_counter() - started))


def _hashed(hash_data: bool, case, res: CaseResult) -> CaseResult:
    if not hash_data:
        return res
    from searchkit.machinery.records import data_hash

    return attrs.evolve(res, data_hash=data_hash(case))


def solve_chunk(config, chunk: list, hash_data: bool = False) -> list:
    """``[(seq, CaseResult)]`` for a chunk of ``(seq, case)`` pairs (the Dask task)."""
    return [(seq, _hashed(hash_data, case, solve_case(config, case))) for seq, case in chunk]


def _worker_main(conn, config) -> None:
    """A local worker: receive ``(config, hash_data, chunk)`` messages, send ``start``/``done`` events;
    ``None`` ends it.

    Ctrl-C is the parent's to handle, so the worker ignores SIGINT.  After a
    case over its memory limit the worker exits with :data:`RETIRED` and is
    replaced, so no case runs in a process that has just run out of memory.
    """
    import signal
    import threading

    from searchkit.limits import track_live

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    track_live()  # the heartbeat reports the running search's expanded count and bound
    lock = threading.Lock()
    running: list = [None]

    def send(message) -> None:
        with lock:
            conn.send(message)

    def beat() -> None:  # about once a second: the running case's resident memory, for the progress line
        while True:
            time.sleep(1.0)
            seq = running[0]
            if seq is not None:
                try:
                    from searchkit.limits import live_figures

                    send(("beat", seq, {"rss_kb": resident_kb(), **(live_figures() or {})}))
                except (OSError, ValueError):
                    return

    threading.Thread(target=beat, daemon=True, name="searchkit-beat").start()
    try:
        worker_solver(config)
        while True:
            message = conn.recv()
            if message is None:
                return
            config, hash_data, chunk = message
            for seq, case in chunk:
                send(("start", seq))
                running[0] = seq
                res = _hashed(hash_data, case, solve_case(config, case))
                running[0] = None
                send(("done", seq, res))
                if res.outcome is not None and res.outcome.result.status == MEMORY_LIMIT:
                    conn.close()
                    os._exit(RETIRED)
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return


def died_result(case, config, exitcode: int | None) -> CaseResult:
    """The result of a case whose worker died while running it (``exitcode``: the process's)."""
    import signal

    from searchkit.result import SearchResult
    from searchkit.machinery.solver import Outcome

    if exitcode is not None and exitcode < 0:
        try:
            how = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"killed by signal {-exitcode}"
    else:
        how = f"exit status {exitcode}"
    status = ERROR
    message = f"its worker process died ({how})"
    if config.limits.memory_mb is not None and exitcode == -9:
        status = MEMORY_LIMIT  # SIGKILL is what the kernel's out-of-memory killer sends
        message += ", taken as out of memory"
    return CaseResult(Outcome(case, SearchResult(status=status), None, None, 0.0), error=message)


# -- in the parent ---------------------------------------------------------------


class InProcess:
    """Solve in this process, one case at a time (``--jobs 1`` without a memory limit).

    Ctrl-C reaches the search as it does without batching (status
    ``cancelled``); the case's time limit counts from its first byte read.
    """

    workers = 1
    target_seconds = 0.0

    def __init__(self, config, solver=None) -> None:
        self.config = config
        if solver is not None:
            _SOLVER[:] = [config, solver]
        self.queue: deque = deque()

    def free(self) -> int:
        return 0 if self.queue else 1

    def submit(self, chunk) -> None:
        """Queue a chunk of ``(seq, case, started)`` triples."""
        self.queue.extend(chunk)

    def busy(self) -> bool:
        return bool(self.queue)

    def poll(self, timeout: float | None = None) -> list:
        if not self.queue:
            return []
        seq, case, started = self.queue.popleft()
        return [("start", seq), ("done", seq, solve_case(self.config, case, started))]

    def close(self, cancel: bool = False) -> None:
        self.queue.clear()


_STOP = object()


class _Process:
    """A worker started as a fresh interpreter (:mod:`searchkit.machinery.batch.worker`), with the parts of
    :class:`multiprocessing.Process` the pool uses: ``sentinel``, ``exitcode``, ``is_alive``, ``join``, ``kill``.

    The sentinel is the read end of a pipe whose write end only the worker
    holds: it becomes readable when the worker ends, however it ends.
    """

    def __init__(self, conn_fd: int) -> None:
        import subprocess

        read, write = os.pipe()
        try:
            self.popen = subprocess.Popen(worker_command(list(sys.path), conn_fd, write), pass_fds=(conn_fd, write),
                                          stdin=subprocess.DEVNULL)
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self.sentinel: int | None = read  # None once joined (closed)

    @property
    def exitcode(self) -> int | None:
        return self.popen.poll()  # as multiprocessing's: -N when killed by signal N

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    def join(self, timeout: float | None = None) -> None:
        import subprocess

        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return
        if self.sentinel is not None:
            os.close(self.sentinel)
            self.sentinel = None

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()


class _Worker:
    """One worker process, its pipe, and a thread that sends to it.

    Chunks are sent from a thread so the parent never blocks in ``send``
    while the worker is blocked sending its results back (both pipes full).
    With ``ctx`` ``None`` the worker is a fresh interpreter running
    :mod:`searchkit.machinery.batch.worker` (it never imports the caller's main
    module), over a socket pair; else a process of the multiprocessing
    context ``ctx``.
    """

    def __init__(self, ctx, config) -> None:
        import queue
        import threading

        if ctx is None:
            import socket
            from multiprocessing.connection import Connection

            ours, theirs = socket.socketpair()
            try:
                self.process: _Process | BaseProcess = _Process(theirs.fileno())
            finally:
                theirs.close()
            self.conn = Connection(ours.detach())
            self.conn.send(config)
        else:
            parent, child = ctx.Pipe(duplex=True)
            self.conn = parent
            process = ctx.Process(target=_worker_main, args=(child, config), daemon=True, name="searchkit-worker")
            process.start()
            self.process = process
            child.close()
        self.chunks: deque = deque()  # chunks sent, each a deque of (seq, case) not yet done
        self.running: int | None = None
        self.outbox: queue.Queue = queue.Queue()
        self.sender = threading.Thread(target=self._send_loop, daemon=True, name="searchkit-send")
        self.sender.start()

    def _send_loop(self) -> None:
        while True:
            message = self.outbox.get()
            if message is _STOP:
                return
            try:
                self.conn.send(message)
            except (OSError, ValueError):
                return  # it died; the parent notices by its sentinel

    def send(self, message) -> None:
        self.outbox.put(message)

    def stop_sending(self) -> None:
        self.outbox.put(_STOP)
        self.sender.join(5)

    def pending(self) -> list:
        """Every ``(seq, case)`` sent to this worker and not done, in order."""
        return [pair for chunk in self.chunks for pair in chunk]


class LocalPool:
    """``jobs`` local worker processes, each with its own pipe.

    Args:
        config: the :class:`~searchkit.machinery.solver.SolverConfig` the workers solve with.
        jobs: number of processes (>= 1).
        start_method: ``spawn`` (default), ``forkserver`` or ``fork``.
        hash_data: each result also carries its case's data hash (for records).

    Workers are started as chunks arrive, one more only when every running
    one is busy, so no more processes start than there are chunks (at most
    the number of cases): ``--jobs 40`` on 20 cases starts at most 20.
    A worker is started again whenever one dies or retires; its case gets a
    :func:`died_result` and the rest of its chunk goes to the next free worker.
    Each chunk is sent with the pool's ``config`` at that moment, so one pool
    can solve with several configs in turn (``compare``'s strategies).
    """

    target_seconds = 0.05  # a chunk's work, so the pipe's cost per case stays small
    AHEAD = 2  # chunks sent to a worker before it finishes the first, so it never waits for the parent

    def __init__(self, config, jobs: int, start_method: str | None = None, hash_data: bool = False) -> None:
        import multiprocessing

        self.config = config
        self.hash_data = hash_data
        self.workers = jobs
        method = check_start_method(start_method)
        # spawn: a fresh interpreter of our own (multiprocessing's spawn imports the caller's main module again)
        self.ctx = None if method == "spawn" and os.name == "posix" else multiprocessing.get_context(method)
        self.pool: list[_Worker] = []  # started on demand, up to ``jobs``
        self.queue: deque = deque()  # chunks waiting for a free worker
        from searchkit.machinery.pdb.store import stand_in_cache

        # an unusable table cache: one private cache for the workers, so each table is built once, not once a worker
        self._stand_in = stand_in_cache(jobs)

    def free(self) -> int:
        room = sum(self.AHEAD - len(w.chunks) for w in self.pool) + self.AHEAD * (self.workers - len(self.pool))
        return max(0, room + self.workers - len(self.queue))

    def submit(self, chunk) -> None:
        """Queue a chunk of ``(seq, case, started)`` triples (``started`` is not sent: time counts in the worker)."""
        self.queue.append([(seq, case) for seq, case, _started in chunk])
        self._dispatch()

    def busy(self) -> bool:
        return bool(self.queue) or any(w.chunks for w in self.pool)

    def _dispatch(self) -> None:
        while self.queue:
            idle = [w for w in self.pool if not w.chunks]
            if not idle and len(self.pool) < self.workers:
                self.pool.append(_Worker(self.ctx, self.config))  # every worker busy: one more, up to jobs
                continue
            w = idle[0] if idle else min(self.pool, key=lambda w: len(w.chunks))
            if len(w.chunks) >= self.AHEAD:
                return
            chunk = self.queue.popleft()
            w.chunks.append(deque(chunk))
            w.send((self.config, self.hash_data, chunk))  # if it died, poll() notices and hands the chunk on

    def poll(self, timeout: float | None = None) -> list:
        from multiprocessing.connection import wait

        events: list = []
        waiting: dict[Any, _Worker] = {}  # a pipe or a sentinel (an int) -> its worker; wait() gives them back
        for w in self.pool:
            if w.chunks:
                sentinel = w.process.sentinel
                if sentinel is None:  # a worker is joined only as it leaves the pool (_replace, close)
                    raise RuntimeError("a worker still in the pool was joined")
                waiting[w.conn] = w
                waiting[sentinel] = w
        if not waiting:
            return events
        for ready in wait(list(waiting), timeout):
            w = waiting[ready]
            if w not in self.pool:
                continue  # already replaced (its pipe and its sentinel were both ready)
            dead = ready is not w.conn
            if not dead:
                try:
                    while w.conn.poll():
                        self._handle(w, w.conn.recv(), events)
                except (EOFError, OSError):
                    dead = True
            if dead:
                self._drain(w, events)
                w.process.join(5)
                if w.process.is_alive():
                    w.process.kill()
                    w.process.join()
                self._replace(w, events)
        self._dispatch()
        return events

    def _handle(self, w: _Worker, msg, events: list) -> None:
        if msg[0] == "start":
            w.running = msg[1]
        elif msg[0] == "beat":
            pass
        else:
            seq = msg[1]
            if w.chunks and w.chunks[0] and w.chunks[0][0][0] == seq:
                w.chunks[0].popleft()
                if not w.chunks[0]:
                    w.chunks.popleft()
            w.running = None
        events.append(msg)

    def _drain(self, w: _Worker, events: list) -> None:
        try:
            while w.conn.poll():
                self._handle(w, w.conn.recv(), events)
        except (EOFError, OSError):
            pass

    def _replace(self, w: _Worker, events: list) -> None:
        code = w.process.exitcode
        rest = w.pending()
        if rest and not (code == RETIRED and w.running is None):
            seq, case = rest.pop(0)
            if w.running is None:  # it died before saying it started: the case was still its next
                events.append(("start", seq))
            events.append(("done", seq, died_result(case, self.config, code)))
        w.stop_sending()
        w.conn.close()
        index = self.pool.index(w)
        self.pool[index] = _Worker(self.ctx, self.config)
        if rest:
            self.queue.appendleft(rest)

    def close(self, cancel: bool = False) -> None:
        for w in self.pool:
            if cancel:
                w.process.kill()
            else:
                w.send(None)
            w.outbox.put(_STOP)
        for w in self.pool:
            w.process.join(2 if not cancel else 5)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.sender.join(1)
            w.conn.close()
        self.pool = []
        self.queue.clear()
        if self._stand_in is not None:
            self._stand_in()
            self._stand_in = None


#: The environment variable naming how local workers start (:func:`check_start_method`).
START_METHOD_VAR = "SEARCHKIT_START_METHOD"
START_METHODS = ("spawn", "forkserver", "fork")


def check_start_method(method: str | None = None) -> str:
    """How local workers start: ``method``, else ``SEARCHKIT_START_METHOD``, else ``spawn``.

    ``spawn``: a fresh interpreter running :mod:`searchkit.machinery.batch.worker`
    (never the caller's main module, so a script without a main guard, code
    on standard input and a notebook all work); ``forkserver`` and ``fork``:
    multiprocessing's, which import (forkserver) or copy (fork) the caller's
    main module.

    Raises:
        PlanError: not one of :data:`START_METHODS`, or not available here (one line naming the variable).
    """
    import multiprocessing

    from searchkit.errors import PlanError

    where = "start method" if method is not None else START_METHOD_VAR
    value = method if method is not None else (os.environ.get(START_METHOD_VAR, "").strip().lower() or "spawn")
    if value not in START_METHODS or value not in multiprocessing.get_all_start_methods():
        known = [m for m in START_METHODS if m in multiprocessing.get_all_start_methods()]
        raise PlanError(f"{where}={value!r}: expected one of {', '.join(known)}")
    return value


def dask_missing_message() -> str:
    return "--executor dask needs dask.distributed: pip install 'searchkit-puzzles[dask]'"


@overload
def loopback_address(address: str) -> str: ...
@overload
def loopback_address(address: None) -> None: ...
def loopback_address(address: str | None) -> str | None:
    """``--dashboard``'s ``[HOST]:PORT`` (or ``PORT``) with the host ``127.0.0.1`` when none is written.

    ``None`` stays ``None`` (no dashboard); ``""`` is ``127.0.0.1:0`` (any free port).
    """
    if address is None:
        return None
    address = address.strip()
    if not address:
        return "127.0.0.1:0"
    host, sep, port = address.rpartition(":")
    if not sep:
        host, port = "", address
    return f"{host or '127.0.0.1'}:{port or 0}"


class _SignalGuard:
    """Ctrl-C (SIGINT) and SIGTERM held off while the main thread is inside distributed's code.

    distributed waits for its event loop's thread in ``utils.sync``; a
    ``KeyboardInterrupt`` raised in that wait before the loop has started the
    call made distributed's own ``cancel`` callback fail (``NameError: cannot
    access free variable 'future'``, a 9-line tornado traceback), and one
    raised while the cluster was closing left it half closed and said
    "searchkit: cancelled" twice (``timeout -s INT`` sends SIGINT to the
    process and again to its group).  Inside ``with guard:`` (re-entrant; main
    thread only: only it runs Python's signal handlers) these signals are
    noted instead; :meth:`deliver` then runs the handler that was in place
    for the first one noted (it raises ``KeyboardInterrupt`` as it would have,
    now from searchkit's code), and forgets the rest.  Elsewhere the
    handlers are the caller's, untouched.
    """

    def __init__(self) -> None:
        import signal

        self.signals = [getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)]
        self.depth = 0
        self.saved: dict = {}  # signum -> the handler in place when the guard was entered
        self.pending: list = []  # (signum, handler) of each signal noted, in order

    def _main(self) -> bool:
        import threading

        return threading.current_thread() is threading.main_thread()

    def _note(self, signum, frame) -> None:
        self.pending.append((signum, self.saved.get(signum)))

    def __enter__(self):
        if not self._main():
            return self
        if self.depth == 0:
            import signal

            for signum in self.signals:
                handler = signal.getsignal(signum)
                if callable(handler):  # SIG_IGN and SIG_DFL are the kernel's: nothing to hold off
                    self.saved[signum] = handler
                    signal.signal(signum, self._note)
        self.depth += 1
        return self

    def __exit__(self, *exc) -> Literal[False]:
        if not self._main():
            return False
        self.depth -= 1
        if self.depth == 0:
            import signal

            for signum, handler in self.saved.items():
                signal.signal(signum, handler)
            self.saved = {}
        return False

    def deliver(self) -> None:
        """Run the handler of the first signal noted (``KeyboardInterrupt`` for Ctrl-C), if any; forget the rest."""
        if self.pending:
            signum, handler = self.pending[0]
            self.pending.clear()
            if callable(handler):
                handler(signum, None)


class _sigint_blocked:
    """SIGINT blocked in this thread, and in the threads it starts meanwhile (they keep the mask), then unblocked:
    a Ctrl-C meanwhile is delivered on leaving (main thread only; where ``pthread_sigmask`` exists).

    A process-directed signal goes to any thread that does not block it: one
    that ignores SIGINT while the LocalCluster starts (:meth:`DaskPool._start_cluster`)
    would drop it there, so the threads started before are started with it blocked.
    """

    def __enter__(self):
        import signal
        import threading

        self.on = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        if self.on:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return self

    def __exit__(self, *exc) -> Literal[False]:
        if self.on:
            import signal

            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        return False


#: Seconds ``--scheduler``'s scheduler has to answer before the run is refused (``--scheduler-timeout``).
SCHEDULER_TIMEOUT = 5.0


class DaskPool:
    """Chunks as tasks on a Dask cluster: ``Client(address)``, or a ``LocalCluster`` on this machine.

    Args:
        config: the :class:`~searchkit.machinery.solver.SolverConfig` the workers solve with.
        scheduler: the scheduler's address (``tcp://host:8786``), or ``None``
            for a ``LocalCluster`` of ``jobs`` worker processes.
        jobs: local workers (``None``: the usable CPUs).
        hash_data: each result also carries its case's data hash (for records).
        dashboard: for a ``LocalCluster``, the dashboard's ``[HOST]:PORT``
            (no host: ``127.0.0.1``), or ``None`` for no dashboard.  The
            cluster's scheduler, workers and nannies listen on 127.0.0.1 only.
        scheduler_timeout: seconds the ``scheduler`` has to answer
            (:data:`SCHEDULER_TIMEOUT`; distributed's own default,
            ``distributed.comm.timeouts.connect``, is 30 s).
        memory limits (``config.limits.memory_mb``) hold per case inside the
        Dask worker process (its ``RLIMIT_AS`` is raised by the allowance
        while the case runs).

    A task whose worker died is retried by Dask on another worker; once
    Dask gives up (``KilledWorker``) each case of the chunk is sent alone, and
    the one that kills its worker again gets status ``error``.

    Ctrl-C and SIGTERM never interrupt distributed's code (:class:`_SignalGuard`):
    one that arrives while the pool is starting, submitting, polling or
    closing raises ``KeyboardInterrupt`` at the next point where nothing is
    half done (the start of :meth:`poll`, the end of start-up or of
    :meth:`close`); a pool whose start-up is interrupted closes what it started.

    Raises:
        click.ClickException: dask is not installed (one line saying what to install; exit status 2).
        ConnectionError: the ``scheduler`` did not answer within ``scheduler_timeout`` (one line naming it).
    """

    target_seconds = 0.5  # a task costs the scheduler about a millisecond

    def __init__(self, config, scheduler: str | None = None, jobs: int | None = None,
                 hash_data: bool = False, dashboard: str | None = None,
                 scheduler_timeout: float = SCHEDULER_TIMEOUT) -> None:
        self._guard = _SignalGuard()
        self.cluster: LocalCluster | None = None
        self.client: Client | None = None
        self.futures: dict = {}  # future -> chunk
        try:
            with _sigint_blocked():  # the threads numpy starts as dask imports it (OpenBLAS's) are then deaf to it
                from dask.distributed import Client
        except ImportError:
            import click

            class DaskMissing(click.ClickException):
                exit_code = 2  # usage, as check without hypothesis and show or --plot without their extras

            raise DaskMissing(dask_missing_message()) from None
        import logging

        self.config = config
        self.hash_data = hash_data
        logging.getLogger("distributed").setLevel(logging.ERROR)
        try:
            with self._guard:
                if scheduler:
                    self.client = _connect(Client, scheduler_address(scheduler), scheduler_timeout)
                else:
                    self._start_cluster(jobs, dashboard)
                self.workers = max(1, sum(self._client().nthreads().values()))
                from dask.distributed import as_completed

                self.completed = as_completed()
                self.started: set = set()
            self._guard.deliver()  # a Ctrl-C during start-up cancels the run now
        except BaseException:
            self.close(cancel=True)
            raise

    def _start_cluster(self, jobs: int | None, dashboard: str | None) -> None:
        """A LocalCluster of ``jobs`` worker processes, on loopback, its workers deaf to Ctrl-C.

        SIGINT is ignored in this process while the cluster starts (a few
        seconds), so the nannies' worker processes start with it ignored (an
        ignored signal stays ignored across exec, and Python then installs no
        KeyboardInterrupt): a Ctrl-C in a terminal reaches the whole process
        group, and the workers, and this process interrupted mid-start,
        printed 4-5 tracebacks (68-78 lines).  The run's Ctrl-C is this
        process's to handle: it closes the cluster.  SIGINT is also blocked
        in this thread meanwhile (and in the threads distributed starts, which
        inherit the mask): on Linux a blocked signal stays pending even while
        ignored, so a Ctrl-C during start-up is delivered once the handler is
        back, and cancels the run as soon as the cluster is up.  (Blocking
        alone does not reach the workers: their mask is reset when they are
        spawned.  A thread of this process started before, and not blocking
        SIGINT, would still take such a Ctrl-C and drop it; searchkit starts
        none.)
        """
        import signal
        import threading

        from dask.distributed import Client, LocalCluster

        hold = threading.current_thread() is threading.main_thread()
        block = hold and hasattr(signal, "pthread_sigmask")
        if block:
            # multiprocessing's resource tracker unblocks SIGINT in the thread that starts it: started later by
            # distributed's loop thread, that thread, and every thread it starts, took the Ctrl-C and dropped it
            try:
                from multiprocessing import resource_tracker
            except ImportError:  # Windows
                pass
            else:
                resource_tracker.ensure_running()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if hold else None
        if block:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._make_cluster(jobs, dashboard, Client, LocalCluster)
        finally:
            if hold:
                signal.signal(signal.SIGINT, old)
            if block:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a Ctrl-C held meanwhile: now

    def _make_cluster(self, jobs, dashboard, Client, LocalCluster) -> None:
        import logging

        n = jobs or usable_cpus()
        # The workers' and nannies' logs at CRITICAL only: a worker busy with a case when the run is cancelled
        # logged a 30-line "Failed to communicate with scheduler during heartbeat" traceback as the scheduler
        # closed before it (a case's failure is searchkit's to report, naming the case).
        # Everything on loopback: distributed's dashboard (":0") would listen on every interface and show
        # the workers' addresses and memory to anyone who can reach the machine.
        # With no dashboard the scheduler still starts an HTTP server (distributed always does): it serves
        # the health check alone, not the info and json pages naming the workers and their memory.
        import dask

        routes = {} if dashboard is not None else {"distributed.scheduler.http.routes": ["distributed.http.health"]}
        with dask.config.set(routes):
            # (and on any free port: its default, 8787, may be another program's)
            self.cluster = cluster = LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=loopback_address(dashboard),
                scheduler_kwargs=None if dashboard is not None else
                {"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.CRITICAL)
        self.client = Client(cluster)
        if dashboard is not None:
            _say_dashboard(cluster.dashboard_link, loopback_address(dashboard))

    def _client(self) -> Client:
        """The Dask client, there from start-up to :meth:`close`.

        Raises:
            RuntimeError: the pool was closed.
        """
        if self.client is None:
            raise RuntimeError("the Dask pool is closed")
        return self.client

    def free(self) -> int:
        return max(0, 2 * self.workers - len(self.futures))

    def submit(self, chunk) -> None:
        """Send a chunk of ``(seq, case, started)`` triples as one task."""
        chunk = [(seq, case) for seq, case, *_ in chunk]
        with self._guard:
            future = self._client().submit(solve_chunk, self.config, chunk, self.hash_data, pure=False)
            self.futures[future] = chunk
            self.completed.add(future)

    def busy(self) -> bool:
        return bool(self.futures)

    def poll(self, timeout: float | None = None) -> list:
        """The events since the last call, waiting up to ``timeout`` seconds for a task to finish.

        A Ctrl-C noted since the last call (or while this one waits) raises
        ``KeyboardInterrupt`` before a finished task is taken: no result is lost.
        """
        events: list = []
        self._guard.deliver()
        if not self.futures:
            return events
        # Dask does not say when a task starts: report a chunk's cases as started once it is submitted.
        for chunk in self.futures.values():
            for seq, _case in chunk:
                if seq not in self.started:
                    self.started.add(seq)
                    events.append(("start", seq))
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._guard:
            while True:
                self._guard.deliver()
                batch = self.completed.next_batch(block=False)
                if batch or (deadline is not None and time.monotonic() >= deadline):
                    break
                time.sleep(0.01)
            for future in batch:  # a signal from here on waits for the next call
                chunk = self.futures.pop(future)
                try:
                    for seq, res in future.result():
                        self.started.discard(seq)
                        events.append(("done", seq, res))
                except Exception as exc:  # KilledWorker, or a worker-side failure
                    if len(chunk) > 1:
                        for seq, case in chunk:
                            self.submit([(seq, case, None)])
                    else:
                        seq, case = chunk[0]
                        self.started.discard(seq)
                        res = died_result(case, self.config, None)
                        first = str(exc).split(". ")[0].splitlines()[0] if str(exc) else ""
                        events.append(("done", seq, attrs.evolve(res, error=f"its Dask task failed "
                                                                           f"({type(exc).__name__}: {first})")))
        return events

    def close(self, cancel: bool = False) -> None:
        """Cancel the outstanding tasks (``cancel``), close the client, then the LocalCluster (its workers end).

        A Ctrl-C meanwhile does not stop the closing half way; it is
        delivered once the cluster is closed.
        """
        import logging

        quiet = logging.getLogger("distributed")
        level = quiet.level
        with self._guard:
            futures, self.futures = self.futures, {}
            client, self.client = self.client, None
            cluster, self.cluster = self.cluster, None
            if cancel:  # tasks cut short, workers stopped mid-case: what distributed says of it is no news
                quiet.setLevel(logging.CRITICAL)
            try:
                if cancel and futures and client is not None:
                    client.cancel(list(futures))
                futures.clear()
            finally:
                try:
                    if client is not None:
                        client.close()
                finally:
                    try:
                        if cluster is not None:
                            cluster.close()
                    finally:
                        quiet.setLevel(level)
        self._guard.deliver()


def _connect(Client, address: str, timeout: float):
    """``Client(address)``, given ``timeout`` seconds to reach the scheduler.

    Raises:
        ConnectionError: refused, unknown host, or no answer in time: one line naming the address.
    """
    try:
        return Client(address, timeout=timeout)
    except OSError as exc:  # refused, unknown host, or distributed's connect timeout (TimeoutError)
        text = str(exc).splitlines()[0] if str(exc) else ""
        why = "" if isinstance(exc, TimeoutError) or not text or text.startswith("Timed out") else f": {text}"
        raise ConnectionError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s{why} (is it "
                              f"running? --scheduler-timeout waits longer)") from None


#: Schemes of a scheduler's address that another process can reach (``inproc://`` is one process's own).
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def scheduler_address(address: str) -> str:
    """``--scheduler``'s address checked: ``[SCHEME://]HOST:PORT`` (no scheme: ``tcp``), as Dask connects to it.

    Raises:
        ValueError: a malformed address (``garbage``, ``http://...``,
            ``inproc://x``), in one line naming the form expected.
    """
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    host, colon, port = rest.rpartition(":")
    why = ""
    if scheme not in SCHEDULER_SCHEMES:
        why = (f"the scheme {scheme}:// is not one a scheduler listens on for other processes "
               f"({', '.join(s + '://' for s in SCHEDULER_SCHEMES)})")
    elif not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        why = "expected HOST:PORT with a port number 1..65535"
    elif host.startswith("[") != host.endswith("]") or "/" in host:
        why = "the host is not a name or an address"
    if why:
        raise ValueError(f"--scheduler {address!r}: {why} (e.g. tcp://127.0.0.1:8786)")
    return f"{scheme}://{host}:{port}"


def _is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def dashboard_lines(link: str, address: str) -> list[str]:
    """What to say of a dashboard listening on ``address`` (``HOST:PORT``) whose link distributed gave as ``link``.

    distributed's link names the scheduler's host (127.0.0.1) whatever host
    the dashboard listens on: a dashboard on ``0.0.0.0`` was announced as
    ``http://127.0.0.1:PORT``.  Beyond loopback, the real address and a
    warning that it is exposed.
    """
    from urllib.parse import urlsplit

    host = address.rpartition(":")[0]
    parts = urlsplit(link)
    if _is_loopback(host):
        return [f"searchkit: Dask dashboard at {link}"]
    every = host in ("", "0.0.0.0", "::", "[::]")
    where = link if every else f"http://{host}:{parts.port}{parts.path}"
    return [f"searchkit: Dask dashboard at {where}, listening on {host}:{parts.port}"
            f"{' (every interface)' if every else ''}",
            f"searchkit: warning: the Dask dashboard listens on {host}:{parts.port}, not only on loopback: anyone "
            f"who can reach this machine there sees the workers, their memory and the tasks (name "
            f"127.0.0.1:{parts.port} to keep it local)"]


def _say_dashboard(link: str, address: str) -> None:
    import click

    for line in dashboard_lines(link, address):
        click.echo(line, err=True)


def usable_cpus() -> int:
    """The CPUs this process may run on (``os.sched_getaffinity``; ``os.cpu_count`` where it is missing)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def resolve_threads(value: int | str, workers: int = 1) -> int:
    """``--threads`` (or the API's ``threads=``) as the threads one search may use.

    ``value`` is a whole number from 1 to :data:`searchkit.limits.MAX_THREADS` (an ``int``, or a ``str`` of
    ASCII digits as the command line gives it), or ``"auto"``: the CPUs this process may use
    (:func:`usable_cpus`) divided by ``workers``, the ``--jobs`` workers that each run a search at once
    (rounded down, at least 1), so that workers x threads does not exceed the CPUs.  Under a remote Dask
    scheduler ``auto`` still counts this machine's CPUs: give a number for the cluster's.

    Raises:
        ValueError: anything else (0, a negative number, a fraction, ``True``, other text), saying what is
            expected; the caller names its option.
    """
    import re

    from searchkit.limits import MAX_THREADS

    if value == "auto":
        return max(1, usable_cpus() // max(1, workers))
    number = value
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,12}", value):
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_THREADS:
        raise ValueError(f"expected a number of threads from 1 to {MAX_THREADS} or 'auto', got {value!r}")
    return number


def worker_command(path: list[str], conn_fd: int, sentinel_fd: int) -> list[str]:
    """The command line of a worker (:mod:`searchkit.machinery.batch.worker`) talking over ``conn_fd`` and holding
    ``sentinel_fd`` open until it ends (here, not in the worker's module: that imports this one).

    ``-P``: the current folder is not put on ``sys.path`` (a ``json.py``
    there must not shadow the standard library); the parent's ``sys.path``
    is set before anything of searchkit is imported.
    """
    import json

    code = ("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "  # Ctrl-C is the parent's to handle
            "import sys, json; sys.path[:] = json.loads(sys.argv[1]); "
            "from searchkit.machinery.batch.worker import main; main(int(sys.argv[2]), int(sys.argv[3]))")
    return [sys.executable, "-P", "-c", code, json.dumps(path), str(conn_fd), str(sentinel_fd)]
