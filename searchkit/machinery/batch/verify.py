"""Replaying recorded solutions: does every record's move list reach a goal, at the recorded cost?

Each case of the input is matched to its record by source, case number and
data hash; the recorded moves (in the game's JSON form) are turned back into
the game's moves along the way and replayed with
:func:`searchkit.puzzle.replay` on a puzzle built with every pruning rule
switched off, so only the game's own rules decide what is legal.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

import attrs

from searchkit.errors import InputError
from searchkit.result import EXHAUSTED, FEASIBLE, SOLVED


@attrs.frozen
class Finding:
    """One case's verdict: ``ok`` True (no failure), or a one-line ``problem``."""

    source: str
    case: int | None
    ok: bool
    problem: str = ""
    length: int | None = None
    unsolvable: bool = False
    #: exhausted under ``--upper-bound``: proven only that no solution is cheaper than the bound
    bounded: bool = False
    unchecked: bool = False  #: valid, but the case asks for the first answer in move order, which replay cannot check
    #: claimed unsolvable, and the game cannot decide solvability cheaply: neither confirmed nor refuted (``ok``
    #: True, as it is no failure, but not counted as OK)
    undecided: bool = False


def index_records(records: Iterable[dict]) -> dict:
    """``(source, case) -> [records]`` in file order."""
    out: dict = {}
    for r in records:
        out.setdefault((r.get("source"), r.get("case")), []).append(r)
    return out


def moves_from_json(game, case, puzzle, recorded: list):
    """The game's moves whose JSON form is ``recorded``, walking the successors; and their total cost.

    A move's form is compared as it reads back from JSON (a tuple as a list).

    Raises:
        ValueError: a recorded move is not among its state's successors (named by number), or
            follows the goal (a solution ends at its goal).
    """
    from searchkit.game import moves_to_json

    def as_json(value):  # what a record holds after JSON: tuples are lists (the guide's promise)
        try:
            return json.loads(json.dumps(value))
        except (TypeError, ValueError):
            return value

    state = puzzle.initial_state()
    moves, cost = [], 0
    for i, want in enumerate(recorded, 1):
        if puzzle.is_goal(state):
            where = "at the start" if i == 1 else f"after move {i - 1}"
            raise ValueError(f"moves after the goal: it is reached {where}, and {len(recorded) - i + 1} more follow")
        for move, child, step in puzzle.successors(state):
            if as_json(moves_to_json(game, case, [move])[0]) == want:
                moves.append(move)
                cost += step
                state = child
                break
        else:
            raise ValueError(f"move {i} ({want!r}) is not legal in its state")
    return moves, cost


def check_case(game, rules: frozenset, options, case, record: dict | None) -> Finding:
    """The :class:`Finding` of one case against its record (``None``: no record)."""
    from searchkit.machinery.records import bounded_exhaustion, foreign_record, options_conflict
    from searchkit.puzzle import replay

    where = (case.source, case.index)
    if record is None:
        return Finding(*where, False, "no record")
    foreign = foreign_record(record, game.name)
    if foreign:
        return Finding(*where, False, f"the record {foreign}")
    conflict = options_conflict(game, record, options)
    if conflict:  # an answer to another question (--shortest, --start, ...) is no answer to this one
        return Finding(*where, False, f"the record was {conflict}")
    status = record.get("status")
    problem = status_contradiction(record)
    if problem:
        return Finding(*where, False, problem)
    if status == EXHAUSTED:
        if bounded_exhaustion(record):
            return Finding(*where, True, bounded=True)
        return unsolvable_claim(game, rules, options, case)
    if status not in (SOLVED, FEASIBLE):
        return Finding(*where, False, f"not solved (status {status})")
    recorded = record.get("moves")
    if not isinstance(recorded, list):
        return Finding(*where, False, "the record has no move list")
    for key in ("cost", "length"):  # a forged "19" must not read as 19
        value = record.get(key)
        if not _is_int(value) and not (key == "length" and value is None):
            return Finding(*where, False, f"the record's {key} {json.dumps(value)} is "
                                          f"{_type_name(value)}, not an integer")
    puzzle = game.puzzle(case, options, rules)
    try:
        moves, cost = moves_from_json(game, case, puzzle, recorded)
        final = replay(puzzle, moves)
    except ValueError as exc:
        return Finding(*where, False, f"bad moves: {exc}")
    if not puzzle.is_goal(final):
        return Finding(*where, False, f"the {len(moves)} moves do not reach a goal")
    if record.get("cost") != cost:
        return Finding(*where, False, f"the moves cost {cost}, the record says {record.get('cost')}")
    if record.get("length") is not None and record.get("length") != len(moves):
        return Finding(*where, False, f"{len(moves)} moves, the record says length {record.get('length')}")
    plan = game.plan(case, options)  # the question the case asks: exactly n moves (Mayan), at most n, any
    if plan.depth is not None and plan.mode == "exact" and cost != plan.depth:
        return Finding(*where, False, f"the moves cost {cost}, but the case asks for exactly {plan.depth}")
    if plan.depth is not None and plan.mode in ("at_most", "shortest") and cost > plan.depth:
        return Finding(*where, False, f"the moves cost {cost}, but the case allows at most {plan.depth}")
    problem = bound_problem(record, cost)
    if problem:
        return Finding(*where, False, problem)
    # A case asking for the smallest answer (Mayan): replay shows the moves are valid, not that no smaller
    # valid answer exists; only a search could, so say so rather than let "OK" claim it.
    return Finding(*where, True, length=len(moves), unchecked=bool(plan.first_in_order))


def unsolvable_claim(game, rules: frozenset, options, case) -> Finding:
    """The :class:`Finding` of a record claiming that ``case`` has no solution (``exhausted``, no bound).

    The claim is put to the game's puzzle, built with every rule in ``rules``
    off, through its optional ``solvable`` hook
    (:func:`searchkit.puzzle.solvable`) on the initial state: ``False``
    confirms it (``unsolvable``); ``True`` refutes it when the case asks for
    any solution (a plan without a depth), a failure; under a depth (Mayan's
    exactly n moves) a reachable goal may still lie deeper, so ``True`` does
    not refute it there.  Whatever the game cannot decide is ``undecided``:
    not a failure, and not counted as OK either.  Before this check a forged
    ``exhausted`` record with no moves passed as "proven unsolvable".
    """
    from searchkit.puzzle import solvable

    where = (case.source, case.index)
    puzzle = game.puzzle(case, options, rules)
    answer = solvable(puzzle, puzzle.initial_state())
    if answer is False:
        return Finding(*where, True, unsolvable=True)
    if answer is True and game.plan(case, options).depth is None:
        return Finding(*where, False, f"status \"exhausted\" claims the case has no solution, but the game's "
                                      f"solvability test ({game.name}) proves it has one")
    return Finding(*where, True, undecided=True)


def status_contradiction(record: dict) -> str:
    """What in a record contradicts its own ``status`` ("": nothing), named in one line.

    An ``exhausted`` record (no solution) holds no moves, cost, length or
    gap: a ``solved``
    record whose status was changed to ``exhausted`` keeps them, and must not
    pass as a proof that there is no solution.  An ``exhausted`` record
    states a lower bound only when the run had an ``--upper-bound`` (it ran
    out below it); without one it claims that no solution exists at all, and
    a record that holds ``upper_bound: null`` (written since records hold
    it) with a lower bound says both.  A record with an answer or a proof
    (``solved``, ``feasible``, ``exhausted``) holds no ``error``.
    """
    status = record.get("status")
    held = []
    if status == EXHAUSTED:  # the one status without a solution that verify accepts (others are 'not solved')
        moves = record.get("moves")
        held = [f"{len(moves)} moves" if isinstance(moves, list) else f"moves {json.dumps(moves)}"] \
            if moves not in ([], None) else []
        held += [f"{key} {json.dumps(record.get(key))}" for key in ("cost", "length", "gap")
                 if record.get(key) is not None]
    if held:
        return (f"status {json.dumps(status)} (no solution) contradicts the record's own {', '.join(held)}: "
                f"a record without a solution holds none")
    if status == EXHAUSTED and "upper_bound" in record and record.get("upper_bound") is None \
            and record.get("lower_bound") is not None:
        return (f"status \"exhausted\" with lower bound {json.dumps(record.get('lower_bound'))} but no "
                f"--upper-bound: a search without a bound that runs out proves there is no solution, "
                f"and states no lower bound")
    if status in (SOLVED, FEASIBLE, EXHAUSTED) and record.get("error") is not None:
        return f"status {json.dumps(status)} with an error ({json.dumps(record.get('error'))[:80]})"
    return ""


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value) -> str:
    """How JSON would name ``value``'s type (:func:`searchkit.machinery.records.json_type`)."""
    from searchkit.machinery.records import json_type

    return json_type(value)


def bound_problem(record: dict, cost) -> str:
    """What contradicts the replayed ``cost`` in a record's ``lower_bound`` and ``gap`` ("": nothing).

    A valid solution of cost C bounds the optimum from above, so a proven
    lower bound lies in 0..C; ``solved`` with a bound claims it meets C; the
    gap is C minus the bound.
    """
    lb, gap = record.get("lower_bound"), record.get("gap")
    if lb is None:
        return "" if gap is None else f"a gap of {gap!r} without a lower bound"
    if not _is_int(lb):
        return f"the record's lower bound {json.dumps(lb)} is {_type_name(lb)}, not an integer"
    if not 0 <= lb <= cost:
        return f"lower bound {lb!r} is not in 0..{cost}, the replayed cost"
    if record.get("status") == SOLVED and lb != cost:
        return f"solved (proven optimal) with lower bound {lb} below the cost {cost}"
    if "gap" in record and (not _is_int(gap) or gap != cost - lb):
        return f"gap {gap!r}, but cost {cost} - lower bound {lb} = {cost - lb}"
    return ""


def verify(registry, game_name: str, items: Iterable, records: list[dict], options,
           matched: set | None = None) -> list[Finding]:
    """A :class:`Finding` per case read, in input order (input errors are findings too).

    ``matched``, when given, receives the ``(source key, case)`` of every
    case read, as records are looked up by them: a record whose pair is not
    in it matched no case and was not replayed.

    A case's record is :meth:`RecordIndex.match`'s; records of the case for
    other data are reported as mismatched.
    """
    from searchkit.machinery.records import source_key

    game = registry.game(game_name)
    rules = frozenset(rule.name for rule in registry.rules_for(game_name))
    index = RecordIndex(records)
    out = []
    for item in items:
        value = item.value
        if isinstance(value, InputError):
            _note(matched, index.sources, source_key(item.source), value.case)
            if not getattr(value, "warning", False):
                out.append(Finding(item.source, value.case, False, f"input error: {value.message}"))
            continue
        _note(matched, index.sources, index.source_of(value), value.index)
        record, problem = index.match(game, value, options)
        if problem:
            out.append(Finding(value.source, value.index, False, problem))
            continue
        out.append(check_case(game, rules, options, value, record))
    return out


class RecordIndex:
    """Records looked up by the case they answer: what ``verify`` and ``show --records`` agree on.

    A case's record is the last one with the same source (as
    :func:`~searchkit.machinery.records.source_key` normalises it), case
    number and data hash; failing that, the last one of that source and
    number with no data hash that gives no answer (a case stopped while it
    was read).  When no record names the case's source but all name one
    other source, those are used (the file was named differently).
    """

    def __init__(self, records: Iterable[dict]) -> None:
        from searchkit.machinery.records import source_key

        records = list(records)
        self.by_key = index_records(dict(r, source=source_key(r.get("source"))) for r in records)
        self.sources = {source_key(r.get("source")) for r in records}

    def source_of(self, case):
        """The records' source key for ``case``'s source (the records' only source when they name another)."""
        from searchkit.machinery.records import source_key

        source = source_key(case.source)
        if source not in self.sources and len(self.sources) == 1:
            source = next(iter(self.sources))
        return source

    def match(self, game, case, options) -> tuple[dict | None, str]:
        """``(record, "")``: ``case``'s record, ``None`` when there is none; or ``(None, problem)`` when records
        of the case exist for other data, the problem in one line (naming the game options that read the
        case differently, when that is why: sliding tiles' ``--goal``)."""
        from searchkit.machinery.records import data_hash, options_conflict

        candidates = self.by_key.get((self.source_of(case), case.index), [])
        digest = data_hash(case)
        matching = [r for r in candidates if r.get("data_hash") == digest]
        if not matching:
            # no data hash: a case whose reading a limit stopped (Case.unread) or an input error, recorded
            # without its data, and so without an answer; a record claiming one with no hash matches no data
            # (every answer is recorded with its case's hash), or it would stand for any board of that number
            matching = [r for r in candidates if r.get("data_hash") is None
                        and r.get("status") not in (SOLVED, FEASIBLE, EXHAUSTED)]
        if candidates and not matching:
            conflict = options_conflict(game, candidates[-1], options)
            return None, (f"the record was {conflict}" if conflict else
                          "mismatched: the record is for other data (data hash differs; the input was edited?)")
        return (matching[-1] if matching else None), ""


def _note(matched: set | None, sources: set, source, case) -> None:
    """Add a case's ``(source key, case)`` to ``matched``, under the records' one source when they name
    another (as :func:`verify` reads them)."""
    if matched is not None:
        matched.add((source if source in sources or len(sources) != 1 else next(iter(sources)), case))


def histogram(findings: Iterable[Finding]) -> list[tuple[int, int]]:
    """``(length, cases)`` of the verified solutions, by length."""
    counts = Counter(f.length for f in findings if f.ok and f.length is not None)
    return sorted(counts.items())
