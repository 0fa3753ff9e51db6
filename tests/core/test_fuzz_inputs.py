"""A standing defence (issue 9): every game's parser, on random and near-valid text, yields only
Case and InputError items -- no other exception, whatever the input."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.errors import InputError
from searchkit.game import Case, option_defaults

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)

#: Tokens a judge would reject, or that sit on a format's edges.
ODD_TOKENS = ["0", "00", "-0", "-1", "1", "2", "3", "9", "1000", "999999999999999999999", "9" * 5000, "1_0", "+3",
              "\uff13", "\u0663", "x", "a", "Z", "2.5", "#", "# searchkit flood rect", "# searchkit mayan width=3",
              "\r", "\t", "\u00a0", "\x00", "\ufeff", "\u2028"]


def _games(registry):
    return sorted(registry.games)


def _parse_all(game, text):
    options = option_defaults(game.options)
    items = list(game.parse(text, "<fuzz>", options))
    for item in items:
        assert isinstance(item, (Case, InputError)), repr(item)
        if isinstance(item, InputError):
            assert "\n" not in str(item), str(item)
    return items


def _seeds(registry, name):
    """Valid texts of the game: generated instances, and the repository's examples."""
    game = registry.game(name)
    texts = []
    gen = registry.generators.get(name)
    if gen is not None:
        rng = random.Random(name)
        for size in range(1, gen.check_size + 1):
            try:
                texts.append(game.format_input([gen(rng, size)]))
            except ValueError:
                pass
    folder = {"flood": "flood", "mayan": "mayan"}.get(name)
    if folder:
        texts += [p.read_text() for p in sorted((EXAMPLES / folder).iterdir())]
    return texts or ["1\n"]


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        toks = lines[i].split(" ")
        op = rng.randrange(7)
        j = rng.randrange(len(toks))
        if op == 0:
            toks[j] = rng.choice(ODD_TOKENS)
        elif op == 1:
            del toks[j]
        elif op == 2:
            toks.insert(j, toks[j])
        elif op == 3 and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + " " + lines[i + 1]]
            continue
        elif op == 4:
            toks[j:j + 1] = [toks[j][:1], toks[j][1:]]
        elif op == 5:
            k = rng.randint(0, len(toks[j]))
            toks[j] = toks[j][:k] + "\r" + toks[j][k:]
        else:
            lines.insert(i, rng.choice(lines))
            continue
        lines[i] = (" " if rng.random() < 0.5 else "\n").join(toks)
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["flood", "mayan", "sliding-tiles"])
def test_random_bytes_give_cases_or_input_errors(searchkit_registry, name):
    if name not in searchkit_registry.games:
        pytest.skip(f"{name} is not installed")
    game = searchkit_registry.game(name)

    @SETTINGS
    @given(st.binary(max_size=300))
    def check(data):
        _parse_all(game, data.decode("utf-8", errors="replace"))

    check()


@pytest.mark.parametrize("name", ["flood", "mayan", "sliding-tiles"])
def test_near_valid_files_give_cases_or_input_errors(searchkit_registry, name):
    if name not in searchkit_registry.games:
        pytest.skip(f"{name} is not installed")
    game = searchkit_registry.game(name)
    seeds = _seeds(searchkit_registry, name)

    @SETTINGS
    @given(st.sampled_from(seeds), st.randoms(use_true_random=False))
    def check(text, rng):
        _parse_all(game, _mutate(text, rng))

    check()


def test_every_registered_game_survives_odd_tokens(searchkit_registry):
    """Any other installed game too: each odd token alone, and spliced into its valid files."""
    for name in _games(searchkit_registry):
        game = searchkit_registry.game(name)
        for seed in _seeds(searchkit_registry, name)[:3]:
            for token in ODD_TOKENS:
                _parse_all(game, token)
                _parse_all(game, seed.replace(" ", " " + token + " ", 1))
                _parse_all(game, token + "\n" + seed)
