"""``searchkit report``: every table's numbers against figures computed by hand from small hand-made record files.

The files (built by :func:`_experiment`) hold two runs over four instances ``h1``..``h4``:

========  =====================================  =========================================================
instance  ``a`` (astar/puchert)                  ``b`` (wastar/puchert)
========  =====================================  =========================================================
h1        solved 10 (exp 100, gen 200, 0.1 s)    feasible 12, lower bound 9 (exp 50, gen 90, 0.05 s)
h2        time_limit, then solved 20 (exp 1000,  solved 20 (exp 10000, gen 30000, 4.0 s)
          gen 2000, 1.0 s): the last one counts
h3        solved 30 (exp 10, gen 20, 0.0001 s)   time_limit
h4        -                                      error "its worker process died (killed by SIGKILL)"
========  =====================================  =========================================================
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from searchkit.tools.report import ReportError, load_report


def rec(h: str, status: str, *, case: int, cost=None, lb=None, exp=0, gen=0, sec=0.01, alg="astar",
        heur="puchert", engine="native", error=None, layers=None, game="flood", peak=1000) -> dict:
    iterations = [{"bound": b, "expanded": e, "generated": 0, "elapsed": 0.0, "evaluated": 0, "kind": "f-layer"}
                  for b, e in (layers or [])]
    return {"schema": 1, "game": game, "source": "boards.txt", "case": case, "line": case,
            "data_hash": None if h is None else f"sha256:{h}", "status": status, "cost": cost, "lower_bound": lb,
            "gap": None if cost is None or lb is None else cost - lb, "length": cost, "moves": [],
            "algorithm": alg, "heuristic": heur, "engine": engine, "seconds": sec,
            "options": {"input_format": "auto", "moves": False, "start": "top-left", "width": None},
            "upper_bound": None, "peak_rss_kb": peak,
            "stats": {"expanded": exp, "generated": gen, "evaluated": gen, "elapsed": sec, "iterations": iterations,
                      "per_depth": [], "per_depth_seconds": [], "peak_stored": 0, "rule_cuts": {}},
            "error": error}


def write(path, records, tail: str = "") -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail)
    return str(path)


def _experiment(tmp_path):
    a = write(tmp_path / "a.jsonl", [
        rec("h1", "solved", case=1, cost=10, lb=10, exp=100, gen=200, sec=0.1, layers=[(9, 60), (10, 40)]),
        rec("h2", "time_limit", case=2, lb=15, exp=5, gen=9, sec=9.0),
        rec("h3", "solved", case=3, cost=30, lb=30, exp=10, gen=20, sec=0.0001, layers=[(30, 10)]),
        rec("h2", "solved", case=2, cost=20, lb=20, exp=1000, gen=2000, sec=1.0, layers=[(19, 700), (20, 300)]),
    ])
    b = write(tmp_path / "b.jsonl", [
        rec("h1", "feasible", case=1, cost=12, lb=9, exp=50, gen=90, sec=0.05, alg="wastar"),
        rec("h2", "solved", case=2, cost=20, lb=20, exp=10000, gen=30000, sec=4.0, alg="wastar",
            layers=[(20, 10000)]),
        rec("h3", "time_limit", case=3, lb=25, exp=7, gen=8, sec=10.0, alg="wastar"),
        rec("h4", "error", case=4, alg=None, heur=None, engine=None, sec=None,
            error="its worker process died (killed by SIGKILL)"),
    ])
    return a, b


def by_label(table) -> dict:
    return {row[0]: dict(zip(table.columns, row)) for row in table.rows}


def test_coverage_counts_the_last_record_of_each_instance(tmp_path):
    report = load_report(_experiment(tmp_path))
    cov = by_label(report.coverage())
    assert cov["a"]["instances"] == 3 and cov["a"]["solved"] == 3 and cov["a"]["time_limit"] == 0
    assert (cov["b"]["instances"], cov["b"]["solved"], cov["b"]["feasible"], cov["b"]["time_limit"],
            cov["b"]["error"]) == (4, 1, 1, 1, 1)
    by_file = report.coverage_by_file()
    assert [(r[0], r[1], r[2]) for r in by_file.rows] == [("boards.txt", "a", 3), ("boards.txt", "b", 4)]
    assert report.instances == ("sha256:h1", "sha256:h2", "sha256:h3", "sha256:h4")


def test_geometric_means_are_over_the_commonly_solved_instances(tmp_path):
    report = load_report(_experiment(tmp_path))
    geo = by_label(report.geometric_means())
    # Only h2 is solved by both: the means are h2's own figures.
    assert geo["a"]["instances"] == 1 and geo["a"]["expanded"] == pytest.approx(1000)
    assert geo["b"]["expanded"] == pytest.approx(10000) and geo["b"]["generated"] == pytest.approx(30000)
    assert geo["a"]["seconds"] == pytest.approx(1.0) and geo["b"]["seconds"] == pytest.approx(4.0)
    # Expanded before the last f-layer: a 1000 - 300, b 10000 - 10000.
    assert geo["a"]["expanded before last f-layer"] == pytest.approx(700)
    assert geo["b"]["expanded before last f-layer"] == pytest.approx(1)  # max(0, 1)


def test_geometric_mean_of_several_and_its_floor(tmp_path):
    from searchkit.tools.report import geometric_mean

    assert geometric_mean([10, 1000]) == pytest.approx(100)
    assert geometric_mean([0, 100]) == pytest.approx(10)  # 0 counts as 1
    assert geometric_mean([0.0001, 0.1], floor=0.001) == pytest.approx(math.sqrt(0.001 * 0.1))
    assert geometric_mean([]) is None


def test_quality_ipc_score_and_proven_gap(tmp_path):
    report = load_report(_experiment(tmp_path))
    q = by_label(report.quality())
    # Commonly answered: h1 and h2.  Best known: h1 10, h2 20, h3 30.
    assert q["a"]["commonly answered"] == 2 and q["a"]["cost"] == 30 and q["a"]["best known cost"] == 30
    assert q["a"]["cost / best known"] == pytest.approx(1.0)
    assert q["b"]["cost"] == 32 and q["b"]["cost / best known"] == pytest.approx(32 / 30)
    assert q["a"]["IPC score"] == pytest.approx(3.0)
    assert q["b"]["IPC score"] == pytest.approx(round(10 / 12 + 1, 4))
    # Best lower bounds: h1 max(10, 9) = 10, h2 20, h3 30: a's gap 0, b's (12 - 10) + 0 = 2.
    assert q["a"]["proven gap"] == 0 and q["b"]["proven gap"] == 2
    assert q["b"]["answered"] == 2 and q["b"]["feasible"] == 1


def test_errors_table_names_every_failed_record(tmp_path):
    a, b = _experiment(tmp_path)
    rows = load_report([a, b]).errors().rows
    assert rows == (("b", b, 4, "boards.txt", 4, "error", "its worker process died (killed by SIGKILL)"),)


def test_per_instance_rows_hold_the_records_values(tmp_path):
    report = load_report(_experiment(tmp_path))
    rows = {(r[2], r[11]): dict(zip(report.per_instance().columns, r)) for r in report.per_instance().rows}
    assert len(rows) == 7
    row = rows[("a", "sha256:h2")]
    assert (row["status"], row["cost"], row["lower bound"], row["expanded"], row["generated"],
            row["expanded before last f-layer"], row["seconds"], row["peak RSS KiB"]) == \
        ("solved", 20, 20, 1000, 2000, 700, 1.0, 1000)
    assert rows[("b", "sha256:h3")]["status"] == "time_limit"


def test_no_contradiction_in_a_consistent_experiment_and_each_kind_is_found(tmp_path):
    a, b = _experiment(tmp_path)
    assert load_report([a, b]).contradictions().rows == ()
    c = write(tmp_path / "c.jsonl", [
        rec("h1", "solved", case=1, cost=11, lb=11),                      # a says 10
        rec("h2", "feasible", case=2, cost=19, lb=5),      # below a's optimum 20
        rec("h3", "exhausted", case=3),                    # a found a solution
    ])
    problems = [r[3] for r in load_report([a, b, c]).contradictions().rows]
    assert any("solved costs differ: a 10, c 11" in p for p in problems)
    assert any("c's feasible cost 19 is below the solved cost 20" in p for p in problems)
    assert any("found cost 10 below the proven lower bound 11" in p for p in problems)
    assert any("c proved no solution, yet another column found one" in p for p in problems)


def test_configurations_sharing_cases_in_one_file_are_columns_named_by_what_differs(tmp_path):
    mixed = write(tmp_path / "mixed.jsonl", [
        rec("h1", "solved", case=1, cost=10, lb=10, heur="puchert"),
        rec("h1", "solved", case=1, cost=10, lb=10, heur="layered"),
        rec(None, "input_error", case=2, alg=None, heur=None, engine=None, error="bad board"),
    ])
    report = load_report([mixed])
    assert report.labels == ("mixed: astar/puchert", "mixed: astar/layered")
    # The input error met both configurations: it is in each column's coverage, once.
    assert [row[1] for row in report.coverage().rows] == [2, 2]


def test_one_run_whose_plan_chose_per_case_is_one_column_with_its_records_of_no_search(tmp_path):
    plan = write(tmp_path / "plan.jsonl", [
        rec("h1", "solved", case=1, cost=10, lb=10, alg="ida_star", heur="layered"),   # a small board
        rec("h2", "solved", case=2, cost=20, lb=20),                                     # a large one
        rec(None, "time_limit", case=3, alg=None, heur=None, engine=None),               # stopped while read
    ])
    report = load_report([plan])
    assert report.labels == ("plan",)
    column = report.columns[0]
    assert (column.algorithm, column.heuristic) == ("astar, ida_star", "layered, puchert")
    cov = by_label(report.coverage())["plan"]
    assert (cov["instances"], cov["solved"], cov["time_limit"]) == (3, 2, 1)
    assert "plan:boards.txt#3" in report.instances


def test_a_print_only_option_does_not_split_a_resumed_run(tmp_path):
    first = rec("h1", "node_limit", case=1, lb=8)
    again = rec("h1", "solved", case=1, cost=10, lb=10)
    again["options"] = dict(again["options"], moves=True)  # resumed with --moves: flood's print-only option
    report = load_report([write(tmp_path / "mv.jsonl", [first, again])])
    assert report.labels == ("mv",)
    assert by_label(report.coverage())["mv"]["solved"] == 1 and len(report.instances) == 1


def test_a_later_record_of_the_same_case_replaces_one_stopped_while_it_was_read(tmp_path):
    stopped = rec(None, "time_limit", case=1, alg=None, heur=None, engine=None)
    solved = rec("h1", "solved", case=1, cost=10, lb=10)
    edited = rec("h2", "solved", case=1, cost=12, lb=12)  # the case was edited, then resumed
    report = load_report([write(tmp_path / "r.jsonl", [stopped, solved])])
    assert report.instances == ("sha256:h1",)
    report = load_report([write(tmp_path / "e.jsonl", [solved, edited])])
    assert report.instances == ("sha256:h2",)


def test_an_exhaustion_under_an_upper_bound_is_no_contradiction(tmp_path):
    a, _ = _experiment(tmp_path)
    bounded = rec("h1", "exhausted", case=1)
    bounded["upper_bound"] = 9  # nothing cheaper than 9: a found 10
    report = load_report([a, write(tmp_path / "u.jsonl", [bounded])])
    assert report.contradictions().rows == ()


def test_torn_foreign_and_mixed_lines_are_named_and_not_counted(tmp_path):
    a, _ = _experiment(tmp_path)
    torn = write(tmp_path / "torn.jsonl", [rec("h1", "solved", case=1, cost=10, lb=10),
                                           rec("h1", "solved", case=1, cost=10, lb=10, game="mayan"),
                                           {"schema": 99, "game": "flood"}],
                 tail='not json\n{"schema":1,"game":"flood","cas')
    report = load_report([a, torn])
    text = "\n".join(report.warnings)
    assert f"{torn}: line 2: is a record of the game \"mayan\"" in text
    assert f"{torn}: line 3: has schema 99" in text
    assert f"{torn}: line 4: is not a JSON record" in text
    assert f"{torn}: line 5: the last line is cut short" in text
    assert by_label(report.coverage())["torn"]["instances"] == 1
    notes = str(tmp_path / "notes.txt")
    (tmp_path / "notes.txt").write_text("my notes\n")
    with pytest.raises(ReportError, match="notes.txt: holds no JSON record"):
        load_report([notes])
    failed = []
    assert load_report([notes, a], on_error=failed.append).labels == ("a",)
    assert len(failed) == 1


def test_files_of_two_games_are_refused(tmp_path):
    a, _ = _experiment(tmp_path)
    m = write(tmp_path / "m.jsonl", [rec("x", "solved", case=1, cost=5, lb=5, game="mayan")])
    with pytest.raises(ReportError, match="a report compares one game's runs"):
        load_report([a, m])


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "searchkit", "report", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_every_format_carries_the_numbers(tmp_path, fmt):
    a, b = _experiment(tmp_path)
    proc = _cli(a, b, "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    if fmt == "json":
        doc = json.loads(out)
        tables = {t["name"]: t for t in doc["tables"]}
        assert set(tables) == {"configurations", "coverage", "coverage_by_file", "geometric_means", "quality",
                               "contradictions", "errors", "per_instance"}
        quality = {r[0]: r for r in tables["quality"]["rows"]}
        assert quality["b"][tables["quality"]["columns"].index("proven gap")] == 2
    elif fmt == "csv":
        lines = out.splitlines()
        assert lines[0].startswith("input,case,column,status,cost,lower_bound,expanded")
        assert "boards.txt,2,a,solved,20,20,1000,2000,700,1.0,1000,sha256:h2" in lines
        assert len(lines) == 8
    else:
        for needle in ("Coverage", "Geometric means over the 1 instances", "Quality", "its worker process died",
                       "1.067"):  # 32 / 30
            assert needle in out, needle


def test_cli_reports_the_good_files_when_one_is_bad_and_exits_2(tmp_path):
    a, b = _experiment(tmp_path)
    proc = _cli(a, str(tmp_path / "missing.jsonl"), b, "--no-per-instance")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "missing.jsonl: cannot be read (No such file" in proc.stderr
    assert "Coverage" in proc.stdout and "Traceback" not in proc.stderr


def test_output_is_never_a_record_file_nor_an_input_and_format_must_agree(tmp_path):
    a, b = _experiment(tmp_path)
    proc = _cli(a, b, "-o", b)
    assert proc.returncode == 2 and "searchkit: error" in proc.stderr
    other = tmp_path / "old.jsonl"
    other.write_text(open(a).read())
    proc = _cli(a, "-o", str(other), "--format", "json")
    assert proc.returncode == 2 and "holds searchkit records" in proc.stderr
    assert other.read_text() == open(a).read()
    proc = _cli(a, "-o", str(tmp_path / "r.md"), "--format", "html")
    assert proc.returncode == 2 and "--format html but -o" in proc.stderr
    proc = _cli(a, b, "-o", str(tmp_path / "r.md"))
    assert proc.returncode == 0 and (tmp_path / "r.md").read_text().startswith("# searchkit report: flood")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".r.md")] == []  # no temporary left


def test_real_records_from_solve(tmp_path, searchkit_cli_run):
    from pathlib import Path

    boards = Path(__file__).resolve().parents[1] / "data" / "pc19-first50.txt"
    three = tmp_path / "three.txt"
    three.write_text("".join(boards.read_text().splitlines(keepends=True)[:3]))
    outs = []
    for heuristic in ("puchert", "layered"):
        out = tmp_path / f"{heuristic}.jsonl"
        result = searchkit_cli_run(["solve", "flood", "-H", heuristic, "--format", "jsonl", "-O", str(out), str(three)])
        assert result.exit_code == 0, result.output
        outs.append(str(out))
    report = load_report(outs)
    records = [json.loads(line) for line in open(outs[0])]
    cov = by_label(report.coverage())
    assert cov["puchert"]["solved"] == cov["layered"]["solved"] == 3
    geo = by_label(report.geometric_means())
    expected = math.exp(sum(math.log(max(r["stats"]["expanded"], 1)) for r in records) / 3)
    assert geo["puchert"]["expanded"] == pytest.approx(expected)
    assert report.contradictions().rows == ()
    answers = [int(x) for x in boards.with_suffix(".ans").read_text().split()[:3]]
    assert by_label(report.quality())["layered"]["best known cost"] == sum(answers)


def test_python_api_returns_a_report_that_draws_itself(tmp_path):
    import searchkit

    a, b = _experiment(tmp_path)
    report = searchkit.report([a, b])
    assert report.labels == ("a", "b")
    html = report._repr_html_()
    assert "Coverage" in html and "<svg" in html  # matplotlib is in the test extra
    assert "a: 3/3 solved" in repr(report)
    assert searchkit.report(a).labels == ("a",)
    with pytest.raises(TypeError):
        searchkit.report(b"a.jsonl")


def test_a_gzip_compressed_record_file_is_read_and_a_cut_one_named(tmp_path):
    import gzip

    a, b = _experiment(tmp_path)
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress(open(a, "rb").read()))
    report = load_report([str(packed), b])
    assert report.labels == ("a", "b")
    assert by_label(report.quality())["b"]["proven gap"] == 2
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed.read_bytes()[:40])
    with pytest.raises(ReportError, match="cut.jsonl.gz: is gzip-compressed but cut short or corrupt before its "
                                          "first record"):
        load_report([str(cut)])


def test_names_holding_rich_markup_or_matplotlib_math_are_shown_as_they_are(tmp_path):
    a, _ = _experiment(tmp_path)
    folder = tmp_path / "q[" / "b]"  # the path holds "q[/b]": a closing tag to rich
    folder.mkdir(parents=True)
    odd = folder / "cost$_{x$[bold].jsonl"
    records = [json.loads(line) for line in open(a)]
    records[0]["error"] = "[/red] broke"
    records[0]["status"] = "error"
    odd.write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = _cli(str(odd), "--no-per-instance")
    assert proc.returncode == 0, proc.stderr
    assert "cost$_{x$[bold]" in proc.stdout and "[/red] broke" in proc.stdout
    page = tmp_path / "odd.html"
    proc = _cli(str(odd), a, "-o", str(page))
    assert proc.returncode == 0 and proc.stderr.count("\n") == 1, proc.stderr
    assert "cost$_{x$[bold]" in page.read_text()


def test_a_pipe_or_device_is_no_record_file_and_an_output_device_is_written_not_replaced(tmp_path):
    import os
    import stat

    a, b = _experiment(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = _cli(str(fifo), "/dev/zero", a)  # neither blocks nor reads without end
    assert proc.returncode == 2
    assert "fifo: is not a regular file" in proc.stderr and "/dev/zero: is not a regular file" in proc.stderr
    assert "Coverage" in proc.stdout
    device = tmp_path / "null"  # a null device of our own: a broken build must not replace the machine's
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root")
    proc = _cli(a, b, "--format", "csv", "-o", str(device))
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_a_record_file_with_a_blank_first_line_is_not_replaced_and_one_bad_file_is_one_line(tmp_path):
    a, b = _experiment(tmp_path)
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n" + open(b).read())
    before = blank.read_text()
    proc = _cli(a, "--format", "json", "-o", str(blank))
    assert proc.returncode == 2 and "holds searchkit records" in proc.stderr
    assert blank.read_text() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\n")
    proc = _cli(str(notes))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "notes.txt: holds no JSON record" in proc.stderr
    torn = tmp_path / "torn.jsonl"
    torn.write_text('{"schema":1,"game":"flood","ca')
    proc = _cli(str(torn))
    assert proc.returncode == 2 and "its only line is cut short" in proc.stderr


def test_the_notebook_fragment_styles_only_itself(tmp_path):
    a, b = _experiment(tmp_path)
    html = load_report([a, b])._repr_html_()
    style = html[html.index("<style>") + 7:html.index("</style>")]
    assert all(line.startswith(".searchkit-report ") for line in style.splitlines())
    assert "body" not in style


def test_compare_prints_reports_tables_and_they_equal_a_report_of_its_own_records(tmp_path):
    from pathlib import Path

    from searchkit.tools.compare import Row
    from searchkit.tools.report import Report

    boards = Path(__file__).resolve().parents[1] / "data" / "pc19-first50.txt"
    four = tmp_path / "four.txt"
    four.write_text("".join(boards.read_text().splitlines(keepends=True)[:4]))
    records = tmp_path / "c.jsonl"
    proc = subprocess.run([sys.executable, "-m", "searchkit", "compare", "flood", str(four), "-H", "puchert", "-H",
                           "layered", "--format", "json", "--output", str(records), "--no-progress"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    rows = [Row(**r) for r in doc["rows"]]
    from_compare = Report.from_rows(rows, doc["heuristics"])
    from_records = load_report([str(records)])
    assert [r[1:] for r in from_compare.quality().rows] == [r[1:] for r in from_records.quality().rows]
    for ours, theirs in zip(from_compare.geometric_means().rows, from_records.geometric_means().rows):
        # seconds are rounded to microseconds in records, not in compare's rows
        assert ours[1:4] == theirs[1:4] and ours[4] == pytest.approx(theirs[4], rel=1e-3) and ours[5:] == theirs[5:]
    text = subprocess.run([sys.executable, "-m", "searchkit", "compare", "flood", str(four), "-H", "puchert",
                           "-H", "layered", "--no-progress"], capture_output=True, text=True, timeout=300).stdout
    assert "Geometric means over the 4 instances every column solved" in text and "IPC score" in text


def test_a_line_nested_too_deeply_is_named_once_and_not_counted(tmp_path):
    """Issue 32 (S3): a complete line nested 20,000 deep (``[[[...]]]`` or ``{"a":{"a":...}}``), in the middle or
    last, is an unreadable line like any other: one warning naming file and line, no traceback, and the other
    records are reported (Python's JSON reader raises RecursionError on it, orjson a decode error)."""
    a, _ = _experiment(tmp_path)
    lines = open(a).read().splitlines(keepends=True)
    deep = tmp_path / "deep.jsonl"
    deep.write_text(lines[0] + "[" * 20_000 + "]" * 20_000 + "\n" + "".join(lines[1:])
                    + '{"a":' * 20_000 + "1" + "}" * 20_000 + "\n")
    proc = _cli(str(deep), "--no-per-instance")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [f"searchkit: warning: {deep}: line 2: is not a JSON record; not counted",
                                        f"searchkit: warning: {deep}: line 6: is not a JSON record; not counted"]
    report = load_report([str(deep)])
    assert by_label(report.coverage())["deep"]["instances"] == 3


# -- a tester's defects (A-F) ------------------------------------------------------------------------------------


def _mayan(shortest: bool, cost: int, **kw) -> dict:
    r = rec("m1", "solved", case=1, cost=cost, lb=cost, game="mayan", alg="ida_star", heur="mayan", **kw)
    r["options"] = {"shortest": shortest, "show": False}
    return r


def test_records_under_other_game_options_are_other_instances(tmp_path):
    """A: the same board asked with --shortest (3 moves) and without (exactly 5) asks two questions: two
    instances, never compared, no contradiction, quality 1.0 for each correct answer."""
    ex = write(tmp_path / "ex.jsonl", [_mayan(False, 5)])
    sh = write(tmp_path / "sh.jsonl", [_mayan(True, 3)])
    report = load_report([ex, sh])
    assert report.contradictions().rows == ()
    assert report.instances == ("sha256:m1 shortest=false", "sha256:m1 shortest=true")
    q = by_label(report.quality())
    assert q["ex"]["IPC score"] == q["sh"]["IPC score"] == 1.0 and q["ex"]["commonly answered"] == 0
    # within one question a contradiction is still found; a print-only option (--show) asks no other question
    wrong = _mayan(True, 4)
    wrong["options"]["show"] = True
    report = load_report([sh, write(tmp_path / "wrong.jsonl", [wrong])])
    assert report.instances == ("sha256:m1",)
    assert [r[3] for r in report.contradictions().rows] == ["solved costs differ: sh 3, wrong 4",
                                                            "sh found cost 3 below the proven lower bound 4"]


def test_output_never_replaces_a_gzip_compressed_record_file(tmp_path):
    """B: -o refuses a compressed record file, whatever its name, and a .gz name."""
    import gzip

    a, b = _experiment(tmp_path)
    packed = tmp_path / "lz.jsonl.gz"
    packed.write_bytes(gzip.compress(open(a, "rb").read()))
    hidden = tmp_path / "lz.bin"
    hidden.write_bytes(packed.read_bytes())
    for target, args in ((packed, ()), (hidden, ("--format", "json")), (tmp_path / "r.csv.gz", ("--format", "csv"))):
        before = target.read_bytes() if target.exists() else None
        proc = _cli(a, b, "-o", str(target), *args)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "gzip-compressed" in proc.stderr
        assert (target.read_bytes() if target.exists() else None) == before


def test_records_with_fields_of_the_wrong_type_are_named_and_not_counted(tmp_path):
    """C: a solved record with a null or string cost, a string count, a boolean case, an unknown status: one
    warning each naming file and line, not counted, no traceback."""
    a, _ = _experiment(tmp_path)
    bad = [rec("x1", "solved", case=1, cost=14, lb=14) for _ in range(5)]
    bad[0]["cost"] = None
    bad[1]["cost"] = "14"
    bad[2]["stats"]["expanded"] = "lots"
    bad[3]["case"] = True
    bad[4]["status"] = "banana"
    good = rec("x2", "solved", case=6, cost=9, lb=9)
    odd = write(tmp_path / "odd.jsonl", [*bad, good])
    report = load_report([a, odd])
    assert [w.split(": line ")[1][:1] for w in report.warnings] == ["1", "2", "3", "4", "5"]
    assert all(w.startswith(f"{odd}: line ") and w.endswith("; not counted") for w in report.warnings)
    assert "cost \"14\", a string" in report.warnings[1] and "stats.expanded \"lots\"" in report.warnings[2]
    assert "status \"banana\"" in report.warnings[4]
    assert by_label(report.coverage())["odd"]["instances"] == 1
    proc = _cli(a, odd, "--no-per-instance")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 5, proc.stderr


def test_a_cut_gzip_record_file_counts_the_records_before_the_cut(tmp_path):
    """D: as verify: one warning, and the complete records before the cut are reported."""
    import gzip

    records = [rec(f"g{k}", "solved", case=k, cost=k, lb=k) for k in range(1, 401)]
    whole = gzip.compress("".join(json.dumps(r) + "\n" for r in records).encode(), compresslevel=1)
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    proc = _cli(str(cut), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    coverage = {t["name"]: t for t in doc["tables"]}["coverage"]["rows"][0]
    assert 0 < coverage[1] < 400
    assert proc.stderr == (f"searchkit: warning: {cut}: the compressed file is cut short or corrupt after "
                           f"{coverage[1]} records; the rest is ignored\n")


def test_an_exhaustion_under_an_upper_bound_beside_a_cheaper_solution_is_a_contradiction(tmp_path):
    """E: exhausted under --upper-bound 15 claims nothing costs less than 15: a solution of 14 contradicts it."""
    solved = write(tmp_path / "s.jsonl", [rec("h1", "solved", case=1, cost=14, lb=14)])
    for bound, expected in ((15, ["u proved no solution cheaper than its upper bound 15, yet s found cost 14"]),
                            (14, [])):
        bounded = rec("h1", "exhausted", case=1)
        bounded["upper_bound"] = bound
        report = load_report([solved, write(tmp_path / "u.jsonl", [bounded])])
        assert [r[3] for r in report.contradictions().rows] == expected


def test_output_dash_is_stdout(tmp_path):
    """F: -o - writes to stdout, as is common, and creates no file named -."""
    a, b = _experiment(tmp_path)
    proc = _cli(a, b, "-o", "-", "--format", "csv", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("input,case,column"), proc.stderr
    assert not (tmp_path / "-").exists()


def test_floats_of_one_table_share_one_format():
    """F: an IPC score of 0.6 is shown as 0.600 beside 1.000."""
    from searchkit.formats.report import cell

    assert (cell(0.6), cell(1.0), cell(1.0666), cell(0.0001)) == ("0.600", "1.000", "1.067", "0.0001")


def test_a_page_with_no_solved_instance_draws_no_empty_legend(tmp_path):
    """F: matplotlib's 'No artists with labels found' must not reach stderr."""
    stopped = write(tmp_path / "t.jsonl", [rec("h1", "time_limit", case=1, lb=3)])
    proc = _cli(stopped, "-o", str(tmp_path / "r.html"))
    assert proc.returncode == 0 and proc.stderr.count("\n") == 1 and "No artists" not in proc.stderr, proc.stderr


def test_no_per_instance_is_honoured_by_json_and_refused_by_csv(tmp_path):
    """F: --no-per-instance leaves the table out of json, and csv (which is that table) refuses it."""
    a, b = _experiment(tmp_path)
    proc = _cli(a, b, "--format", "json", "--no-per-instance")
    assert proc.returncode == 0
    assert "per_instance" not in {t["name"] for t in json.loads(proc.stdout)["tables"]}
    proc = _cli(a, b, "--format", "csv", "--no-per-instance")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--no-per-instance" in proc.stderr


def test_a_file_wide_input_error_is_named_without_none(tmp_path):
    """F: a record of no case (case null) is the instance COLUMN:SOURCE, with no 'None' in it."""
    wide = rec(None, "input_error", case=1, alg=None, heur=None, engine=None, error="missing.txt: not found")
    wide["case"], wide["line"], wide["source"] = None, None, "missing.txt"
    report = load_report([write(tmp_path / "fw.jsonl", [wide])])
    assert report.instances == ("fw:missing.txt",)


def test_the_same_board_twice_in_one_column_does_not_depend_on_file_order(tmp_path):
    """F: the better status stands for the instance (solved first, then the lesser cost), in either order."""
    first = rec("h1", "time_limit", case=1, lb=5)
    second = rec("h1", "solved", case=2, cost=10, lb=10)
    for order in ((first, second), (second, first)):
        report = load_report([write(tmp_path / "d.jsonl", list(order))])
        assert report.entry("d", "sha256:h1").status == "solved" and len(report.instances) == 1
