"""``searchkit pdb build|info|clear GAME SPEC``: the pattern databases a heuristic uses."""

from __future__ import annotations

import time

import click

from searchkit.cli.common import OnceCommand, EXIT_INPUT, check_threads, error, fail, registry
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


def _build_threads(ctx, param, value) -> int:
    """``pdb build --threads``' callback: a number of threads, ``auto`` the CPUs this process may use (one
    build at a time); anything else is a usage error naming ``--threads`` (exit status 2), as for ``solve``."""
    value = check_threads(ctx, param, value)
    if value == "auto":
        from searchkit.machinery.batch.executors import resolve_threads

        return resolve_threads("auto")
    return value


@click.group()
def pdb() -> None:
    """Build, inspect or delete the pattern databases a heuristic uses (cached under the user's cache folder).

    SPEC is the heuristic as given to -H, e.g. 'pdb(partition=6-6-3)'.  The cache folder is
    $SEARCHKIT_CACHE_DIR, else the user cache directory's searchkit/pdb.
    """


@pdb.command(cls=OnceCommand)
@click.argument("game")
@click.argument("spec")
@click.option("--memory-limit", type=click.FloatRange(min=1, max=MAX_MEMORY_MB), default=None, metavar="MB",
              help="Refuse to build a table whose build needs more memory than this (MiB); more than the machine "
                   "has is refused whatever the limit.")
@click.option("--threads", default="1", show_default=True, metavar="N|auto", callback=_build_threads,
              help="Threads a table's build may use ('auto': the CPUs this process may use); the table's bytes "
                   "are the same on any number.  Only the native builder splits its work; searchkit's Python "
                   "builder runs on one.")
@click.pass_context
def build(ctx, game, spec, memory_limit, threads) -> None:
    """Build (or verify, if cached) the tables of heuristic SPEC of GAME; one line per table.

    Before a table is built, a line on stderr gives its entries and the memory its build needs; a build
    needing more than --memory-limit, or than the machine has, is refused in one line.  A table is built
    on --threads threads, with the same bytes as on one.
    """
    from searchkit.errors import SearchkitError
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from searchkit.machinery.pdb.store import (build_bytes, cache_problem, ensure_file, file_builder, file_bytes,
                                               human_bytes, not_kept, path_for, verify_file)

    heuristic, found = _abstractions(ctx, game, spec)
    for a in found:
        wall, cpu = time.perf_counter(), time.process_time()
        problem = cache_problem(path_for(a).parent, file_bytes(a))
        if problem is not None:  # said before building: the point of `pdb build` is the file
            fail(not_kept(path_for(a).parent, problem))
        native = a.native_builder()
        if not path_for(a).exists():
            need = build_bytes(a, native)
            click.echo(f"searchkit: building {a.label()}: {a.entries:,} entries, about {human_bytes(need)} "
                       f"of memory", err=True)
        ran = []
        builder = file_builder(native)

        def counted(*args, builder=builder, ran=ran):
            ran.append(True)
            return builder(*args)

        counted.__dict__.update(builder.__dict__)  # its memory estimate
        key = a.key()
        try:
            with active(Limiter(Limits(memory_mb=memory_limit), threads=threads)):  # the builder's threads too
                # one route with the engines' (searchkit.machinery.pdb.ensure_file): the native builder in this process,
                # the file checked without numpy (verify_file), the Python builder only when there is no other
                path = ensure_file(a, counted, lambda p, crc: verify_file(p, key, full=crc),
                                   in_memory=False)
        except LimitReached:
            need = build_bytes(a, native)
            if path_for(a).exists():
                fail(f"{a.label()}: reading its table of {a.entries:,} entries needs more memory than --memory-limit "
                     f"{memory_limit:g} (MiB)")
            fail(f"{a.label()}: building its table of {a.entries:,} entries needs about {human_bytes(need)} "
                 f"of memory, more than --memory-limit {memory_limit:g} (MiB)")
        except SearchkitError as exc:  # e.g. a cache folder that cannot be made: one line, as `solve` says it
            fail(str(exc))
        except OSError as exc:
            fail(f"{a.label()}: {exc}")
        h = verify_file(path, key)  # the stamp just written: the header's figures, no second CRC
        how = "built" if ran else "cached"
        top = "?" if h["max"] is None else h["max"]
        click.echo(f"{a.label()}: {how}, {h['entries']:,} entries, {h['bits']} bits each, max {top}, "
                   f"{time.perf_counter() - wall:.1f} s ({time.process_time() - cpu:.1f} s CPU in this process): "
                   f"{path}")


@pdb.command(cls=OnceCommand)
@click.argument("game")
@click.argument("spec")
@click.option("--verify", is_flag=True,
              help="Check each table's CRC-32 over all its data, even when its verification stamp holds.")
@click.pass_context
def info(ctx, game, spec, verify) -> None:
    """Where the tables of SPEC are cached, their sizes and whether they verify.

    A table is checked whole (its CRC-32 over all its data) once, when it is written or first read; later,
    its header, key, length and verification stamp are checked ("verified, stamped"): the stamp says the
    file has not been changed through the filesystem since.  --verify checks the whole CRC again, for
    corruption below the filesystem (a failing disk), which the stamp cannot see.
    """
    from searchkit.machinery.pdb.store import CorruptFile, info as header, path_for, verify_file

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
        top = "?"  # the table's own max (the header's is outside the checksum), when it is known
        try:
            checked = verify_file(path, a.key(), full=verify)
            top = "?" if checked["max"] is None else checked["max"]
            state = "verified" if checked["crc"] else "verified, stamped"
        except (CorruptFile, OSError) as exc:
            state = f"UNUSABLE ({exc})"
            missing = True
        click.echo(f"{a.label()}: {h['entries']:,} entries, {h['bits']} bits each, max {top}, "
                   f"{h['file_bytes']:,} bytes, crc32 {h['crc32']}, {state}: {path}")
    ctx.exit(1 if missing else 0)


@pdb.command(cls=OnceCommand)
@click.argument("game")
@click.argument("spec", required=False)
@click.pass_context
def clear(ctx, game, spec) -> None:
    """Delete the cached tables of SPEC (without SPEC: every cached table of GAME).

    Only files with a pattern database's header are deleted; any other file is named and left alone.
    """
    from searchkit.machinery.pdb.store import cache_dir, clear as wipe

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
