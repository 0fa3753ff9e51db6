"""SVG, PNG, GIF and terminal pictures: every cell of every frame in its value's palette colour."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from render_helpers import MAYAN, PC19, RANDOM8, flood_grids, solution

from searchkit.render import palette as pal
from searchkit.render.grid import Frame, legend_values

SVG = "{http://www.w3.org/2000/svg}"


def _svg_frames(text: str):
    root = ET.fromstring(text)
    return [g for g in root.iter(SVG + "g") if g.get("class") == "frame"]


def _cells(group):
    return {(int(r.get("data-row")), int(r.get("data-col"))): r.get("fill")
            for r in group.iter(SVG + "rect") if r.get("class") == "cell"}


@pytest.mark.parametrize("path,case", [(PC19, 1), (RANDOM8, 2)])
def test_flood_svg_cells_follow_an_independent_replay(searchkit_registry, path, case):
    from searchkit.render.svg import render_svg

    game, the_case, moves, steps = solution(searchkit_registry, "flood", path, case)
    board = the_case.data
    values = [board.palette[m] for m in moves]
    expected = flood_grids(board.rows(), values)
    colours = pal.assign(sorted(board.palette, key=int))
    groups = _svg_frames(render_svg(steps))
    assert len(groups) == len(moves) + 1
    for group, grid in zip(groups, expected):
        cells = _cells(group)
        assert len(cells) == board.width * board.height
        for (r, c), fill in cells.items():
            assert fill == colours[grid[r][c]], (group.get("data-step"), r, c)
    # the legend names the input's own values with their colours
    root = ET.fromstring(render_svg(steps))
    swatches = {r.get("data-value"): r.get("fill") for r in root.iter(SVG + "rect") if r.get("class") == "swatch"}
    assert swatches == {v: colours[v] for v in board.palette}


def test_mayan_svg_has_each_cascade_frame(searchkit_registry):
    from searchkit.render.svg import render_svg

    game, case, moves, steps = solution(searchkit_registry, "mayan", MAYAN)
    groups = _svg_frames(render_svg(steps, labels=True))
    assert len(groups) == len(steps) == 13  # start, 3 moves, 3 swaps, 3 cascade rounds of vanish + eliminated
    labels = [s.label for s in steps]
    assert labels[:3] == ["start", "move 1: 2 1 1 (swap)", "move 1: 2 1 1"]
    assert labels.count("move 3: 3 0 1 (vanish)") == 3 and labels[-1] == "move 3: 3 0 1"
    colours = pal.assign(legend_values([s.frame for s in steps]))
    for group, step in zip(groups, steps):
        cells = _cells(group)
        assert len(cells) == 5 * 7
        for (r, c), fill in cells.items():
            assert fill == colours[step.frame.rows[r][c]]
    # the swap frame marks the two cells, a vanish frame the run
    assert steps[1].frame.marks == {(5, 2), (5, 3)}
    vanish = next(s for s in steps if s.label.endswith("(vanish)"))
    assert len(vanish.frame.marks) == 6  # 2 2 2 across the bottom and 3 3 3 up the right (after move 3)
    assert steps[-1].frame.rows == ((None,) * 5,) * 7


def test_sliding_tiles_marks_the_tile_that_slid(searchkit_registry):
    from render_helpers import EIGHT

    game, case, moves, steps = solution(searchkit_registry, "sliding-tiles", EIGHT, 2)
    assert moves == ["D", "L", "D", "R", "R"] or len(moves) == len(steps) - 1
    for before, after, move in zip(steps, steps[1:], moves):
        (r, c), = after.frame.marks
        blank = next((i, j) for i, row in enumerate(before.frame.rows) for j, v in enumerate(row) if v is None)
        assert (r, c) == blank and after.frame.rows[r][c] is not None
    assert steps[-1].frame.rows == ((1, 2, 3), (4, 5, 6), (7, 8, None))
    assert steps[0].frame.labels


@pytest.mark.python_engine("sliding tiles")
def test_png_pixel_at_each_cell_centre(searchkit_registry):
    pytest.importorskip("PIL")
    from PIL import Image

    from searchkit.render.layout import layout
    from searchkit.render.raster import picture

    for game_name, path in (("flood", RANDOM8), ("mayan", MAYAN)):
        _, _, _, steps = solution(searchkit_registry, game_name, path)
        image = picture(steps)
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        image = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        lay = layout(steps)
        assert image.size == (lay.width, lay.height)
        for i, step in enumerate(steps):
            for r, c, value in step.frame.cells():
                assert image.getpixel(lay.cell_centre(i, r, c)) == pal.rgb(lay.colours[value]), (game_name, i, r, c)


@pytest.mark.python_engine("sliding tiles")
def test_gif_has_one_frame_per_step(searchkit_registry, tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    from searchkit.render.raster import LAST_MS, save_gif
    from searchkit.render.layout import single_layout

    for game_name, path, expected in (("flood", PC19, 19 + 1), ("mayan", MAYAN, 3 + 1 + 9)):
        _, _, moves, steps = solution(searchkit_registry, game_name, path)
        out = tmp_path / f"{game_name}.gif"
        save_gif(out, steps)
        with Image.open(out) as gif:
            assert gif.n_frames == expected == len(steps)
            lay = single_layout(steps)
            for i in range(gif.n_frames):
                gif.seek(i)
                frame = gif.convert("RGB")
                for r, c, value in steps[i].frame.cells():
                    assert frame.getpixel(lay.cell_centre(0, r, c)) == pal.rgb(lay.colours[value])
            assert gif.info["duration"] == LAST_MS  # the last frame (current after the loop) pauses


def test_terminal_cells_through_a_recording_console(searchkit_registry):
    from rich.console import Console

    from searchkit.render.terminal import render_terminal

    _, case, moves, steps = solution(searchkit_registry, "flood", RANDOM8)
    console = Console(record=True, color_system="truecolor", width=200, file=io.StringIO())
    render_terminal(steps, console, labels=True, across=False)
    text = console.export_text(styles=False, clear=False)
    lines = text.splitlines()
    board = case.data
    grids = flood_grids(board.rows(), [board.palette[m] for m in moves])
    # each step: its label line, then H lines of W cells (value centred in 2 columns)
    assert lines[0] == "start"
    for k, grid in enumerate(grids):
        block = lines[k * 9 + 1:k * 9 + 9]
        assert [line.split() for line in block] == grid, k
    # and each cell's background is its value's colour
    html = console.export_html(inline_styles=True)
    colours = pal.assign(sorted(board.palette, key=int))
    backgrounds = re.findall(r'background-color: (#[0-9a-f]{6})[^>]*>(.*?)</span>', html)
    cells = [bg for bg, run in backgrounds for _ in range(len(run) // 2)]  # rich merges equal neighbours
    first = cells[:64]
    expected = [colours[v].lower() for row in grids[0] for v in row]
    assert first == expected


def test_terminal_boards_side_by_side(searchkit_registry):
    from rich.console import Console

    from searchkit.render.terminal import render_terminal

    _, case, moves, steps = solution(searchkit_registry, "flood", RANDOM8)
    console = Console(record=True, color_system="truecolor", width=100, file=io.StringIO())
    render_terminal(steps, console, labels=True)
    lines = console.export_text(styles=False).splitlines()
    board = case.data
    assert lines[0].split() == ["start", "move", "1:", "5", "move", "2:", "4", "move", "3:", "0", "move", "4:", "2"]
    # 5 boards of 16 columns and 3 between fit in 100 columns
    grid = flood_grids(board.rows(), [board.palette[m] for m in moves])
    row = lines[1].split()
    assert row == grid[0][0] + grid[1][0] + grid[2][0] + grid[3][0] + grid[4][0]


def test_terminal_without_colour_is_plain_text():
    from rich.console import Console

    from searchkit.render.grid import Step
    from searchkit.render.terminal import render_terminal

    frame = Frame([[1, None], [2, 1]], marks=[(0, 0)], mark="x")
    console = Console(record=True, color_system=None, width=80, file=io.StringIO())
    render_terminal([Step(frame, 0, None, True, "start")], console)
    assert console.export_text() == "start\n1 .\n2 1\n"


def test_palette():
    assert pal.colours(8) == pal.OKABE_ITO
    assert len(set(pal.colours(16))) == 16 and pal.colours(16)[:8] == pal.OKABE_ITO
    many = pal.colours(40)
    assert len(set(many)) == 40 and many == pal.colours(40) and many[:16] == pal.colours(16)


def test_frame_checks_its_shape():
    with pytest.raises(ValueError, match="row 1 has 1 cells"):
        Frame([[1, 2], [3]])
    with pytest.raises(ValueError, match="outside"):
        Frame([[1]], marks=[(1, 0)])
