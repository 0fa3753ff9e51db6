"""``searchkit solve GAME``: the per-game solve command, built from the registry.

The loop itself is in :mod:`searchkit.cli.run`: the one reader
(:func:`searchkit.cli.io.iter_cases`), :func:`~searchkit.cli.run.solve_items`
(cases to outcomes, in order) and :class:`~searchkit.cli.run.Reporter` (one
output line or record per case, errors and statistics on stderr, the exit
status).
"""

from __future__ import annotations

import sys
import click

from searchkit.cli.common import EXIT_HELP, GameGroup, apply, limit_options, option_flag
from searchkit.cli.run import run_files
from searchkit.errors import SearchkitError


def make_solve_command(registry, name: str) -> click.Command:
    """Build the click command ``searchkit solve NAME``."""
    game = registry.game(name)
    heuristic_names = [h.name for h in registry.heuristics_for(name)]
    rule_names = [r.name for r in registry.rules_for(name)]

    @click.pass_context
    def command(ctx, files, algorithm, heuristic, no_prune, max_nodes, time_limit, stats, fmt, upper_bound,
                seed_solution, **options):
        from searchkit.limits import Limits
        from searchkit.solver import Solver

        try:
            seeds = None
            if seed_solution is not None:
                from searchkit.seeds import load_seeds

                seeds = load_seeds(seed_solution)
            solver = Solver(registry, name, algorithm=algorithm, heuristic=heuristic, disabled=frozenset(no_prune),
                            limits=Limits(max_nodes=max_nodes, time_limit=time_limit), options=options,
                            upper_bound=upper_bound, seeds=seeds)
        except SearchkitError as exc:
            raise click.UsageError(str(exc)) from None
        if not files and sys.stdin is not None and sys.stdin.isatty():
            click.echo("searchkit: reading cases from standard input (end with Ctrl-D; see --help)", err=True)
        ctx.exit(run_files(solver, files or ("-",), fmt=fmt, stats=stats))

    params = [
        click.argument("files", nargs=-1, type=str),
        click.option("--algorithm", "-a", default=None, metavar="NAME[(KEY=VALUE,...)]",
                     help="Search algorithm with its options, e.g. -a 'wastar(weight=2)' (default: the game's plan "
                          "for each case): " + algorithm_choices(registry) + ".  A game asking for exactly n moves (exact "
                          "mode, e.g. mayan) is a decision, not a cost to optimise: it refuses the bounded-"
                          "suboptimal and anytime drivers.  See 'searchkit algorithms'."),
        click.option("--heuristic", "-H", default=None,
                     type=click.Choice(heuristic_names) if heuristic_names else str,
                     help="Heuristic (default: the game's plan for each case; see 'searchkit heuristics GAME')."),
        click.option("--no-prune", "no_prune", multiple=True,
                     type=click.Choice(rule_names) if rule_names else str,
                     help="Switch a pruning rule off (repeatable; see 'searchkit rules GAME')."),
        *limit_options(),
        click.option("--upper-bound", "upper_bound", default=None, metavar="N|auto", callback=_upper_bound,
                     help="Seek only solutions cheaper than N: states with g + h >= N are pruned and a case with "
                          "none below N is 'exhausted'.  auto: the game's quick solution is the bound, and is "
                          "returned when nothing cheaper exists."),
        click.option("--seed-solution", "seed_solution", default=None, metavar="MOVES|FILE",
                     help="A known solution (moves as printed by --moves, or a file of an earlier run's text or "
                          "json records, one per case): checked by replay, its cost is the upper bound, and it is "
                          "returned when nothing cheaper exists."),
        click.option("--stats", is_flag=True, help="Print search statistics (and improvements) to stderr."),
        click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="text: the judge's output; json: one object per case (the same keys for every case)."),
    ]
    params += [option_flag(opt) for opt in game.options]
    plan_help = (getattr(type(game).plan, "__doc__", None) or "").strip().split("\n")[0].replace("``", "")
    text = (f"{game.summary}\n\nFILES are read in order; - (or none) is standard input.  "
            f"Default plan: {plan_help or 'the game chooses per case'}\n\n{EXIT_HELP}")
    return click.command(name=name, help=text)(apply(command, params))


def algorithm_choices(registry) -> str:
    """``astar, wastar(weight=2.0), ...``: every algorithm with its options at their defaults."""
    out = []
    for alg in sorted(registry.algorithms.values(), key=lambda a: a.name):
        args = ", ".join(f"{p.name}={p.default}" for p in alg.params)
        out.append(f"{alg.name}({args})" if args else alg.name)
    return ", ".join(out)


def _upper_bound(ctx, param, value):
    if value is None or value == "auto":
        return value
    try:
        number = int(value)
    except ValueError:
        raise click.BadParameter(f"expected a cost (an integer >= 0) or auto, got {value!r}", ctx, param) from None
    if number < 0:
        raise click.BadParameter(f"expected a cost >= 0, got {number}", ctx, param)
    return number


@click.group(cls=GameGroup, make=make_solve_command)
def solve() -> None:
    """Solve the cases in FILE(s) (or - for standard input) of a game."""
