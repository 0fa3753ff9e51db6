"""Pattern database files and their cache.

File format (version 1; all integers little-endian; the native engine reads
and writes exactly this, see ``native/core/src/pdb/format.rs``)::

    offset  size  field
    0       8     magic  b"SKPDB01\\n"
    8       4     u32    format version, 1
    12      4     u32    bits per entry: 8 or 4
    16      8     u64    entries E
    24      8     u64    data bytes D: E when 8 bits, ceil(E / 2) when 4 bits
    32      4     u32    CRC-32 of the data bytes (zlib's / ISO-HDLC polynomial, as zlib.crc32)
    36      4     u32    largest value among the entries, unreachable marks excluded
    40      32    SHA-256 of the key text
    72      4     u32    key text length L
    76      L     key text, UTF-8: :meth:`Abstraction.key` (canonical JSON of game, pattern, options, size, fold)
    76+L    D     data: entry i is byte i (8 bits), or the low nibble of byte i // 2 for even i and the
                  high nibble for odd i (4 bits)

An entry is a distance; the all-ones value (255, or 15 with 4 bits) marks an
unreachable entry.  Four bits are used when every reachable value is at
most 14.  A file is accepted only if its length is exactly ``76 + L + D``,
its key digest is the expected one, and the data's CRC-32 matches; the CRC
is checked once, when the file is written or first read, and later loads
check a verification stamp instead (:func:`stamp` says what it proves and
what not; ``searchkit pdb info --verify`` checks the whole CRC again).

Cache: ``$SEARCHKIT_CACHE_DIR`` if set, else platformdirs' user cache
directory for ``searchkit`` (``$XDG_CACHE_HOME/searchkit`` or
``~/.cache/searchkit`` on Linux), in the sub-folder ``pdb/``; one file per
table, named by the game, the pattern and the first 16 hex digits of the key
digest.
"""

from __future__ import annotations

import glob
import hashlib
import os
import struct
import sys
import threading
import zlib
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import ModuleType

MAGIC = b"SKPDB01\n"
VERSION = 1
_HEAD = struct.Struct("<8sIIQQII32sI")  # 76 bytes


class CorruptFile(Exception):
    """A cache file that is not the expected table (the message says why)."""


def cache_dir() -> Path:
    """The folder of cached tables: ``$SEARCHKIT_CACHE_DIR`` or the user cache directory's ``searchkit/pdb``."""
    env = os.environ.get("SEARCHKIT_CACHE_DIR")
    if env:
        return Path(env)
    try:
        from platformdirs import user_cache_dir

        base = Path(user_cache_dir("searchkit", appauthor=False))
    except ImportError:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "searchkit"
    return base / "pdb"


def digest(key: str) -> bytes:
    """SHA-256 of the key text."""
    return hashlib.sha256(key.encode()).digest()


def path_for(abstraction) -> Path:
    """Where the cache keeps ``abstraction``'s table."""
    slug = "-".join(map(str, abstraction.pattern))[:60]
    return cache_dir() / f"{abstraction.game}-{slug}-{digest(abstraction.key()).hex()[:16]}.pdb"


class PatternDatabase:
    """A loaded table: ``values[i]`` is entry ``i`` (numpy uint8, unpacked), ``table`` the same as ``bytes``.

    Attributes:
        key: the abstraction's key text.
        entries: number of entries.
        bits: 8 or 4, as stored.
        max: the largest reachable value.
        path: the file it came from or went to (``None`` if never written).
        built: whether this process built it (rather than read it).
    """

    def __init__(self, key, values, bits, path=None, built=False):
        import numpy as np

        self.key = key
        self.values = np.ascontiguousarray(values, dtype=np.uint8)
        self.entries = int(self.values.size)
        self.bits = bits
        reachable = self.values[self.values != 255]
        self.max = int(reachable.max()) if reachable.size else 0
        self.path = path
        self.built = built
        self.table = self.values.tobytes()  # bytes: the fastest per-entry lookup from Python

    def __getitem__(self, index: int) -> int:
        return self.table[index]


def encode(key: str, values) -> bytes:
    """The file bytes of ``values`` (uint8 array, 255 = unreachable) under ``key``."""
    import numpy as np

    values = np.asarray(values, dtype=np.uint8)
    reachable = values[values != 255]
    top = int(reachable.max()) if reachable.size else 0
    if top <= 14:
        bits = 4
        nib = np.where(values == 255, 15, values).astype(np.uint8)
        if nib.size % 2:
            nib = np.append(nib, np.uint8(15))
        data = (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8).tobytes()
    else:
        bits, data = 8, values.tobytes()
    text = key.encode()
    head = _HEAD.pack(MAGIC, VERSION, bits, values.size, len(data), zlib.crc32(data), top, digest(key), len(text))
    return head + text + data


def _checked_head(head: bytes, key: str, length: int) -> tuple[int, int, int, int]:
    """``(bits, entries, crc, keylen)`` of a table file's header ``head``, checked against ``key`` and the
    file's ``length`` in bytes (one check for :func:`decode` and :func:`verify_file`).

    Raises:
        CorruptFile: a short header, bad magic or version, another table's key, or the wrong length.
    """
    if len(head) < _HEAD.size:
        raise CorruptFile(f"{len(head)} bytes, shorter than the header")
    magic, version, bits, entries, size, crc, _top, dig, keylen = _HEAD.unpack_from(head)
    if magic != MAGIC or version != VERSION or bits not in (4, 8):
        raise CorruptFile("not a searchkit pattern database of format 1")
    if dig != digest(key):
        raise CorruptFile("it holds another table (key digest differs)")
    expected = _HEAD.size + keylen + size
    if size != (entries if bits == 8 else (entries + 1) // 2) or length != expected:
        raise CorruptFile(f"{length} bytes, expected {expected}")
    return bits, entries, crc, keylen


def decode(blob: bytes, key: str, crc: bool = True):
    """``(values, bits)`` from file bytes, checked against ``key`` (the data's CRC-32 too unless ``crc`` is
    false: a file whose :func:`stamp` holds, see :func:`stamped`).

    Raises:
        CorruptFile: bad magic or version, another table's key, wrong length, or a CRC mismatch.
    """
    import numpy as np

    bits, entries, crc32, keylen = _checked_head(blob[:_HEAD.size], key, len(blob))
    data = memoryview(blob)[_HEAD.size + keylen:]
    if crc and zlib.crc32(data) != crc32:
        raise CorruptFile("checksum mismatch")
    raw = np.frombuffer(data, dtype=np.uint8)
    if bits == 8:
        return raw.copy(), 8
    values = np.empty(raw.size * 2, dtype=np.uint8)
    values[0::2] = raw & 15
    values[1::2] = raw >> 4
    values = values[:entries]
    values[values == 15] = 255
    return values, 4


def read(path: Path, key: str) -> PatternDatabase:
    """Load and verify the table at ``path`` (raises :class:`CorruptFile`, :class:`OSError`, :class:`MemoryError`):
    the header, the key and the length always, the data's CRC-32 unless the file's :func:`stamp` holds (then
    the check is made again only by ``searchkit pdb info --verify``); a file whose CRC was checked is stamped."""
    path = Path(path)
    cheap = stamped(path)
    before = None if cheap else _identity(path)
    values, bits = decode(path.read_bytes(), key, crc=not cheap)
    db = PatternDatabase(key, values, bits, path=path)
    if not cheap:
        stamp(path, before, top=db.max)
    return db


# The verification stamp: a file's CRC-32 (over all its data) and SHA-256 key digest are checked once, when
# this process wrote the file or first read it; then a side record of the file's identity is written, and later
# runs check the header, the length and that record instead of the whole CRC.

def _stamp_path(path: Path) -> Path:
    return Path(path).with_name(f".{Path(path).name}.verified")


def _identity(path: Path) -> dict | None:
    """The table file's identity as its stamp records it, or ``None`` (missing, or not a regular file)."""
    import stat as st_mod

    try:
        st = os.lstat(path)
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NOFOLLOW", 0))) as f:
            head = f.read(_HEAD.size)
    except OSError:
        return None
    if not st_mod.S_ISREG(st.st_mode) or len(head) < _HEAD.size:
        return None
    fields = _HEAD.unpack_from(head)
    return {"dev": st.st_dev, "ino": st.st_ino, "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "ctime_ns": st.st_ctime_ns, "crc32": fields[5], "key_sha256": fields[7].hex()}


def stamp(path: Path, before: dict | None = None, *, written: bool = False, top: int | None = None) -> None:
    """Record that the table file at ``path`` was verified whole (its CRC-32 over all its data and its key's
    SHA-256 checked, or it was written by this process from the table in memory): the side file
    ``.NAME.verified`` beside it holds the file's device, inode, size, modification and change times (ns),
    and its header's CRC and key digest (JSON, written through an exclusive temporary name and renamed).

    Why it is sound (:func:`stamped` is the check): any write to the file through the filesystem changes its
    modification and change times, a replacement (a rename over it, a copy) its inode, a truncation its size,
    and the change time cannot be set back from user space (``touch -d`` sets it to now), so a file that
    still matches its stamp holds the bytes that were verified.  What it does not catch: corruption below the
    filesystem (a failing disk, a bit flipped in the page cache or on the medium, a write to the raw
    device), which leaves the times alone; ``searchkit pdb info --verify`` checks the whole CRC again for
    that (and a failed check removes the stamp).  The header, the key digest and the length are still
    checked on every load.  A stamp that cannot be written is no error: the next load checks the CRC.
    ``before``: the file's identity taken before it was read and checked (:func:`_identity`); if it changed
    meanwhile, nothing is stamped.  The stamp also keeps the table's largest value when it is known: ``top``
    (computed from the entries), or with ``written`` (this process wrote the file) the header's, which the
    writer computed (the header's field is outside the CRC, so a file found elsewhere is not taken at its word).
    """
    import json

    from searchkit.machinery.atomic import write_file

    ident = _identity(path)
    if ident is None or (before is not None and before != ident):
        return
    if written:
        with open(path, "rb") as f:
            top = _HEAD.unpack_from(f.read(_HEAD.size))[6]
    try:
        write_file(_stamp_path(path), json.dumps(dict(ident, max=top), sort_keys=True))
    except OSError:
        pass


def unstamp(path: Path) -> None:
    """Remove the verification stamp of ``path`` (a table found corrupt, or deleted)."""
    try:
        os.unlink(_stamp_path(path))
    except OSError:
        pass


def stamped(path: Path) -> dict | None:
    """The stamp written when the table file at ``path`` was verified (:func:`stamp`, which says what that
    proves and what not), if the file still matches it, else ``None``: the stamp is a regular file of ours (or
    root's), never followed through a link, and every field equals the file's now.  Its ``max`` is the table's
    largest value, or ``None`` when it was not computed."""
    import json

    from searchkit.machinery.atomic import owned_by_us

    where = _stamp_path(path)
    if not owned_by_us(where):
        return None
    try:
        nofollow = getattr(os, "O_NOFOLLOW", 0)
        with open(where, encoding="utf-8", opener=lambda p, flags: os.open(p, flags | nofollow)) as f:
            recorded = json.loads(f.read(4096))
        top = recorded.pop("max")
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None
    ident = _identity(path)
    if ident is None or recorded != ident or not (top is None or isinstance(top, int)):
        return None
    return dict(ident, max=top)


def verify_file(path: Path, key: str, *, full: bool = False) -> dict:
    """Check the table file at ``path`` against ``key`` without loading it (no numpy): its header (magic,
    version, bits), its key digest and its length; then its CRC-32 over the whole data, read in pieces, unless
    the file still matches its verification stamp (:func:`stamped`) and ``full`` is false.  A file whose CRC
    was checked is stamped; one that fails loses its stamp.

    Returns:
        ``{"entries", "bits", "max", "crc": bool}`` (``crc``: whether the CRC was checked now; ``max`` the
        table's largest value, from the stamp or computed with numpy while checking the CRC; ``None`` when
        neither knows it: the header's own field is outside the CRC).

    Raises:
        CorruptFile: why the file is not the table of ``key``.
        OSError: it cannot be read.
    """
    path = Path(path)
    known = None if full else stamped(path)
    check = known is None
    before = _identity(path) if check else None
    np: ModuleType | None  # numpy when installed: it finds the table's largest value while the CRC is checked
    try:
        import numpy
    except ImportError:
        np = None
    else:
        np = numpy
    top = None if known is None else known["max"]  # known is None exactly when check
    with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NOFOLLOW", 0))) as f:
        bits, entries, crc, keylen = _checked_head(f.read(_HEAD.size), key, os.fstat(f.fileno()).st_size)
        if check:
            f.seek(_HEAD.size + keylen)
            running = 0
            largest = 0  # the largest reached value (numpy only); an empty or all-unreached table's is 0
            while chunk := f.read(1 << 24):
                running = zlib.crc32(chunk, running)
                if np is not None:
                    raw = np.frombuffer(chunk, dtype=np.uint8)
                    parts = (raw,) if bits == 8 else (raw & 15, raw >> 4)
                    unreached = 255 if bits == 8 else 15
                    for part in parts:
                        reached = part[part != unreached]
                        if reached.size:
                            largest = max(largest, int(reached.max()))
            top = largest if np is not None else None
            if running != crc:
                unstamp(path)
                raise CorruptFile("checksum mismatch")
    if check:
        stamp(path, before, top=top)
    return {"entries": entries, "bits": bits, "max": top, "crc": check}


def make_folder(path: Path) -> None:
    """Make the cache folder that is to hold the table file ``path``.

    Raises:
        searchkit.errors.PlanError: it cannot be made (``SEARCHKIT_CACHE_DIR``
            names a file, or a folder that cannot be written), in one line
            that says what to do: a native build needs the file on disk.
    """
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from searchkit.errors import PlanError

        raise PlanError(f"cannot use the pattern database cache {Path(path).parent}: {exc.strerror or exc}; set "
                        f"SEARCHKIT_CACHE_DIR to a folder searchkit may write") from None


def write(path: Path, key: str, values) -> int:
    """Write the table atomically (:func:`searchkit.machinery.atomic.write_file`: an exclusive temporary name in the
    same folder, renamed into place; never through a link); returns the bits per entry."""
    from searchkit.machinery.atomic import write_file

    blob = encode(key, values)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, blob)
    stamp(path, written=True)  # written from the table in memory: its CRC is the one just computed
    return struct.unpack_from("<I", blob, 12)[0]


def progress_bar(label):
    """The bar shown while a table is built: ``(update, close)``.

    A rich progress bar on stderr, ``building LABEL``, when stderr is a
    terminal; ``update(reached, total)`` moves it (entries reached of
    ``total``) and ``close()`` removes it.  When stderr is not a terminal,
    ``(None, close)`` with a ``close`` that does nothing.
    """
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("building {task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=None)
    bar.start()

    def update(done, total):
        bar.update(task, completed=done, total=total)

    return update, bar.stop


#: Tables this process built but could not keep in the cache, by (cache path, key): built once, used from memory
#: for the run.
_KEPT: dict[tuple[str, str], PatternDatabase] = {}
#: The same for engines that read table files themselves (native): (cache path, key) -> the path the engine
#: loaded it from.
_KEPT_FILES: dict[tuple[str, str], Path] = {}

#: (path, key, engine) -> the file's identity (:func:`_lstat_identity`) when ``engine`` loaded it, for
#: :func:`ensure_file`'s check once a process.
_HELD: dict[tuple[str, str, str], tuple | None] = {}


def _lstat_identity(path: Path) -> tuple | None:
    """``(device, inode, size, mtime_ns, ctime_ns)`` of the regular file at ``path`` (never followed through a
    link), or ``None``."""
    import stat as st_mod

    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not st_mod.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
#: Cache folders already said to be unusable (one warning a run).
_WARNED: set[str] = set()


def file_bytes(abstraction) -> int:
    """The most bytes ``abstraction``'s table file takes (one byte an entry, with its header and key)."""
    return _HEAD.size + len(abstraction.key().encode()) + abstraction.entries


def cache_problem(folder: Path, need: int = 0) -> str | None:
    """Why tables cannot be kept in ``folder`` (``None``: they can): it cannot be made or written (a file
    is created and removed to find out), other users may write in it
    (:func:`searchkit.machinery.atomic.folder_problem`), or it has less than ``need`` bytes free."""
    import tempfile

    from searchkit.machinery.atomic import folder_problem

    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"it cannot be made: {exc.strerror or exc}"
    unsafe = folder_problem(folder)
    if unsafe:
        return unsafe
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"it cannot be written: {exc.strerror or exc}"
    if need:
        try:
            fs = os.statvfs(folder)
            free = fs.f_bavail * fs.f_frsize
        except (OSError, AttributeError):
            free = need
        if free < need:
            return f"{free / 2**20:,.0f} MiB free, the table needs up to {need / 2**20:,.0f} MiB"
    return None


def _trusted(folder: Path) -> bool:
    """Whether tables found in ``folder`` may be read: nobody but us (and root) can have put them there."""
    from searchkit.machinery.atomic import folder_problem

    return folder_problem(folder) is None


def not_kept(folder: Path, problem: str) -> str:
    """The one line saying the cache ``folder`` cannot keep tables, and what to do."""
    return (f"cannot use the pattern database cache {folder}: {problem}; set SEARCHKIT_CACHE_DIR to a folder of "
            f"yours searchkit may write")


def _say_not_cached(folder: Path, problem: str, quiet: bool) -> None:
    if quiet or str(folder) in _WARNED:
        return
    _WARNED.add(str(folder))
    print(f"searchkit: warning: cannot keep pattern databases in {folder}: {problem}; building them once and "
          f"using them from memory for this run (set SEARCHKIT_CACHE_DIR to a folder of yours searchkit may "
          f"write to keep them)", file=sys.stderr)


#: Set by :func:`stand_in_cache` for a run's workers: ``{"folder": ..., "problem": ...}`` (JSON), the cache
#: folder that could not keep tables and why; ``SEARCHKIT_CACHE_DIR`` then names the run's private stand-in.
STAND_IN_VAR = "SEARCHKIT_CACHE_STAND_IN"


def stand_in_cache(jobs: int):
    """One private table cache for the ``jobs`` local workers of a run whose cache folder cannot keep tables.

    Each worker is a process of its own, so with an unusable cache folder
    (:func:`cache_problem`) each built every table it needed, kept it in its
    own memory and said so: ``--jobs 2`` built a 1.1 GB table twice.  With
    ``jobs`` > 1 and such a folder, this makes a private temporary folder
    (``tempfile.mkdtemp``: ours, mode 0700) and names it in
    ``SEARCHKIT_CACHE_DIR`` for the workers (set in this process's
    environment, which they inherit), so that one worker builds each table
    under the folder's build lock (:func:`build_lock`) and the others read
    it; the worker that builds says once why (:func:`_say_stand_in`).

    Returns:
        ``None`` when nothing is needed (one job, or a usable cache), else
        a function that restores the environment and removes the folder
        with its tables (call it when the workers are gone).
    """
    import json
    import shutil
    import tempfile

    if jobs < 2 or os.environ.get(STAND_IN_VAR):
        return None
    folder = cache_dir()
    problem = cache_problem(folder)
    if problem is None:
        return None
    try:
        private = tempfile.mkdtemp(prefix="searchkit-pdb-")
    except OSError:
        return None  # each worker then keeps its tables in memory, as with one job
    old = {name: os.environ.get(name) for name in ("SEARCHKIT_CACHE_DIR", STAND_IN_VAR)}
    os.environ["SEARCHKIT_CACHE_DIR"] = private
    os.environ[STAND_IN_VAR] = json.dumps({"folder": str(folder), "problem": problem})

    def undo() -> None:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(private, ignore_errors=True)

    return undo


def _say_stand_in(path: Path, quiet: bool) -> None:
    """Before a worker builds a table into its run's stand-in cache (:func:`stand_in_cache`), say why, once a
    run: the first worker to say it creates ``.warned`` in the private folder (exclusively), and the others,
    each a process of its own, then stay quiet (two workers building two tables at once both said it)."""
    import json

    text = os.environ.get(STAND_IN_VAR)
    if quiet or not text or str(path.parent) in _WARNED or str(path.parent) != os.environ.get("SEARCHKIT_CACHE_DIR"):
        return
    _WARNED.add(str(path.parent))
    try:
        why = json.loads(text)
        folder, problem = why["folder"], why["problem"]
    except (ValueError, KeyError, TypeError):
        return
    try:
        os.close(os.open(path.parent / ".warned", os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                         0o600))
    except FileExistsError:
        return  # another worker of the run has said it
    except OSError:
        pass
    print(f"searchkit: warning: cannot keep pattern databases in {folder}: {problem}; this run's workers build "
          f"each table once into a private temporary folder, {path.parent}, removed when the run ends (set "
          f"SEARCHKIT_CACHE_DIR to a folder of yours searchkit may write to keep them)", file=sys.stderr)


def human_bytes(n: int) -> str:
    """``n`` bytes in GiB, MiB or KiB, e.g. ``29 MiB``, ``92.8 GiB``."""
    if n >= 2**30:
        return f"{n / 2**30:,.1f} GiB"
    return f"{n / 2**20:,.0f} MiB" if n >= 2**20 else f"{max(1, round(n / 1024)):,} KiB"


def machine_memory() -> int | None:
    """This machine's physical memory in bytes (``None`` where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


#: Peak bytes a state of the Python builder (:mod:`searchkit.machinery.pdb.build`) takes: its distance byte and the
#: layers' int64 rank arrays (measured: 22 on a 5.8-million-state table).
PYTHON_BYTES_PER_STATE = 24


def build_bytes(abstraction, builder=None) -> int:
    """The memory building ``abstraction``'s table takes, in bytes: ``builder.memory(abstraction)`` for a
    builder that says (the native one), else the Python builder's :data:`PYTHON_BYTES_PER_STATE` a state."""
    memory = getattr(builder, "memory", None)
    if memory is not None:
        return int(memory(abstraction))
    return PYTHON_BYTES_PER_STATE * abstraction.size


def check_build_size(abstraction, builder=None) -> int:
    """Refuse, before anything is allocated, a table whose build needs more memory than there is.

    Returns:
        The bytes building it takes (:func:`build_bytes`).

    Raises:
        searchkit.limits.LimitReached: ``memory_limit``, above the running case's ``--memory-limit``.
        searchkit.errors.PlanError: above this machine's physical memory, in one line with both sizes.
    """
    from searchkit.limits import reserve

    need = build_bytes(abstraction, builder)
    reserve(need)
    have = machine_memory()
    if have is not None and need > have:
        from searchkit.errors import PlanError

        raise PlanError(f"{abstraction.label()}: building its table of {abstraction.entries:,} entries needs about "
                        f"{human_bytes(need)} of memory, more than this machine's {human_bytes(have)}; no option "
                        f"raises this bound (--memory-limit only lowers it): name a smaller pattern in the "
                        f"heuristic's spec")
    return need


@contextmanager
def build_lock(path: Path, label: str, quiet: bool = False):
    """Hold the build lock of the table file ``path`` (``.NAME.lock`` beside it) while the block runs.

    One process builds a table; the others wait here, then find it in the
    cache.  The lock is :func:`fcntl.flock` on a file opened without
    following links: the kernel releases it when its holder exits, however
    it exits (a killed or crashed builder leaves no stale lock to detect or
    clear; :mod:`searchkit.machinery.locks` says why it is safe).  While it
    waits, one line says so, and the running case's time limit is checked
    (:func:`searchkit.limits.setup_check`).  Where nothing can be locked
    (no ``fcntl``, the lock file cannot be opened), two processes may build
    the same table; each writes it atomically.

    Raises:
        searchkit.limits.LimitReached: the running case's time ran out while it waited.
    """
    import time

    from searchkit.limits import setup_check
    from searchkit.machinery.locks import lock_beside, lock_path

    waiting = False

    def wait() -> None:
        nonlocal waiting
        if not waiting and not quiet:
            print(f"searchkit: waiting for another process building {label} (lock {lock_path(path)})",
                  file=sys.stderr)
        waiting = True
        setup_check()
        time.sleep(0.05)

    held = lock_beside(path, wait)
    try:
        yield
    finally:
        if held is not None:
            held.release()  # removes the lock file while still held: no lock file is left behind


def _reserve_to_read(path: Path, abstraction) -> None:
    """Stop with ``memory_limit`` before reading a cached table larger than the running case's allowance
    (the file's bytes and its unpacked entries), instead of failing to read it and calling it unusable."""
    from searchkit.limits import reserve

    try:
        size = os.stat(path).st_size
    except OSError:
        return
    reserve(size + abstraction.entries)


def _build_values(abstraction, builder, update):
    """The table's values, built by ``builder`` into a private temporary folder when it writes files
    itself (then read back and the folder removed), else by the Python builder."""
    if builder is not None:
        import shutil
        import tempfile

        private = Path(tempfile.mkdtemp(prefix="searchkit-pdb-"))
        try:
            where = private / path_for(abstraction).name
            if builder(abstraction, where, abstraction.key(), update):
                return read(where, abstraction.key()).values
        finally:
            shutil.rmtree(private, ignore_errors=True)
    from searchkit.machinery.pdb.build import build

    return build(abstraction, progress=update)


def load_or_build(abstraction, *, cache: bool = True, builder=None, quiet: bool = False,
                  in_memory: bool = True) -> PatternDatabase:
    """The table of ``abstraction``: from the cache if a valid file is there, else built (and cached).

    The Python engine's face of the engines' one route, :func:`ensure_file` (the native engine and
    ``searchkit pdb build`` take it too): the same cache, build lock, verification stamp and private folder;
    only here is the table then loaded into numpy.

    A file that fails verification (wrong size, checksum or key, or not a
    regular file of ours) is rebuilt, with one line on stderr saying so.
    One process builds a table at a time (:func:`build_lock`); the others
    wait and read it.  When the cache folder cannot keep it (it cannot be
    written, it lacks the room, other users may write in it:
    :func:`cache_problem`), the table is built once and kept in memory for
    the rest of the run, with one warning naming the folder.

    Args:
        cache: read and write the cache (``False``: build in memory only).
        builder: ``builder(abstraction, path, key, progress) -> bool``, tried
            before the Python builder (the native engine's, which writes
            ``path`` itself); ``False`` means it declined.  ``progress`` is
            ``None`` or the progress bar's ``progress(reached, total)``.
            Default: ``abstraction.native_builder()``.
        quiet: no line on stderr.
        in_memory: when the cache cannot keep the table, build it and keep
            it in memory for the run (default); ``False`` (``pdb build``,
            whose point is the file): raise instead, before building.

    Raises:
        searchkit.errors.PlanError: numpy is not installed (the ``pdb``
            extra); or the build needs more memory than the machine has
            (:func:`check_build_size`); or, with ``in_memory`` false, the
            cache cannot keep the table (one line naming the folder).
        OSError: with ``in_memory`` false, the table could not be written.
        searchkit.limits.LimitReached: ``memory_limit``: the running case's
            ``--memory-limit`` cannot hold the table read or built.
    """
    try:
        import numpy  # noqa: F401  (the Python engine's tables are numpy arrays)
    except ImportError:
        from searchkit.errors import PlanError

        raise PlanError("pattern databases on the Python engine need numpy: pip install 'searchkit-puzzles[pdb]' "
                        "(the native engine builds and reads them without it)") from None
    key = abstraction.key()
    path = path_for(abstraction)
    if (str(path), key) in _KEPT:
        return _KEPT[str(path), key]
    if builder is None:
        builder = abstraction.native_builder()
    if cache:
        # the engines' one route (ensure_file: the cache, its lock, the stamp, the private folder when the cache
        # cannot keep the table); only this engine then loads the table into numpy
        got: list[PatternDatabase] = []
        made: list[bool] = []
        make = file_builder(builder)

        def build(*args):
            made.append(True)
            return make(*args)

        build.__dict__.update(make.__dict__)  # its memory estimate

        def load(where, _crc):
            got[:] = [read(where, key)]  # the stamp, or the CRC when it does not hold

        where = ensure_file(abstraction, build, load, quiet=quiet, in_memory=in_memory, remember=False)
        db = got[0]
        db.built = bool(made)
        if where != path:  # built into a private folder, removed: kept in memory for the run
            db.path = None
            _KEPT[str(path), key] = db
        return db
    check_build_size(abstraction, builder)
    update, close = progress_bar(abstraction.label()) if not quiet else (None, lambda: None)
    try:
        values = _build_values(abstraction, builder, update)
    finally:
        close()
    db = PatternDatabase(key, values, 8, path=None, built=True)
    if cache:
        _KEPT[str(path), key] = db
    return db


#: Table files this process is writing behind (:func:`ensure_file`), by ``(path, key)``: their writers' threads.
_BEHIND: dict[tuple[str, str], threading.Thread] = {}


#: What went wrong in a write behind other than the file not being written (a defect): raised by
#: :func:`finish_writes`.
_BEHIND_FAILED: list[BaseException] = []


def finish_writes() -> None:
    """Wait until every table file this process writes behind (:func:`ensure_file`, a builder that hands
    back its file's write) is written, stamped and its build lock released.  A plugin's engine calls it when
    its case is done, so that a table's file is written while its next table builds and its search runs, and
    is in the cache when the case returns.

    Raises:
        Exception: what a write raised other than OSError (a defect; an OSError is said in one line by the
            writer, and the table is used from memory for the rest of the run).
    """
    for k, writer in list(_BEHIND.items()):
        writer.join()
        _BEHIND.pop(k, None)
    if _BEHIND_FAILED:
        failed = _BEHIND_FAILED.pop(0)
        _BEHIND_FAILED.clear()
        raise failed


def _write_behind(path: Path, key: str, write, held, quiet: bool) -> None:
    """Run ``write()`` (the file of a table the engine keeps) on a thread of its own, then stamp the file
    and release ``held`` (the build lock: another process waits for the file as before).  When it cannot
    be written, one line says so, and the table is remembered as kept under ``path`` (the engine has it for
    the run: later cases do not build it again; the cache has not)."""

    def run() -> None:
        try:
            write()
            stamp(path, written=True)
        except OSError as exc:
            _KEPT_FILES[str(path), key] = path
            if not quiet:
                print(f"searchkit: cannot write pattern database {path} ({exc.strerror or exc}); it is kept "
                      f"in memory for this run", file=sys.stderr)
        except BaseException as exc:  # a defect: raised again by finish_writes
            _KEPT_FILES[str(path), key] = path
            _BEHIND_FAILED.append(exc)
        finally:
            held.close()

    writer = threading.Thread(target=run, name=f"searchkit-pdb-write-{path.name}")
    try:
        writer.start()
    except RuntimeError:  # no thread to be had: written now
        run()
        return
    _BEHIND[str(path), key] = writer


def ensure_file(abstraction, builder, load, *, quiet: bool = False, in_memory: bool = True,
                remember: bool = True, engine: str | None = None) -> Path:
    """The path of ``abstraction``'s verified table file, for an engine that reads table files itself, and for
    ``searchkit pdb build``.

    As :func:`load_or_build`, without loading the table into Python: a
    cached file is handed to ``load(path, crc)``, which verifies it and loads it
    into the engine (raising :class:`CorruptFile` or ``ValueError`` with the
    reason when it is unusable: then it is rebuilt); ``crc`` is false when the
    file still matches the stamp written when it was last verified whole
    (:func:`stamp`: the header, key digest and length are checked, the CRC over
    all the data is not), and a file whose CRC was checked is stamped.  A
    missing one is built by ``builder(abstraction, path, key, progress)`` under
    the build lock (in this process: the native builder takes the running
    case's limits and Ctrl-C, and keeps the table it built, so ``load`` does
    not read it back), stamped as verified, and handed to ``load(path, False)``.
    When the cache cannot keep it (:func:`cache_problem`), it is built once
    into a private temporary folder, loaded, and the file removed; the path
    returned is then the one the engine keeps it under for the run (with
    ``in_memory`` false, ``pdb build``'s, a PlanError instead), and this
    function returns it again for the run without calling ``load``
    (``remember`` false: not, for a caller that keeps the table itself, as
    :func:`load_or_build` does).

    ``engine``: the name of an engine whose ``load`` keeps the table for the process (the native engine's).
    A file it loaded, or a table it built and kept, is then not checked again in this process while the
    file's identity (device, inode, size, modification and change times, from one ``lstat``: what a stamp
    records, so the same proof) is what it was: a run of many cases checks each table file once, not once
    a case.  The case's memory allowance is still checked (as before a read).

    A builder that keeps the table it built may return, instead of writing the file, its write: a
    callable that writes it (raising OSError when it cannot).  The file is then written behind, on a
    thread of its own, while the caller goes on (its next table builds, its search runs): the build lock
    is held until the file is written and stamped, this function returns the path at once (again for the
    same table until then, to a caller that ``remember``s), and :func:`finish_writes` waits for it.  A file
    that cannot be written is said in one line and the run goes on with the table in memory (remembered
    under ``path``); in a private folder the write is skipped.

    Raises:
        searchkit.errors.PlanError: the build needs more memory than the machine has; with ``in_memory``
            false, the cache cannot keep the table.
        searchkit.limits.LimitReached: the running case's ``--memory-limit``
            cannot hold the table (checked before it is read or built), or its time ran out while building.
        KeyboardInterrupt: Ctrl-C while building (nothing is left half-written).
        OSError: the builder failed; with ``in_memory`` false, the table could not be written.
    """
    key = abstraction.key()
    path = path_for(abstraction)
    if remember and (str(path), key) in _KEPT_FILES:
        return _KEPT_FILES[str(path), key]
    held = _HELD.get((str(path), key, engine)) if engine is not None else None
    if held is not None and held == _lstat_identity(path):
        _reserve_to_read(path, abstraction)
        return path
    if (str(path), key) in _BEHIND:  # built by this process, whose engine keeps it; its file is being written
        if remember:
            return path
        _BEHIND.pop((str(path), key)).join()  # a caller that loads the table itself: from the file, once written

    def loaded(where: Path, say: bool) -> bool:
        from searchkit.machinery.atomic import owned_by_us

        if not where.exists():
            return False
        _reserve_to_read(where, abstraction)
        try:
            if not owned_by_us(where):
                raise CorruptFile("not a regular file of ours")
            cheap = stamped(where)
            before = None if cheap else _identity(where)
            load(where, not cheap)
            if not cheap:
                stamp(where, before)
            if engine is not None:
                _HELD[str(where), key, engine] = _lstat_identity(where)
            return True
        except MemoryError:
            from searchkit.limits import MEMORY_LIMIT, LimitReached

            raise LimitReached(MEMORY_LIMIT) from None
        except OSError as exc:
            if say and not quiet:
                print(f"searchkit: cannot read pattern database {where} ({exc.strerror or exc}); rebuilding it",
                      file=sys.stderr)
            return False
        except (CorruptFile, ValueError) as exc:
            text = str(exc)
            if "out of memory" in text or "memory allocation" in text:
                from searchkit.limits import MEMORY_LIMIT, LimitReached

                raise LimitReached(MEMORY_LIMIT) from None
            unstamp(where)
            if say and not quiet:
                print(f"searchkit: pattern database {where} is unusable ({text}); rebuilding it", file=sys.stderr)
            return False

    def built(where: Path):
        update, close = progress_bar(abstraction.label()) if not quiet else (None, lambda: None)
        try:
            done = builder(abstraction, where, key, update)
        finally:
            close()
        if callable(done):
            return done  # the file's write, handed back
        stamp(where, written=True)  # written by this process from the table in memory
        return None

    if _trusted(path.parent) and loaded(path, True):  # a valid table is read from a folder it cannot be written to
        return path
    problem = cache_problem(path.parent, file_bytes(abstraction))
    if problem is None:
        check_build_size(abstraction, builder)  # before the lock: a refused build leaves nothing behind
        try:
            with ExitStack() as lock:
                lock.enter_context(build_lock(path, abstraction.label(), quiet))
                if loaded(path, False):
                    return path
                _say_stand_in(path, quiet)
                write = built(path)
                if write is not None:  # written behind: the lock goes with the writer
                    _write_behind(path, key, write, lock.pop_all(), quiet)
            load(path, False)
            if engine is not None and write is None:  # (a file written behind is held once it is checked)
                _HELD[str(path), key, engine] = _lstat_identity(path)
            return path
        except OSError as exc:  # the builder could not write the file (the disk filled up meanwhile)
            if not in_memory:
                raise
            problem = f"writing {path.name} failed: {exc.strerror or exc}"
    if not in_memory:
        from searchkit.errors import PlanError

        raise PlanError(not_kept(path.parent, problem))
    _say_not_cached(path.parent, problem, quiet)
    check_build_size(abstraction, builder)
    import shutil
    import tempfile

    private = Path(tempfile.mkdtemp(prefix="searchkit-pdb-"))
    try:
        where = private / path.name
        built(where)  # a write handed back is not needed: the folder goes
        load(where, False)  # the engine keeps it, under this path, for the run
    finally:
        shutil.rmtree(private, ignore_errors=True)
    if remember:
        _KEPT_FILES[str(path), key] = where
    return where


def file_builder(builder=None):
    """``builder(abstraction, path, key, progress) -> True`` that always writes the file: ``builder`` (the
    native one) first, and when there is none or it declines, searchkit's Python builder (which needs numpy,
    and says so in one line: a PlanError), its table written with :func:`write`."""

    def build(abstraction, path, key, progress=None):
        if builder is not None and builder(abstraction, path, key, progress):
            return True
        try:
            import numpy  # noqa: F401
        except ImportError:
            from searchkit.errors import PlanError

            raise PlanError(f"{abstraction.label()}: its table is built by searchkit's Python builder, which needs "
                            f"numpy: pip install 'searchkit-puzzles[pdb]'") from None
        from searchkit.machinery.pdb.build import build as python_build

        write(path, key, python_build(abstraction, progress=progress))
        return True

    memory = getattr(builder, "memory", None)
    if memory is not None:
        build.memory = memory
    return build


def info(path: Path) -> dict:
    """The header fields of a table file, unverified (for ``searchkit pdb info``).

    Raises:
        CorruptFile: the file is shorter than the header.
        OSError: it cannot be read (a folder, no permission).
    """
    with open(path, "rb") as f:
        head = f.read(_HEAD.size)
        if len(head) < _HEAD.size:
            raise CorruptFile(f"{len(head)} bytes, shorter than the {_HEAD.size}-byte header")
        magic, version, bits, entries, size, crc, top, dig, keylen = _HEAD.unpack_from(head)
        key = f.read(keylen).decode(errors="replace")
    return {"path": str(path), "bits": bits, "entries": entries, "data_bytes": size, "crc32": f"{crc:08x}",
            "max": top, "key": key, "file_bytes": Path(path).stat().st_size}


def clear(abstractions=None, game: str | None = None) -> tuple[list[Path], list[Path], list[OSError]]:
    """Delete cached tables: those of ``abstractions``, else every ``GAME-*.pdb`` (every ``*.pdb``: ``game=None``).

    Only files in the cache folder that begin with this format's magic bytes are deleted (a table of ours,
    corrupt or not): a file that merely has a table's name is the user's, and is left alone.  ``game`` is a
    name, never a pattern: its glob characters are matched literally.

    Returns:
        ``(deleted, kept, errors)``: the paths deleted, the paths left alone as not tables, and the
        :class:`OSError` of each path that could not be read or deleted (a folder where a table's file
        goes, no permission); the others are still deleted.
    """
    pattern = f"{glob.escape(game)}-*.pdb" if game else "*.pdb"
    paths = [path_for(a) for a in abstractions] if abstractions is not None else sorted(cache_dir().glob(pattern))
    gone, kept, errors = [], [], []
    for p in paths:
        try:
            with open(p, "rb") as f:
                ours = f.read(len(MAGIC)) == MAGIC
            if not ours:
                kept.append(p)
                continue
            p.unlink()
            unstamp(p)
            gone.append(p)
        except FileNotFoundError:
            pass
        except OSError as exc:
            errors.append(exc)
    return gone, kept, errors
