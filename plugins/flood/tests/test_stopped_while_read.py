"""A case a limit stops while it is read has no board, whatever ``--start`` says (issue 32, item 1).

``--start centre`` moved the pivot of every parsed case, including a case a
limit had stopped reading (:meth:`searchkit.game.Case.unread`, ``data`` None):
an ``AttributeError`` traceback instead of ``? (time_limit)``, and the later
cases of the file were never solved; the Python API raised.
"""

from __future__ import annotations

import pytest

import searchkit
from searchkit.game import Case
from searchkit.limits import Limiter, Limits, active

from searchkit_flood.game import FloodGame

ONE = "1\n5\n0\n"


@pytest.mark.parametrize("start", ["top-left", "centre", "bottom-right"])
def test_a_case_stopped_while_read_is_reported_under_every_start(searchkit_cli_run, tmp_path, start):
    path = tmp_path / "one.txt"
    path.write_text(ONE)
    result = searchkit_cli_run(["solve", "flood", "--time-limit", "0", "--start", start, str(path)])
    assert result.output == "? (time_limit)\n"


def test_the_parser_passes_a_stopped_case_through_and_reads_the_next():
    game = FloodGame()
    items = game.parse("2\n1 2\n2 1\n2\n1 1\n1 2\n0\n", "in.txt", {"start": "centre", "input_format": "judge"})
    with active(Limiter(Limits(time_limit=0))):
        first = next(items)
    second = next(items)
    assert first == Case.unread(1, "in.txt", 1, "time_limit")
    assert isinstance(second, Case) and second.index == 2 and second.data.pivot == 3  # 2x2 centre: cell (1, 1)


def test_the_python_api_reports_the_stopped_case(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(ONE)
    rows = list(searchkit.solve_all("flood", [path], time_limit=0, start="centre"))
    assert [row.status for row in rows] == ["time_limit"]
