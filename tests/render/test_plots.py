"""``compare --plot``: a valid SVG or PNG for two heuristics on the shared 8x8 set; one line without matplotlib."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import pytest
from conftest import shared
from render_helpers import RANDOM8


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_compare_plot_two_heuristics_on_the_shared_8x8_set(searchkit_cli_run, tmp_path, suffix):
    pytest.importorskip("matplotlib")
    cases = shared("flood", "random-8x8-6c.txt")
    out = tmp_path / f"cmp{suffix}"
    result = searchkit_cli_run(["compare", "flood", str(cases), "-H", "puchert", "-H", "colours", "--format", "csv",
                                "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert f"searchkit: wrote {out}" in result.output
    if suffix == ".svg":
        root = ET.parse(out).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        text = out.read_text()
        assert "puchert" in text and "colours" in text and "cases solved within t" in text
    else:
        from PIL import Image

        with Image.open(out) as image:
            image.verify()
            assert image.format == "PNG" and image.size[0] > 600


def test_compare_plot_errors(searchkit_cli_run, tmp_path, monkeypatch):
    bad = searchkit_cli_run(["compare", "flood", str(RANDOM8), "-H", "puchert", "--format", "csv",
                             "--plot", str(tmp_path / "x.pdf")])
    assert bad.exit_code == 2 and "use a name ending in .svg or .png" in bad.output
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    missing = searchkit_cli_run(["compare", "flood", str(RANDOM8), "-H", "puchert", "--format", "csv",
                                 "--plot", str(tmp_path / "x.svg")])
    assert missing.exit_code == 2
    assert missing.output.strip().splitlines()[-1] == ("searchkit: error: --plot needs matplotlib: "
                                                       "pip install 'searchkit-puzzles[plots]'")


@pytest.mark.parametrize("plot, message", [
    ("x.pdf", "use a name ending in .svg or .png"),
    ("missing/x.svg", "cannot write"),
    (None, "--plot needs matplotlib: pip install 'searchkit-puzzles[plots]'"),
])
def test_compare_plot_is_refused_before_the_comparison_runs(searchkit_cli_run, tmp_path, monkeypatch, plot, message):
    # was: every case solved with every heuristic and the table printed, then the error
    if plot is None:
        monkeypatch.setitem(sys.modules, "matplotlib", None)
        monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    out = searchkit_cli_run(["compare", "flood", str(RANDOM8), "-H", "puchert", "--format", "csv",
                             "--plot", str(tmp_path / (plot or "x.svg"))])
    assert out.exit_code == 2
    assert out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and message in out.stderr
