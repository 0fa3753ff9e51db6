"""The root ``searchkit`` click group: each command's module is imported only when that command runs."""

from __future__ import annotations

import sys

import click

from searchkit import __version__
from searchkit.cli.common import EXIT_HELP


class LazyGroup(click.Group):
    """The top-level group: each command's module is imported only when that command runs."""

    lazy = {
        "solve": "searchkit.cli.solve:solve",
        "show": "searchkit.cli.show:show",
        "compare": "searchkit.cli.tools:compare",
        "generate": "searchkit.cli.tools:generate",
        "check": "searchkit.cli.tools:check",
        "verify": "searchkit.cli.verify:verify",
        "games": "searchkit.cli.lists:games",
        "heuristics": "searchkit.cli.lists:heuristics",
        "rules": "searchkit.cli.lists:rules",
        "algorithms": "searchkit.cli.lists:algorithms",
        "plugins": "searchkit.cli.lists:plugins",
        "pdb": "searchkit.cli.pdb:pdb",
        "report": "searchkit.cli.report:report",
        "new": "searchkit.cli.new:new",
    }

    def list_commands(self, ctx):
        return sorted(self.lazy)

    def get_command(self, ctx, name):
        ref = self.lazy.get(name)
        if ref is None:
            return None
        from searchkit._refs import resolve

        return resolve(ref)


def _version(ctx, _param, value):
    if not value or ctx.resilient_parsing:
        return
    from searchkit.cli.common import registry

    from searchkit.machinery.engine import describe

    lines = [f"searchkit {__version__} (Python {sys.version.split()[0]}), {describe(registry(ctx).games.values())}"]
    for info in registry(ctx).plugins:
        if info.origin != "builtin":
            lines.append(f"  plugin {info.name} {info.version or '-'}" + (" (failed to load)" if info.error else ""))
    click.echo("\n".join(lines))
    ctx.exit(0)


@click.group(cls=LazyGroup, invoke_without_command=True, epilog=EXIT_HELP,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the versions of searchkit, its plugins and Python, and exit.")
@click.pass_context
def cli(ctx) -> None:
    """Exact puzzle search: solve, compare, check and generate games' cases; list what plugins registered."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
