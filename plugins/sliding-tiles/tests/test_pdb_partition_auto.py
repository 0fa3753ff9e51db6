"""``searchkit pdb build|info|clear sliding-tiles 'pdb'``: partition ``auto`` depends on the board's size, which
these commands are not given, so it is refused in one line naming the option; they built (or listed, or deleted)
4x4's 6-6-3 tables whatever the user's board."""

from __future__ import annotations

import pytest

from sliding_tiles.pdb import DEFAULT, abstractions


@pytest.mark.parametrize("command", ["build", "info", "clear"])
@pytest.mark.parametrize("spec", ["pdb", "pdb(partition=auto)", "pdb(reflect=0)"])
def test_partition_auto_without_a_board_is_refused_by_name(searchkit_cli_run, command, spec):
    result = searchkit_cli_run(["pdb", command, "sliding-tiles", spec])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert "partition auto depends on the board's size" in lines[0], lines[0]
    assert all(f"{name} for {side}x{side}" in lines[0] for side, name in DEFAULT.items()), lines[0]


def test_a_named_partition_and_a_known_board_still_resolve():
    assert [a.entries for a in abstractions("4-4")] == [3_024, 3_024]
    assert [a.pattern for a in abstractions("auto", n=4)] == [a.pattern for a in abstractions("6-6-3")]
    assert [a.pattern for a in abstractions("auto", n=3)] == [a.pattern for a in abstractions("4-4")]
    with pytest.raises(ValueError, match="not known here"):
        abstractions("auto")
