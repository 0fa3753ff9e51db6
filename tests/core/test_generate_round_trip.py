"""For every registered generator: what ``generate`` writes reads back as the generator's own data,
with the game's default options, and solves the same (issue 9, item 2)."""

from __future__ import annotations

import random

import pytest

from searchkit.errors import InputError
from searchkit.game import Case, option_defaults
from searchkit.limits import Limits

from searchkit.machinery.solver import Solver


def _names(registry):
    return sorted(registry.generators)


def _option_draws(gen, rng):
    """The defaults, and draws of the int options in small ranges (e.g. non-square Flood-It boards)."""
    yield {}
    for _ in range(4):
        opts = {}
        for opt in gen.options:
            if opt.type is int and opt.min is not None and rng.random() < 0.7:
                opts[opt.key] = rng.randint(opt.min, opt.min + 4) + (2 if opt.key == "height" else 0)
        yield opts


def _draws(registry, name):
    gen = registry.generator(name)
    rng = random.Random(f"round-trip {name}")
    for opts in _option_draws(gen, rng):
        for size in range(1, gen.check_size + 1):
            try:
                yield gen(random.Random(rng.random()), size, opts), opts, size
            except ValueError:
                continue  # a combination the generator refuses (it says so): nothing written


def _solve(registry, name, data, options):
    solver = Solver(registry, name, limits=Limits(max_nodes=20_000), options=options)
    result = solver.solve(Case(1, data, "<generated>", 1)).result
    return result.status, result.cost, tuple(result.moves)


def test_every_game_with_a_generator_is_covered(searchkit_registry):
    assert {"flood", "mayan"} <= set(_names(searchkit_registry))


@pytest.mark.parametrize("name", ["flood", "mayan", "sliding-tiles"])
def test_generated_text_reads_back_as_the_data_and_solves_the_same(searchkit_registry, name):
    if name not in searchkit_registry.generators:
        pytest.skip(f"{name} is not installed")
    game = searchkit_registry.game(name)
    options = option_defaults(game.options)
    datas = []
    for data, opts, size in _draws(searchkit_registry, name):
        text = game.format_input([data])
        items = list(game.parse(text, "<generated>", options))
        assert [i for i in items if isinstance(i, InputError)] == [], (opts, size, text)
        (case,) = items
        assert case.data == data, (opts, size, text)
        assert _solve(searchkit_registry, name, case.data, options) == _solve(searchkit_registry, name, data, options)
        datas.append(data)
    assert len(datas) >= 5
    try:
        text = game.format_input(datas)
    except ValueError:
        return  # one case per file (Mayan)
    parsed = [i.data for i in game.parse(text, "<generated>", options)]
    assert parsed == datas


def test_all_registered_generators_round_trip(searchkit_registry):
    """The same check for any other installed game, by iterating the registry."""
    for name in _names(searchkit_registry):
        game = searchkit_registry.game(name)
        options = option_defaults(game.options)
        for data, opts, size in _draws(searchkit_registry, name):
            items = list(game.parse(game.format_input([data]), "<generated>", options))
            assert [getattr(i, "data", i) for i in items] == [data], (name, opts, size)


@pytest.mark.parametrize("name", ["flood", "mayan", "sliding-tiles"])
def test_the_streamed_text_reads_back_as_the_data(searchkit_registry, name):
    """``generate`` writes through ``format_input_stream``: every game here has it, and its text is the data."""
    if name not in searchkit_registry.generators:
        pytest.skip(f"{name} is not installed")
    game = searchkit_registry.game(name)
    options = option_defaults(game.options)
    by_options = {}
    for data, opts, size in _draws(searchkit_registry, name):
        by_options.setdefault(tuple(sorted(opts.items())), []).append(data)
    for opts, datas in by_options.items():
        if name == "mayan":  # one case per file: a second is refused before anything is written
            pieces = game.format_input_stream(iter(datas))
            with pytest.raises(ValueError, match="one case per file"):
                next(pieces)
            datas = datas[:1]
        text = "".join(game.format_input_stream(iter(datas)))
        parsed = [getattr(i, "data", i) for i in game.parse(text, "<generated>", options)]
        assert parsed == datas, (name, opts, text)
        if name == "sliding-tiles":
            assert text == game.format_input(datas)
