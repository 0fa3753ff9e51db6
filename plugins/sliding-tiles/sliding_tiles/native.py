"""The native engine's hooks for sliding tiles (the module ``sliding_tiles_native``, built from
``plugins/sliding-tiles/native`` with searchkit's kit crate), when installed.

- :func:`pdb_builder`: the native table builder (over sets of cells for groups of 3 to 8 tiles,
  ``plugins/sliding-tiles/native/src/sets.rs``; else searchkit-core's layered builder over the puzzle's
  abstraction in ``plugins/sliding-tiles/native/src/pdb.rs``), run in this process under the case's
  limits (:func:`build_table`), which writes the same file as searchkit's Python builder, much faster
  (the 8-tile table of the 7-8 partition is out of reach of the Python one).
- :func:`problem`: the game's ``native_problem`` hook (see :mod:`searchkit.machinery.engine`): a case on the
  native engine (IDA* and the other native drivers with ``manhattan``, ``linear-conflict`` or ``pdb``).
"""

from __future__ import annotations

import hashlib


_found: list = []


def _module():
    """The module ``sliding_tiles_native``, or ``None`` (looked up once: it is asked per case)."""
    if not _found:
        try:
            import sliding_tiles_native as module
        except ImportError:
            module = None
        _found.append(module)
    return _found[0]


def pdb_builder(keep: bool = False, behind: bool = False):
    """``builder(abstraction, path, key, progress=None) -> bool`` writing a table with the native builder in
    this process (:func:`build_table`), or ``None`` without the native module.  It declines (``False``) a
    table that is not the plugin's native kind (``blank=1``).  ``keep``: the native engine keeps each table it
    built for the process (the native engine's own route, :func:`_ensure`, which so never reads back what it
    has just built); the Python engine, which reads the file into numpy, does not need the copy.  ``behind``
    (with ``keep``): the file is not written yet; the builder returns its write instead, a callable
    (``sliding_tiles_native.tiles_write_pdb``), which :func:`searchkit.plugin.ensure_file` runs on a thread
    of its own while the next table builds."""
    native = _module()
    if native is None:
        return None

    def build(abstraction, path, key, progress=None):
        if getattr(abstraction, "game", None) != "sliding-tiles" or getattr(abstraction, "blank", False):
            return False
        from searchkit.plugin import make_folder

        make_folder(path)
        build_table(abstraction.n, list(abstraction.pattern), str(path), key, progress, keep=keep,
                    write=not behind)
        if behind:
            digest = hashlib.sha256(key.encode()).digest()
            return lambda: native.tiles_write_pdb(str(path), key, digest)
        return True

    def memory(abstraction):  # what searchkit.machinery.pdb's size check asks before a build
        return build_bytes(abstraction.n, abstraction.k)

    build.memory = memory
    return build


def build_bytes(n: int, k: int) -> int:
    """The native builder's memory for a group of ``k`` tiles on an ``n x n`` board, in bytes: what it charges
    to the case's budget, an upper bound on what it touches.

    Groups of 3 to 8 tiles are built over sets of cells (``plugins/sliding-tiles/native/src/sets.rs``): the
    module's ``tiles_build_bytes`` counts them (the 15-puzzle's 8-tile table: about 1.06 GB).  The others by the
    layered builder (``native/core/src/pdb/build.rs``, the module docs): a placement is a k-permutation of the
    ``n * n`` cells, ``P(n*n, k)`` of them, each with one byte of entry, a word of two bits per free cell (2
    bytes for at most 8 free cells, 4 for 16, else 8; a mirror-symmetric group touches only half of them, but
    the address space holds them all) and two bits of layer bitmaps.
    """
    from math import perm

    native = _module()
    counted = native.tiles_build_bytes(n, k) if native is not None else None
    if counted is not None:
        return counted
    placements = perm(n * n, k)
    free = n * n - k
    return placements * (1 + (2 if free <= 8 else 4 if free <= 16 else 8)) + placements // 4


def build_table(n: int, tiles: list[int], path: str, key: str, progress=None, *, keep: bool = False,
                write: bool = True) -> None:
    """Write the table of ``tiles`` to ``path`` with the native builder, in this process, within the running
    case's limits.

    The builder (``sliding_tiles_native.tiles_build_pdb``: over sets of cells, or searchkit-core's layered
    builder, through the kit's ``run_build``) runs with the GIL released under the search's control: the
    running case's deadline (:class:`searchkit.limits.Limiter`, what is left of its time limit), and a cancel
    flag that Ctrl-C sets (Python's signal handlers run every 5 ms at most, as for a native search); it checks
    them every few milliseconds of work (the layered builder every 4096 entries and every layer; the sets
    builder every 32 sets of a layer, every 4096 sets while it sets up and between the blocks it copies), frees
    what it allocated and returns.  The table file is only ever renamed into place whole (its temporary name
    is removed on every failure), so a stopped build leaves nothing behind.
    A case whose ``--memory-limit`` allowance is below :func:`build_bytes` stops before anything is
    allocated; the builder's allocations are fallible, so one refused under the address-space limit is the
    case's ``memory_limit`` too.  ``progress(reached, total)``, if given, is called after each layer.  With
    ``keep``, the module keeps the table for the process under ``path`` (it then loads it without reading it);
    with ``write`` false as well, the file is left to ``tiles_write_pdb`` (:func:`pdb_builder`'s ``behind``).
    It runs on the running case's threads (:func:`searchkit.limits.threads`: ``--threads`` of ``solve``, or of
    ``pdb build``; 1 outside a case); the table's bytes are the same on any number of threads.

    It used to run in a child ``python -c`` (the builder could not be stopped from inside): the child wrote
    577 MB that this process read back and checked again, and Ctrl-C needed a signal-mask dance so as not to
    orphan the child (issue 34; review 2026-12c, defect 4).

    Raises:
        searchkit.limits.LimitReached: ``time_limit`` (the running case's time ran out) or ``memory_limit``.
        KeyboardInterrupt: Ctrl-C.
        OSError: the table could not be written.
    """
    from searchkit.limits import MEMORY_LIMIT, TIME_LIMIT, LimitReached, remaining, reserve, threads

    reserve(build_bytes(n, len(tiles)))
    digest = hashlib.sha256(key.encode()).digest()
    try:
        _module().tiles_build_pdb(n, list(tiles), path, key, digest, progress, remaining(), keep, threads=threads(),
                                  write=write)
    except TimeoutError:
        raise LimitReached(TIME_LIMIT) from None
    except MemoryError:
        raise LimitReached(MEMORY_LIMIT) from None


class NativeBoard:
    """One board for the native engine: ``solve(request) -> result dict`` (searchkit.machinery.engine's protocol)."""

    def __init__(self, tiles):
        self.tiles = tuple(tiles)

    def solve(self, request):
        """The result dict of ``request`` on this board; a seed's moves (``incumbent``: the puzzle's ``U``/``D``/
        ``L``/``R``) are handed to the native engine as their character codes, as its moves come back."""
        incumbent = request.get("incumbent")
        if incumbent is not None:
            moves, cost = incumbent
            request = dict(request, incumbent=([_CODES[m] for m in moves], cost))
        return solve(self.tiles, request)


#: A move of the Python puzzle (:data:`sliding_tiles.puzzle.MOVES`) as the native engine names it: its byte.
_CODES = {m: ord(m) for m in "UDLR"}


def problem(tiles, disabled):
    """A :class:`NativeBoard`, or ``None`` without the native engine or for a board it cannot take (side > 5:
    the native boards are 16 cells and, for the 24-puzzle, 25)."""
    if len(tiles) not in _SIDES or _module() is None:
        return None
    return NativeBoard(tiles)


#: The board sides the native engine takes, by number of cells.
_SIDES = {1: 1, 4: 2, 9: 3, 16: 4, 25: 5}


def solve(tiles, request):
    """Run one board on the native engine: ``request["heuristic"]`` is ``manhattan``, ``linear-conflict`` or
    ``pdb`` with its options typed in ``heuristic_params`` (``partition``, ``reflect``); for ``pdb`` the
    tables are made ready in the cache first and cross in the problem (a table built here has its file
    written behind, while the next table builds and the search runs, and written when this returns).

    Raises:
        ImportError: ``sliding_tiles_native`` is not installed.
        searchkit.errors.PlanError: a partition unknown or made for another board side.
    """
    native = _module()
    if native is None:
        raise ImportError("the native module is not installed: pip install ./plugins/sliding-tiles/native")
    from math import isqrt

    n = isqrt(len(tiles))
    if request.get("heuristic") != "pdb":
        return native.solve((n, list(tiles), None), request)
    from searchkit.plugin import PlanError, finish_writes
    from sliding_tiles.pdb import abstractions

    options = request.get("heuristic_params") or {}
    try:
        found = abstractions(options.get("partition", "auto"), n=n)
    except ValueError as exc:
        raise PlanError(f"heuristic pdb: {exc}") from None
    try:
        tables = [(list(a.pattern), str(_ensure(a, mapped=n < 5)), hashlib.sha256(a.key().encode()).digest())
                  for a in found]
        return native.solve((n, list(tiles), tables), request)
    finally:
        # a table built for this case has its file written behind, while the next one builds and the search
        # runs (pdb_builder's ``behind``): in the cache when the case returns
        finish_writes()


def _ensure(abstraction, mapped=True):
    """The path of a verified table loaded into the native engine (built natively if missing or unusable),
    without loading it in Python: :func:`searchkit.plugin.ensure_file` (the cache, its build lock, and a table
    kept in memory for the run when the cache cannot keep it; the file checked once a process while it is
    unchanged, since the engine keeps what it loaded).  ``mapped``: the file is mapped read-only
    rather than read into the engine's buffer (the 15-puzzle's short searches; the 24-puzzle's long ones read
    it onto 2 MB pages: docs/pdb.md, "Mapped tables")."""
    from searchkit.plugin import ensure_file

    native = _module()
    digest = hashlib.sha256(abstraction.key().encode()).digest()
    return ensure_file(abstraction, pdb_builder(keep=True, behind=True),
                       lambda path, crc: native.tiles_load_pdb(str(path), digest, crc, mapped=mapped),
                       engine=f"sliding_tiles_native{'' if mapped else ' unmapped'}")
