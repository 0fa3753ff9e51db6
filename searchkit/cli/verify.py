"""``searchkit verify GAME FILE RECORDS.jsonl``: replay every recorded solution with the game's own rules."""

from __future__ import annotations

import click

from searchkit.cli.common import OnceCommand, EXIT_LIMIT, GameGroup, apply, error, load_game_records, option_flag


def make_verify_command(registry, name: str) -> click.Command:
    """Build ``searchkit verify NAME``."""
    game = registry.game(name)

    @click.pass_context
    def command(ctx, file, records_path, **options):
        from searchkit.machinery.batch.verify import verify
        from searchkit.machinery.reading import iter_cases
        from searchkit.machinery.solver import _complete_options

        options = _complete_options(game, options)
        loaded = load_game_records(records_path, name, "verify")
        matched: set = set()
        findings = verify(registry, name, iter_cases(game, [file], options), loaded.records, options, matched=matched)
        _say_unmatched(records_path, file, loaded.records, matched)
        bad = [f for f in findings if not f.ok]
        for f in bad:
            error(f"{f.source}: case {f.case if f.case is not None else '-'}: {f.problem}")
        from searchkit.machinery.batch.verify import histogram

        click.echo("length  cases")
        for length, count in histogram(findings):
            click.echo(f"{length:>6}  {count}")
        unsolvable = sum(1 for f in findings if f.unsolvable)
        undecided = sum(1 for f in findings if f.ok and f.undecided)
        ok = sum(1 for f in findings if f.ok) - undecided
        line = f"{ok} OK" + (f" ({unsolvable} proven unsolvable, confirmed by the game's solvability test)"
                             if unsolvable else "")
        bounded = sum(1 for f in findings if f.bounded)
        if bounded:
            line += (f" ({bounded} with no solution cheaper than the --upper-bound searched under, not replayed: "
                     f"no proof that there is none)")
        unchecked = sum(1 for f in findings if f.ok and f.unchecked)
        if unchecked:
            line += (f" ({unchecked} valid but not checked to be the smallest answer the case asks for: "
                     f"verify replays moves, it does not search)")
        if undecided:  # no failure, but no OK: the record's word alone
            line += (f", {undecided} not checked (claimed unsolvable: the game cannot decide that without a search; "
                     f"re-solve to check)")
        if bad:
            line += f", {len(bad)} failed"
        click.echo(line)
        ctx.exit(EXIT_LIMIT if bad or not findings else 0)

    params = [
        click.argument("file", type=str),
        click.argument("records_path", metavar="RECORDS.jsonl[.gz]", type=click.Path(exists=True, dir_okay=False)),
        # --moves and --show only print: accepted (a copy of solve's flags works) but not offered in --help
        *[option_flag(opt, hidden=opt.output_only) for opt in game.options],
    ]
    return click.command(cls=OnceCommand, name=name, help=(
        "Replay every solution recorded in RECORDS.jsonl (from 'searchkit solve --output'; gzip-compressed or not) "
        "on its case of FILE, "
        "with the game's own rules (every pruning rule off), and print a histogram of solution lengths.\n\n"
        "A case whose moves are not legal or do not reach a goal, whose cost or length differs from the record, "
        "whose record is for other data, or that has no solved record is reported on stderr, one line each; "
        "then the exit status is 1.  A record claiming its case has no solution is put to the game's "
        "solvability test (sliding tiles: parity): a claim it refutes fails, one it cannot decide is counted "
        "as not checked.  Replay does not prove a solved record optimal: to check that, solve again into a "
        "second record file and run 'searchkit report' over both (its Contradictions).  "
        "Records that match no case of FILE are counted in one warning.  "
        "Give the same game options as to solve (e.g. --start)."))(
        apply(command, params))


def _say_unmatched(records_path: str, file: str, records: list, matched: set) -> None:
    """One warning counting the records no case of ``file`` was matched with (``matched``: the cases'
    ``(source key, case)``): they were not replayed, so "N OK" says nothing of them."""
    from searchkit.machinery.records import source_key

    left = sum(1 for r in records if (source_key(r.get("source")), r.get("case")) not in matched)
    if left:
        click.echo(f"searchkit: warning: {records_path}: {left} of its {len(records)} records match no case of "
                   f"{file} (by source and case number) and were not replayed", err=True)


@click.group(cls=GameGroup, make=make_verify_command)
def verify() -> None:
    """Check recorded solutions (JSON Lines from solve --output) by replaying them."""
