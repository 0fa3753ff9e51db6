"""Picture controls: palettes (--palette, palette=), wrapped labels, Mayan's axes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from render_helpers import MAYAN, PC19, solution

from searchkit.render import palette as pal
from searchkit.render.grid import Frame, Step
from searchkit.render.svg import render_svg

NS = "{http://www.w3.org/2000/svg}"


def _fills(svg: str) -> dict:
    return {(e.get("data-row"), e.get("data-col")): e.get("fill") for e in ET.fromstring(svg).iter(NS + "rect")
            if e.get("class") == "cell"}


def test_named_palettes_files_and_mappings(tmp_path):
    assert pal.load_palette(None) is pal.DEFAULT and pal.load_palette("tol").assign(["a"])["a"] == "#4477AA"
    walls = tmp_path / "walls.txt"
    walls.write_text("# #888888\n. #fff\n\n")
    p = pal.load_palette(str(walls))
    colours = p.assign(["#", ".", "$"])
    assert colours["#"] == "#888888" and colours["."] == "#FFFFFF" and colours["$"] == pal.OKABE_ITO[0]
    js = tmp_path / "p.json"
    js.write_text('{"1": "#123456"}')
    assert pal.load_palette(str(js)).assign([1, 2])[1] == "#123456"
    with pytest.raises(ValueError, match="unknown palette 'rainbow'"):
        pal.load_palette("rainbow")
    bad = tmp_path / "bad.txt"
    bad.write_text("# #88\n")
    with pytest.raises(ValueError, match=r"bad.txt:1: expected a colour #rrggbb$"):
        pal.load_palette(str(bad))


def test_show_palette_option(searchkit_cli_run, tmp_path):
    out = tmp_path / "g.svg"
    result = searchkit_cli_run(["show", "flood", str(PC19), "--palette", "greys", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert all(f[1:3] == f[3:5] == f[5:7] for f in _fills(out.read_text()).values())
    result = searchkit_cli_run(["show", "flood", str(PC19), "--palette", "nope", "-o", str(out)])
    assert result.exit_code == 2 and "--palette: unknown palette 'nope'" in result.output
    assert "Traceback" not in result.output


def test_long_labels_wrap_within_their_frame():
    frame = Frame([[1, 2], [2, 1]])
    long = "move 12: a label much longer than a two-cell board is wide"
    svg = render_svg([Step(frame, 0, None, True, "start"), Step(frame, 1, "x", True, long)])
    root = ET.fromstring(svg)
    labels = [e for e in root.iter(NS + "text") if e.get("class") == "frame-label"]
    spans = list(labels[1].iter(NS + "tspan"))
    assert len(spans) >= 3 and "".join(s.text for s in spans) == long
    width = int(root.get("width"))
    assert width < 2 * 400  # two slots of the narrow width, not two of the long label's


def test_mayan_pictures_have_x_and_y_axes(searchkit_registry, searchkit_cli_run):
    _, _, _, steps = solution(searchkit_registry, "mayan", MAYAN)
    root = ET.fromstring(render_svg(steps[:1]))
    axes = [e.text for e in root.iter(NS + "text") if e.get("class") == "axis-label"]
    assert axes == ["0", "1", "2", "3", "4", "6", "5", "4", "3", "2", "1", "0"]  # x under, y from the top down
    text = searchkit_cli_run(["show", "mayan", str(MAYAN)]).output.splitlines()
    assert text[1].startswith("6 ") and text[7].startswith("0 ") and text[8].split() == ["0", "1", "2", "3", "4"]


def test_a_wide_board_in_a_pipe_keeps_one_line_a_row(searchkit_cli_run, tmp_path):
    """Not a terminal: rich used to wrap a 45-cell row at 80 columns, breaking the board into pieces."""
    rows = ["".join("123"[(x * 7 + y * 3) % 3] for x in range(45)) for y in range(45)]
    path = tmp_path / "wide.txt"
    path.write_text("".join(rows) + "\n")
    out = searchkit_cli_run(["show", "flood", str(path), "--input-format", "lines", "--moves", "2"]).output.splitlines()
    board_lines = [line for line in out if line and line[0].isdigit()]
    assert len(board_lines) == 2 * 45 and all(len(line.split()) == 45 for line in board_lines)


def test_a_game_may_bring_its_own_palette(searchkit_cli_run, tmp_path, monkeypatch):
    """A game's ``palette`` attribute (walls grey, floor white) is used when the user chooses none."""
    import searchkit
    from searchkit import api

    game = api.registry().game("flood")
    monkeypatch.setattr(type(game), "palette", {"1": "#111111"}, raising=False)
    o = searchkit.solve("flood", PC19.read_text().splitlines()[0])
    assert 'fill="#111111"' in o.show()
    assert 'fill="#111111"' not in o.show(palette="greys")  # the user's choice wins
    out = tmp_path / "own.svg"
    assert searchkit_cli_run(["show", "flood", str(PC19), "-o", str(out)]).exit_code == 0
    assert 'fill="#111111"' in out.read_text()
