"""searchkit from Python: solve, solve_all, compare, the listings, and outcomes that read and draw themselves."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import searchkit
from searchkit.errors import InputError, PlanError, UnknownNameError

from conftest import EXAMPLES, ROOT

PC19 = ROOT / "tests" / "data" / "pc19-first50.txt"
PC19_ANSWERS = [int(x) for x in (ROOT / "tests" / "data" / "pc19-first50.ans").read_text().split()]
MAYAN = EXAMPLES / "mayan"


def first_lines(n: int) -> list[str]:
    return PC19.read_text().splitlines()[:n]


@pytest.fixture
def four(tmp_path) -> Path:
    path = tmp_path / "four.txt"
    path.write_text("\n".join(first_lines(4)) + "\n")
    return path


def test_the_issue_snippet_prints_19_the_cli_colours_and_true(tmp_path):
    """The 'done when' of issue 21, with the CLI's own answer to compare against."""
    board = first_lines(1)[0]
    path = tmp_path / "one.txt"
    path.write_text(board + "\n")
    cli = subprocess.run([sys.executable, "-m", "searchkit", "solve", "flood", "--moves", str(path)],
                         capture_output=True, text=True, check=True).stdout.strip()
    o = searchkit.solve("flood", board)
    assert o.cost == 19 and o.status == "solved" and o.lower_bound == 19 and o.gap == 0
    assert cli == "19: " + " ".join(map(str, o.moves))
    assert "<svg" in o._repr_svg_()
    assert o.engine in ("python", "native") and o.seconds > 0 and o.stats.expanded > 0
    assert len(o.raw_moves) == 19 and all(isinstance(m, int) for m in o.raw_moves)  # palette indices


def test_import_searchkit_pulls_in_neither_click_rich_nor_pluggy():
    code = ("import sys, searchkit; heavy = [m for m in ('click', 'rich', 'pluggy', 'attrs', 'searchkit.api') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert callable(searchkit.solve) and "solve_all" in dir(searchkit)
    with pytest.raises(AttributeError):
        searchkit.no_such_name  # noqa: B018


def test_mayan_moves_are_x_y_dir_and_the_record_is_the_clis(tmp_path):
    text = (MAYAN / "noip2011-sample.in").read_text() if (MAYAN / "noip2011-sample.in").exists() else None
    if text is None:
        from conftest import shared

        text = shared("mayan", "noip2011-sample.in").read_text()
    path = tmp_path / "m.in"
    path.write_text(text)
    o = searchkit.solve("mayan", text)
    assert o.moves == ("2 1 1", "3 1 1", "3 0 1") and o.raw_moves == ((2, 1, 1), (3, 1, 1), (3, 0, 1))
    line = subprocess.run([sys.executable, "-m", "searchkit", "solve", "mayan", "--format", "jsonl", str(path)],
                          capture_output=True, text=True, check=True).stdout.strip()
    cli = json.loads(line)
    mine = o.record()
    assert list(mine) == list(cli)  # the same keys in the same order
    for key in ("schema", "game", "case", "line", "data_hash", "status", "cost", "lower_bound", "gap", "length",
                "moves", "algorithm", "heuristic", "options", "error"):
        assert mine[key] == cli[key], key
    assert mine["source"] == "<text>" and set(mine["stats"]) == set(cli["stats"])


def test_solve_refuses_several_cases_and_bad_input_with_one_line(four):
    with pytest.raises(InputError, match=r"more than one case.*solve_all"):
        searchkit.solve("flood", four.read_text())
    with pytest.raises(InputError, match="empty input"):
        searchkit.solve("flood", "  \n")
    with pytest.raises(InputError, match="square board"):
        searchkit.solve("flood", "123\n")
    with pytest.raises(TypeError, match="solve_all"):
        searchkit.solve("flood", four)


def test_solve_checks_names_and_options_as_the_cli_does():
    board = first_lines(1)[0]
    with pytest.raises(UnknownNameError, match="unknown option 'colour'"):
        searchkit.solve("flood", board, colour=3)
    with pytest.raises(UnknownNameError, match="engine"):
        searchkit.solve("flood", board, engine="rust-please")
    with pytest.raises(UnknownNameError):
        searchkit.solve("flood", board, heuristic="nope")
    with pytest.raises(TypeError, match="width"):
        searchkit.solve("flood", board, width="14")
    with pytest.raises(ValueError, match="start"):
        searchkit.solve("flood", board, start="middle")
    with pytest.raises(PlanError, match="uses no heuristic"):
        searchkit.solve("flood", board, algorithm="bfs", heuristic="puchert")
    o = searchkit.solve("flood", board, algorithm="ida_star", heuristic="layered", start="centre",
                        no_prune=["exposure"])
    assert o.status == "solved" and o.algorithm == "ida_star" and o.heuristic == "layered"
    assert o.options["start"] == "centre" and o.options["input_format"] == "auto"  # the rest take their defaults


def test_a_limit_is_an_outcome_not_an_error():
    o = searchkit.solve("flood", first_lines(2)[1], algorithm="ida_star", heuristic="colours", max_nodes=50)
    assert o.status == "node_limit" and o.cost is None and o.moves == () and o.lower_bound is not None
    assert "<svg" in o._repr_svg_()  # the start alone
    assert "node_limit" in o._repr_html_() and "node_limit" in repr(o)


def test_solve_all_with_two_workers_keeps_input_order(four):
    outcomes = list(searchkit.solve_all("flood", four, jobs=2))
    assert [o.index for o in outcomes] == [1, 2, 3, 4]
    assert [o.cost for o in outcomes] == PC19_ANSWERS[:4]
    assert all(o.status == "solved" and o.source == str(four) for o in outcomes)
    serial = list(searchkit.solve_all("flood", str(four)))  # a str naming a file is that file
    assert [o.moves for o in serial] == [o.moves for o in outcomes]


def test_solve_all_reads_texts_and_makes_bad_cases_outcomes():
    texts = ["1221\n", "123\n", "\n", first_lines(1)[0]]
    outcomes = list(searchkit.solve_all("flood", texts, input_format="lines"))
    statuses = [(o.source, o.index, o.status) for o in outcomes]
    assert statuses[0] == ("<text 1>", 1, "solved")
    assert ("<text 2>", 1, "input_error") in statuses and ("<text 3>", None, "input_error") in statuses
    bad = [o for o in outcomes if o.status == "input_error"]
    assert all(o.error and o.cost is None and o.record()["status"] == "input_error" for o in bad)
    assert outcomes[-1].source == "<text 4>"


def test_leaving_solve_all_early_stops_its_workers(tmp_path):
    path = tmp_path / "ten.txt"
    path.write_text("\n".join(first_lines(10)) + "\n")
    it = searchkit.solve_all("flood", path, jobs=2)
    first = next(it)
    it.close()  # the pool is closed with the generator
    assert first.index == 1


def test_compare_tabulates_two_heuristics_on_a_generated_set(tmp_path):
    generated = subprocess.run([sys.executable, "-m", "searchkit", "generate", "flood", "--count", "4", "--size",
                                "5", "--seed", "3"], capture_output=True, text=True, check=True).stdout
    path = tmp_path / "gen.txt"
    path.write_text(generated)
    table = searchkit.compare("flood", path, heuristics=["colours", "layered"], algorithms="astar")
    assert table.strategies == ("colours", "layered")
    assert len(table.rows) == 8 and all(dataclasses.is_dataclass(r) for r in table.rows)
    assert [r.strategy for r in table.rows[:2]] == ["colours", "layered"]
    costs = {(r.case, r.strategy): r.cost for r in table.rows}
    assert all(costs[(c, "colours")] == costs[(c, "layered")] for c in range(1, 5))  # both admissible
    records = table.to_records()
    assert records[0]["strategy"] == "colours" and set(records[0]) == {f.name for f in
                                                                       dataclasses.fields(table.rows[0])}
    frame = table.to_pandas()
    assert list(frame["strategy"][:2]) == ["colours", "layered"] and len(frame) == 8
    totals = table.totals()
    assert totals["colours"]["solved"] == 4 and totals["layered"]["cost"] == totals["colours"]["cost"]
    html = table._repr_html_()
    assert html.count("<table>") == 2 and "layered" in html
    figure = table.plot(tmp_path / "plot.svg")
    assert (tmp_path / "plot.svg").stat().st_size > 1000
    assert figure._repr_svg_().lstrip().startswith("<?xml")
    workers = searchkit.compare("flood", path, heuristics=["colours", "layered"], algorithms="astar", jobs=2)
    assert [(r.case, r.strategy, r.cost) for r in workers.rows] == [(r.case, r.strategy, r.cost)
                                                                   for r in table.rows]


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch, four):
    table = searchkit.compare("flood", first_lines(1)[0], heuristics="puchert")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'searchkit-puzzles\[pandas\]'"):
        table.to_pandas()
    assert table.to_records()[0]["cost"] == 19


def test_listings_are_the_clis_facts_as_values(searchkit_cli_run):
    names = [g.name for g in searchkit.games()]
    assert {"flood", "mayan", "sliding-tiles"} <= set(names)
    heuristics = {h.name: h for h in searchkit.heuristics("flood")}
    listed = searchkit_cli_run(["heuristics", "flood"]).output.splitlines()
    assert [line.split("\t")[0] for line in listed] == list(heuristics)
    assert heuristics["puchert"].admissible
    rules = [r.name for r in searchkit.rules("flood")]
    assert rules == [line.split("\t")[0] for line in searchkit_cli_run(["rules", "flood"]).output.splitlines()]
    algorithms = {a.name: a for a in searchkit.algorithms()}
    assert algorithms["astar"].kind == "optimal" and algorithms["wastar"].params["weight"] > 1
    with pytest.raises(UnknownNameError):
        searchkit.heuristics("chess")


def test_show_returns_or_writes_every_format(tmp_path):
    o = searchkit.solve("flood", first_lines(1)[0])
    svg = o.show()
    root = ET.fromstring(svg)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='frame']")) == 20
    assert o.show("html").startswith("<!DOCTYPE html>")
    assert o.show("png").startswith(b"\x89PNG") and o.show("gif").startswith(b"GIF8")
    assert o.show(tmp_path / "x.gif") == str(tmp_path / "x.gif") and (tmp_path / "x.gif").stat().st_size > 0
    with pytest.raises(ValueError, match="picture format"):
        o.show("x.bmp")
    grey = o.show(palette="greys")
    fills = {e.get("fill") for e in ET.fromstring(grey).iter("{http://www.w3.org/2000/svg}rect")
             if e.get("class") == "cell"}
    assert all(f[1:3] == f[3:5] == f[5:7] for f in fills)  # every cell a grey
    fixed = o.show(palette={"1": "#123456"})
    assert 'fill="#123456"' in fixed
    page = o._repr_html_()
    assert page.startswith("<p><code>") and "<iframe srcdoc=" in page and "solved, cost 19" in page


@pytest.mark.parametrize("game, size", [("flood", 6), ("mayan", None), ("sliding-tiles", 3)])
def test_generate_writes_what_the_cli_writes(game, size):
    args = [sys.executable, "-m", "searchkit", "generate", game, "--seed", "5"]
    count = 1 if game == "mayan" else 3
    args += ["--count", str(count)] + (["--size", str(size)] if size else [])
    cli = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    assert searchkit.generate(game, count, seed=5, size=size) == cli
    with pytest.raises(UnknownNameError, match="unknown generator option"):
        searchkit.generate(game, colour=3)


def test_text_after_the_judge_terminator_is_an_error_not_a_warning():
    # a judge stops at its 0, but what follows may be cases: refused, not ignored (it was a UserWarning)
    with pytest.raises(InputError, match=r"2 tokens after the terminating 0 \(line 4\) are not read"):
        searchkit.solve("flood", "2\n1 2\n2 1\n0\nextra stuff\n")


def test_missing_extras_say_what_to_install(monkeypatch):
    o = searchkit.solve("flood", first_lines(1)[0])
    table = searchkit.compare("flood", first_lines(1)[0], heuristics="puchert")
    for name in ("matplotlib", "matplotlib.ticker", "matplotlib.figure", "PIL"):
        monkeypatch.setitem(sys.modules, name, None)
    from searchkit.render import raster

    monkeypatch.setattr(raster, "_FONTS", {})
    with pytest.raises(ImportError, match=r"needs matplotlib: pip install 'searchkit-puzzles\[plots\]'"):
        table.plot()
    with pytest.raises(ImportError, match=r"PNG pictures need Pillow: pip install 'searchkit-puzzles\[pictures\]'"):
        o.show("png")
    assert o.show("svg").startswith("<svg")  # SVG needs nothing


def _interrupting_plugin():
    """A flood heuristic interrupted in the middle of the search, as Ctrl-C would."""
    import types

    from searchkit.heuristic import Heuristic
    from searchkit.plugin.spec import hookimpl

    def interrupted(puzzle):
        calls = []

        def estimate(state):
            calls.append(state)
            if len(calls) > 5:
                raise KeyboardInterrupt
            return 0

        return estimate

    mod = types.ModuleType("interrupting")

    @hookimpl
    def register_heuristics(register):
        register(Heuristic("flood", "ctrl-c", interrupted, summary="Ctrl-C on the sixth estimate"))

    mod.register_heuristics = register_heuristics
    return mod


@pytest.mark.python_engine("the ctrl-c heuristic is a Python test plugin's")
def test_ctrl_c_ends_solve_all_after_the_interrupted_case(monkeypatch):
    from searchkit.api import _registry as api
    from searchkit.plugin.manager import load_registry

    monkeypatch.setattr(api, "_REGISTRY", [load_registry(extra=[("interrupting", _interrupting_plugin())])])
    outcomes = list(searchkit.solve_all("flood", first_lines(3), algorithm="ida_star", heuristic="ctrl-c"))
    assert [o.status for o in outcomes] == ["cancelled"]


def test_a_str_that_names_a_file_and_reads_as_a_text_is_refused(tmp_path, monkeypatch):
    # "1221" is a 2x2 lines board and, here, a file holding another board: two readings, so neither is guessed
    monkeypatch.chdir(tmp_path)
    (tmp_path / "1221").write_text("1234\n")
    with pytest.raises(ValueError, match=r"pathlib.Path\('1221'\).*'1221\\n'"):
        list(searchkit.solve_all("flood", "1221", input_format="lines"))
    assert [o.cost for o in searchkit.solve_all("flood", Path("1221"), input_format="lines")] == [3]
    assert [o.cost for o in searchkit.solve_all("flood", "1221\n", input_format="lines")] == [2]
    # a file name that is no valid text is still the file
    (tmp_path / "boards.txt").write_text("1234\n")
    assert [o.cost for o in searchkit.solve_all("flood", "boards.txt", input_format="lines")] == [3]


@pytest.mark.parametrize("kw, error", [({"time_limit": "abc"}, TypeError), ({"max_nodes": 1.5}, TypeError),
                                       ({"time_limit": True}, TypeError), ({"time_limit": -1}, ValueError),
                                       ({"time_limit": float("nan")}, ValueError), ({"max_nodes": -3}, ValueError),
                                       # a tester's: these went through, or failed with internal messages
                                       ({"time_limit": float("inf")}, ValueError), ({"max_nodes": 2**70}, ValueError),
                                       ({"upper_bound": "19"}, TypeError), ({"upper_bound": -5}, ValueError),
                                       ({"upper_bound": 2**40}, ValueError), ({"upper_bound": True}, TypeError),
                                       ({"heuristic": 3}, TypeError), ({"heuristic": ["colours"]}, TypeError),
                                       ({"algorithm": 1}, TypeError)])
def test_limits_of_the_wrong_type_or_range_are_refused_by_name(kw, error):
    with pytest.raises(error, match=next(iter(kw))):
        searchkit.solve("flood", "1221\n", input_format="lines", **kw)


@pytest.mark.parametrize("args, kw, error", [((-2,), {}, ValueError), ((0,), {}, ValueError),
                                             ((1,), {"size": "4"}, TypeError), ((True,), {}, TypeError),
                                             ((1.0,), {}, TypeError)])
def test_generate_refuses_a_count_or_size_that_is_no_whole_number(args, kw, error):
    with pytest.raises(error, match="count|size"):
        searchkit.generate("flood", *args, **kw)


def test_a_missing_file_a_mapping_and_a_none_name_are_not_guessed(tmp_path, monkeypatch):
    # a tester's: a mistyped path was read as a board and blamed for its '/', a dict was solved by its keys, and
    # compare(algorithms=[None]) ran the default algorithm as if asked for
    monkeypatch.chdir(tmp_path)
    [missing] = searchkit.solve_all("flood", "boards/missing.txt", input_format="lines")
    assert missing.status == "input_error" and missing.error.startswith("no file named 'boards/missing.txt' here")
    [bad] = searchkit.solve_all("flood", "123\n", input_format="lines")  # a text (it has a newline): no file named
    assert bad.status == "input_error" and "no file named" not in bad.error
    for source in ({"1221\n": 1}, {"1221\n"}):
        with pytest.raises(TypeError, match="sequence"):
            list(searchkit.solve_all("flood", source, input_format="lines"))
    for kw in ({"algorithms": [None]}, {"algorithms": ["ida_star", 3]}, {"heuristics": [None]}):
        with pytest.raises(TypeError, match=next(iter(kw))):
            searchkit.compare("flood", "1221\n", input_format="lines", **kw)
    assert searchkit.compare("flood", "1221\n", algorithms=["ida_star"], input_format="lines").rows[0].cost == 2


def test_solve_all_takes_jobs_auto_and_checks_its_arguments_at_the_call(four):
    """A tester's defects: `jobs="auto"` was refused though `--jobs auto` is the CLI's; a bad argument raised
    only when the loop began (solve_all was one generator); generate(size=0) said "size must be 1..any"."""
    from searchkit.machinery.batch.executors import usable_cpus

    with pytest.raises(ValueError, match="jobs must be a number of worker processes >= 1 or 'auto', got 0"):
        searchkit.solve_all("flood", four, jobs=0)  # no next(): raised at the call
    with pytest.raises(TypeError, match="got dict"):
        searchkit.solve_all("flood", {four: 1})
    with pytest.raises(TypeError, match="got bytes"):  # it was refused only in the loop, as "got int"
        searchkit.solve_all("flood", b"2\n0 0\n0 0\n0\n")
    with pytest.raises(TypeError, match="got int"):
        searchkit.solve_all("flood", [four, 5])
    outcomes = list(searchkit.solve_all("flood", four, jobs="auto"))
    assert usable_cpus() >= 1 and [o.index for o in outcomes] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="size must be at least 1, got 0"):
        searchkit.generate("flood", size=0)


def test_the_api_reads_searchkit_engine_as_the_command_line_does(monkeypatch):
    """Issue 33 item 3: the API ignored ``SEARCHKIT_ENGINE``, so CI's Python pass did not change the API tests."""
    from searchkit.errors import PlanError

    monkeypatch.setenv("SEARCHKIT_ENGINE", "python")
    assert searchkit.solve("flood", "1221\n", input_format="lines").engine == "python"
    assert [o.engine for o in searchkit.solve_all("flood", "1221\n", input_format="lines")] == ["python"]
    monkeypatch.setenv("SEARCHKIT_ENGINE", "bogus")
    with pytest.raises(PlanError, match="SEARCHKIT_ENGINE='bogus'"):
        searchkit.solve("flood", "1221\n", input_format="lines")
    assert searchkit.solve("flood", "1221\n", input_format="lines", engine="python").engine == "python"  # named wins
