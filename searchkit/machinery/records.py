"""JSON Lines records: one object per case, written as each case finishes, resumable.

The schema (version :data:`SCHEMA`) is documented in ``docs/records.md``.  A
record file is appended to one whole line at a time (one ``write`` of the
line and its newline, then flushed), so Ctrl-C leaves it valid; after
``kill -9`` only the last line can be torn, and :func:`load_records` detects
it (no newline, or not JSON) so the case is solved again.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Iterator
from typing import Any, TypeGuard

from searchkit.machinery.locks import Held, LockBusy, lock_beside

SCHEMA = 1  #: version of the record layout (``docs/records.md``)

_PLAIN = frozenset({int, str, float, bool, bytes, type(None)})


def canonical(value: Any) -> str:
    """A stable text of a case's data: the same on every run, process and machine.

    attrs instances are written as their class name and fields, tuples and
    lists element by element, dicts and sets sorted; ints, strings, floats,
    bools and ``None`` by ``repr``.

    Raises:
        TypeError: a value with no stable text (an object whose ``repr``
            would hold its address).
    """
    import attrs

    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    if attrs.has(type(value)):
        fields = ",".join(f"{f.name}={canonical(getattr(value, f.name))}" for f in attrs.fields(type(value)))
        return f"{type(value).__name__}({fields})"
    if isinstance(value, (tuple, list)):
        open_, close = ("(", ")") if isinstance(value, tuple) else ("[", "]")
        if set(map(type, value)) <= _PLAIN:  # the common case (a board's cells), at C speed; the same text
            return open_ + ",".join(map(repr, value)) + close
        return open_ + ",".join(canonical(v) for v in value) + close
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(canonical(v) for v in value)) + "}"
    text = repr(value)
    if " at 0x" in text:
        raise TypeError(f"no stable text for a {type(value).__name__} value")
    return text


def data_hash(case) -> str | None:
    """``sha256:`` and the hex digest of :func:`canonical` of ``case.data``; ``None`` for a case a limit
    stopped reading (:meth:`~searchkit.game.Case.unread`: there is no data to hash)."""
    if getattr(case, "stopped", None) is not None:
        return None
    return "sha256:" + hashlib.sha256(canonical(case.data).encode()).hexdigest()


def make_record(game, *, source: str, case: int | None, status: str, outcome=None, data_hash: str | None = None,
                error: str | None = None, line: int | None = None, peak_rss_kb: int | None = None,
                options=None, upper_bound: int | str | None = None) -> dict:
    """One record (a dict in the key order of ``docs/records.md``).

    Args:
        game: the :class:`~searchkit.game.Game` (its name, and its moves in JSON).
        outcome: the case's :class:`~searchkit.machinery.solver.Outcome`, or ``None``.
        options: the game's options the case was solved under (every one,
            defaults included), or ``None``.
        upper_bound: the run's ``--upper-bound`` (an int, ``"auto"``, or ``None``): an ``exhausted`` record
            under an int N proves only that no solution is cheaper than N.
    """
    return {
        "schema": SCHEMA,
        "game": game.name,
        "source": source,
        "case": case,
        "line": line,
        "data_hash": data_hash,
        "status": status,
        **outcome_fields(game, outcome),
        "options": None if options is None else record_options(options),
        "upper_bound": upper_bound,
        "peak_rss_kb": peak_rss_kb,
        "stats": outcome.result.stats.to_dict() if outcome is not None else None,
        "error": error,
    }


def outcome_fields(game, outcome) -> dict:
    """The fields every JSON record of a case has from its outcome (all ``None`` without one).

    Keys: cost, lower_bound, gap, length, moves (the game's JSON form),
    algorithm, heuristic, engine (``python`` or ``native``), seconds.
    """
    if outcome is None:
        return {"cost": None, "lower_bound": None, "gap": None, "length": None, "moves": [], "algorithm": None,
                "heuristic": None, "engine": None, "seconds": None}
    from searchkit.game import moves_to_json

    result = outcome.result
    solved = result.has_solution
    return {
        "cost": result.cost,
        "lower_bound": result.lower_bound,
        "gap": result.gap,
        "length": len(result.moves) if solved else None,
        "moves": moves_to_json(game, outcome.case, result.moves) if solved else [],
        "algorithm": outcome.algorithm,
        "heuristic": outcome.heuristic,
        "engine": getattr(outcome, "engine", None),
        "seconds": round(outcome.seconds, 6),
    }


def record_options(options) -> dict:
    """The game options as a record holds them: sorted by name, values as JSON has them."""
    return {key: options[key] for key in sorted(options)}


def options_conflict(game, record: dict, options) -> str:
    """Why ``record`` was not solved under ``options`` of ``game`` ("" when it was).

    Options marked ``output_only`` (they change how an answer is printed,
    not which) are not compared.  A record without ``options`` (written
    before records held them) cannot tell, and says so: resuming or verifying
    it against any options would be a guess.
    """
    held = record.get("options")
    if not isinstance(held, dict):
        return "written without the game options it was solved under"
    want = record_options(options)
    printing = {opt.key for opt in game.options if opt.output_only}
    known = {opt.key for opt in game.options}
    for key in sorted((set(held) | set(want)) - printing):
        if held.get(key) != want.get(key):
            if key in known:
                flag = "--" + key.replace("_", "-")
                return f"solved with {flag} {json.dumps(held.get(key))}, not {json.dumps(want.get(key))}"
            return f"solved with an option {json.dumps(key)} that {game.name} does not have"  # as written
    return ""


def dumps(record: dict) -> str:
    """One record as one line of JSON (no newline)."""
    return json.dumps(record, separators=(",", ":"))


OutputLock = Held
"""The exclusive lock of a record file a run writes (:class:`searchkit.machinery.locks.Held` on ``.NAME.lock``
beside it): held from before the file is read (``--resume``) until it is closed, so that two runs never write
one file at once (each would append its own records, or start the file afresh under the other)."""


def lock_output(output: str) -> OutputLock | None:
    """Lock the record file ``output`` for this run (:func:`searchkit.machinery.locks.lock_beside`), without
    waiting.

    ``None`` (nothing locked) where nothing can be: an ``output`` that is
    not a regular file (``/dev/null``, a pipe), a platform without
    :mod:`fcntl`, a lock file that cannot be made (the folder is read-only
    or missing: the record file cannot be written either, and says so).

    Raises:
        ResumeRefused: another run holds the lock, in one line naming the file.
    """
    import stat as stat_

    try:
        if not stat_.S_ISREG(os.stat(output).st_mode):
            return None  # /dev/null, a pipe: nothing to lose, and no folder of ours to lock in
    except OSError:
        pass  # missing: this run makes it
    try:
        return lock_beside(output)
    except LockBusy as busy:
        raise ResumeRefused(f"{output} is being written by another searchkit run (it holds {busy.path}): wait for "
                            f"it to end, or name another --output") from None


class RecordFile:
    """An append-only record file: :meth:`write` puts one whole line on disk at once.

    Args:
        path: the file; created if missing.
        truncate_to: cut the file to this many bytes first (drop a torn last line).
        lock: the run's :class:`OutputLock` of ``path`` (:func:`lock_output`), let go by :meth:`close`.
        append: keep what is there (``--resume``); else start the file afresh: a new empty file made under
            an exclusive temporary name and renamed onto ``path`` (:func:`searchkit.machinery.atomic.create_fresh`), so
            a link at ``path`` is replaced, not followed (``/dev/null`` or a pipe is written as it is).
    """

    def __init__(self, path: str, *, append: bool = False, truncate_to: int | None = None,
                 lock: OutputLock | None = None) -> None:
        self.fd: int | None  # None once closed
        self.lock = lock  # released as the file is closed
        if append:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        else:  # a new file renamed onto path: a link there is replaced, never followed (searchkit.machinery.atomic)
            from searchkit.machinery.atomic import create_fresh

            self.fd = create_fresh(path)
        if append and truncate_to is not None:
            os.ftruncate(self.fd, truncate_to)
        self.path = path

    def write(self, record: dict) -> None:
        """Append one record as one line (a single ``write`` call, then ``fsync``-free flush to the OS).

        Raises:
            ValueError: the file was closed (as a closed file object's ``write``).
            OSError: the write failed (disk full...).
        """
        if self.fd is None:
            raise ValueError(f"I/O operation on a closed record file ({self.path})")
        data = (dumps(record) + "\n").encode()
        while data:
            n = os.write(self.fd, data)
            data = data[n:]

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def is_record_line(raw: bytes, complete: bool = True) -> bool:
    """Whether ``raw`` (one line) is a record of this schema or an improvement event.

    A line cut short (``complete`` false: ``kill -9`` while the first record
    was written) counts when it begins as this module writes records.
    """
    if not complete:
        return raw.lstrip().startswith(b'{"schema":') or raw.lstrip().startswith(b'{"event":')
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    if not isinstance(value, dict):
        return False
    if "event" in value:
        return value.get("event") == "improvement"
    return value.get("schema") == SCHEMA and isinstance(value.get("game"), str) and "case" in value


def output_refusal(output: str, inputs, *, resume: bool, force: bool, stdin=None) -> str | None:
    """Why ``--output output`` must not be opened (``None`` when it may), so that it never destroys data.

    Refused: an ``output`` that is one of ``inputs`` or the file standard
    input reads (:func:`searchkit.machinery.output.input_refusal`, which ``show -o`` and
    ``compare --plot`` use too); an
    existing non-empty file whose first line is not a record of this schema
    (nor an improvement event); a non-empty record file without ``resume``
    (append) or ``force`` (start it afresh), which would be truncated.
    """
    from searchkit.machinery.output import input_refusal

    refusal = input_refusal(output, inputs, stdin=stdin)
    if refusal:
        return refusal
    try:
        out_stat = os.stat(output)
    except OSError:
        out_stat = None
    if out_stat is None or out_stat.st_size == 0:
        return None
    import stat as stat_

    if not stat_.S_ISREG(out_stat.st_mode):
        return None  # /dev/null, a pipe: nothing to lose
    with open(output, "rb") as fh:
        first = fh.readline(1 << 24)
    if first.startswith(GZIP_MAGIC):
        return (f"{output} is gzip-compressed: records are appended to a plain JSON Lines file, so decompress it "
                f"first (gunzip -k) or name another --output")
    if not is_record_line(first, first.endswith(b"\n")):
        return (f"{output} exists and its first line is not a searchkit record (schema {SCHEMA}): refusing to "
                f"touch it; name another --output")
    if not resume and not force:
        return (f"{output} already holds records: --resume to solve only the cases it lacks, or --force to "
                f"start it afresh")
    return None


class Loaded:
    """What :func:`load_records` found in a record file.

    Attributes:
        records: the complete records, in file order.
        good_bytes: the length of the file up to the end of its last complete line.
        torn: the last line was cut short (``kill -9`` while writing); it is ignored.
        bad_lines: 1-based numbers of other lines that are not a JSON object.
        too_long: those of ``bad_lines`` longer than :data:`MAX_LINE`, read past without being held.
        too_deep: those of ``bad_lines`` that are complete but nested too
            deeply for Python's JSON reader (``RecursionError``): valid JSON
            perhaps, never torn, kept in the file.
        compressed: the file was gzip-compressed (read only: ``good_bytes``
            then counts decompressed bytes).
    """

    def __init__(self) -> None:
        self.records: list[dict] = []
        self.good_bytes = 0
        self.torn = False
        self.bad_lines: list[int] = []
        self.too_deep: list[int] = []
        self.too_long: list[int] = []  #: those of ``bad_lines`` longer than :data:`MAX_LINE` (never held)
        self.compressed = False  #: the file was gzip-compressed


#: The first bytes of a gzip file (RFC 1952).
GZIP_MAGIC = b"\x1f\x8b"

#: The longest line a record file is read in (16 MiB, a record of a million moves): a longer line is a bad
#: line, skipped without holding it (a record file of one endless line must not exhaust memory).
MAX_LINE = 16 << 20


class NotRegularFile(ValueError):
    """A record file that is not a regular file (a pipe, a device, a folder): reading it could block or never
    end.  The message is the one line, naming the file."""


def not_regular(path: str, reader: str) -> str | None:
    """Why ``path`` cannot be read as a record file by ``reader`` (``verify``, ``--resume``): it is a folder,
    a pipe or a device; ``None`` for a regular file or a missing one."""
    import stat as stat_

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat_.S_ISDIR(mode):
        return f"{path}: is a folder, not a record file"
    if not stat_.S_ISREG(mode):  # a FIFO would block, /dev/zero never end
        return f"{path}: is not a regular file (a pipe or a device): {reader} reads record files"
    return None


def _open_regular(path: str) -> io.BufferedReader:
    """``path`` opened for reading, if it is a regular file (opened without blocking on a FIFO, then checked).

    Raises:
        NotRegularFile: it is a pipe, a device or a folder.
    """
    import stat as stat_

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    if not stat_.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularFile(not_regular(path, "searchkit") or f"{path}: is not a regular file")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def is_gzip(path: str) -> bool:
    """Whether ``path`` begins with gzip's magic bytes (a compressed record file, e.g. ``docs/results/*.jsonl.gz``).

    Raises:
        NotRegularFile: ``path`` is a pipe, a device or a folder.
    """
    with _open_regular(path) as fh:
        return fh.read(2) == GZIP_MAGIC


def iter_lines(path: str) -> Iterator[tuple[int, bytes | None, bool, int]]:
    """``(line number, bytes, complete, size)`` for each line of ``path`` (``complete``: it ends with a newline;
    ``size``: its length in bytes).

    A gzip-compressed file is read decompressed, a line at a time.  A line
    longer than :data:`MAX_LINE` is read past in pieces, never held: its
    bytes are ``None``.

    Raises:
        NotRegularFile: ``path`` is a pipe, a device or a folder (it is never read).
        EOFError, OSError: a compressed file is cut short or is not gzip
            after its magic bytes (``gzip.BadGzipFile`` is an ``OSError``).
    """
    raw_file = _open_regular(path)
    opened: io.BufferedIOBase = raw_file  # a GzipFile or a BufferedReader: both give lines of bytes
    if raw_file.peek(2)[:2] == GZIP_MAGIC:
        import gzip

        opened = gzip.GzipFile(fileobj=raw_file, mode="rb")
    with raw_file, opened as fh:
        number = 0
        while raw := fh.readline(MAX_LINE + 1):
            number += 1
            if len(raw) <= MAX_LINE or raw.endswith(b"\n"):
                yield number, raw, raw.endswith(b"\n"), len(raw)
                continue
            size, rest = len(raw), raw
            while rest and not rest.endswith(b"\n"):  # too long: read past it a MiB at a time
                rest = fh.readline(1 << 20)
                size += len(rest)
            yield number, None, rest.endswith(b"\n"), size


def _until_cut(lines: Iterator, out: "Loaded") -> Iterator:
    """``lines`` until a compressed file is found cut short or corrupt: then ``out.torn`` is set and they end."""
    import zlib

    try:
        yield from lines
    except (EOFError, zlib.error):
        out.torn = True
    except OSError:
        if not out.compressed:
            raise
        out.torn = True


def load_records(path: str) -> Loaded:
    """Read a record file, detecting a torn last line.

    A gzip-compressed file (``docs/results/*.jsonl.gz``) is read as it
    decompresses; one cut short or corrupt is torn at the cut
    (``Loaded.compressed`` says it was compressed: ``--resume`` never
    appends to one, :func:`output_refusal` refuses it first).
    A missing file is an empty one.  The last line without its newline is
    torn (``kill -9`` while it was written); any complete line that is not a
    JSON object is listed in ``bad_lines`` and skipped, the last one too (it
    is not torn: cutting it off would drop a note or what may be a valid
    record), and so is a line longer than :data:`MAX_LINE` (``too_long``) or
    nested too deeply to read (``too_deep``).

    Raises:
        NotRegularFile: ``path`` is a pipe, a device or a folder: it is not read (a FIFO would block,
            ``/dev/zero`` never end).
    """
    out = Loaded()
    if not os.path.exists(path):  # a link to nowhere too: --resume writes through it, as to a new file
        return out
    out.compressed = is_gzip(path)
    offset = 0
    for number, raw, complete, size in _until_cut(iter_lines(path), out):
        if not complete:
            out.torn = True
            break
        record = _read_line(raw, number, out)
        offset += size
        out.good_bytes = offset
        if record is not None and "event" not in record:  # an improvement event is no case's record
            out.records.append(record)
    return out


def _read_line(raw: bytes | None, number: int, out: "Loaded") -> dict | None:
    """The JSON object on a complete line, or ``None`` with the line listed in ``out.bad_lines`` (and in
    ``too_long`` or ``too_deep`` when that is why)."""
    record = None
    if raw is None:
        out.too_long.append(number)
    else:
        try:
            record = json.loads(raw)
        except ValueError:
            record = None
        except RecursionError:  # a line of 100,000 nested brackets: complete, so never torn (issue 32)
            out.too_deep.append(number)
    if isinstance(record, dict):
        return record
    out.bad_lines.append(number)
    return None


def bad_line_reason(loaded: "Loaded", number: int) -> str:
    """Why line ``number`` of a record file is a bad line, as a warning says it."""
    if number in loaded.too_long:
        return f"is longer than {MAX_LINE >> 20} MiB"
    if number in loaded.too_deep:
        return "is nested too deeply to read"
    return "is not a JSON record"


#: Statuses of a case that ended with an answer or a proof: kept by ``--resume`` when :func:`answers` says
#: they answer the run's question.
FINAL = ("solved", "feasible", "exhausted", "incomplete")
#: Statuses of a case stopped before an answer (a limit, or its worker died): solved again unless kept.
STOPPED = ("node_limit", "time_limit", "memory_limit", "error")


#: Every status a record may hold (``docs/records.md``): a record with another one is not a record of this schema.
STATUSES = (*FINAL, *STOPPED, "input_error")

_NONE = type(None)
_INT, _STR, _NUM = frozenset((int, _NONE)), frozenset((str, _NONE)), frozenset((int, float, _NONE))
#: A record's keys and the types of their values, null included (``docs/records.md``'s table): exact types, as
#: JSON reads them, so that ``true`` is no integer.
_FIELD_TYPES = (("source", _STR), ("case", _INT), ("line", _INT), ("data_hash", _STR), ("cost", _INT),
                ("lower_bound", _INT), ("gap", _INT), ("length", _INT), ("moves", frozenset((list, _NONE))),
                ("algorithm", _STR), ("heuristic", _STR), ("engine", _STR), ("seconds", _NUM),
                ("options", frozenset((dict, _NONE))), ("upper_bound", frozenset((int, str, _NONE))),
                ("peak_rss_kb", _INT), ("stats", frozenset((dict, _NONE))), ("error", _STR))
_STATS_TYPES = (("expanded", _INT), ("generated", _INT), ("evaluated", _INT), ("elapsed", _NUM),
                ("iterations", frozenset((list, _NONE))))


_KEYS = tuple(key for key, _ in _FIELD_TYPES)
_STATS_KEYS = tuple(key for key, _ in _STATS_TYPES)
#: The shapes (status, and the type of each checked value) :func:`field_problem` found valid.
_VALID_SHAPES: set[tuple] = set()


def json_type(value: object) -> str:
    """How JSON would name ``value``'s type: ``a string``, ``null``, ``a boolean``..."""
    if value is None:
        return "null"
    names = {bool: "a boolean", str: "a string", float: "a number with a fraction", list: "a list", dict: "an object",
             int: "an integer"}
    return names.get(type(value), f"a {type(value).__name__}")


def field_problem(record: dict) -> str:
    """Which field of a record of this schema has a value its schema does not allow ("": none), in one line.

    Checked: each key's type when it is not null (a boolean is no integer, ``"14"`` no cost), the status among
    :data:`STATUSES`, a cost on every ``solved`` or ``feasible`` record, and the counts in ``stats``.  A
    missing key reads as null.  What contradicts the status itself is
    :func:`searchkit.machinery.batch.verify.status_contradiction`'s.
    """
    get = record.get
    stats = get("stats")
    shape = (get("status"), *map(type, map(get, _KEYS)),
             *(map(type, map(stats.get, _STATS_KEYS)) if type(stats) is dict else ()))
    if shape in _VALID_SHAPES:  # 100,000s of records have a few shapes: each is checked once
        return ""
    status = get("status")
    if status not in STATUSES:
        return f"has status {json.dumps(status)}, not one of {', '.join(STATUSES)}"
    for key, types in _FIELD_TYPES:
        if type(get(key)) not in types:
            return _mistyped(key, get(key), types)
    if status in ("solved", "feasible") and get("cost") is None:
        return f"is {status} with no cost"
    if stats:
        for key, types in _STATS_TYPES:
            if type(stats.get(key)) not in types:
                return _mistyped(f"stats.{key}", stats.get(key), types)
    if len(_VALID_SHAPES) < 4096:
        _VALID_SHAPES.add(shape)
    return ""


def _mistyped(key: str, value: object, types: frozenset) -> str:
    text = json.dumps(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object"}
    allowed = "a number" if float in types else " or ".join(names[t] for t in (int, str, list, dict) if t in types)
    return f"has {key} {text}, {json_type(value)}, where the schema has {allowed}"


def source_key(source) -> object:
    """A record's or an input's ``source`` as ``--resume`` compares them: ``./p20.txt`` is ``p20.txt``.

    Paths are normalised (``os.path.normpath``, ``~`` expanded); ``<stdin>``
    and non-strings stay as they are.
    """
    if not isinstance(source, str) or source.startswith("<"):
        return source
    return os.path.normpath(os.path.expanduser(source))


def bounded_exhaustion(record: dict) -> bool:
    """Whether an ``exhausted`` record proves only that no solution is cheaper than an upper bound.

    True when the run had a numeric ``upper_bound``, or the record has a
    finite ``lower_bound`` (a search that ran out without a bound proves no
    solution at all and has none; one that stopped at a bound states the
    least cost it did not rule out: records written before ``upper_bound``
    was recorded are told this way).
    """
    return record.get("status") == "exhausted" and (_is_cost(record.get("upper_bound"))
                                                     or record.get("lower_bound") is not None)


def _is_cost(value: object) -> TypeGuard[int]:
    """An int read from JSON as a cost (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


#: Why a finished record is no answer to a run (:func:`answers`), as the ``--resume`` warning words it.
NOT_OPTIMAL = "a feasible answer where this run seeks a proven optimum"
SMALLER_BOUND = "no solution below a smaller --upper-bound than this run's"
NO_ANSWER = "incomplete (no solution and no proof)"


def answers(record: dict, *, optimal: bool, upper_bound: int | str | None, keep_stopped: bool = False) -> str:
    """Why a finished ``record`` (a status in :data:`FINAL`) does not answer the question of a run.

    "" when it does: ``--resume`` keeps it.

    Args:
        optimal: the run asks for a proven optimum (the game's plan, or an
            optimal or anytime algorithm, with an admissible heuristic): a
            ``feasible`` record (a weighted, greedy or beam answer, or an
            anytime search stopped at a limit) is not its answer.
        upper_bound: the run's ``--upper-bound``: an ``exhausted`` record
            under a bound N answers only a run whose own bound is at most N
            (no solution cheaper than N rules out every one cheaper than less).
        keep_stopped: ``--keep-stopped``: a ``feasible`` or ``incomplete``
            record counts as done like a case stopped at a limit.

    A ``solved`` record (a proven optimum) answers every run; an
    ``incomplete`` one (no solution, no proof: a beam ran dry) none, unless
    kept as stopped.
    """
    status = record.get("status")
    if status == "solved":
        return ""
    if status == "exhausted":
        if not bounded_exhaustion(record):
            return ""
        held = record.get("upper_bound")
        return "" if _is_cost(upper_bound) and _is_cost(held) and upper_bound <= held else SMALLER_BOUND
    if status == "feasible":
        return "" if keep_stopped or not optimal else NOT_OPTIMAL
    return "" if keep_stopped else NO_ANSWER  # incomplete


def done_keys(records, keep_stopped: bool = False, *, optimal: bool = False,
              upper_bound: int | str | None = None) -> tuple[set, dict]:
    """``(source key, case, data_hash)`` of every record of a finished case: the cases ``--resume`` skips.

    Finished: a status in :data:`FINAL` that :func:`answers` this run's
    question (``optimal``, ``upper_bound``, ``keep_stopped``), or with
    ``keep_stopped`` a status in :data:`STOPPED`.  A record with any other
    status (an unknown string included) is no reason to skip its case.

    Returns:
        The keys, and ``{key: why}`` for each case that has a record with a
        final status but none counted as done (it is solved again).
    """
    keys, other = set(), {}
    for r in records:
        status = r.get("status")
        key = (source_key(r.get("source")), r.get("case"), r.get("data_hash"))
        if status in FINAL:
            why = answers(r, optimal=optimal, upper_bound=upper_bound, keep_stopped=keep_stopped)
            if why:
                other[key] = why
            else:
                keys.add(key)
        elif keep_stopped and status in STOPPED:
            keys.add(key)
    return keys, {k: why for k, why in other.items() if k not in keys}


def foreign_record(record: dict, game_name: str) -> str:
    """Why ``record`` is not a record of this schema and game ("" when it is)."""
    if record.get("schema") != SCHEMA:
        return f"has schema {json.dumps(record.get('schema'))} (this searchkit reads schema {SCHEMA})"
    if record.get("game") != game_name:
        return f"is a record of the game {json.dumps(record.get('game'))}, not {game_name}"
    return ""


def which_record(record: dict) -> str:
    """A record as a one-line message names it: ``its record of p20.txt case 3``, or what it lacks."""
    source, case = record.get("source"), record.get("case")
    has_case = isinstance(case, int) and not isinstance(case, bool)
    if isinstance(source, str):
        return f"its record of {source} case {case}" if has_case else f"its record of {source} without a case number"
    return f"its record of case {case} without a source" if has_case else "its record without a source or case number"


class ResumeRefused(ValueError):
    """A record file a run may not write, or ``--resume`` may not go on with (the message is the one line)."""


class ResumePlan:
    """What a run does with its record file (:func:`resume_plan`): the cases it skips, the line it cuts.

    Attributes:
        skip: ``(source key, case, data_hash)`` of each case already answered (skipped).
        skip_status: ``{key: status}`` of the record that makes each skipped case done.
        recorded: the keys of every record read, finished or not.
        truncate: the length to cut a torn last line to (``None``: nothing to cut).
        warnings: lines to show the user (recorded cases solved again, a torn or unreadable line).
        lock: the record file's :class:`OutputLock` (``None``: none could be taken), held until the
            :class:`RecordFile` that takes it is closed.
    """

    def __init__(self) -> None:
        self.skip: set = set()
        self.skip_status: dict = {}
        self.recorded: set = set()
        self.truncate: int | None = None
        self.warnings: list[str] = []
        self.lock: OutputLock | None = None  #: the record file's lock (:func:`lock_output`), for its RecordFile
        self.matched = 0  #: cases read so far (:meth:`pending`) that have a record in the file

    def pending(self, items, on_skip=None):
        """The items of a run that this plan does not skip, in order (input errors always pass).

        ``on_skip(status)`` is called for each skipped case with the status of the record that made it done;
        :attr:`matched` counts the cases read that have any record, for :meth:`no_match`.
        """
        from searchkit.errors import InputError

        for item in items:
            if self.recorded and not isinstance(item.value, InputError):
                key = self.key(item.source, item.value.index, data_hash(item.value))
                self.matched += key in self.recorded
                if key in self.skip:
                    if on_skip is not None:
                        on_skip(self.skip_status.get(key))
                    continue
            yield item

    @staticmethod
    def key(source, case: int | None, digest: str | None) -> tuple:
        """The key of a case as the plan's sets hold it (its source as :func:`source_key` gives it)."""
        return source_key(source), case, digest

    def no_match(self, output: str) -> str | None:
        """The warning when records were read but none matched a case of the input (:attr:`matched`)."""
        if self.recorded and not self.matched:
            return (f"0 of the {len(self.recorded)} records in {output} match a case of the input (same source, "
                    f"case and data hash): every case was solved again; name the input as in the first run")
        return None


def resume_plan(output: str, inputs, game, options, *, resume: bool = False, force: bool = False,
                keep_stopped: bool = False, optimal: bool = False, upper_bound: int | str | None = None,
                stdin: int | None = None) -> ResumePlan:
    """The resume policy of ``solve --output``, one place for the CLI and :func:`searchkit.solve_all`.

    First the file is locked for the run (:func:`lock_output`: another run
    writing it refuses this one), then checked for writing (:func:`output_refusal`: never an
    input, never a file that is not ours, never a record file without
    ``resume`` or ``force``).  With ``resume``, its records are read
    (:func:`load_records`): every record must be of this schema and game and
    solved under the same game ``options`` (else the run would keep answers
    to another question); the cases whose last records answer this run's
    question (:func:`done_keys`: ``optimal``, ``upper_bound``,
    ``keep_stopped``) are skipped, the others solved again, and a torn last
    line is cut off.

    Args:
        output: the record file.
        inputs: the run's input paths (``-``: standard input, its descriptor ``stdin``).
        game: the :class:`~searchkit.game.Game`; ``options``: the run's game options.

    Returns:
        A :class:`ResumePlan` (empty without ``resume``).

    Raises:
        ResumeRefused: in one line, naming the file and, for a record, its source and case; ``resume`` and
            ``force`` together.  The line names the command line's options (``--resume``, ``--force``,
            ``--output``); :func:`searchkit.solve_all` says them as its keywords.
    """
    if resume and force:
        raise ResumeRefused("--force starts --output afresh, --resume appends to it: give one of them")
    lock = lock_output(output)  # first: another run's records must not change under this one's reading
    try:
        plan = _resume_plan(output, inputs, game, options, resume=resume, force=force, keep_stopped=keep_stopped,
                            optimal=optimal, upper_bound=upper_bound, stdin=stdin)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    plan.lock = lock
    return plan


def _resume_plan(output: str, inputs, game, options, *, resume: bool, force: bool, keep_stopped: bool,
                 optimal: bool, upper_bound: int | str | None, stdin: int | None) -> ResumePlan:
    """:func:`resume_plan` under the file's lock."""
    refusal = output_refusal(output, inputs, resume=resume, force=force, stdin=stdin)
    if refusal:
        raise ResumeRefused(refusal)
    plan = ResumePlan()
    if not resume:
        return plan
    refusal = not_regular(output, "--resume")
    if refusal:  # /dev/zero would be read forever, a FIFO block: a record file is a file
        raise ResumeRefused(f"cannot resume {refusal}")
    loaded = load_records(output)
    for record in loaded.records:  # answers to another question must not be kept as answers to this one
        where = f"cannot resume {output}: {which_record(record)}"
        conflict = foreign_record(record, game.name)
        if conflict:
            raise ResumeRefused(f"{where} {conflict}; write to another --output")
        conflict = options_conflict(game, record, options)
        if conflict:
            raise ResumeRefused(f"{where} was {conflict}; run with the same options, or write to another --output")
    plan.skip, other = done_keys(loaded.records, keep_stopped, optimal=optimal, upper_bound=upper_bound)
    for record in loaded.records:  # the status a skipped case keeps: its last record counted as done
        key = ResumePlan.key(record.get("source"), record.get("case"), record.get("data_hash"))
        if key in plan.skip and record.get("status") in FINAL + STOPPED:
            plan.skip_status[key] = record.get("status")
    if other:
        from collections import Counter

        why = "; ".join(f"{n} {reason}" for reason, n in Counter(other.values()).most_common())
        plan.warnings.append(f"{output}: {len(other)} recorded case(s) have no answer to this run's question and "
                             f"are solved again ({why})")
    plan.recorded = {ResumePlan.key(r.get("source"), r.get("case"), r.get("data_hash")) for r in loaded.records}
    if loaded.torn:
        plan.warnings.append(f"{output}: the last line has no newline (the run was killed while writing it); it "
                             f"is dropped and its case solved again")
        plan.truncate = loaded.good_bytes
    for number in loaded.bad_lines:  # unreadable, so its case (if it had one) is unknown: not skipped
        plan.warnings.append(f"{output}: line {number} {bad_line_reason(loaded, number)}; ignored (kept in the "
                             f"file): a case it recorded is solved again")
    return plan
