"""Pattern database files and their cache.

File format (version 1; all integers little-endian; the native engine reads
and writes exactly this, see ``native/tiles/src/pdb.rs``)::

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
its key digest is the expected one, and the data's CRC-32 matches.

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
import zlib
from pathlib import Path

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


def decode(blob: bytes, key: str):
    """``(values, bits)`` from file bytes, checked against ``key``.

    Raises:
        CorruptFile: bad magic or version, another table's key, wrong length, or a CRC mismatch.
    """
    import numpy as np

    if len(blob) < _HEAD.size:
        raise CorruptFile(f"{len(blob)} bytes, shorter than the header")
    magic, version, bits, entries, size, crc, _top, dig, keylen = _HEAD.unpack_from(blob)
    if magic != MAGIC or version != VERSION or bits not in (4, 8):
        raise CorruptFile("not a searchkit pattern database of format 1")
    if dig != digest(key):
        raise CorruptFile("it holds another table (key digest differs)")
    expected = _HEAD.size + keylen + size
    if size != (entries if bits == 8 else (entries + 1) // 2) or len(blob) != expected:
        raise CorruptFile(f"{len(blob)} bytes, expected {expected}")
    data = memoryview(blob)[_HEAD.size + keylen:]
    if zlib.crc32(data) != crc:
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
    """Load and verify the table at ``path`` (raises :class:`CorruptFile`, :class:`OSError`)."""
    values, bits = decode(Path(path).read_bytes(), key)
    return PatternDatabase(key, values, bits, path=Path(path))


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
    """Write the table atomically (a temporary file renamed); returns the bits per entry."""
    blob = encode(key, values)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # never leave a half-written or unplaceable table behind
        raise
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


def load_or_build(abstraction, *, cache: bool = True, builder=None, quiet: bool = False) -> PatternDatabase:
    """The table of ``abstraction``: from the cache if a valid file is there, else built (and cached).

    A file that fails verification (wrong size, checksum or key) is rebuilt,
    with one line on stderr saying so.

    Args:
        cache: read and write the cache (``False``: build in memory only).
        builder: ``builder(abstraction, path, key, progress) -> bool``, tried
            before the Python builder (the native engine's, which writes
            ``path`` itself); ``False`` means it declined.  ``progress`` is
            ``None`` or the progress bar's ``progress(reached, total)``.
            Default: ``abstraction.native_builder()``.
        quiet: no line on stderr.

    Raises:
        searchkit.errors.PlanError: numpy is not installed (the ``pdb``
            extra); or from ``builder``, when the table is to be built
            natively and the cache folder cannot be made (:func:`make_folder`).
    """
    try:
        import numpy  # noqa: F401  (the Python engine's tables are numpy arrays)
    except ImportError:
        from searchkit.errors import PlanError

        raise PlanError("pattern databases on the Python engine need numpy: pip install 'searchkit-puzzles[pdb]' "
                        "(the native engine builds and reads them without it)") from None
    key = abstraction.key()
    path = path_for(abstraction)
    if builder is None:
        builder = abstraction.native_builder()
    if cache and path.exists():
        try:
            return read(path, key)
        except CorruptFile as exc:
            if not quiet:
                print(f"searchkit: pattern database {path} is unusable ({exc}); rebuilding it", file=sys.stderr)
        except OSError as exc:
            if not quiet:
                print(f"searchkit: cannot read pattern database {path} ({exc}); rebuilding it", file=sys.stderr)
    update, close = progress_bar(abstraction.label()) if not quiet else (None, lambda: None)
    try:
        if cache and builder is not None and builder(abstraction, path, key, update):
            values = None
        else:
            from searchkit.pdb.build import build

            values = build(abstraction, progress=update)
    finally:
        close()
    if values is None:
        db = read(path, key)
        db.built = True
        return db
    bits = 8
    if cache:
        try:
            bits = write(path, key, values)
        except OSError as exc:
            if not quiet:
                print(f"searchkit: cannot cache pattern database at {path} ({exc})", file=sys.stderr)
            path = None
    else:
        path = None
    db = PatternDatabase(key, values, bits, path=path, built=True)
    return db


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
            gone.append(p)
        except FileNotFoundError:
            pass
        except OSError as exc:
            errors.append(exc)
    return gone, kept, errors
