"""``--palette FILE`` quotes nothing of a file that is not a palette (issue 32, S3: ``--palette /etc/shadow`` put
the file's first line, a password hash, in the error)."""

from __future__ import annotations

import pytest
from render_helpers import PC19

SECRET = "s3cr3t-hash"


@pytest.mark.parametrize("content, where", [
    (f"root:{SECRET}:19000:0:99999:7:::\nother line\n", ":1: expected VALUE COLOUR"),
    (f"1 #ff0000\n2 {SECRET}\n", ":2: expected a colour #rrggbb"),
    ('{"1": "%s"}' % SECRET, ": a palette value: expected a colour #rrggbb"),
    ('["#ff0000", "%s"]' % SECRET, ": palette colour 2: expected a colour #rrggbb"),
])
def test_a_file_that_is_not_a_palette_is_refused_without_quoting_it(searchkit_cli_run, tmp_path, content, where):
    secret = tmp_path / "shadow"
    secret.write_text(content)
    result = searchkit_cli_run(["show", "flood", str(PC19), "--palette", str(secret), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 2
    assert SECRET not in result.output
    assert f"{secret}{where}" in result.output.strip().splitlines()[-1], result.output


def test_a_palette_given_in_python_is_still_quoted():
    from searchkit.render.palette import load_palette

    with pytest.raises(ValueError, match="palette value '1': expected a colour #rrggbb, got 'nope'"):
        load_palette({"1": "nope"})


def test_a_json_palette_nested_too_deeply_is_one_line_not_a_traceback(searchkit_cli_run, tmp_path):
    """A tester's finding (issue 32's follow-up): json's RecursionError on a file of 100,000 ``[`` escaped as a
    traceback; such a file is not a palette, said in one line naming it."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "\n")
    result = searchkit_cli_run(["show", "flood", str(PC19), "--palette", str(deep), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{deep}:1: expected VALUE COLOUR" in result.output.strip().splitlines()[-1], result.output
