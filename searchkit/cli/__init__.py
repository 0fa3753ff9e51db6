"""The ``searchkit`` command line (click).

Commands: ``solve GAME``, ``compare GAME``, ``generate GAME``, ``check GAME``
(one sub-command per registered game, carrying the game's own options), and
the listings ``games``, ``heuristics``, ``rules``, ``algorithms``,
``plugins``.  Games are discovered only through the plugin registry.  Each
command lives in its own module and is imported only when it runs:
``solve.py``, ``tools.py`` (generate, compare, check) and ``lists.py``;
``common.py`` and ``io.py`` hold what they share.
"""

from __future__ import annotations

import sys

import click

from searchkit import __version__
from searchkit.cli.common import EXIT_CANCELLED, EXIT_HELP


class LazyGroup(click.Group):
    """The top-level group: each command's module is imported only when that command runs."""

    lazy = {
        "solve": "searchkit.cli.solve:solve",
        "compare": "searchkit.cli.tools:compare",
        "generate": "searchkit.cli.tools:generate",
        "check": "searchkit.cli.tools:check",
        "verify": "searchkit.cli.verify:verify",
        "games": "searchkit.cli.lists:games",
        "heuristics": "searchkit.cli.lists:heuristics",
        "rules": "searchkit.cli.lists:rules",
        "algorithms": "searchkit.cli.lists:algorithms",
        "plugins": "searchkit.cli.lists:plugins",
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

    lines = [f"searchkit {__version__} (Python {sys.version.split()[0]})"]
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
        code = EXIT_CANCELLED
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
