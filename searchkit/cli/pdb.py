"""``searchkit pdb build|info|clear GAME SPEC``: the pattern databases a heuristic uses."""

from __future__ import annotations

import time

import click

from searchkit.cli.common import EXIT_INPUT, error, fail, registry


def _known_game(ctx, game: str):
    """The registry, once ``game`` is known to be one of its games (else one error line, exit status 2)."""
    reg = registry(ctx)
    if game not in reg.games:
        fail(f"unknown game {game!r} (known: {', '.join(sorted(reg.games))})")
    return reg


def _abstractions(ctx, game: str, spec: str):
    """The heuristic ``spec`` of ``game`` and the abstractions of its tables (one error line if none)."""
    from searchkit.errors import SearchkitError

    reg = _known_game(ctx, game)
    try:
        heuristic = reg.heuristic(game, spec)
        found = heuristic.abstractions()
    except (SearchkitError, ValueError) as exc:
        fail(str(exc))
    if not found:
        fail(f"heuristic {heuristic.name!r} of {game} uses no pattern database")
    return heuristic, found


def _need_numpy():
    try:
        import numpy  # noqa: F401
    except ImportError:
        fail("pattern databases need numpy: pip install 'searchkit-puzzles[pdb]'")


@click.group()
def pdb() -> None:
    """Build, inspect or delete the pattern databases a heuristic uses (cached under the user's cache folder).

    SPEC is the heuristic as given to -H, e.g. 'pdb(partition=6-6-3)'.  The cache folder is
    $SEARCHKIT_CACHE_DIR, else the user cache directory's searchkit/pdb.
    """


@pdb.command()
@click.argument("game")
@click.argument("spec")
@click.pass_context
def build(ctx, game, spec) -> None:
    """Build (or verify, if cached) the tables of heuristic SPEC of GAME; one line per table."""
    _need_numpy()
    from searchkit.errors import SearchkitError
    from searchkit.pdb.store import load_or_build

    heuristic, found = _abstractions(ctx, game, spec)
    for a in found:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            db = load_or_build(a)
        except SearchkitError as exc:  # e.g. a cache folder that cannot be made: one line, as `solve` says it
            fail(str(exc))
        except OSError as exc:
            fail(f"{a.label()}: {exc}")
        how = "built" if db.built else "cached"
        click.echo(f"{a.label()}: {how}, {db.entries:,} entries, {db.bits} bits each, max {db.max}, "
                   f"{time.perf_counter() - wall:.1f} s ({time.process_time() - cpu:.1f} s CPU in Python): {db.path}")


@pdb.command()
@click.argument("game")
@click.argument("spec")
@click.pass_context
def info(ctx, game, spec) -> None:
    """Where the tables of SPEC are cached, their sizes and whether they verify."""
    _need_numpy()
    from searchkit.pdb.store import CorruptFile, info as header, path_for, read

    _, found = _abstractions(ctx, game, spec)
    missing = False
    for a in found:
        path = path_for(a)
        if not path.exists():
            click.echo(f"{a.label()}: not built ({a.entries:,} entries): {path}")
            missing = True
            continue
        try:
            h = header(path)
        except (CorruptFile, OSError) as exc:
            click.echo(f"{a.label()}: UNUSABLE ({exc}): {path}")
            missing = True
            continue
        top = "?"  # the header's max is not under the checksum: only a verified table's own is shown
        try:
            top = read(path, a.key()).max
            state = "verified"
        except (CorruptFile, OSError) as exc:
            state = f"UNUSABLE ({exc})"
            missing = True
        click.echo(f"{a.label()}: {h['entries']:,} entries, {h['bits']} bits each, max {top}, "
                   f"{h['file_bytes']:,} bytes, crc32 {h['crc32']}, {state}: {path}")
    ctx.exit(1 if missing else 0)


@pdb.command()
@click.argument("game")
@click.argument("spec", required=False)
@click.pass_context
def clear(ctx, game, spec) -> None:
    """Delete the cached tables of SPEC (without SPEC: every cached table of GAME).

    Only files with a pattern database's header are deleted; any other file is named and left alone.
    """
    from searchkit.pdb.store import cache_dir, clear as wipe

    if spec is None:
        _known_game(ctx, game)  # a name, not a pattern: `pdb clear '*'` deletes nothing of another game's
        gone, kept, errors = wipe(game=game)
    else:
        _, found = _abstractions(ctx, game, spec)
        gone, kept, errors = wipe(found)
    for p in gone:
        click.echo(f"deleted {p}")
    for p in kept:
        click.echo(f"left alone {p}: not a searchkit pattern database (no SKPDB header)")
    if not gone and not kept and not errors:
        click.echo(f"nothing to delete in {cache_dir()}")
    for exc in errors:  # after every deletion that was made
        error(f"cannot delete {exc.filename}: {exc.strerror or exc}")
    if errors:
        ctx.exit(EXIT_INPUT)
