"""For every registered game: cases in = lines out = records out (issue 9's standing defence).

Files are made from the game's generator and damaged at random (a line
dropped, a token replaced by garbage); whatever the parser makes of them,
``solve`` prints exactly one text line and one JSON record per case it read
(an input error with a case number keeps its place), for good cases and bad.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.errors import InputError
from searchkit.plugin.manager import load_registry
from searchkit.machinery.solver import Solver

REGISTRY = load_registry(report=None)
GAMES = sorted(REGISTRY.generators)


def _cases_read(game, options, text):
    """The case numbers the parser reports, good or bad (warnings are no cases)."""
    items = list(game.parse(text, "<stdin>", options))
    numbers = []
    for item in items:
        if isinstance(item, InputError):
            if getattr(item, "warning", False):
                continue
            if item.case is None and item.line is not None and not numbers:
                numbers.append(1)  # a one-case format's whole-file error is that case's
            elif item.case is not None:
                numbers.append(item.case)
        else:
            numbers.append(item.index)
    return numbers


def _damage(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(0, 2)):
        i = rng.randrange(len(lines))
        tokens = lines[i].split()
        if tokens and not lines[i].startswith("#"):
            tokens[rng.randrange(len(tokens))] = rng.choice(["x", "-1", "99999999999", "", "7"])
            lines[i] = " ".join(tokens)
    return "\n".join(lines)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), count=st.integers(1, 4))
def test_one_line_and_one_record_per_case(searchkit_cli_run, name, seed, count):
    gen = REGISTRY.generator(name)
    game = REGISTRY.game(name)
    rng = random.Random(seed)
    datas = [gen(rng, rng.randint(1, gen.check_size), {}) for _ in range(count)]
    try:
        text = game.format_input(datas)
    except ValueError:  # a format of one case per file
        text = game.format_input(datas[:1])
    text = _damage(text, rng)
    options = Solver(REGISTRY, name).options
    numbers = _cases_read(game, options, text)
    limit = ["--max-nodes", "20000"]
    lines = searchkit_cli_run(["solve", name, *limit, "-"], input=text).stdout.splitlines()
    records = [json.loads(r) for r in searchkit_cli_run(["solve", name, *limit, "--format", "json", "-"], input=text)
               .stdout.splitlines()]
    finals = [r for r in records if "event" not in r]
    assert [r["case"] for r in finals] == numbers or (not numbers and len(finals) <= 1)
    if name != "mayan":  # one text line per case (a Mayan answer has n lines)
        # a text the parser reads no case from (emptied by the damage) is one file-wide error: one line, one record
        assert len(lines) == (len(numbers) or len(finals))
    assert len({frozenset(r) for r in finals}) <= 1, "every record has the same keys"
