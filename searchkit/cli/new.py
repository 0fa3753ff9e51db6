"""``searchkit new plugin NAME [-o DIR]``: write a working plugin package to start a game from."""

from __future__ import annotations

import click

from searchkit.cli.common import OnceCommand, fail, registry


@click.group()
def new() -> None:
    """Write a new project from searchkit's templates."""


@new.command(cls=OnceCommand)
@click.argument("name")
@click.option("-o", "--output", "folder", default=None, metavar="DIR",
              help="The folder to write the plugin into: a new one, or an empty one (default: ./NAME-puzzle).  "
                   "A folder with anything in it is refused.")
@click.option("--native", is_flag=True,
              help="Also write the game's native domain (native/: a Rust crate built with searchkit's kit crate "
                   "by maturin; pip install ./native needs cargo).")
@click.pass_context
def plugin(ctx, name, folder, native) -> None:
    """Write a working plugin package for a new game NAME: the pancake problem, to change into your own game.

    It holds pyproject.toml (with the entry point searchkit finds it by), the game (rules, input, plan,
    output), an admissible heuristic and a pruning rule with their proofs, a generator, tests using
    searchkit.testing (the contract suite, and native_checks, skipped until the game has a native domain) and
    a README.  Then: cd DIR && pip install -e '.[test]' && python -m pytest.

    With --native, also native/: the same game in Rust (the Puzzle, the gap heuristic, the no-repeat rule),
    a crate that names searchkit's kit crate by the installed copy's path; pip install ./native builds it,
    and searchkit then searches on it (native_checks holds it to the Python game).

    NAME: lower-case letters and digits, words joined by - or _, starting with a letter (e.g. pancake).
    """
    from searchkit.tools.scaffold import ScaffoldError, names, write_plugin

    try:
        values = names(name)
    except ScaffoldError as exc:
        fail(str(exc))
    games = registry(ctx).games
    # `-` and `_` name the same distribution and package, so sliding_tiles clashes with sliding-tiles
    clash = next((known for known in games if known.replace("_", "-") == name.replace("_", "-")), None)
    if clash is not None:
        fail(f"plugin name {name!r}: an installed plugin already registers the game {clash!r}; choose another name")
    target = folder if folder is not None else values["distribution"]
    try:
        written = write_plugin(name, target, native=native)
    except ScaffoldError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{target}: cannot write the plugin ({exc.strerror or exc})")
    click.echo(f"wrote the plugin {values['distribution']} (game {name}, package {values['package']}) to {target}: "
               f"{len(written)} files")
    native_step = " ./native" if native else ""
    click.echo(f"next: cd {target} && pip install -e '.[test]'{native_step} && python -m pytest")
