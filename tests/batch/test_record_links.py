"""A record file started afresh is a new file renamed onto ``--output``: a link planted at that name is replaced,
never followed (issue 32 item 8: every file searchkit writes goes through an exclusive temporary name)."""

from __future__ import annotations

import json

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


def test_a_link_at_the_output_name_is_replaced_not_followed(cli, tmp_path):
    # a dangling link: opening --output with O_CREAT made the file it points to; a link to an empty file: that
    # file was filled with records
    nowhere = tmp_path / "made-by-searchkit"
    empty = tmp_path / "empty-victim"
    empty.write_text("")
    for name, target in (("a.jsonl", nowhere), ("b.jsonl", empty)):
        out = tmp_path / name
        out.symlink_to(target)
        res = cli("solve", "flood", "--output", out, PC19)
        assert res.returncode == 0, res.stderr
        assert not out.is_symlink() and len([json.loads(line) for line in out.read_text().splitlines()]) == 12
    assert not nowhere.exists() and empty.read_text() == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl", "empty-victim"]


def test_output_to_a_device_is_written_in_place(cli, tmp_path):
    res = cli("solve", "flood", "--output", "/dev/null", PC19)
    assert res.returncode == 0, res.stderr
