"""``searchkit generate``, ``compare`` and ``check``: tools for trying heuristics and writing plugins.

Imported only when one of these commands runs, so ``searchkit solve`` starts fast.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random

import click

from searchkit.cli import _fail, _registry
from searchkit.cli_solve import read_input
from searchkit.errors import InputError, SearchkitError
from searchkit.game import option_defaults


def _parse_options(game_or_gen_options, pairs):
    """Turn ``--option NAME=VALUE`` pairs into typed values for the given GameOptions."""
    known = {opt.key: opt for opt in game_or_gen_options}
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        key = name.strip().lstrip("-").replace("-", "_")
        if not sep or key not in known:
            names = ", ".join(o.name for o in game_or_gen_options) or "none"
            raise click.UsageError(f"expected --option NAME=VALUE with NAME one of: {names}; got {pair!r}")
        opt = known[key]
        try:
            out[key] = value.lower() in ("1", "true", "yes", "on") if opt.type is bool else opt.type(value)
        except ValueError:
            raise click.UsageError(f"option {opt.name} expects {opt.type.__name__}, got {value!r}") from None
        try:
            opt.check(out[key])
        except ValueError as exc:
            raise click.UsageError(str(exc).replace("--", "", 1)) from None
    return out


@click.command()
@click.argument("game")
@click.option("--count", "-n", type=click.IntRange(min=1), default=1, show_default=True,
              help="Instances to write (in one file; games whose format holds one case take 1).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--size", type=click.IntRange(min=1), default=None, help="The generator's size (see --help-options).")
@click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE",
              help="A generator option of the game (repeatable), e.g. -o colours=4.")
@click.option("--help-options", is_flag=True, help="List the game's generator options and exit.")
@click.pass_context
def generate(ctx, game, count, seed, size, pairs, help_options):
    """Write COUNT random instances of GAME in the game's input format to stdout."""
    registry = _registry(ctx)
    try:
        g = registry.game(game)
        gen = registry.generator(game)
    except SearchkitError as exc:
        _fail(str(exc))
    if help_options:
        click.echo(f"size: {gen.size_help} (default {gen.default_size})")
        for opt in gen.options:
            default = "" if opt.default is None else f" (default {opt.default})"
            click.echo(f"{opt.name}: {opt.help}{default}")
        return
    options = _parse_options(gen.options, pairs)
    rng = random.Random(seed)
    try:
        datas = [gen(rng, size or gen.default_size, options) for _ in range(count)]
        click.echo(g.format_input(datas), nl=False)
    except (ValueError, SearchkitError) as exc:
        _fail(f"cannot generate {game} instances: {exc}")


def _read_cases(game, files, options):
    """All cases of ``files``; bad input is reported and counted, good cases kept."""
    cases, bad = [], 0
    for path in files:
        try:
            text = read_input(path)
        except InputError as exc:
            click.echo(f"searchkit: error: {exc}", err=True)
            bad += 1
            continue
        for item in game.parse(text, "<stdin>" if path == "-" else path, options):
            if isinstance(item, InputError):
                click.echo(f"searchkit: error: {item}", err=True)
                bad += 1
            else:
                cases.append(item)
    return cases, bad


@click.command()
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=str)
@click.option("--heuristic", "-H", "names", multiple=True, required=True,
              help="Heuristic to compare (repeatable); 'all' for every registered one.")
@click.option("--algorithm", "-a", default=None, help="Algorithm (default: the game's).")
@click.option("--max-nodes", type=click.IntRange(min=0), default=None, help="Node limit per case and heuristic.")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None, help="Seconds per case and heuristic.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text")
@click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE", help="A game option (repeatable).")
@click.pass_context
def compare(ctx, game, files, names, algorithm, max_nodes, time_limit, fmt, pairs):
    """Solve every case of FILES with every heuristic and tabulate costs, nodes, time and EBF.

    Cost disagreements between admissible heuristics under an optimal
    algorithm mean a bug: they are reported loudly and the exit status is 1.
    """
    from searchkit.compare import compare as run_compare
    from searchkit.limits import Limits
    from searchkit.runner import Solver

    registry = _registry(ctx)
    try:
        g = registry.game(game)
        heuristics = [h.name for h in registry.heuristics_for(game)] if "all" in names else list(dict.fromkeys(names))
        for h in heuristics:
            registry.heuristic(game, h)
        if algorithm is not None:
            registry.algorithm(algorithm)
    except SearchkitError as exc:
        raise click.UsageError(str(exc)) from None
    options = option_defaults(g.options)
    options.update(_parse_options(g.options, pairs))
    cases, bad = _read_cases(g, files, options)
    if not cases:
        _fail("no cases to compare")
    limits = Limits(max_nodes=max_nodes, time_limit=time_limit)
    solvers = [Solver(registry, game, algorithm=algorithm, heuristic=h, limits=limits, options=options)
               for h in heuristics]
    alg_name = solvers[0].names(cases[0])[0]
    alg = registry.algorithm(alg_name)
    try:
        report = run_compare(solvers, cases, heuristics, alg_name, alg.optimal)
    except (ValueError, SearchkitError) as exc:
        _fail(str(exc))
    _print_comparison(report, fmt)
    if report.cancelled:
        click.echo("searchkit: cancelled", err=True)
        ctx.exit(130)
    code = 2 if bad else 0
    if any(r.status not in ("solved", "exhausted") for r in report.rows):
        code = max(code, 1)
    admissible = {h.name for h in registry.heuristics_for(game) if h.admissible}
    loud = [d for d in report.disagreements if alg.optimal and len(set(d[2]) & admissible) > 1
            and len({d[2][h] for h in d[2] if h in admissible}) > 1]
    for source, case, costs in loud:
        detail = ", ".join(f"{h}={c}" for h, c in costs.items())
        click.secho(f"searchkit: BUG: admissible heuristics disagree under optimal {alg_name} on {source} case {case}: "
                    f"{detail}", err=True, fg="red", bold=True)
    if loud:
        code = max(code, 1)
    ctx.exit(code)


def _fmt(value, digits=3):
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _print_comparison(report, fmt):
    totals = report.totals()
    if fmt == "json":
        click.echo(json.dumps({
            "algorithm": report.algorithm,
            "optimal": report.optimal,
            "heuristics": list(report.heuristics),
            "rows": [r.to_dict() for r in report.rows],
            "totals": totals,
            "disagreements": [{"source": s, "case": c, "costs": costs} for s, c, costs in report.disagreements],
        }, indent=1))
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["source", "case", "heuristic", "status", "cost", "depth", "expanded", "generated",
                         "seconds", "ebf"])
        for r in report.rows:
            writer.writerow([r.source, r.case, r.heuristic, r.status, _fmt(r.cost), _fmt(r.depth), r.expanded,
                             r.generated, f"{r.seconds:.6f}", _fmt(r.ebf, 4)])
        for name, t in totals.items():
            writer.writerow(["TOTAL", "", name, f"{t['solved']}/{t['cases']} solved", t["cost"], "", t["expanded"],
                             t["generated"], f"{t['seconds']:.6f}", _fmt(t["ebf"], 4)])
        click.echo(buf.getvalue(), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    disagree = {(s, c) for s, c, _ in report.disagreements}
    n_cases = len({(r.source, r.case) for r in report.rows})
    table = Table(title=f"{report.algorithm}: {n_cases} case{'s' if n_cases != 1 else ''}",
                  show_lines=False)
    for col, justify in (("case", "left"), ("heuristic", "left"), ("cost", "right"), ("expanded", "right"),
                         ("generated", "right"), ("seconds", "right"), ("EBF", "right"), ("agree", "center")):
        table.add_column(col, justify=justify)
    last = None
    for r in report.rows:
        key = (r.source, r.case)
        label = f"{r.case}: {os.path.basename(r.source)}" if key != last else ""
        agree = "[bold red]NO[/]" if key in disagree else "yes"
        cost = _fmt(r.cost) if r.status == "solved" else r.status
        table.add_row(label, r.heuristic, cost, str(r.expanded), str(r.generated), f"{r.seconds:.4f}",
                      _fmt(r.ebf), agree if key != last else "", end_section=False)
        last = key
    table.add_section()
    for name, t in totals.items():
        table.add_row("[bold]total[/]", name, str(t["cost"]), str(t["expanded"]), str(t["generated"]),
                      f"{t['seconds']:.4f}", _fmt(t["ebf"]), f"{t['solved']}/{t['cases']} solved")
    Console(width=max(100, Console().width)).print(table)


@click.command()
@click.argument("game")
@click.option("--heuristic", "-H", "names", multiple=True, required=True,
              help="Heuristic to check (repeatable); 'all' for every registered one.")
@click.option("--samples", type=click.IntRange(min=1), default=100, show_default=True,
              help="Instances drawn per property.")
@click.option("--max-size", type=click.IntRange(min=1), default=None,
              help="Largest generator size (default: the generator's check size; true costs come from "
                   "exhaustive search, so keep it small).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--max-states", type=click.IntRange(min=1), default=50_000, show_default=True,
              help="Skip instances with more reachable states.")
@click.option("--option", "-o", "pairs", multiple=True, metavar="NAME=VALUE", help="A generator option (repeatable).")
@click.pass_context
def check(ctx, game, names, samples, max_size, seed, max_states, pairs):
    """Check heuristics for admissibility and consistency on small generated instances.

    True remaining costs come from exhaustive search.  A violated property
    that the heuristic claims is printed with the smallest counter-example
    found (hypothesis shrinks it) and the exit status is 1; a violated
    property it does not claim is reported only.
    """
    from searchkit.check import check_heuristic

    registry = _registry(ctx)
    try:
        g = registry.game(game)
        gen = registry.generator(game)
        heuristics = [h.name for h in registry.heuristics_for(game)] if "all" in names else list(dict.fromkeys(names))
        for h in heuristics:
            registry.heuristic(game, h)
    except SearchkitError as exc:
        raise click.UsageError(str(exc)) from None
    options = _parse_options(gen.options, pairs)
    code = 0
    for name in heuristics:
        try:
            report = check_heuristic(registry, game, name, samples=samples, max_size=max_size, seed=seed,
                                     max_states=max_states, generator_options=options)
        except SearchkitError as exc:
            _fail(f"check {game} -H {name}: {exc}")
        claimed = [p for p, on in report.claims.items() if on] or ["nothing"]
        skipped = f", {report.skipped} skipped (over {max_states} states)" if report.skipped else ""
        if not report.examples:
            click.echo(f"{name}: OK: admissible and consistent; {report.checked} instances explored for the two properties"
                       f"{skipped} (claims {', '.join(claimed)})")
            continue
        for prop, (data, bad) in report.examples.items():
            verdict = "FAIL" if report.claims.get(prop) else "note"
            claim = "claims" if report.claims.get(prop) else "does not claim"
            click.echo(f"{name}: {verdict}: not {prop} ({claim} it); smallest counter-example found:")
            click.echo(g.format_input([data]).rstrip("\n"))
            for v in bad[:5]:
                where = " ".join(str(m) for m in g.moves_to_json(_case(data), v.path)) or "(the initial state)"
                if v.kind == "inadmissible":
                    click.echo(f"  after moves {where}: h = {v.h} > true remaining cost {v.limit}")
                else:
                    step = " ".join(str(m) for m in g.moves_to_json(_case(data), (v.move,)))
                    click.echo(f"  after moves {where}: h = {v.h} > c + h(after {step}) = {v.limit}")
                draw = getattr(g, "format_state", None)
                if draw is not None:
                    from searchkit.check import plain_puzzle

                    click.echo("  " + draw(plain_puzzle(registry, game, data), v.state).replace("\n", "\n  "))
            if len(bad) > 5:
                click.echo(f"  ... and {len(bad) - 5} more states")
            if verdict == "FAIL":
                code = 1
    ctx.exit(code)


def _case(data):
    from searchkit.game import Case

    return Case(1, data, "<generated>", 1)
