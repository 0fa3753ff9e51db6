"""The ``searchkit`` command line (click).

Commands: ``solve GAME [FILE...|-]``, ``games``, ``heuristics GAME``,
``rules GAME``, ``algorithms``, ``plugins``.  Games are discovered only
through the plugin registry; each game becomes a sub-command of ``solve``
carrying its own options.  Exit status: 0 all solved, 1 a case stopped at a
limit or was cancelled, 2 bad input or usage.
"""

from __future__ import annotations

import sys

import click

from searchkit import __version__
from searchkit.errors import SearchkitError

EXIT_INPUT = 2


def _registry(ctx: click.Context):
    root = ctx.find_root()
    if root.obj is None:
        from searchkit.plugin.manager import load_registry

        root.obj = load_registry()
    return root.obj


def _fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    click.echo(f"searchkit: error: {message}", err=True)
    sys.exit(EXIT_INPUT)


class LazyGroup(click.Group):
    """Top-level group whose heavier commands are imported only when used."""

    lazy = {"generate": "searchkit.cli_tools:generate", "compare": "searchkit.cli_tools:compare",
            "check": "searchkit.cli_tools:check"}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx, name):
        if name in self.lazy:
            import importlib

            module, attr = self.lazy[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="searchkit")
def cli() -> None:
    """Exact puzzle search: solve, list and compare games, heuristics and pruning rules."""


class SolveGroup(click.Group):
    """``solve``: one sub-command per registered game, built on demand."""

    def list_commands(self, ctx):
        return sorted(_registry(ctx).games)

    def get_command(self, ctx, name):
        registry = _registry(ctx)
        if name not in registry.games:
            return None
        from searchkit.cli_solve import make_solve_command

        return make_solve_command(registry, registry.games[name])


@cli.group(cls=SolveGroup)
def solve() -> None:
    """Solve the cases in FILE(s) (or - for standard input) of a game."""


@cli.command()
@click.pass_context
def games(ctx) -> None:
    """List the registered games."""
    registry = _registry(ctx)
    for name in sorted(registry.games):
        game = registry.games[name]
        click.echo(f"{name}\t{game.summary}\t(plugin {registry.owner('game', name)})")


@cli.command()
@click.argument("game")
@click.pass_context
def heuristics(ctx, game) -> None:
    """List the heuristics registered for GAME."""
    registry = _registry(ctx)
    try:
        registry.game(game)
    except SearchkitError as exc:
        _fail(str(exc))
    for h in registry.heuristics_for(game):
        flags = ",".join(f for f, on in (("admissible", h.admissible), ("consistent", h.consistent)) if on) or "-"
        click.echo(f"{h.name}\t{flags}\t{h.summary}")


@cli.command()
@click.argument("game")
@click.pass_context
def rules(ctx, game) -> None:
    """List the pruning rules registered for GAME (switch off with --no-prune NAME)."""
    registry = _registry(ctx)
    try:
        registry.game(game)
    except SearchkitError as exc:
        _fail(str(exc))
    for rule in registry.rules_for(game):
        click.echo(f"{rule.name}\t{rule.summary}")


@cli.command()
@click.pass_context
def algorithms(ctx) -> None:
    """List the registered search algorithms."""
    registry = _registry(ctx)
    for name, alg in registry.algorithms.items():
        kind = "optimal" if alg.optimal else "first-found"
        click.echo(f"{name}\t{kind}\t{alg.summary}")


@cli.command()
@click.pass_context
def plugins(ctx) -> None:
    """List the loaded plugins: name, version, hooks and what each registered."""
    registry = _registry(ctx)
    for info in registry.plugins:
        click.echo(f"{info.name} {info.version or '-'} ({info.origin})")
        if info.hooks:
            click.echo(f"  hooks: {', '.join(info.hooks)}")
        for kind, names in info.registered.items():
            if names:
                click.echo(f"  {kind}: {', '.join(names)}")
        if info.error:
            click.echo(f"  error: {info.error}")


def main() -> None:
    """Entry point of the ``searchkit`` script.

    Usage errors are one line on stderr with exit status 2; Ctrl-C anywhere
    exits 130 without a traceback; an output that cannot be written (a
    closed pipe, a full disk) ends the command with one line and status 1.
    """
    try:
        code = cli.main(prog_name="searchkit", standalone_mode=False)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("searchkit: cancelled", err=True)
        code = 130
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        click.echo(f"searchkit: error: {exc.format_message()}{hint}", err=True)
        code = exc.exit_code
    except click.ClickException as exc:
        click.echo(f"searchkit: error: {exc.format_message()}", err=True)
        code = exc.exit_code
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away: nothing more to say
        code = 1
    except OSError as exc:
        click.echo(f"searchkit: error: cannot write the output: {exc.strerror or exc}", err=True)
        code = 1
    sys.exit(code if isinstance(code, int) else 0)

