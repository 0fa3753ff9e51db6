"""The native engine's hooks for sliding tiles (the module ``sliding_tiles_native``, built from
``plugins/sliding-tiles/native`` with searchkit's kit crate), when installed.

- :func:`pdb_builder`: the native table builder (searchkit-core's layered builder over the puzzle's
  abstraction in ``plugins/sliding-tiles/native/src/pdb.rs``), which writes the same file
  as searchkit's Python builder, much faster (the 8-tile table of the 7-8 partition is out of reach of
  the Python one).
- :func:`problem`: the game's ``native_problem`` hook (see :mod:`searchkit.engine`): a case on the
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


def pdb_builder():
    """``builder(abstraction, path, key) -> bool`` writing a table with the native builder, or ``None``."""
    native = _module()
    if native is None:
        return None

    def build(abstraction, path, key, progress=None):
        if getattr(abstraction, "game", None) != "sliding-tiles" or getattr(abstraction, "blank", False):
            return False
        from searchkit.plugin import make_folder

        make_folder(path)
        build_in_child(abstraction.n, list(abstraction.pattern), str(path), key, progress)
        return True

    def memory(abstraction):  # what searchkit.pdb's size check asks before a build
        return build_bytes(abstraction.n, abstraction.k)

    build.memory = memory
    return build


#: The child that builds one table: ``python -c _CHILD n tiles path key digest progress`` (tiles
#: comma-separated, the digest in hex; progress ``1``: a line ``reached total`` on stdout after each layer).
_CHILD = """
import sys
import sliding_tiles_native as _native
n, tiles, path, key, digest, progress = sys.argv[1:]
def report(reached, total):
    print(reached, total, flush=True)
_native.tiles_build_pdb(int(n), [int(t) for t in tiles.split(",")], path, key, bytes.fromhex(digest),
                        report if progress == "1" else None)
"""


def build_bytes(n: int, k: int) -> int:
    """The native builder's memory for a group of ``k`` tiles on an ``n x n`` board, in bytes: its address
    space, an upper bound on what it touches (``native/core/src/pdb/build.rs``, the module docs).

    A placement is a k-permutation of the ``n * n`` cells: ``P(n*n, k)`` of them.  Each has one byte of
    entry, a word of two bits per free cell (2 bytes for at most 8 free cells, else 4; a mirror-symmetric
    group touches only half of them, but the address space holds them all) and two bits of layer bitmaps.
    """
    from math import perm

    placements = perm(n * n, k)
    return placements * (1 + (2 if n * n - k <= 8 else 4)) + placements // 4


def build_in_child(n: int, tiles: list[int], path: str, key: str, progress=None) -> None:
    """Write the table of ``tiles`` to ``path`` with the native builder, in a child process, within the
    running case's limits.

    The builder is one call into Rust that takes from a fraction of a second to minutes (the 8-tile table
    of the 7-8 partition: about two and a half minutes) and cannot be stopped from inside; in a child,
    it can: the case's time limit is checked every 10 ms (:func:`searchkit.limits.setup_check`), and a
    limit or Ctrl-C kills the child, whose half-written temporary file is removed (the table file is
    only ever renamed into place whole).  A case whose ``--memory-limit`` allowance is below
    :func:`build_bytes` stops before the child starts.  ``progress(reached, total)``, if given, is
    called after each of the builder's layers (the child reports them on its stdout).

    Raises:
        searchkit.limits.LimitReached: the running case's time ran out (``time_limit``), or its memory
            allowance is too small (``memory_limit``; also when the child runs out of memory, under the
            address-space limit it inherits); without a running case, only the latter.
        KeyboardInterrupt: Ctrl-C (the child is killed first).
        OSError: the child failed (its last line of stderr), e.g. the table could not be written.
    """
    import selectors
    import signal
    import subprocess
    import sys
    import tempfile

    from searchkit.limits import reserve, setup_check

    reserve(build_bytes(n, len(tiles)))
    digest = hashlib.sha256(key.encode()).hexdigest()
    argv = [sys.executable, "-c", _CHILD, str(n), ",".join(map(str, tiles)), path, key, digest,
            "1" if progress else "0"]
    with tempfile.TemporaryFile() as err:  # the child's stderr, read if it fails (a pipe could fill up)
        # Ctrl-C held back while the child starts: arriving between its start and `child` being bound, it left
        # the builder running, orphaned, for minutes (it is delivered as soon as the mask is restored, where
        # the `finally` below kills the child; the child inherits the mask, so the parent alone answers it)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") \
            else None
        child = None
        try:
            try:
                child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
            finally:
                if mask is not None:
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            with selectors.DefaultSelector() as sel:
                sel.register(child.stdout, selectors.EVENT_READ)
                while True:
                    if sel.select(timeout=0.01):
                        line = child.stdout.readline()
                        if not line:  # end of the child's output: it has finished
                            break
                        if progress:
                            reached, total = map(int, line.split())
                            progress(reached, total)
                    setup_check()
            child.wait()
        finally:
            if child is not None and child.returncode is None:
                child.kill()
                child.wait()
                _remove_temporary(path, child.pid)
            if child is not None:
                child.stdout.close()
        if child.returncode != 0:
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines() or [f"exit status {child.returncode}"]
            # out of memory: the builder's MemoryError (its allocations are fallible), or Rust's abort
            if any(line.startswith(("MemoryError", "memory allocation of ")) for line in lines):
                from searchkit.limits import MEMORY_LIMIT, LimitReached

                raise LimitReached(MEMORY_LIMIT)
            raise OSError(f"the native pattern database builder failed for {path}: {lines[-1]}")


def _remove_temporary(path: str, pid: int) -> None:
    """Remove the temporary file a killed builder (process ``pid``) left beside ``path``: pdb::write's
    ``.NAME.PID-N.tmp``, a regular file of ours (never a link someone else put there)."""
    import glob
    import os
    import stat

    folder, name = os.path.split(path)
    for tmp in glob.glob(os.path.join(glob.escape(folder or "."), f".{glob.escape(name)}.{pid}-*.tmp")):
        try:
            st = os.lstat(tmp)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                os.unlink(tmp)
        except OSError:
            pass


class NativeBoard:
    """One board for the native engine: ``solve(request) -> result dict`` (searchkit.engine's protocol)."""

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
    """A :class:`NativeBoard`, or ``None`` without the native engine or for a board it cannot take (side > 4:
    the native board is 16 cells)."""
    if len(tiles) not in _SIDES or _module() is None:
        return None
    return NativeBoard(tiles)


#: The board sides the native engine takes, by number of cells.
_SIDES = {1: 1, 4: 2, 9: 3, 16: 4}


def solve(tiles, request):
    """Run one board on the native engine: ``request["heuristic"]`` is ``manhattan``, ``linear-conflict`` or
    ``pdb`` with its options typed in ``heuristic_params`` (``partition``, ``reflect``); for ``pdb`` the
    tables are made ready in the cache first and cross in the problem.

    Raises:
        ImportError: ``sliding_tiles_native`` is not installed.
        searchkit.errors.PlanError: a partition unknown or made for another board side.
    """
    native = _module()
    if native is None:
        raise ImportError("the native module is not installed: pip install ./plugins/sliding-tiles/native")
    from math import isqrt

    n = isqrt(len(tiles))
    tables = None
    if request.get("heuristic") == "pdb":
        from searchkit.plugin import PlanError
        from sliding_tiles.pdb import abstractions

        options = request.get("heuristic_params") or {}
        try:
            found = abstractions(options.get("partition", "auto"), n=n)
        except ValueError as exc:
            raise PlanError(f"heuristic pdb: {exc}") from None
        tables = [(list(a.pattern), str(_ensure(a)), hashlib.sha256(a.key().encode()).digest()) for a in found]
    return native.solve((n, list(tiles), tables), request)


def _ensure(abstraction):
    """The path of a verified table loaded into the native engine (built natively if missing or unusable),
    without loading it in Python: :func:`searchkit.plugin.ensure_file` (the cache, its build lock, and a table
    kept in memory for the run when the cache cannot keep it)."""
    from searchkit.plugin import ensure_file

    native = _module()
    digest = hashlib.sha256(abstraction.key().encode()).digest()
    return ensure_file(abstraction, pdb_builder(), lambda path: native.tiles_load_pdb(str(path), digest))
