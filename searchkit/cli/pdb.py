"""``searchkit pdb build|info|clear GAME SPEC``: the pattern databases a heuristic uses."""

from __future__ import annotations

import time

import click

from searchkit.cli.common import EXIT_INPUT, error, fail, registry
from searchkit.limits import MAX_MEMORY_MB


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
@click.option("--memory-limit", type=click.FloatRange(min=1, max=MAX_MEMORY_MB), default=None, metavar="MB",
              help="Refuse to build a table whose build needs more memory than this (MiB); more than the machine "
                   "has is refused whatever the limit.")
@click.pass_context
def build(ctx, game, spec, memory_limit) -> None:
    """Build (or verify, if cached) the tables of heuristic SPEC of GAME; one line per table.

    Before a table is built, a line on stderr gives its entries and the memory its build needs; a build
    needing more than --memory-limit, or than the machine has, is refused in one line.
    """
    _need_numpy()
    from searchkit.errors import SearchkitError
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from searchkit.pdb.store import (build_bytes, cache_problem, file_bytes, human_bytes, load_or_build, not_kept,
                                     path_for)

    heuristic, found = _abstractions(ctx, game, spec)
    for a in found:
        wall, cpu = time.perf_counter(), time.process_time()
        problem = cache_problem(path_for(a).parent, file_bytes(a))
        if problem is not None:  # said before building: the point of `pdb build` is the file
            fail(not_kept(path_for(a).parent, problem))
        if not path_for(a).exists():
            need = build_bytes(a, a.native_builder())
            click.echo(f"searchkit: building {a.label()}: {a.entries:,} entries, about {human_bytes(need)} "
                       f"of memory", err=True)
        try:
            with active(Limiter(Limits(memory_mb=memory_limit))):
                db = load_or_build(a, in_memory=False)
        except LimitReached:
            need = build_bytes(a, a.native_builder())
            if path_for(a).exists():
                fail(f"{a.label()}: reading its table of {a.entries:,} entries needs more memory than --memory-limit "
                     f"{memory_limit:g} (MiB)")
            fail(f"{a.label()}: building its table of {a.entries:,} entries needs about {human_bytes(need)} "
                 f"of memory, more than --memory-limit {memory_limit:g} (MiB)")
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
