"""``searchkit games|heuristics|rules|algorithms|plugins``: what the plugins registered."""

from __future__ import annotations

import click

from searchkit.cli.common import OnceCommand, fail, registry


def _game(ctx, name: str):
    from searchkit.errors import SearchkitError

    reg = registry(ctx)
    if name not in reg.games:
        try:
            reg.game(name)
        except SearchkitError as exc:
            fail(str(exc))
    return reg


@click.command(cls=OnceCommand)
@click.pass_context
def games(ctx) -> None:
    """List the registered games."""
    reg = registry(ctx)
    for name in sorted(reg.games):
        click.echo(f"{name}\t{reg.game_summary(name)}\t(plugin {reg.owner('game', name)})")
    if not reg.games:  # a core-only install: say so, and how to get a game
        from searchkit.cli.common import PLUGIN_HINT

        click.echo(f"searchkit: no game is installed; {PLUGIN_HINT}", err=True)
        ctx.exit(1)
    if reg.failures:  # their errors are on stderr: the listing may lack what they meant to register
        ctx.exit(1)


def _heuristic_rows(reg, game):
    for h in reg.heuristics_for(game):
        flags = ",".join(f for f, on in (("admissible", h.admissible), ("consistent", h.consistent)) if on) or "-"
        yield f"{h.name}\t{flags}\t{h.summary}"
        for p in h.params:
            yield f"  {p.name}={p.default}\t{p.type.__name__}\t{p.help}"


def _rule_rows(reg, game):
    from searchkit.machinery.solver import where_text

    for rule in reg.rules_for(game):
        yield f"{rule.name}\t{where_text(rule, reg)}\t{rule.summary}"


def _per_game_listing(name: str, help: str, rows):
    @click.command(cls=OnceCommand, name=name, help=help)
    @click.argument("game")
    @click.pass_context
    def command(ctx, game) -> None:
        reg = _game(ctx, game)
        for row in rows(reg, game):
            click.echo(row)

    return command


heuristics = _per_game_listing("heuristics", "List the heuristics registered for GAME.", _heuristic_rows)
rules = _per_game_listing(
    "rules", "List GAME's pruning rules, where each acts and under which algorithms (switch off with --no-prune NAME).",
    _rule_rows)


@click.command(cls=OnceCommand)
@click.pass_context
def algorithms(ctx) -> None:
    """List the registered search algorithms."""
    reg = registry(ctx)
    for name, alg in reg.algorithms.items():
        kind = str(alg.guarantee)
        extra = [f"modes {'/'.join(alg.modes)}"]
        if alg.needs_depth:
            extra.append("needs a depth bound")
        if alg.plain:
            extra.append("every rule off")
        if alg.keeps_order:
            extra.append("first in move order")
        if alg.seeded:
            extra.append("seeded by the game's upper bound")
        args = ", ".join(f"{p.name}={p.default}" for p in alg.params)
        click.echo(f"{name}({args})\t{kind}\t{alg.summary} [{'; '.join(extra)}]" if args else
                   f"{name}\t{kind}\t{alg.summary} [{'; '.join(extra)}]")
        for p in alg.params:
            click.echo(f"    {p.name}: {p.help}")
    click.echo("Options are given with the name: -a 'wastar(weight=1.5)'.  Exact mode (a solution of exactly "
               "the given cost, e.g. mayan's n moves, the first in move order) is a decision, not a cost to "
               "optimise: only bounded_dfs searches it, and no bounded-suboptimal or anytime driver applies.")


@click.command(cls=OnceCommand)
@click.pass_context
def plugins(ctx) -> None:
    """List the loaded plugins: name, version, hooks and what each registered."""
    from searchkit.machinery.engine import describe

    reg = registry(ctx)
    click.echo(describe(reg.games.values()))
    for info in reg.plugins:
        click.echo(f"{info.name} {info.version or '-'} ({info.origin})")
        if info.hooks:
            click.echo(f"  hooks: {', '.join(info.hooks)}")
        for kind, names in info.registered.items():
            if names:
                click.echo(f"  {kind}: {', '.join(names)}")
        if info.error:
            click.echo(f"  error: {info.error}")
