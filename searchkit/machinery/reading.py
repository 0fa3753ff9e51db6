"""The one reader behind every command: files and standard input to cases, bad input reported one way."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from searchkit.errors import InputError
from searchkit.limits import Limiter, Limits, active


def source_name(path: str) -> str:
    """How ``path`` is named in messages (``-`` is ``<stdin>``)."""
    return "<stdin>" if path == "-" else path


def read_input(path: str, bad: list | None = None, deadline: float | None = None) -> str:
    """The text of ``path`` (``-``: standard input), UTF-8 with or without a byte-order mark.

    Args:
        bad: when a list, each non-UTF-8 byte is appended to it as
            ``(line, byte, offset)`` and read as U+FFFD, instead of refusing
            the file.
        deadline: a ``time.perf_counter()`` time by which a stream (standard
            input, a pipe, a device) must be read whole (the first case's time
            limit, see :func:`iter_cases`); ``None``: no time limit.

    Raises:
        InputError: (fatal) when the file cannot be read, or a stream is
            longer than :func:`stream_limit` or not read by ``deadline``, or
            (without ``bad``) the text is not UTF-8, naming the file and the
            reason in one line.
    """
    import os
    import stat

    source = source_name(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise OSError("no standard input")
            if hasattr(sys.stdin, "buffer"):
                data = _read_capped(sys.stdin.buffer, source, deadline)
            else:
                data = sys.stdin.read().encode()
        else:
            with _open_bytes(path) as fh:
                # a pipe or a device (/dev/zero) has no size: read under the stream cap, not to its end
                data = (fh.read() if stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
                        else _read_capped(fh, source, deadline))
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if bad is None:
            raise InputError(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x} at offset {exc.start}",
                             source=source) from None
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    at = start
    while at < len(data):
        try:
            data[at:].decode("utf-8")
            break
        except UnicodeDecodeError as exc:
            where = at + exc.start
            bad.append((data[:where].count(b"\n") + 1, data[where], where))
            at = at + exc.end
    return data[start:].decode("utf-8", errors="replace")


class LineSource:
    """A file's text as lines, read again from the file for every pass (nothing held in memory).

    ``lines()`` gives a fresh iterator over the lines, split at ``\n`` only
    and without it (a ``\r`` stays in its line, as ``text.split("\n")``
    keeps it); a UTF-8 byte-order mark is dropped.  Built by
    :func:`open_lines`, which checked the whole file decodes, so iterating
    never meets a decoding error.  Standard input, pipes and FIFOs are
    spooled to an anonymous temporary file first (``path`` is then ``None``;
    see :func:`_spool_file`), at most :func:`stream_limit` bytes.
    :meth:`close` removes a spool.
    """

    #: Characters read at a time (a chunk's lines are held, never the file's).
    chunk_chars = 1 << 18
    #: Bytes :func:`open_lines` checks at a time.
    chunk_bytes = 1 << 20

    def __init__(self, path: str | None, blank: bool, spool=None, bad: list | None = None) -> None:
        self.path, self.blank, self._spool = path, blank, spool
        self.bad = bad or []  # (line, byte, offset) of each non-UTF-8 byte (open_lines(lenient=True))

    def _open(self, errors: str):
        if self.path is None:  # an anonymous spool: read at a position of its own, so passes may interleave
            raw = _Positional(self._spool.fileno())
            return io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8-sig", newline="", errors=errors)
        return open(self.path, encoding="utf-8-sig", newline="", errors=errors)  # newline="": no translation

    def lines(self) -> Iterator[str]:
        """A new iterator over the lines, from the first (a non-UTF-8 byte, if any, read as U+FFFD)."""
        errors = "replace" if self.bad else "strict"
        with self._open(errors) as fh:
            pieces: list[str] = []  # the line being read, in pieces (joined once: no quadratic copying)
            while chunk := fh.read(self.chunk_chars):
                if "\n" not in chunk:
                    pieces.append(chunk)
                    continue
                parts = chunk.split("\n")
                pieces.append(parts[0])
                parts[0] = "".join(pieces)
                pieces = [parts.pop()]
                yield from parts
            yield "".join(pieces)  # what follows the last \n, "" if the file ends with one: as text.split("\n")

    def close(self) -> None:
        """Remove the spooled copy of standard input, if any."""
        if self._spool is not None:
            self._spool.close()
            self._spool = None


#: The environment variable that sets the stream cap (:func:`stream_limit`).
STREAM_LIMIT_VAR = "SEARCHKIT_STREAM_LIMIT"
#: Bytes read at most from standard input, a pipe or a device, unless ``SEARCHKIT_STREAM_LIMIT`` says otherwise.
STREAM_LIMIT = 256 << 20
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def stream_limit(source: str = "<stdin>") -> int:
    """The most bytes read from a stream (standard input, a pipe, a device), and why.

    ``SEARCHKIT_STREAM_LIMIT`` (bytes, or with a suffix ``K``, ``M``, ``G``,
    ``T``: binary multiples), else :data:`STREAM_LIMIT` (256 MiB).  A stream
    is read once, into an anonymous temporary file (or into memory for a game
    without ``parse_stream``), before its cases are read, so a stream without
    an end (``/dev/zero``, ``yes``) must stop somewhere: a regular file is
    read in place and has no cap.  The cap is also at most half the free
    space of the temporary folder.

    Raises:
        InputError: (fatal) the variable is not a size, naming it.
    """
    import os
    import re

    text = os.environ.get(STREAM_LIMIT_VAR, "").strip()
    cap = STREAM_LIMIT
    if text:
        match = re.fullmatch(r"([0-9]{1,15})\s*([KMGT]?)(?:i?B)?", text, re.IGNORECASE)
        if match is None:
            raise InputError(f"{STREAM_LIMIT_VAR} must be a size in bytes (e.g. 1000000, 512M, 2G), "
                             f"got {text[:40]!r}", source=source)
        cap = int(match.group(1)) * _UNITS[match.group(2).upper()]
    return cap


def _free_cap() -> int | None:
    """Half the free space of the temporary folder (``None`` when it cannot be told)."""
    import shutil
    import tempfile

    try:
        return shutil.disk_usage(tempfile.gettempdir()).free // 2
    except OSError:
        return None


def _too_long(source: str, cap: int, why: str = "") -> InputError:
    return InputError(f"more than {cap:,} bytes from a stream (standard input, a pipe or a device), which is read "
                      f"whole before its first case{why}: save it to a file and name the file, or raise "
                      f"{STREAM_LIMIT_VAR}", source=source)


def _too_slow(source: str, size: int) -> InputError:
    return InputError(f"not read whole within the first case's --time-limit ({size:,} bytes read): a stream "
                      f"(standard input, a pipe or a device) is read whole before its first case, whose clock "
                      f"starts when the stream's reading starts; save it to a file and name the file, or raise "
                      f"--time-limit", source=source)


#: Seconds a wait for a stream's next bytes lasts before it is taken up again (:func:`_read_chunk`).
_WAIT_SLICE = 0.25


def _read_chunk(fh, size: int, deadline: float | None, source: str, done: int) -> bytes:
    """Up to ``size`` bytes of the stream ``fh`` (``b""`` at its end), waiting for them until ``deadline`` at most
    (``None``: however long its writer takes), never deaf to Ctrl-C or SIGTERM.

    The stream's descriptor is waited on with :func:`select.select` and read once it has bytes (``os.read``:
    whatever has arrived, so a slow writer is never waited on past the deadline).  The wait is taken in
    slices of :data:`_WAIT_SLICE` seconds, between which pending signal handlers run: a blocking call misses
    a signal that arrives just before it starts, as Python's handler runs only when the call returns, which
    on a pipe whose writer is silent is never (a tester's run hung on SIGTERM, and on Ctrl-C one time in
    eight).  On a system where a stream cannot be waited on (``select`` refuses it), it is read as it is and
    the deadline checked after each read.

    Raises:
        InputError: (fatal) the deadline passed first, naming the bytes read
            so far (``done``).
    """
    import os
    import select

    try:
        fd = fh.fileno()
        while True:
            left = _WAIT_SLICE if deadline is None else min(_WAIT_SLICE, deadline - time.perf_counter())
            if left <= 0:
                raise _too_slow(source, done)
            if select.select([fd], [], [], left)[0]:
                return os.read(fd, size)
    except (OSError, ValueError, io.UnsupportedOperation):  # no descriptor, or one select cannot wait on
        chunk = fh.read(size)
        if deadline is not None and time.perf_counter() > deadline:
            raise _too_slow(source, done + len(chunk)) from None
        return chunk


def _read_capped(fh, source: str, deadline: float | None = None) -> bytes:
    """All of the byte stream ``fh``, refused (:class:`InputError`) past :func:`stream_limit` or ``deadline``."""
    cap = stream_limit(source)
    pieces, size = [], 0
    while chunk := _read_chunk(fh, min(1 << 20, cap + 1 - size), deadline, source, size):
        pieces.append(chunk)
        size += len(chunk)
        if size > cap:
            raise _too_long(source, cap)
    return b"".join(pieces)


class _Positional(io.RawIOBase):
    """A raw reader of a file descriptor at its own position (``os.pread``): several passes over one spool
    at once, none moving another's place."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd, self.pos = fd, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        import os

        data = os.pread(self.fd, len(buffer), self.pos)
        buffer[:len(data)] = data
        self.pos += len(data)
        return len(data)


def _spool_file():
    """An anonymous temporary file for a copy of an input that can be read only once.

    Unlinked as it is made (``tempfile.TemporaryFile``), so nothing is left
    behind whatever ends the process (Ctrl-C, SIGTERM, ``kill -9``); its
    space is freed when it is closed.  Where ``os.pread`` is missing, a named
    one (removed when closed).
    """
    import os
    import tempfile  # only here: it costs a few milliseconds of start-up

    if hasattr(os, "pread"):
        return tempfile.TemporaryFile(prefix="searchkit-input-")
    return tempfile.NamedTemporaryFile(prefix="searchkit-input-")


def open_lines(path: str, chunk_bytes: int | None = None, lenient: bool = False,
               deadline: float | None = None) -> LineSource:
    """Check that ``path`` (``-``: standard input) is UTF-8 text, ``chunk_bytes`` at a time, and return its lines.

    Memory stays flat in the file's size: one chunk is held at a time.
    Standard input and any file that is not a regular file (a pipe, a FIFO,
    a device) are read once, into a temporary file the passes read again.
    With ``lenient``, a non-UTF-8 byte is listed in ``LineSource.bad``
    (line, byte, offset) and read as U+FFFD, so that only the case holding
    it need be refused (:func:`iter_cases`).  A stream must be read whole by
    ``deadline`` (a ``time.perf_counter()`` time; the first case's time
    limit, see :func:`iter_cases`), if given; a regular file has no deadline
    here.

    Raises:
        InputError: (fatal) when the file cannot be read, or a stream is
            longer than :func:`stream_limit` or not read by ``deadline``, or
            (unless ``lenient``) the text is not UTF-8, naming the file, the
            line, the bad byte and its offset.
    """
    source = source_name(path)
    chunk_bytes = chunk_bytes or LineSource.chunk_bytes
    check = _Utf8Check(source, lenient)
    spool = None
    try:
        fh, spool, cap, why = _open_input(path, source)
        try:
            spooled = 0
            while True:
                chunk = (fh.read(chunk_bytes) if spool is None
                         else _read_chunk(fh, chunk_bytes, deadline, source, spooled))
                if spool is not None and chunk:
                    spooled += len(chunk)
                    if spooled > cap:
                        raise _too_long(source, cap, f", into a temporary file{why}")
                    spool.write(chunk)
                check.feed(chunk)
                if not chunk:
                    break
        finally:
            if fh is not getattr(sys.stdin, "buffer", None):
                fh.close()
    except OSError as exc:
        if spool is not None:
            spool.close()
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None
    except InputError:
        if spool is not None:
            spool.close()
        raise
    if spool is not None:
        spool.flush()
        return LineSource(spool.name if isinstance(spool.name, str) else None, check.blank, spool, check.bad)
    return LineSource(path, check.blank, bad=check.bad)


def _open_bytes(path: str):
    """``path`` opened for reading bytes (a binary file object), without waiting in the open.

    A FIFO that no process has opened for writing blocks a plain ``open`` until one does, for ever if none
    does, and no ``--time-limit`` can stop that wait.  So the file is opened with ``O_NONBLOCK`` (which returns
    at once) and the flag is cleared again: the wait for the writer then happens in :func:`_read_chunk`, under
    the first case's deadline and in slices that let Ctrl-C and SIGTERM through.  On Linux ``select`` does not
    report a FIFO opened this way readable until a writer has written or come and gone (a FIFO that never had
    a writer is not at its end), so no writer yet is never read as an empty file.

    Raises:
        OSError: it cannot be opened (a folder included).
    """
    import os

    nonblock = getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, os.O_RDONLY | nonblock | getattr(os, "O_BINARY", 0))
    try:
        if nonblock:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _open_input(path: str, source: str):
    """``(fh, spool, cap, why)``: ``path`` opened for reading bytes, and for a stream (standard input, a pipe, a
    device) an anonymous spool with the bytes it may take (:func:`stream_limit`, or half the free space of the
    temporary folder: ``why`` then says so); ``spool`` is ``None`` for a regular file.

    Raises:
        OSError: it cannot be opened.
        InputError: ``SEARCHKIT_STREAM_LIMIT`` is not a size.
    """
    import os
    import stat

    if path == "-":
        if sys.stdin is None:
            raise OSError("no standard input")
        fh = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        if fh is None:
            raise OSError("standard input is not a byte stream")
    else:
        fh = _open_bytes(path)
        if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return fh, None, None, None
        # A pipe, FIFO or device (``<(cmd)``, ``/dev/stdin``) can be read only once: spool it.
    try:
        cap, why = stream_limit(source), ""
    except InputError:
        if fh is not getattr(sys.stdin, "buffer", None):
            fh.close()
        raise
    free = _free_cap()
    if free is not None and free < cap:
        cap, why = free, " (half the free space of the temporary folder)"
    return fh, _spool_file(), cap, why


class _Utf8Check:
    """The UTF-8 check of :func:`open_lines`, a chunk at a time: whether the text is blank, and (``lenient``)
    each non-UTF-8 byte as ``(line, byte, offset)`` in :attr:`bad`.

    Raises (from :meth:`feed`, unless ``lenient``):
        InputError: (fatal) the first non-UTF-8 byte, naming its offset and line.
    """

    def __init__(self, source: str, lenient: bool) -> None:
        self.source, self.lenient = source, lenient
        self.blank, self.pending, self.base, self.newlines = True, b"", 0, 0
        self.bad: list = []

    def feed(self, chunk: bytes) -> None:
        """Check ``chunk``, the next bytes of the file (``b""``: its end, where a cut character is an error)."""
        import codecs

        data = self.pending + chunk
        if self.base == 0 and data.startswith(codecs.BOM_UTF8):
            data, self.base = data[3:], 3
        while True:
            try:
                text, used = codecs.utf_8_decode(data, "strict", not chunk)
                break
            except UnicodeDecodeError as exc:
                data = self._bad_byte(data, exc)
        self.newlines += text.count("\n")
        if self.blank and text.strip():
            self.blank = False
        self.pending, self.base = data[used:], self.base + used

    def _bad_byte(self, data: bytes, exc: UnicodeDecodeError) -> bytes:
        """Refuse the byte at ``exc.start`` (not ``lenient``) or note it; return the bytes after it."""
        line = self.newlines + data[:exc.start].count(b"\n") + 1
        if not self.lenient:
            # The line goes in the text, not in ``line``: the error is the file's, not a case's.
            raise InputError(f"expected UTF-8 text, found byte 0x{data[exc.start]:02x} at offset "
                             f"{self.base + exc.start} (line {line})", source=self.source) from None
        self.bad.append((line, data[exc.start], self.base + exc.start))
        head = data[:exc.start].decode("utf-8")
        self.newlines += head.count("\n")
        self.blank = False  # the byte is read as U+FFFD, which is text: a file of bad bytes is not empty
        self.base += exc.end
        return data[exc.end:]


@attrs.frozen
class Item:
    """One thing read: a case or an input error.

    Attributes:
        file: 0-based index of the file in the command line.
        source: the file's name in messages.
        value: a :class:`~searchkit.game.Case` or an :class:`~searchkit.errors.InputError`.
        started: ``time.perf_counter()`` when reading this item began (the
            case's time limit counts from it).
    """

    file: int
    source: str
    value: Any
    started: float


def iter_cases(game, paths: Sequence[str], options: Mapping[str, Any],
               limits: Limits | None = None) -> Iterator[Item]:
    """Every case and input error of ``paths`` in order, as :class:`Item` values.

    An unreadable, non-UTF-8 or empty file gives one fatal
    :class:`~searchkit.errors.InputError` item naming it; the other files are
    still read.  The game's parser is iterated lazily, so a huge file's first
    case is solved before its last is read.  A game with ``parse_stream``
    gets the file as a :class:`LineSource` (``lines`` read again from the
    file on every pass), so memory stays flat however many cases the file
    holds; other games get the whole text.  With ``limits`` (the solve's),
    each case is read under them (:func:`timed_items`).
    """
    stdin_read = False
    for index, path in enumerate(paths):
        source = source_name(path)
        started = time.perf_counter()
        if path == "-":
            if stdin_read:  # it can be read once: a second '-' would silently be an empty file
                yield Item(index, source, InputError("standard input is named more than once; it is read once, "
                                                     "as the first '-'", source=source), started)
                continue
            stdin_read = True
        stream = getattr(game, "parse_stream", None)
        lines = None
        bad: list = []  # non-UTF-8 bytes: the case holding one is refused, not the file
        # A stream is read whole before its first case: that case's clock starts at the stream's first byte.
        first = started if _is_stream(path) else None
        deadline = None if first is None or limits is None or limits.time_limit is None else first + limits.time_limit
        try:
            if stream is not None:
                lines = open_lines(path, lenient=True, deadline=deadline)
                blank = lines.blank
                bad = lines.bad
            else:
                text = read_input(path, bad, deadline)
                blank = not text.strip()
        except InputError as exc:
            yield Item(index, source, exc, started)
            continue
        try:
            if blank:
                yield Item(index, source, InputError("empty input, expected at least one case", source=source),
                           started)
                continue
            items = timed_items(index, source, stream(lines.lines, source, options)
                                if stream is not None and lines is not None  # lines: read for the stream
                                else game.parse(text, source, options), limits, first)
            yield from (_refuse_bad_bytes(items, bad, index, source) if bad else items)
        finally:
            if lines is not None:
                lines.close()


def iter_text_cases(game, text: str, source: str, options: Mapping[str, Any], file: int = 0,
                    limits: Limits | None = None) -> Iterator[Item]:
    """Every case and input error of a text held in memory, as :func:`iter_cases` gives a file's.

    ``source`` names the text in messages (the Python API uses ``<text>``).
    """
    if not text.strip():
        yield Item(file, source, InputError("empty input, expected at least one case", source=source),
                   time.perf_counter())
        return
    yield from timed_items(file, source, game.parse(text, source, options), limits)


def _is_stream(path: str) -> bool:
    """Whether ``path`` is standard input or a file that is not a regular file (a pipe, a FIFO, a device)."""
    import os
    import stat

    if path == "-":
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # reading it will say why


def timed_items(file: int, source: str, values, limits: Limits | None = None,
                first_started: float | None = None) -> Iterator[Item]:
    """Each value a game's parser yields, as an :class:`Item` timed from when reading it began (lazily).

    With ``limits``, each case is read under them: while the parser works
    towards its next value, a :class:`~searchkit.limits.Limiter` started at
    that moment is the running one, so the parser's
    :func:`~searchkit.limits.setup_check` and :func:`~searchkit.limits.reserve`
    stop a case that is too slow or too large to read, from its first byte
    (the parser then yields :meth:`Case.unread <searchkit.game.Case.unread>`).
    ``first_started``, if given, is when reading the first value began (a
    stream's first byte, read whole before its first case): the first
    case's clock starts then.
    """
    values = iter(values)
    while True:
        started = time.perf_counter()
        if first_started is not None:
            started, first_started = first_started, None
        try:
            if limits is None:
                value = next(values)
            else:
                with active(Limiter(limits, start=started)) as limiter:
                    value = next(values)
                started = limiter.start  # later if the parser said the case starts later (case_starts)
        except StopIteration:
            return
        yield Item(file, source, value, started)


def _bad_byte_error(found, source: str, value) -> InputError:
    line, byte, offset = found[0]
    case = value.index if hasattr(value, "index") else getattr(value, "case", None)
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return InputError(f"expected UTF-8 text, found byte 0x{byte:02x} at offset {offset} (line {line}){more}",
                      source=source, line=line, case=case, fatal=False)


def _refuse_bad_bytes(items: Iterator[Item], bad: list, file: int, source: str) -> Iterator[Item]:
    """``items`` with each case that holds a non-UTF-8 byte replaced by an input error naming the byte.

    A case holds the lines from its first line up to the next item's first
    line (the first case also the lines before it; the last one the rest of
    the file), so every item is held until the next is read.  When the
    parser gives up on the file (a fatal error, on line ``L``), the case
    before it holds the lines up to ``L`` only, and the error is replaced by
    one naming the first bad byte from ``L`` on, as a file that is not UTF-8
    text: a bad byte after a file's last case (after its terminator, say)
    is that one error, and the last case is still solved.  Each bad byte is
    named once, and one no item holds is still named, as a fatal error.
    """
    left = list(bad)  # not yet named, in file order

    def take(below: int | None) -> list:
        """The bytes not yet named on lines before ``below`` (``None``: all of them), now named."""
        nonlocal left
        count = len(left) if below is None else sum(1 for b in left if b[0] < below)
        found, left = left[:count], left[count:]
        return found

    pending: Item | None = None
    for item in items:
        value = item.value
        line = getattr(value, "line", None)
        fatal = isinstance(value, InputError) and value.fatal
        if pending is not None and (line is not None or fatal):
            yield _judged(pending, take(line), source)
            pending = None
        if fatal:
            found = take(None)
            if found:
                item = attrs.evolve(item, value=_not_utf8(found[0], source))
            yield item
        elif line is None:  # no line to tell which bytes it holds: the case before holds the rest of the file
            if pending is not None:
                yield _judged(pending, take(None), source)
                pending = None
            yield item
        else:
            pending = item
    if pending is not None:
        yield _judged(pending, take(None), source)
    if left:  # the parser gave nothing that holds them
        yield Item(file, source, _not_utf8(left[0], source), time.perf_counter())


def _not_utf8(found: tuple, source: str) -> InputError:
    """The fatal error of a file refused for the bad byte ``found`` (line, byte, offset): the line goes in the
    text, not in ``line``, as the error is the file's, not a case's."""
    line, byte, offset = found
    return InputError(f"expected UTF-8 text, found byte 0x{byte:02x} at offset {offset} (line {line})", source=source)


def _judged(item: Item, found: list, source: str) -> Item:
    if not found:
        return item
    return attrs.evolve(item, value=_bad_byte_error(found, source, item.value))
