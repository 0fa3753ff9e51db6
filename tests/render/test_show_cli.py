"""``searchkit show GAME FILE``: formats by suffix, moves from --moves or --records, one-line errors."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

import pytest
from render_helpers import EIGHT, MAYAN, PC19, RANDOM8

SVG = "{http://www.w3.org/2000/svg}"


def _frames(path):
    root = ET.parse(path).getroot()
    return [g for g in root.iter(SVG + "g") if g.get("class") == "frame"]


def test_show_svg_solves_the_case(searchkit_cli_run, tmp_path):
    out = tmp_path / "b.svg"
    result = searchkit_cli_run(["show", "flood", str(PC19), "--case", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(_frames(out)) == 23 + 1
    assert "24 frames (23 moves)" in result.output


def test_show_moves_are_checked_by_replay(searchkit_cli_run, tmp_path):
    out = tmp_path / "m.svg"
    result = searchkit_cli_run(["show", "mayan", str(MAYAN), "--moves", "2 1 1, 3 1 1, 3 0 1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(_frames(out)) == 13
    bad = searchkit_cli_run(["show", "mayan", str(MAYAN), "--moves", "2 1 1 9 9 1", "-o", str(out)])
    assert bad.exit_code == 2
    assert "move 2 (9 9 1...) is not legal" in bad.output and len(bad.output.strip().splitlines()) == 1
    short = searchkit_cli_run(["show", "mayan", str(MAYAN), "--moves", "2 1 1", "-o", str(out)])
    assert short.exit_code == 0 and "do not reach a goal" in short.output


def test_show_flood_moves_in_the_inputs_values(searchkit_cli_run, tmp_path):
    out = tmp_path / "f.svg"
    moves = "5 4 0 2 0 5 3 2 4 1 3 0 5 2"
    result = searchkit_cli_run(["show", "flood", str(RANDOM8), "--moves", moves, "-o", str(out)])
    assert result.exit_code == 0, result.output
    labels = [t.text for t in ET.parse(out).getroot().iter(SVG + "text") if t.get("class") == "frame-label"]
    assert labels[0] == "start" and labels[1] == "move 1: 5" and labels[-1] == "move 14: 2"


def test_show_takes_moves_from_a_record_file(searchkit_cli_run, tmp_path):
    records = tmp_path / "runs.jsonl"
    solved = searchkit_cli_run(["solve", "flood", "--format", "json", str(RANDOM8)])
    records.write_text(solved.output)
    out = tmp_path / "r.svg"
    result = searchkit_cli_run(["show", "flood", str(RANDOM8), "--case", "3", "--records", str(records), "-o",
                                str(out)])
    assert result.exit_code == 0, result.output
    assert len(_frames(out)) == 11 + 1
    missing = searchkit_cli_run(["show", "flood", str(RANDOM8), "--case", "3", "--records",
                                 str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "none.jsonl: no such file" in missing.output
    records.write_text(json.dumps({"schema": 1, "game": "flood", "source": str(RANDOM8), "case": 3,
                                   "status": "node_limit", "moves": []}) + "\n")
    limited = searchkit_cli_run(["show", "flood", str(RANDOM8), "--case", "3", "--records", str(records)])
    assert limited.exit_code == 2 and "status 'node_limit'" in limited.output


@pytest.mark.python_engine("sliding tiles")
def test_show_terminal_and_errors(searchkit_cli_run, tmp_path):
    result = searchkit_cli_run(["show", "sliding-tiles", str(EIGHT), "--case", "2"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "start" and lines[1:4] == ["1 2 3", "5 . 6", "4 7 8"]
    assert lines[-3:] == ["1 2 3", "4 5 6", "7 8 ."]
    no_case = searchkit_cli_run(["show", "flood", str(PC19), "--case", "9"])
    assert no_case.exit_code == 2 and "no case 9 (the file has 3 cases)" in no_case.output
    bad_suffix = searchkit_cli_run(["show", "flood", str(PC19), "-o", str(tmp_path / "x.jpg")])
    assert bad_suffix.exit_code == 2 and "cannot tell the format" in bad_suffix.output
    unsolvable = searchkit_cli_run(["show", "sliding-tiles", str(EIGHT), "--case", "7"])
    assert unsolvable.exit_code == 1 and "exhausted, nothing to show" in unsolvable.output


def test_show_without_pillow_says_what_to_install(searchkit_cli_run, tmp_path, monkeypatch):
    for name in list(sys.modules):
        if name == "PIL" or name.startswith("PIL.") or name == "searchkit.render.raster":
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)
    result = searchkit_cli_run(["show", "flood", str(PC19), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2  # a missing extra is a usage error, as for check and compare --plot
    assert result.output.strip() == ("searchkit: error: PNG output needs Pillow: "
                                     "pip install 'searchkit-puzzles[pictures]'")
    # said before the case is solved: a search that stops at once still gets the same line
    early = searchkit_cli_run(["show", "flood", str(PC19), "--time-limit", "0", "-o", str(tmp_path / "x.gif")])
    assert early.exit_code == 2
    assert early.output.strip() == ("searchkit: error: GIF output needs Pillow: "
                                    "pip install 'searchkit-puzzles[pictures]'")


@pytest.mark.parametrize("where", ["missing/x.svg", "file.txt/x.html", "folder.svg"])
def test_show_refuses_an_output_it_cannot_write_before_solving(searchkit_cli_run, tmp_path, where):
    # was: exit status 1 after the search, "cannot write the output: No such file or directory"
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "folder.svg").mkdir()
    out = tmp_path / where
    result = searchkit_cli_run(["show", "flood", str(PC19), "--time-limit", "0", "-o", str(out)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"searchkit: error: cannot write {out}: "), lines


@pytest.mark.python_engine("sliding tiles")
@pytest.mark.parametrize("suffix", [".png", ".gif", ".html"])
def test_show_writes_each_format(searchkit_cli_run, tmp_path, suffix):
    if suffix != ".html":
        pytest.importorskip("PIL")
    out = tmp_path / f"mayan{suffix}"
    result = searchkit_cli_run(["show", "mayan", str(MAYAN), "-o", str(out)])
    assert result.exit_code == 0, result.output
    head = out.read_bytes()[:8]
    assert head.startswith({".png": b"\x89PNG", ".gif": b"GIF89a", ".html": b"<!DOCTYP"}[suffix])


def test_show_is_lazy_and_solve_imports_no_drawing(tmp_path):
    import subprocess

    code = ("import sys; from searchkit.cli import main; sys.argv=['searchkit','solve','flood',%r]\n"
            "try: main()\nexcept SystemExit: pass\n"
            "bad=[m for m in sys.modules\n"
            "     if m.split('.')[0] in ('PIL', 'matplotlib') or m.startswith('searchkit.render')]\n"
            "print('BAD', bad)") % str(PC19)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("BAD []")


def test_show_takes_an_algorithm_with_options_spelt_as_in_solve(searchkit_cli_run, tmp_path):
    out = tmp_path / "w.svg"
    res = searchkit_cli_run(["show", "flood", str(PC19), "-a", "wastar(weight=2)", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "feasible, not proven optimal (cost 20, lower bound 16)" in res.output  # drawn, and said so
    assert len(_frames(out)) == 20 + 1
    for bad in ("nope", "wastar(weight=0.5)", "wastar(weight"):
        refused = searchkit_cli_run(["show", "flood", str(PC19), "-a", bad, "-o", str(tmp_path / "x.svg")])
        errors = [line for line in refused.output.splitlines() if "rror: " in line]
        assert refused.exit_code == 2 and len(errors) == 1 and "Traceback" not in refused.output, refused.output
        assert not (tmp_path / "x.svg").exists()


def test_show_refuses_moves_after_the_goal_and_caps_the_frames(searchkit_cli_run, tmp_path):
    """Issue 19.15: a forged 19,000-move record made a 437 MB SVG; moves after the goal were drawn."""
    out = tmp_path / "s.svg"
    solved = searchkit_cli_run(["solve", "flood", "--moves", str(PC19)]).output.splitlines()[0]
    moves = solved.split(":")[1].strip()
    n = len(moves.split())
    extra = searchkit_cli_run(["show", "flood", str(PC19), "--moves", moves + " 1 2", "-o", str(out)])
    assert extra.exit_code == 2
    assert f"move {n + 1} (1) comes after the goal, reached after move {n}" in extra.output
    capped = searchkit_cli_run(["show", "flood", str(PC19), "--moves", moves, "--max-frames", "5", "-o", str(out)])
    assert capped.exit_code == 0, capped.output
    assert len(_frames(out)) == 5
    assert f"drew the first 5 frames, up to move 4 of {n} (--max-frames 5)" in capped.output
    records = tmp_path / "r.jsonl"
    record = json.loads(searchkit_cli_run(["solve", "flood", "--format", "jsonl", str(PC19)]).output.splitlines()[0])
    record["moves"] += ["1", "2"] * 9000  # the case's own record, its moves forged
    records.write_text(json.dumps(record) + "\n")
    forged = searchkit_cli_run(["show", "flood", str(PC19), "--records", str(records), "-o", str(out)])
    assert forged.exit_code == 2 and "comes after the goal" in forged.output


def test_show_records_are_matched_as_verify_matches_them(searchkit_cli_run, tmp_path):
    """``show --records`` took any record with the case's number: another board's moves were drawn with only
    a warning that they do not reach a goal.  It now finds the record as ``verify`` does (game, source, case
    and data hash) and refuses the rest in one line."""
    solved = searchkit_cli_run(["solve", "flood", "--format", "jsonl", str(RANDOM8)])
    assert solved.exit_code == 0, solved.output
    records = tmp_path / "runs.jsonl"
    records.write_text("".join(line + "\n" for line in solved.output.splitlines() if line.startswith("{")))
    edited = tmp_path / "random8.txt"  # the same file name and cases, case 3's board edited
    text = RANDOM8.read_text().splitlines()
    row = [i for i, line in enumerate(text) if line.strip().isdigit()][2] + 1  # case 3's first row, after its N
    cells = text[row].split()
    cells[0] = str((int(cells[0]) + 1) % 6)
    text[row] = " ".join(cells)
    edited.write_text("\n".join(text) + "\n")
    moved = searchkit_cli_run(["show", "flood", str(edited), "--case", "3", "--records", str(records)])
    assert moved.exit_code == 2, moved.output
    assert "case 3 of" in moved.output and "the record is for other data" in moved.output, moved.output
    same = searchkit_cli_run(["show", "flood", str(edited), "--case", "2", "--records", str(records)])
    assert same.exit_code == 0, same.output  # the unedited case of the renamed file: its record is found
    other = tmp_path / "tiles.jsonl"
    other.write_text(json.dumps({"game": "sliding-tiles", "source": str(RANDOM8), "case": 3, "status": "solved",
                                 "moves": ["U"]}) + "\n")
    foreign = searchkit_cli_run(["show", "flood", str(RANDOM8), "--case", "3", "--records", str(other)])
    assert foreign.exit_code == 2 and "holds records of the game sliding-tiles, not flood" in foreign.output
