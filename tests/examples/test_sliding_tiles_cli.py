"""The example plugin built from docs/plugin-guide.md, end to end through the CLI.

README's test command installs ``plugins/sliding-tiles`` like any third-party
plugin; these tests drive it only through ``searchkit`` commands.
"""

from __future__ import annotations

import json

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "plugins" / "sliding-tiles" / "examples"


@pytest.fixture(autouse=True)
def _installed(searchkit_registry):
    assert "sliding-tiles" in searchkit_registry.games, (
        "the sliding-tiles example plugin is not installed: run README's test command "
        "(it installs ./plugins/sliding-tiles)"
    )


def test_listed_as_a_plugin(searchkit_cli_run):
    out = searchkit_cli_run(["plugins"]).output
    assert "sliding-tiles 0.2.0 (entry point)" in out
    assert "sliding-tiles:manhattan" in out and "sliding-tiles:linear-conflict" in out


def test_solves_the_8_puzzle_file_optimally(searchkit_cli_run):
    out = searchkit_cli_run(["solve", "sliding-tiles", str(EXAMPLE / "8-puzzle.txt")])
    assert out.exit_code == 0
    assert out.output.splitlines() == (EXAMPLE / "8-puzzle.expected").read_text().splitlines()


def test_moves_json_and_no_prune(searchkit_cli_run):
    path = str(EXAMPLE / "8-puzzle.txt")
    out = searchkit_cli_run(["solve", "sliding-tiles", "--format", "json", path]).output
    records = [json.loads(line) for line in out.splitlines()]
    solved = [r for r in records if r["status"] == "solved"]
    assert [r["length"] for r in solved] == [0, 4, 10, 20, 31, 31]
    assert all(len(r["moves"]) == r["length"] for r in solved)
    off = searchkit_cli_run(["solve", "sliding-tiles", "--no-prune", "no-undo", "-H", "manhattan", path])
    assert off.output.splitlines()[:4] == ["0", "4", "10", "20"]


@pytest.mark.python_engine("compare -H all includes misplaced, which has no native counterpart")
def test_compare_all_heuristics_agree(searchkit_cli_run, tmp_path):
    # the first four boards (0 to 20 moves): misplaced-tiles is slow on the 31-move ones
    first = (EXAMPLE / "8-puzzle.txt").read_text().split("\n\n")[:4]
    path = tmp_path / "easy.txt"
    path.write_text("\n\n".join(first) + "\n")
    out = searchkit_cli_run(["compare", "sliding-tiles", str(path), "-H", "all", "--format", "json", "-a", "ida_star"])
    report = json.loads(out.output)
    assert report["disagreements"] == []
    totals = report["totals"]
    assert totals["linear-conflict"]["expanded"] <= totals["manhattan"]["expanded"]


def test_check_manhattan(searchkit_cli_run):
    out = searchkit_cli_run(["check", "sliding-tiles", "-H", "manhattan", "--samples", "20", "--max-size", "2"])
    assert out.exit_code == 0, out.output
    assert "manhattan: OK" in out.output


def test_generate_then_solve(searchkit_cli_run):
    gen = searchkit_cli_run(["generate", "sliding-tiles", "--count", "3", "--seed", "5", "--size", "3"])
    assert gen.exit_code == 0
    out = searchkit_cli_run(["solve", "sliding-tiles", "-"], input=gen.output)
    assert out.exit_code == 0 and len(out.output.splitlines()) == 3
