"""Experiments at dataset scale: the tables of ``searchkit report``, computed from JSON Lines record files.

This is what Downward Lab (Seipp, Pommerening, Sievers and Helmert, "Downward
Lab", 2017) gives planning researchers, for searchkit's records
(``docs/records.md``): each record file, or each configuration inside one, is
one **column**; columns are compared over the same cases, matched by the
records' ``data_hash``.

Definitions (``docs/report.md`` states them for readers of a report):

* **instance**: a case's data hash and the game options it was solved under,
  less the print-only ones (the same board read twice, in one file or two, is
  one instance; the same board under ``--shortest`` and without is two, never
  compared); a record of a case stopped while it was read has no hash and is
  its own instance, ``source#case``, that no other column shares.
* Within a column, the **last** record of an instance counts (``--resume``
  appends a new record after an old one): nothing is counted twice.
* **commonly solved**: the instances every column solved (status ``solved``,
  a proven optimum).  Geometric means are taken over them only, of
  ``max(x, 1)`` for node counts and ``max(t, 0.001)`` seconds for times (a
  zero would make the mean zero).
* **best known cost** of an instance: the least cost any column found (a
  ``solved`` cost is the optimum; a feasible one is at least the optimum).
* **quality**: per column, the summed cost over the instances every column
  answered (``solved`` or ``feasible``) divided by the summed best known
  cost there (1.0 is best); the **IPC score**, the sum over all instances of
  best known / own cost (0 for an instance the column did not answer; a
  cost-0 answer scores 1); the **proven gap**, the summed cost minus the best
  lower bound any column proved, over the column's answers (``None`` when an
  answer has no bound).
* **contradictions**: instances where the columns' answers cannot all be
  right: two ``solved`` costs differ, a cost lies below a proven lower bound,
  an ``exhausted`` (unbounded) record meets a solution, or one under
  ``--upper-bound N`` meets a solution cheaper than N.  A correct
  searchkit never writes one; a report lists every one.

A file is read once, with ``orjson`` when it is installed (the ``report``
extra; four times faster than :mod:`json`), else with :mod:`json`.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from searchkit.machinery.records import SCHEMA, bounded_exhaustion, field_problem, source_key

#: Statuses in coverage order (``docs/records.md``).
STATUSES = ("solved", "feasible", "exhausted", "incomplete", "node_limit", "time_limit", "memory_limit", "error",
            "input_error")
#: Statuses that carry a solution.
ANSWERED = ("solved", "feasible")
#: The least time a geometric mean counts (seconds): timers cannot tell less apart from zero.
MIN_SECONDS = 0.001
#: At most this many warnings about one file's lines; then one line counts the rest.
MAX_WARNINGS_PER_FILE = 5

try:  # the `report` extra: a faster JSON reader; the same values
    from orjson import JSONDecodeError as _DecodeError
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - exercised where orjson is absent
    _loads = json.loads
    _DecodeError = ValueError


class ReportError(Exception):
    """A record file cannot be reported at all (missing, unreadable, or holding no searchkit record).

    The message is one line naming the file.
    """


@dataclasses.dataclass(frozen=True)
class Column:
    """One configuration: the records of one file that share algorithm, heuristic, engine, options and bound.

    Attributes:
        label: the column's name in every table (the file's stem, with the configuration when a file
            holds several).
        path: the record file.
        game: the game's name.
        algorithm, heuristic, engine: what ran (``None`` for records of no search, e.g. input errors, in a
            file whose configuration cannot be told).
        options: the game options as the records hold them (``None`` in old records).
        upper_bound: the run's ``--upper-bound`` (``None``: none).
    """

    label: str
    path: str
    game: str
    algorithm: str | None
    heuristic: str | None
    engine: str | None
    options: Any = None
    upper_bound: Any = None

    @property
    def configuration(self) -> str:
        """``algorithm/heuristic [engine]``, or ``-`` when no search ran."""
        if self.algorithm is None and self.heuristic is None:
            return "-"
        text = f"{self.algorithm or '-'}/{self.heuristic or '-'}"
        if self.engine:
            text += f" [{self.engine}]"
        if self.upper_bound is not None:
            text += f" upper bound {self.upper_bound}"
        return text


class Entry:
    """One record as a report reads it (the attributes of :class:`searchkit.tools.compare.Row` it shares keep
    their names: ``strategy`` is the column's label).

    Attributes:
        strategy: the column's label.
        key: the instance (the data hash, or ``source#case`` for a case with none).
        path, line: the record file and the record's 1-based line in it.
        source, case, input_line: where the case came from (the input file, its case number and line).
        status, cost, lower_bound, expanded, generated, before_last_layer, seconds, peak_rss_kb, error:
            as the record holds them (``before_last_layer``: the states expanded before the last f-layer,
            ``None`` without f-layers).
    """

    __slots__ = ("strategy", "key", "path", "line", "source", "case", "input_line", "status", "cost",
                 "lower_bound", "expanded", "generated", "before_last_layer", "seconds", "peak_rss_kb", "error",
                 "place", "bounded", "question")

    def __init__(self, strategy, key, path, line, source, case, input_line, status, cost, lower_bound, expanded,
                 generated, before_last_layer, seconds, peak_rss_kb, error, place=None, bounded=False,
                 question=None) -> None:
        #: ``(normalised source, case)``: a later record of the same place replaces an earlier one
        self.place = place
        #: an ``exhausted`` record that proves only that nothing is cheaper than an upper bound: that bound (an
        #: int; ``True`` when the record states none, e.g. ``--upper-bound auto``), else ``False``
        self.bounded = bounded
        #: the game options the case was solved under, as a hashable key (``None``: not recorded)
        self.question = question
        self.strategy, self.key, self.path, self.line = strategy, key, path, line
        self.source, self.case, self.input_line, self.status = source, case, input_line, status
        self.cost, self.lower_bound, self.expanded, self.generated = cost, lower_bound, expanded, generated
        self.before_last_layer, self.seconds, self.peak_rss_kb, self.error = (before_last_layer, seconds,
                                                                              peak_rss_kb, error)

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__ if name not in ("place", "bounded", "question")}

    def __repr__(self) -> str:
        return f"Entry({self.strategy!r}, {self.source!r}, case {self.case}, {self.status})"


@dataclasses.dataclass(frozen=True)
class Table:
    """One table of a report: plain values, ready for any writer.

    Attributes:
        name: a short identifier (``coverage``, ``per_instance``, ...).
        title: the heading a person reads.
        columns: the column headings.
        rows: one tuple of plain values (str, int, float or ``None``) per row.
        note: one sentence on how the figures are computed (the definitions above).
    """

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]
    note: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows], "note": self.note}


def _cost(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _count(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _before_last_layer(stats: dict) -> int | None:
    """As :meth:`searchkit.result.SearchStats.before_last_layer`, from a record's ``stats``."""
    iterations = stats.get("iterations")
    if not iterations or not isinstance(iterations, list) or not isinstance(iterations[-1], dict) \
            or iterations[-1].get("kind") != "f-layer":
        return None
    return _count(stats.get("expanded")) - _count(iterations[-1].get("expanded"))


def _config_of(record: dict, ignore: frozenset = frozenset(), question=False) -> tuple:
    """What tells a file's configurations apart: algorithm, heuristic, engine, options (less ``ignore``, the
    game's print-only ones; ``question``: the record's options as :func:`_question` keyed them, when there is
    nothing to ignore) and upper bound."""
    options, bound = record.get("options"), record.get("upper_bound")
    if question is False or ignore or isinstance(question, str):
        question = tuple(sorted(kv for kv in options.items() if kv[0] not in ignore)) \
            if isinstance(options, dict) else None
    key = (record.get("algorithm"), record.get("heuristic"), record.get("engine"), question, bound)
    try:
        hash(key)
    except TypeError:  # an option or bound holding a list or object (not written by searchkit): compare as text
        key = key[:3] + (json.dumps(options, sort_keys=True), json.dumps(bound, sort_keys=True))
    return key


def _print_only(game: str) -> frozenset:
    """The options of ``game`` that only change printing (``output_only``): they tell no configuration apart,
    as ``--resume`` ignores them.  Empty when the game is not installed."""
    try:
        from searchkit.plugin.manager import load_registry

        registry = load_registry()
        if game not in registry.games:
            return frozenset()
        return frozenset(opt.key for opt in registry.game(game).options if opt.output_only)
    except Exception:  # a broken plugin must not stop a report: compare every option
        return frozenset()


class _Reading:
    """The records of one file, grouped by configuration, with the warnings about its lines."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.game: str | None = None
        #: configuration -> (its first record, its entries in file order)
        self.by_config: dict[tuple, tuple[dict, list[Entry]]] = {}
        #: the entries of records of no search (stopped while read, input errors), in file order
        self.unattributed: list[Entry] = []
        self.torn = False
        self.warnings: list[str] = []
        self._skipped = 0

    def skip(self, line: int, why: str) -> None:
        self._skipped += 1
        if self._skipped <= MAX_WARNINGS_PER_FILE:
            self.warnings.append(f"{self.path}: line {line}: {why}; not counted")

    def finish(self) -> None:
        if self._skipped > MAX_WARNINGS_PER_FILE:
            self.warnings.append(f"{self.path}: {self._skipped - MAX_WARNINGS_PER_FILE} more lines not counted")


def _gunzip(data: bytes) -> tuple[bytes, bool]:
    """``data`` (gzip, one member or several) decompressed, and whether it was cut short or corrupt: then what
    decompressed before the cut, fed 64 KiB at a time so that little before a corrupt spot is lost."""
    import zlib

    parts: list[bytes] = []
    step = 1 << 16
    buf, pos = data, 0
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        while pos < len(buf):
            parts.append(inflate.decompress(buf[pos:pos + step]))
            pos += step
            if inflate.eof:  # a member ends: another may follow (gzip tolerates zero padding after the last)
                buf, pos = inflate.unused_data + buf[pos:], 0
                if not buf.strip(b"\0"):
                    return b"".join(parts), False
                inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    except zlib.error:
        return b"".join(parts), True
    return b"".join(parts), True  # the input ended inside a member


def _contents(path: str) -> tuple[bytes, bool]:
    """The bytes of a record file, decompressed when it is gzip, and whether it was cut short or corrupt (then
    its complete lines before the cut).

    Raises:
        ReportError: it cannot be read, or is no regular file.
    """
    import stat

    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):  # a FIFO would block, /dev/zero never end: a record file is a file
            raise ReportError(f"{path}: is not a regular file (a pipe or a device): report reads record files")
        with open(path, "rb") as fh:
            data = fh.read()
    except IsADirectoryError:
        raise ReportError(f"{path}: is a folder, not a record file") from None
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if data[:2] != b"\x1f\x8b":  # gzip's magic: a compressed record file (docs/results/*.jsonl.gz)
        return data, False
    data, cut = _gunzip(data)
    if cut:  # as verify: the records before the cut count; what follows the last newline is no record
        data = data[:data.rfind(b"\n") + 1]
    return data, cut


def _read(path: str) -> _Reading:
    """Read one record file (gzip-compressed or not): every line a record of this schema and of the file's game,
    or a warning.

    Raises:
        ReportError: the file cannot be read, or holds no record at all.
    """
    from searchkit.machinery.batch.verify import status_contradiction

    out = _Reading(path)
    data, cut = _contents(path)
    records = 0
    lines = data.split(b"\n")
    complete = len(lines) - 1  # the text after the last newline is no complete line
    seen_json = False
    sources: dict = {}  # a record's source -> its normalised name, once per distinct source
    for number, raw in enumerate(lines, 1):
        if number > complete:
            if raw.strip():
                out.torn = True
                out.skip(number, "the last line is cut short (no newline: a run killed while writing)")
            break
        if not raw.strip():
            continue
        try:
            record = _loads(raw)
        except (_DecodeError, RecursionError, ValueError):
            out.skip(number, "is not a JSON record")
            continue
        if not isinstance(record, dict):
            out.skip(number, "is not a JSON record")
            continue
        seen_json = True
        if "event" in record:  # an improvement event: no case's record
            continue
        if record.get("schema") != SCHEMA:
            out.skip(number, f"has schema {json.dumps(record.get('schema'))}, not {SCHEMA}")
            continue
        game = record.get("game")
        if not isinstance(game, str):
            out.skip(number, "names no game")
            continue
        if out.game is None:
            out.game = game
        elif game != out.game:
            out.skip(number, f"is a record of the game {json.dumps(game)}, where the file's first is {out.game}")
            continue
        problem = field_problem(record) or status_contradiction(record)
        if problem:  # a cost of "14", a status "banana": the same one line as any other bad line
            out.skip(number, problem if problem.startswith(("has ", "is ")) else f"is invalid: {problem}")
            continue
        records += 1
        source = record.get("source")
        place = sources.get(source) if isinstance(source, str) else None
        if place is None:
            place = sources[source] = str(source_key(source)) if isinstance(source, str) else repr(source)
        entry = _entry(path, number, record, place)  # the record itself is not kept: a report holds 100,000s
        if record.get("algorithm") is None and record.get("heuristic") is None:
            out.unattributed.append(entry)
        else:
            config = _config_of(record, question=entry.question)
            group = out.by_config.get(config)
            if group is None:
                group = out.by_config[config] = (record, [])
            group[1].append(entry)
    if cut:
        if not records:
            out.finish()
            raise ReportError(f"{path}: is gzip-compressed but cut short or corrupt before its first record")
        out.warnings.append(f"{path}: the compressed file is cut short or corrupt after {records} records; the "
                            f"rest is ignored")
    out.finish()
    if out.game is None:
        if out.torn and not seen_json and len(out.warnings) == 1:
            raise ReportError(f"{path}: holds no complete record: its only line is cut short (a run killed while "
                              f"writing its first record)")
        what = "holds no JSON record" if not seen_json else "holds no searchkit record"
        raise ReportError(f"{path}: {what}: report reads the JSON Lines records of 'searchkit solve --output "
                          f"FILE' (or --format jsonl)")
    return out


def _stem(path: str) -> str:
    name = os.path.basename(path)
    if name.endswith(".gz"):
        name = name[:-3]
    for suffix in (".jsonl", ".json", ".ndjson"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _labels(paths: Sequence[str]) -> list[str]:
    """Unique short names for the files: their stems, with the folder added where stems repeat."""
    stems = [_stem(p) for p in paths]
    out = []
    for path, stem in zip(paths, stems):
        out.append(stem if stems.count(stem) == 1 else os.path.join(os.path.basename(os.path.dirname(path)) or
                                                                     ".", stem))
    seen: dict[str, int] = {}
    for i, label in enumerate(out):  # the same path twice: number them
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            out[i] = f"{label} ({seen[label]})"
    return out


def _entry(path: str, line: int, record: dict, place: str) -> Entry:
    """An entry of ``record`` (its ``strategy``, the column's label, is set once the columns are known, and so is
    the ``key`` of a case with no data hash)."""
    stats = record.get("stats") if isinstance(record.get("stats"), dict) else {}
    data_hash = record.get("data_hash")
    source, case = record.get("source"), record.get("case")
    key = data_hash if isinstance(data_hash, str) else None
    seconds = record.get("seconds")
    return Entry(None, key, path, line, source, case, record.get("line"), str(record.get("status")),
                 _cost(record.get("cost")), _cost(record.get("lower_bound")), _count(stats.get("expanded")),
                 _count(stats.get("generated")), _before_last_layer(stats),
                 float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None,
                 _cost(record.get("peak_rss_kb")), record.get("error"), (place, case),
                 _exhaustion_bound(record), _question(record.get("options")))


def _exhaustion_bound(record: dict) -> int | bool:
    """An ``exhausted`` record's claim under an upper bound: the bound N (no solution costs less than N),
    ``True`` for a bound it does not state as a number (``auto``), ``False`` for no bound (no solution at all)."""
    if not bounded_exhaustion(record):
        return False
    bound = _cost(record.get("upper_bound"))
    return True if bound is None else bound


def _question(options) -> tuple | str | None:
    """A record's ``options`` as a hashable key: the question its case was solved under (``None``: not
    recorded)."""
    if not isinstance(options, dict):
        return None
    key = tuple(sorted(options.items()))
    try:
        hash(key)
    except TypeError:  # an option holding a list or object (not written by searchkit): compare as text
        return json.dumps(options, sort_keys=True)
    return key


class Report:
    """Record files read into columns, and every table of ``searchkit report`` computed from them.

    Build one with :func:`load_report` (files) or directly from entries.

    Attributes:
        columns: the configurations, in the order of the files and of their first records.
        entries: per column label, ``{instance key: Entry}`` (the last record of each instance).
        warnings: one line per problem found while reading (a torn, foreign or mixed line), naming the file and
            line.
        game: the game's name (every column's).
    """

    def __init__(self, columns: Sequence[Column], entries: dict[str, dict[str, Entry]],
                 warnings: Sequence[str] = (), game: str | None = None) -> None:
        self.columns = tuple(columns)
        self.entries = entries
        self.warnings = tuple(warnings)
        self.game = game
        order: dict[str, None] = {}
        for column in self.columns:
            order.update(dict.fromkeys(entries[column.label]))
        #: Every instance, in the order of the first column holding it, then of the next column, ...
        self.instances: tuple[str, ...] = tuple(order)
        self._cache: dict = {}  # the instance sets the tables share (a report does not change once built)

    @classmethod
    def from_rows(cls, rows: Sequence, strategies: Sequence[str], game: str | None = None) -> Report:
        """A report of ``compare``'s rows (:class:`searchkit.tools.compare.Row`), one column per strategy, so
        that ``compare`` prints its geometric means and quality with the very code ``report`` does.

        Cases are told apart by their position in ``compare``'s input (a file named twice counts twice); a
        row of no strategy (a case that could not be read) belongs to every column.
        """
        columns = [Column(name, "", game or "", None, None, None) for name in strategies]
        entries: dict[str, dict[str, Entry]] = {name: {} for name in strategies}
        for r in rows:
            name = r.strategy or r.heuristic
            for label in ([name] if name in entries else list(entries)):
                key = str(r.position) if r.position is not None else f"{r.source}#{r.case}"
                entries[label][key] = Entry(label, key, "", None, r.source, r.case, None, r.status, r.cost,
                                            r.lower_bound, r.expanded, r.generated, r.before_last_layer, r.seconds,
                                            None, r.error, (r.source, r.case))
        return cls(columns, entries, (), game=game)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.columns)

    def entry(self, label: str, key: str) -> Entry | None:
        return self.entries[label].get(key)

    # -- the instance sets ------------------------------------------------------------------------------------

    def commonly(self, statuses: Sequence[str]) -> list[str]:
        """The instances every column has with a status in ``statuses``, in instance order."""
        cached = self._cache.get(("commonly", tuple(statuses)))
        if cached is None:
            keep = set(self.instances)
            for label in self.labels:
                keep &= {k for k, e in self.entries[label].items() if e.status in statuses}
            cached = self._cache[("commonly", tuple(statuses))] = [k for k in self.instances if k in keep]
        return cached

    def best_known(self) -> dict[str, int]:
        """Per instance: the least cost any column found."""
        if "best" in self._cache:
            return self._cache["best"]
        best: dict[str, int] = {}
        self._cache["best"] = best
        for label in self.labels:
            for key, e in self.entries[label].items():
                if e.status in ANSWERED and e.cost is not None and (key not in best or e.cost < best[key]):
                    best[key] = e.cost
        return best

    def best_bound(self) -> dict[str, int]:
        """Per instance: the greatest proven lower bound any column holds."""
        if "bound" in self._cache:
            return self._cache["bound"]
        bound: dict[str, int] = {}
        self._cache["bound"] = bound
        for label in self.labels:
            for key, e in self.entries[label].items():
                if e.lower_bound is not None and (key not in bound or e.lower_bound > bound[key]):
                    bound[key] = e.lower_bound
        return bound

    # -- the tables -------------------------------------------------------------------------------------------

    def configurations(self) -> Table:
        rows = tuple((c.label, c.path, c.game, c.algorithm, c.heuristic, c.engine,
                      None if c.upper_bound is None else str(c.upper_bound), len(self.entries[c.label]))
                     for c in self.columns)
        return Table("configurations", "Columns: one per record file, or per configuration inside one",
                     ("column", "file", "game", "algorithm", "heuristic", "engine", "upper bound", "instances"), rows)

    def coverage(self) -> Table:
        """Per column: instances by final status."""
        rows = []
        for label in self.labels:
            counts = dict.fromkeys(STATUSES, 0)
            other = 0
            for e in self.entries[label].values():
                if e.status in counts:
                    counts[e.status] += 1
                else:
                    other += 1
            rows.append((label, len(self.entries[label]), *counts.values(), other))
        return Table("coverage", "Coverage: instances by status", ("column", "instances", *STATUSES, "other"),
                     tuple(rows), "the last record of each instance in each column counts")

    def coverage_by_file(self) -> Table:
        """Per input file (the records' ``source``) and column: instances by status."""
        keys: dict = {}  # source -> its normalised name, once per distinct source
        counts: dict[tuple[str, str], dict[str, int]] = {}
        for label in self.labels:
            for e in self.entries[label].values():
                source = keys.get(e.source)
                if source is None:
                    source = keys[e.source] = str(source_key(e.source))
                row = counts.get((source, label))
                if row is None:
                    row = counts[(source, label)] = dict.fromkeys(("instances", *STATUSES), 0)
                row["instances"] += 1
                if e.status in row:
                    row[e.status] += 1
        order = list(dict.fromkeys(source for source, _ in counts))
        rows = tuple((source, label, *counts[(source, label)].values()) for source in order for label in self.labels
                     if (source, label) in counts)
        return Table("coverage_by_file", "Coverage by input file", ("input", "column", "instances", *STATUSES), rows)

    def per_instance(self) -> Table:
        """One row per instance and column: status, cost, bound, counts, time and peak memory."""
        rows = []
        for key in self.instances:
            for label in self.labels:
                e = self.entries[label].get(key)
                if e is None:
                    continue
                rows.append((e.source, e.case, label, e.status, e.cost, e.lower_bound, e.expanded, e.generated,
                             e.before_last_layer, e.seconds, e.peak_rss_kb, key))
        return Table("per_instance", "Per instance",
                     ("input", "case", "column", "status", "cost", "lower bound", "expanded", "generated",
                      "expanded before last f-layer", "seconds", "peak RSS KiB", "instance"), tuple(rows))

    def geometric_means(self) -> Table:
        """Geometric means over the commonly solved instances (see the module's definitions)."""
        common = self.commonly(("solved",))
        layered = [k for k in common if all(self.entries[lb][k].before_last_layer is not None
                                            for lb in self.labels)]
        rows = []
        for label in self.labels:
            mine = self.entries[label]
            rows.append((label, len(common),
                         geometric_mean(mine[k].expanded for k in common),
                         geometric_mean(mine[k].generated for k in common),
                         geometric_mean((mine[k].seconds or 0.0 for k in common), floor=MIN_SECONDS),
                         len(layered),
                         geometric_mean(mine[k].before_last_layer for k in layered) if layered else None))
        return Table("geometric_means", f"Geometric means over the {len(common)} instances every column solved",
                     ("column", "instances", "expanded", "generated", "seconds", "instances with f-layers",
                      "expanded before last f-layer"), tuple(rows),
                     f"of max(x, 1) for counts and max(t, {MIN_SECONDS}) s for times; the last column over the "
                     f"common instances where every column searched in f-layers (A*, PEA*)")

    def quality(self) -> Table:
        """Per column: cost against the best known, the IPC-style score and the proven gap."""
        best, bound = self.best_known(), self.best_bound()
        common = self.commonly(ANSWERED)
        rows = []
        for label in self.labels:
            mine = self.entries[label]
            answered = [e for e in mine.values() if e.status in ANSWERED and e.cost is not None]
            cost = sum(mine[k].cost for k in common) if common else None
            best_sum = sum(best[k] for k in common) if common else None
            ratio = (cost / best_sum if best_sum else (1.0 if cost == 0 else None)) if common else None
            score = 0.0
            for key in self.instances:
                e = mine.get(key)
                if e is not None and e.status in ANSWERED and e.cost is not None:
                    score += 1.0 if e.cost == 0 else best[key] / e.cost
            unbounded = not answered or any(e.key not in bound for e in answered)
            gap = None if unbounded else sum(e.cost - bound[e.key] for e in answered)
            rows.append((label, len(answered), sum(e.status == "feasible" for e in answered), len(common), cost,
                         best_sum, ratio, round(score, 4), gap))
        return Table("quality", "Quality: cost against the best known",
                     ("column", "answered", "feasible", "commonly answered", "cost", "best known cost",
                      "cost / best known", "IPC score", "proven gap"), tuple(rows),
                     "cost and best known summed over the instances every column answered; the IPC score sums "
                     "best known / own cost over all instances; the proven gap sums cost - best lower bound "
                     "over the column's answers")

    def contradictions(self) -> Table:
        """Instances whose columns cannot all be right (a correct searchkit writes none)."""
        rows = []
        bound = self.best_bound()
        for key in self.instances:
            present = [(lb, e) for lb in self.labels if (e := self.entries[lb].get(key)) is not None]
            where = present[0][1]
            for problem in _contradictions(present, bound.get(key)) + _below_exhaustion(present):
                rows.append((where.source, where.case, key, problem))
        return Table("contradictions", "Contradictions: answers that cannot all be right",
                     ("input", "case", "instance", "problem"), tuple(rows))

    def errors(self) -> Table:
        """Every record with status ``error`` or ``input_error``, with its message."""
        rows = []
        for label in self.labels:
            for e in self.entries[label].values():
                if e.status in ("error", "input_error"):
                    rows.append((label, e.path, e.line, e.source, e.case, e.status, e.error))
        return Table("errors", "Errors (unexplained errors: every record that failed, with its message)",
                     ("column", "record file", "line", "input", "case", "status", "message"), tuple(rows))

    def tables(self, *, per_instance: bool = True) -> list[Table]:
        """Every table, in the order the writers print them."""
        out = [self.configurations(), self.coverage(), self.coverage_by_file(), self.geometric_means(),
               self.quality(), self.contradictions(), self.errors()]
        if per_instance:
            out.append(self.per_instance())
        return out

    # -- faces ------------------------------------------------------------------------------------------------

    def to_dict(self, *, per_instance: bool = True) -> dict:
        """The whole report as one JSON-ready dict: columns, tables (the per-instance one unless
        ``per_instance`` is false), warnings."""
        return {"game": self.game, "columns": [dataclasses.asdict(c) for c in self.columns],
                "tables": [t.to_dict() for t in self.tables(per_instance=per_instance)],
                "warnings": list(self.warnings)}

    def to_pandas(self):
        """The per-instance table as a ``pandas.DataFrame`` (one row per instance and column).

        Raises:
            ModuleNotFoundError: without pandas, saying what to install.
        """
        try:
            import pandas
        except ImportError:
            raise ModuleNotFoundError("Report.to_pandas() needs pandas: pip install 'searchkit-puzzles[pandas]'",
                                      name="pandas") from None
        table = self.per_instance()
        return pandas.DataFrame.from_records(table.rows, columns=list(table.columns))

    def figures(self) -> list:
        """``(title, matplotlib Figure)`` for every plot (each figure draws itself in Jupyter).

        Raises:
            searchkit.render.plots.MissingMatplotlib: without matplotlib.
        """
        from searchkit.render.report import report_figures

        return report_figures(self)

    def _repr_html_(self) -> str:
        """Jupyter: the HTML report (tables, and the plots when matplotlib is installed)."""
        from searchkit.render.report import report_html

        return report_html(self, standalone=False)

    def __repr__(self) -> str:
        cov = {row[0]: row for row in self.coverage().rows}
        parts = [f"{label}: {cov[label][2]}/{cov[label][1]} solved" for label in self.labels]
        return f"<Report {self.game}: " + "; ".join(parts) + ">"


def _contradictions(present: list[tuple[str, Entry]], bound: int | None) -> list[str]:
    """What cannot all be right among one instance's columns (``present``: label and entry; ``bound``: the best
    proven lower bound): solved costs that differ, a cost below a proven bound or a feasible one below the
    optimum, a proof of no solution beside a solution."""
    solved = {e.cost for _, e in present if e.status == "solved" and e.cost is not None}
    problems = []
    if len(solved) > 1:
        problems.append("solved costs differ: " + ", ".join(
            f"{lb} {e.cost}" for lb, e in present if e.status == "solved"))
    for lb, e in present:
        if e.status in ANSWERED and e.cost is not None and bound is not None and e.cost < bound:
            problems.append(f"{lb} found cost {e.cost} below the proven lower bound {bound}")
        if solved and e.status == "feasible" and e.cost is not None and e.cost < min(solved):
            problems.append(f"{lb}'s feasible cost {e.cost} is below the solved cost {min(solved)}")
    proven_none = [lb for lb, e in present if e.status == "exhausted" and not e.bounded]
    if proven_none and any(e.status in ANSWERED for _, e in present):
        problems.append(f"{', '.join(proven_none)} proved no solution, yet another column found one")
    return problems


def _below_exhaustion(present: list[tuple[str, Entry]]) -> list[str]:
    """An ``exhausted`` record under ``--upper-bound N`` claims no solution costs less than N: each answer of one
    instance that costs less contradicts it."""
    problems = []
    for lb, e in present:
        if e.status == "exhausted" and e.bounded is not True and e.bounded is not False:
            problems += [f"{lb} proved no solution cheaper than its upper bound {e.bounded}, yet {other} found cost "
                         f"{o.cost}" for other, o in present
                         if o.status in ANSWERED and o.cost is not None and o.cost < e.bounded]
    return problems


def geometric_mean(values: Iterable, floor: float = 1.0) -> float | None:
    """The geometric mean of ``max(v, floor)`` over ``values`` (``None`` for none), in log space.

    ``None`` values count as ``floor``.
    """
    total, n = 0.0, 0
    for v in values:
        total += math.log(max(v if v is not None else floor, floor))
        n += 1
    return math.exp(total / n) if n else None


def _shares_places(groups: list[tuple[dict, list[Entry]]]) -> bool:
    """Whether two configurations of a file hold the same case: the file holds several runs (``compare``'s
    records, a run resumed with another heuristic), not one run whose plan chose per case."""
    seen: dict = {}
    for k, (_, mine) in enumerate(groups):
        for e in mine:
            if seen.setdefault(e.place, k) != k:
                return True
    return False


def _columns_of(base: str, groups: list, unattributed: list, taken) -> list[tuple[str, dict | None, list]]:
    """A file's columns: ``(label, first record or None, entries)``.

    One column for one run (its configurations never share a case, e.g. a game's plan choosing IDA* for small
    boards and A* for large ones), with its records of no search; one column per configuration when they share
    cases, each with the file's records of no search (every configuration met them).
    """
    if len(groups) <= 1 or not _shares_places(groups):
        mine = [e for _, g in groups for e in g] + unattributed
        if len(groups) > 1 or unattributed:
            mine.sort(key=lambda e: e.line)
        label = _unique(base, taken)
        return [(label, groups[0][0] if len(groups) == 1 else None, mine)]
    firsts = [first for first, _ in groups]
    varying = [name for name in ("algorithm", "heuristic", "engine", "upper_bound")
               if len({json.dumps(f.get(name)) for f in firsts}) > 1]
    option_names = sorted({k for f in firsts if isinstance(f.get("options"), dict) for k in f["options"]})
    varying_options = [k for k in option_names
                       if len({json.dumps((f.get("options") or {}).get(k)) for f in firsts}) > 1]
    out = []
    for first, mine in groups:
        parts = []
        if "algorithm" in varying or "heuristic" in varying:
            parts.append(f"{first.get('algorithm') or '-'}/{first.get('heuristic') or '-'}")
        if "engine" in varying:
            parts.append(f"[{first.get('engine')}]")
        if "upper_bound" in varying:
            parts.append(f"upper bound {first.get('upper_bound')}")
        parts += [f"{k}={json.dumps((first.get('options') or {}).get(k))}" for k in varying_options]
        label = _unique(f"{base}: {' '.join(parts)}", taken, out)
        out.append((label, first, sorted(mine + unattributed, key=lambda e: e.line)))
    return out


def _unique(label: str, taken, more=()) -> str:
    names = set(taken) | {m[0] for m in more}
    candidate, n = label, 1
    while candidate in names:
        n += 1
        candidate = f"{label} ({n})"
    return candidate


def _column(label: str, reading, first: dict | None) -> Column:
    """The :class:`Column` of a file's configuration (``first`` its first record), or of a whole file's run
    (``first`` ``None``: its algorithms and heuristics listed)."""
    if first is not None:
        return Column(label, reading.path, str(reading.game), first.get("algorithm"), first.get("heuristic"),
                      first.get("engine"), first.get("options"), first.get("upper_bound"))
    firsts = [f for f, _ in reading.by_config.values()]

    def listed(name):
        values = sorted({str(f.get(name)) for f in firsts if f.get(name) is not None})
        return ", ".join(values) or None

    return Column(label, reading.path, str(reading.game), listed("algorithm"), listed("heuristic"), listed("engine"),
                  firsts[0].get("options") if firsts else None, firsts[0].get("upper_bound") if firsts else None)


def _latest(label: str, mine: list[Entry]) -> dict[str, Entry]:
    """A column's entries by instance: the last record of each case (source and case number) counts, at the
    place of the case's first record; a case with no data hash is the instance ``LABEL:SOURCE#CASE`` (or
    ``LABEL:SOURCE`` for a file-wide input error, which has no case number).

    The same board at two places of one run is one instance, and which place's record stands for it does not
    depend on the order of the file: the better status (in :data:`STATUSES` order, solved first), then the
    lesser cost, then the first place by source name and case number."""
    by_place: dict = {}
    for e in mine:
        e.strategy = label
        by_place[e.place] = e
    out: dict[str, Entry] = {}
    for e in by_place.values():
        if e.key is None:
            e.key = f"{label}:{e.place[0]}" + (f"#{e.place[1]}" if e.place[1] is not None else "")
        held = out.get(e.key)
        if held is None or _rank(e) < _rank(held):  # the same board twice in one run: one instance
            out[e.key] = e
    return out


_STATUS_RANK = {status: k for k, status in enumerate(STATUSES)}


def _rank(e: Entry) -> tuple:
    """Which of one column's records of the same instance stands for it: lower is preferred."""
    cost = e.cost if e.cost is not None else math.inf
    return _STATUS_RANK.get(e.status, len(STATUSES)), cost, str(e.place[0]), \
        e.place[1] if isinstance(e.place[1], int) else -1


def _by_question(readings: list[_Reading]) -> frozenset | None:
    """Tell instances apart by the question too: a board solved under other game options (Mayan's
    ``--shortest``, Flood-It's ``--start``) is another instance, ``HASH OPTION=VALUE``, never compared with it.

    Only the options that differ between the records count, and not those that only change printing.  Returns
    the game's print-only options when it had to look them up (``None``: it did not)."""
    everyone = [e for r in readings for _, mine in r.by_config.values() for e in mine] + \
        [e for r in readings for e in r.unattributed]
    questions = {e.question for e in everyone}
    if len(questions) <= 1:
        return None
    print_only = _print_only(str(readings[0].game))
    asks = {q: _asked(q, print_only) for q in questions}
    known = [a for a in asks.values() if a is not None]
    names = sorted({k for a in known for k in a})
    varying = [k for k in names if len({json.dumps(a.get(k), sort_keys=True) for a in known}) > 1]
    if not varying and len(known) == len(asks):
        return print_only  # they differ only in print-only options: one question
    suffix = {q: " ".join(f"{k}={json.dumps(a.get(k), sort_keys=True)}" for k in varying) if a is not None
              else "(options not recorded)" for q, a in asks.items()}
    for e in everyone:
        if e.key is not None and suffix[e.question]:
            e.key = f"{e.key} {suffix[e.question]}"
    return print_only


def _asked(question, print_only: frozenset) -> dict | None:
    """The options of an entry's ``question`` that change the question (``None``: not recorded)."""
    if question is None:
        return None
    options = dict(question) if isinstance(question, tuple) else json.loads(question)
    return {k: v for k, v in options.items() if k not in print_only}


def load_report(paths: Sequence[str | os.PathLike], *, on_error: Callable[[str], None] | None = None) -> Report:
    """Read record files into a :class:`Report`.

    Args:
        paths: the record files (``searchkit solve --output``'s JSON Lines, or ``--format json``'s output).
        on_error: called with the one-line message of each file that cannot be read or holds no record; that
            file is left out and the others are reported.  ``None``: raise instead.

    Returns:
        The report; its ``warnings`` name each line not counted (torn, not JSON, another schema or game).

    Raises:
        ReportError: a file cannot be read or holds no record (one line naming it) and there is no
            ``on_error``; no file left to report; files of different games (one line naming both).
    """
    if not paths:
        raise ReportError("no record file given")
    paths = [os.fspath(p) for p in paths]
    readings = []
    collecting = gc.isenabled()
    gc.disable()  # 100,000s of records and no cycle: the collector's passes over them cost more than the parse
    try:
        for path in paths:
            try:
                readings.append(_read(path))
            except ReportError as exc:
                if on_error is None:
                    raise
                on_error(str(exc))
    finally:
        if collecting:
            gc.enable()
    if not readings:
        raise ReportError("no record file could be read")
    paths = [r.path for r in readings]
    games = {r.game for r in readings}
    if len(games) > 1:
        first = readings[0]
        other = next(r for r in readings if r.game != first.game)
        raise ReportError(f"{other.path} holds records of {other.game}, {first.path} of {first.game}: a report "
                          f"compares one game's runs")
    columns: list[Column] = []
    entries: dict[str, dict[str, Entry]] = {}
    warnings: list[str] = []
    print_only: frozenset | None = _by_question(readings)
    for reading, base in zip(readings, _labels(paths)):
        warnings.extend(reading.warnings)
        groups = reading.by_config
        if len(groups) > 1 and len({config[3] for config in groups}) > 1:  # options differ: print-only ones?
            if print_only is None:
                print_only = _print_only(str(reading.game))
            merged: dict[tuple, tuple[dict, list[Entry]]] = {}
            for first, mine in groups.values():
                config = _config_of(first, print_only)
                if config in merged:
                    merged[config][1].extend(mine)
                else:
                    merged[config] = (first, list(mine))
            groups = merged
        for label, first, mine in _columns_of(base, list(groups.values()), reading.unattributed, entries):
            columns.append(_column(label, reading, first))
            entries[label] = _latest(label, mine)
    return Report(columns, entries, warnings, game=readings[0].game)
