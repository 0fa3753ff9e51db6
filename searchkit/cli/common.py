"""Pieces every command shares: exit statuses, the registry, one-line errors, option flags."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

import click

from searchkit.limits import MAX_NODES, MAX_SECONDS  # the largest --max-nodes and --time-limit (why: there)
from searchkit.machinery.output import EXIT_CANCELLED, EXIT_INPUT, EXIT_LIMIT, EXIT_OK, error, warning

__all__ = ["EXIT_CANCELLED", "EXIT_INPUT", "EXIT_LIMIT", "EXIT_OK", "error", "warning", "fail", "registry",
           "refuse_input", "resolve_names", "option_flag", "apply", "GameGroup", "limit_options", "EXIT_HELP",
           "HeuristicType", "finite"]

EXIT_HELP = """Exit status: 0 every case solved, proven unsolvable or feasible (a solution with its proven bound);
1 a case stopped at a limit without a solution, or whose search failed (an error: not the input's fault);
2 bad input or usage (one line on stderr per problem; the good cases are still solved); 130 Ctrl-C; 143 SIGTERM."""


def registry(ctx: click.Context):
    """The registry of the running command (loaded on first use, once per process)."""
    root = ctx.find_root()
    if root.obj is None:
        from searchkit.plugin.manager import load_registry

        root.obj = load_registry()
    return root.obj


def fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    error(message)
    sys.exit(EXIT_INPUT)


def check_writable(path: str) -> None:
    """Refuse, with one line and exit status 2 (:func:`fail`), an output ``path`` that could not be written.

    ``path`` itself a folder, its folder missing, or that folder not writable:
    said before any work is done, not after.
    """
    import os

    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        fail(f"cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        fail(f"cannot write {path}: no directory {folder}")
    if not os.access(folder, os.W_OK):
        fail(f"cannot write {path}: the directory {folder} is not writable")


def refuse_input(output: str, inputs) -> None:
    """Refuse, with one line and exit status 2 (:func:`fail`), an output that is one of ``inputs``.

    The same check as ``solve -O`` (:func:`searchkit.machinery.output.input_refusal`:
    the same path, a symbolic or hard link, or the file ``-`` reads).
    """
    from searchkit.machinery.output import input_refusal

    inputs = [name for name in inputs if name is not None]
    stdin = sys.stdin.fileno() if "-" in inputs and sys.stdin is not None else None
    refusal = input_refusal(output, inputs, stdin=stdin)
    if refusal:
        fail(refusal)


def resolve_names(registry, game: str, names: Iterable[str]) -> list[str]:
    """Heuristic names with ``all`` expanded, in order, without repeats; checked against the registry.

    Raises:
        click.UsageError: an unknown heuristic (the message lists the known ones).
    """
    from searchkit.errors import SearchkitError

    names = list(names)
    if "all" in names:
        names = [h.name for h in registry.heuristics_for(game)]
    out = list(dict.fromkeys(names))
    try:
        for name in out:
            registry.heuristic(game, name)
    except SearchkitError as exc:
        raise click.UsageError(str(exc)) from None
    return out


class HeuristicType(click.ParamType):
    """A ``-H`` value: a registered heuristic's name, with options if it takes any (``pdb(partition=7-8)``)."""

    name = "heuristic"

    def __init__(self, registry, game: str):
        self.registry, self.game = registry, game
        self.names = [h.name for h in registry.heuristics_for(game)]

    def get_metavar(self, param, ctx=None) -> str:
        return "[" + "|".join(self.names) + "]"

    def shell_complete(self, ctx, param, incomplete):
        """The registered names that start with what was typed (shell completion, docs/cli.md)."""
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in self.names if name.startswith(incomplete)]

    def convert(self, value, param, ctx):
        from searchkit.errors import SearchkitError

        try:
            self.registry.heuristic(self.game, value)
        except SearchkitError as exc:
            self.fail(str(exc), param, ctx)
        return value


def option_flag(opt, hidden: bool = False) -> Callable:
    """A click option for a :class:`~searchkit.game.GameOption` (``--name VALUE``, or a ``--name/--no-name`` flag).

    ``hidden``: accepted but left out of ``--help`` (an option that means nothing to the command).
    """
    flag = "--" + opt.name
    if opt.type is bool:
        return click.option(f"{flag}/--no-{opt.name}", opt.key, default=bool(opt.default), show_default=True,
                            help=opt.help, hidden=hidden)
    if opt.choices:
        kind = click.Choice(opt.choices)
    elif opt.type is int:  # no range at all: click.INT (an open IntRange shows 'x<=None')
        kind = click.INT if opt.min is None and opt.max is None else click.IntRange(min=opt.min, max=opt.max)
    elif opt.type is float:
        kind = click.FLOAT if opt.min is None and opt.max is None else click.FloatRange(min=opt.min, max=opt.max)
    else:
        kind = opt.type
    return click.option(flag, opt.key, type=kind, default=opt.default, show_default=opt.default is not None,
                        help=opt.help, hidden=hidden, callback=finite if opt.type is float else None)


def apply(command: Callable, decorators: Iterable[Callable]) -> Callable:
    """Apply click decorators in the order listed (the first becomes the first in ``--help``)."""
    for deco in reversed(list(decorators)):
        command = deco(command)
    return command


def _plugin_hint() -> str:
    """How to install a game: from the repository's plugin folders, never by a name no index has yet.

    The game distributions (``searchkit-puzzles-flood``...) are not
    published on any package index, so ``pip install`` of their name would
    install whatever someone later publishes under it.  When this searchkit
    runs from a checkout (its ``plugins/`` folder beside the package), the
    hint names that folder's absolute path.
    """
    import os

    here = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "plugins")
    folder = here if os.path.isdir(os.path.join(here, "flood")) else "plugins"
    where = folder if folder != "plugins" else "./plugins of a clone of the searchkit repository"
    return (f"install a game plugin from its folder, e.g. pip install {os.path.join(folder, 'flood')} (the games "
            f"are in {where}: flood, mayan, sliding-tiles); they are not published on a package index yet, so do "
            f"not install them by name")


PLUGIN_HINT = _plugin_hint()


class OnceCommand(click.Command):
    """A command whose options that take one value are given at most once: ``--goal blank-first --goal
    blank-last`` is two readings of one setting (click keeps the last), so it is a usage error naming the
    option.  Options that collect (``multiple``, counts) repeat as before."""

    def parse_args(self, ctx, args):
        if not ctx.resilient_parsing:
            try:
                _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            except click.UsageError:
                order = []  # said by click's own parse below
            seen: dict[str | None, list[click.Option]] = {}
            for param in order:
                if isinstance(param, click.Option) and not (param.multiple or param.count or param.is_eager):
                    seen.setdefault(param.name, []).append(param)
            for given in seen.values():
                # a switch given twice (no --no- form, no other switch for its setting) has one reading
                one_switch = all(p is given[0] for p in given) and given[0].is_flag and not given[0].secondary_opts
                if len(given) > 1 and not one_switch:
                    names = " / ".join(given[0].opts + given[0].secondary_opts)
                    raise click.UsageError(f"option {names} is given more than once: give it once (only one of the "
                                           f"values could be used)", ctx)
        return super().parse_args(ctx, args)


class GameGroup(click.Group):
    """A group with one sub-command per registered game, built on demand by ``make(registry, name)``.

    An unknown game name is a one-line usage error listing the known games.
    """

    def __init__(self, *args, make: Callable, needs: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.make = make
        self.needs = needs  # "generators": only games with a generator

    def list_commands(self, ctx):
        reg = registry(ctx)
        names = reg.generators if self.needs == "generators" else reg.games
        return sorted(n for n in names if n in reg.games)

    def get_command(self, ctx, name):
        reg = registry(ctx)
        if name not in reg.games or (self.needs == "generators" and name not in reg.generators):
            return None
        from searchkit.errors import SearchkitError

        try:
            return self.make(reg, name)
        except SearchkitError as exc:
            fail(str(exc))

    def parse_args(self, ctx, args):
        if not args and not ctx.resilient_parsing:  # click would raise its whole help text as the "error": one
            # line naming the games instead (not while completing: 'searchkit solve fl<TAB>' has no game yet)
            known = ", ".join(self.list_commands(ctx))
            what = "a game with a generator" if self.needs == "generators" else "a game"
            example = f"'searchkit {ctx.info_name} {known.split(', ')[0]} ...'" if known else ""
            raise click.UsageError(f"name {what}: {known} (e.g. {example})" if known else
                                   f"name {what}: none is installed; {PLUGIN_HINT}", ctx)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and not name.startswith("-") and self.get_command(ctx, name) is None:
            known = ", ".join(self.list_commands(ctx)) or "none"
            if self.needs == "generators" and name in registry(ctx).games:
                raise click.UsageError(f"{ctx.info_name}: game {name!r} registers no generator, which this "
                                       f"command needs to make instances (games with one: {known})", ctx)
            what = "game with a generator" if self.needs == "generators" else "game"
            hint = "" if registry(ctx).games else f"; {PLUGIN_HINT}"  # a core-only install
            raise click.UsageError(f"unknown {what} {name!r} (known: {known}){hint}", ctx)
        return super().resolve_command(ctx, args)


def limit_options() -> list[Callable]:
    """``--max-nodes`` and ``--time-limit``, per case (each with its largest value: a usage error beyond)."""
    return [
        click.option("--max-nodes", type=click.IntRange(min=0, max=MAX_NODES), default=None,
                     help="Stop a case after this many expanded states."),
        click.option("--time-limit", type=click.FloatRange(min=0, max=MAX_SECONDS), default=None, callback=finite,
                     help="Stop a case after this many seconds, counted from its first byte "
                          "(set-up included); 0 stops at once."),
    ]


def engine_option() -> Callable:
    """``--engine auto|python|native`` (default: ``SEARCHKIT_ENGINE``, else auto; :mod:`searchkit.machinery.engine`)."""
    return click.option("--engine", type=click.Choice(["auto", "python", "native"]), default=None,
                        help="Search engine: python (the reference drivers), native (the Rust engine; a plan error "
                             "names a component it lacks) or auto: native when installed and every component of "
                             "the case's plan has a native counterpart, else python (default: $SEARCHKIT_ENGINE, "
                             "else auto).")


def threads_option() -> Callable:
    """``--threads N|auto`` (default 1): the threads each case's search may use; the value is checked here
    (``auto`` stays ``"auto"``: the command divides the CPUs by its ``--jobs`` workers,
    :func:`searchkit.machinery.batch.executors.resolve_threads`)."""
    return click.option("--threads", default="1", show_default=True, metavar="N|auto", callback=check_threads,
                        help="Threads each case's search may use (with --jobs J: J x N in all; 'auto': the CPUs "
                             "this process may use divided by the --jobs workers).  Only a search that can split "
                             "its work uses more than one (native IDA* today; docs/cli.md); the others run on "
                             "one, and their stats say so.  --jobs for many cases, --threads for one hard case.")


def check_threads(ctx, param, value):
    """``--threads``' callback: ``"auto"`` or a number of threads (a usage error, exit status 2, otherwise)."""
    if value == "auto":
        return value
    from searchkit.machinery.batch.executors import resolve_threads

    try:
        return resolve_threads(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def finite(ctx, param, value):
    """A click callback refusing ``nan`` (which passes every range check: each comparison with it is false)."""
    if value is not None and value != value:
        raise click.BadParameter("must be a number, got nan", ctx, param)
    return value


def record_file(ctx, param, value):
    """``--output FILE`` of the commands writing records: ``-`` is refused, since it reads two ways (a file
    named ``-``, which it wrote, or stdout, where ``--format jsonl`` alone already sends the records)."""
    if value == "-":
        raise click.BadParameter("'-' could mean stdout or a file named '-': for the records on stdout give "
                                 "--format jsonl without --output; for a file named '-', give ./-", ctx, param)
    return value


def load_game_records(records_path: str, name: str, command: str):
    """The records of ``records_path`` for ``command`` (``verify``, ``show --records``), read by
    :func:`~searchkit.machinery.records.load_records`, its torn and bad lines said in one warning each.

    Refused in one line (exit status 2): a pipe or a device (a FIFO would block, ``/dev/zero`` never end); a
    file that holds no JSON record, or no record of the game ``name`` (said once, not once per case).
    """
    from searchkit.machinery.records import bad_line_reason, load_records, not_regular

    import os

    refusal = not_regular(records_path, command)
    if refusal:
        fail(refusal)
    if not os.path.exists(records_path):
        fail(f"{records_path}: no such file")
    try:
        loaded = load_records(records_path)
    except OSError as exc:
        fail(f"{records_path}: cannot read: {exc.strerror or exc}")
    if not loaded.records and loaded.compressed and loaded.torn:
        fail(f"{records_path}: is gzip-compressed but cut short or corrupt before its first record")
    if not loaded.records:  # empty, blank lines, text answers: nothing to check, not one "no record" per case
        fail(f"{records_path}: holds no JSON record: {command} reads the JSON Lines records of "
             f"'searchkit solve --output FILE' (or --format jsonl), not text answers")
    games = {r.get("game") for r in loaded.records}
    if name not in games:  # not one record of this game: say so once, not per case
        fail(f"{records_path}: holds records of the game {', '.join(sorted(map(str, games)))}, not {name}")
    if loaded.torn and loaded.compressed:
        warning(f"{records_path}: the compressed file is cut short or corrupt after {len(loaded.records)} "
                f"records; the rest is ignored")
    elif loaded.torn:
        warning(f"{records_path}: the last line has no newline (cut short: a run killed while writing it); ignored")
    for number in loaded.bad_lines:
        warning(f"{records_path}: line {number} {bad_line_reason(loaded, number)}; ignored")
    return loaded
