"""searchkit verify: replays recorded solutions and catches corrupted, missing and stale records."""

from __future__ import annotations

import copy
import json

import pytest

from tests.conftest import ROOT

PC19 = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    from tests.batch.conftest import run_cli

    out = tmp_path_factory.mktemp("verify") / "r.jsonl"
    res = run_cli("solve", "flood", "--output", out, PC19)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_good_records_verify(searchkit_cli_run, recorded, tmp_path):
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", recorded))])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "12 OK"
    assert "length  cases" in res.output and "    19  3" in res.output


def test_corrupted_missing_and_stale_records_fail(searchkit_cli_run, recorded, tmp_path):
    rs = copy.deepcopy(recorded)  # the fixture is shared by the module: mutate a copy (moves lists too)
    rs[0]["moves"] = rs[0]["moves"][:-1]  # stops short of the goal
    rs[1]["cost"] += 1  # cost disagrees
    rs[2]["moves"] = ["9"] + rs[2]["moves"][1:]  # an illegal colour
    rs[3]["data_hash"] = "sha256:0"  # a record of other data
    rs[4]["moves"][0], rs[4]["moves"][1] = rs[4]["moves"][1], rs[4]["moves"][0]  # usually no longer a solution
    del rs[5]  # missing
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    src = str(PC19)
    assert f"searchkit: error: {src}: case 1: the 18 moves do not reach a goal" in lines
    assert any(line.startswith(f"searchkit: error: {src}: case 2: the moves cost") for line in lines)
    assert f"searchkit: error: {src}: case 3: bad moves: move 1 ('9') is not legal in its state" in lines
    assert any(line.startswith(f"searchkit: error: {src}: case 4: mismatched") for line in lines)
    assert f"searchkit: error: {src}: case 6: no record" in lines
    ok, failed = lines[-1].split(" OK, ")
    assert failed.endswith(" failed") and int(failed.split()[0]) >= 5 and int(ok) + int(failed.split()[0]) == 12


def test_bounds_that_contradict_the_replayed_cost_fail(searchkit_cli_run, recorded, tmp_path):
    """A valid solution of cost C caps the optimum: a lower bound above C, or ``solved`` below it, is false."""
    rs = json.loads(json.dumps(recorded[:4]))  # cases 1-4 only, deep copies
    rs[0].update(lower_bound=rs[0]["cost"] + 1, gap=-1)  # above the cost of the moves themselves
    rs[1].update(lower_bound=rs[1]["cost"] - 3, gap=3)  # 'solved' (proven optimal) with a gap
    rs[2].update(gap=rs[2]["gap"] + 2)  # gap is not cost - lower bound
    rs[3].update(lower_bound=-1, gap=rs[3]["cost"] + 1)
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1, res.output
    bad = {int(line.split(": case ")[1].split(":")[0]) for line in res.output.splitlines()
           if line.startswith("searchkit: error:") and "no record" not in line}
    assert bad == {1, 2, 3, 4}, res.output


def test_an_unsolved_record_fails(searchkit_cli_run, recorded, tmp_path):
    rs = [dict(r) for r in recorded]
    rs[7] = dict(rs[7], status="time_limit", moves=[], cost=None, length=None)
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1
    assert "case 8: not solved (status time_limit)" in res.output


@pytest.mark.python_engine("the Mayan puzzle")
def test_records_of_other_options_or_the_wrong_length_fail(searchkit_cli_run, recorded, tmp_path):
    """An answer to another question is no answer: other game options, or a Mayan answer not of exactly n moves."""
    from tests.batch.conftest import run_cli
    from tests.batch.test_records import MAYAN_FIVE

    started = write(tmp_path / "start.jsonl", recorded)
    res = searchkit_cli_run(["verify", "flood", "--start", "centre", str(PC19), str(started)])
    assert res.exit_code == 1 and "0 OK, 12 failed" in res.output  # another pivot: other data, other answers
    printing = searchkit_cli_run(["verify", "flood", "--moves", str(PC19), str(started)])
    assert printing.exit_code == 0, printing.output  # --moves only prints
    data = tmp_path / "m.in"
    data.write_text(MAYAN_FIVE)
    shortest = tmp_path / "s.jsonl"
    assert run_cli("solve", "mayan", "--shortest", "--output", shortest, data).returncode == 0
    assert searchkit_cli_run(["verify", "mayan", "--shortest", str(data), str(shortest)]).exit_code == 0
    other = searchkit_cli_run(["verify", "mayan", str(data), str(shortest)])
    assert other.exit_code == 1 and "was solved with --shortest true, not false" in other.output
    (record,) = [json.loads(line) for line in shortest.read_text().splitlines()]
    record["options"]["shortest"] = False  # a 4-move answer passed off as the exact-5 one
    forged = searchkit_cli_run(["verify", "mayan", str(data), str(write(tmp_path / "f.jsonl", [record]))])
    assert forged.exit_code == 1 and "the moves cost 4, but the case asks for exactly 5" in forged.output


def test_a_deeply_nested_line_is_not_a_record(cli, tmp_path):
    """Issue 19.5: 100,000 nested brackets ended verify and --resume in a RecursionError traceback."""
    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    lines = out.read_text().splitlines(keepends=True)
    nested = "[" * 100_000 + "]" * 100_000 + "\n"
    out.write_text(lines[0] + nested + "".join(lines[1:]))
    res = cli("verify", "flood", pc, out)
    assert "Traceback" not in res.stderr and "RecursionError" not in res.stderr
    assert "line 2 is nested too deeply to read" in res.stderr
    assert res.stdout.splitlines()[-1] == "12 OK" and res.returncode == 0
    res = cli("solve", "flood", "--output", out, "--resume", pc)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert "line 2 is nested too deeply to read; ignored (kept in the file)" in res.stderr
    seeds = tmp_path / "seeds.jsonl"
    seeds.write_text('{"moves":' + nested.rstrip() + "}\n")
    res = cli("solve", "flood", "--seed-solution", seeds, pc)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr


@pytest.mark.python_engine("the test plugin 'crashy'")
def test_verify_reads_tuple_moves_back_as_lists(cli, tmp_path):
    """Issue 19.10: a game whose moves are tuples (no moves_to_json) failed every record: tuples vs lists."""
    cases = tmp_path / "pairs.txt"
    cases.write_text("pairs 3\nok 2\npairs 1\n")
    out = tmp_path / "r.jsonl"
    res = cli("solve", "crashy", "--output", out, cases)
    assert res.returncode == 0, res.stderr
    assert '"moves":[[0,1],[1,2],[2,3]]' in out.read_text()
    res = cli("verify", "crashy", cases, out)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == "3 OK"


def test_forged_types_are_named_and_option_keys_shown_as_written(cli, tmp_path):
    """Issue 19.14: cost "19" gave 'the moves cost 19, the record says 19'; '__class__' was shown '----class--'."""
    import json

    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    records[0]["cost"] = str(records[0]["cost"])
    records[1]["length"] = True
    records[2]["lower_bound"] = "0"
    records[3]["options"]["__class__"] = "x"
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    res = cli("verify", "flood", pc, out)
    assert res.returncode == 1
    lines = res.stderr.splitlines()
    assert any('case 1: the record\'s cost "19" is a string, not an integer' in line for line in lines), lines
    assert any("case 2: the record's length true is a boolean, not an integer" in line for line in lines), lines
    assert any('case 3: the record\'s lower bound "0" is a string, not an integer' in line for line in lines), lines
    assert any('case 4: the record was solved with an option "__class__" that flood does not have' in line
               for line in lines), lines
    assert "----class--" not in res.stderr
    assert res.stdout.splitlines()[-1] == "8 OK, 4 failed"


def test_verify_says_moves_after_the_goal(cli, tmp_path):
    """Issue 19.15: verify did not say 'moves after the goal' for a record whose moves go on past it."""
    import json

    from tests.conftest import ROOT

    pc = ROOT / "tests" / "batch" / "data" / "pc19-first12.txt"
    out = tmp_path / "r.jsonl"
    assert cli("solve", "flood", "--output", out, pc).returncode == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    records[0]["moves"] += ["1", "2"]
    records[0]["cost"] += 2
    records[0]["length"] += 2
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    res = cli("verify", "flood", pc, out)
    assert res.returncode == 1
    assert "case 1: bad moves: moves after the goal: it is reached after move 19, and 2 more follow" in res.stderr


def test_verify_says_a_mayan_answer_is_not_checked_to_be_the_smallest(cli, tmp_path):
    """Issue 19.22: a valid Mayan answer that is not the smallest got a plain '1 OK'."""
    import json

    from tests.conftest import EXAMPLES

    sample = EXAMPLES / "mayan" / "noip2011-sample.in"
    out = tmp_path / "m.jsonl"
    assert cli("solve", "mayan", "--output", out, sample).returncode == 0
    record = json.loads(out.read_text())
    assert record["moves"] == [[2, 1, 1], [3, 1, 1], [3, 0, 1]]
    record["moves"] = [[3, 1, -1], [3, 1, 1], [3, 0, 1]]  # also clears the board in 3 moves; not the smallest
    out.write_text(json.dumps(record) + "\n")
    res = cli("verify", "mayan", sample, out)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == ("1 OK (1 valid but not checked to be the smallest answer the case asks "
                                           "for: verify replays moves, it does not search)")


def test_a_status_that_contradicts_the_records_own_fields_fails(searchkit_cli_run, recorded, tmp_path):
    """Issue 32, item 4: a solved record whose status was changed to ``exhausted`` kept its cost and valid
    moves, and verify said OK, with a message about an --upper-bound the record does not have."""
    rs = json.loads(json.dumps(recorded[:6]))
    rs[0]["status"] = "exhausted"  # cost, lower bound, length and valid moves kept
    rs[1].update(status="exhausted", moves=[], length=None, gap=None)  # only the cost left
    rs[2].update(status="exhausted", moves=[], cost=None, length=None, gap=None)  # a lower bound, no bound
    rs[3]["error"] = "the search raised"  # solved, with an error
    rs[4].update(status="exhausted", moves=[], cost=None, length=None, gap=None, upper_bound=rs[4]["cost"])
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1, res.output
    src = str(PC19)
    lines = res.output.splitlines()
    assert (f'searchkit: error: {src}: case 1: status "exhausted" (no solution) contradicts the record\'s own '
            f'{len(recorded[0]["moves"])} moves, cost {recorded[0]["cost"]}, length {recorded[0]["length"]}, '
            f'gap 0: a record without a solution holds none') in lines
    assert any("case 2: status \"exhausted\" (no solution) contradicts the record's own cost" in line
               for line in lines)
    assert any(f"case 3: status \"exhausted\" with lower bound {recorded[2]['cost']} but no --upper-bound"
               in line for line in lines)
    assert any('case 4: status "solved" with an error ("the search raised")' in line for line in lines)
    assert not any("case 5" in line for line in lines)  # exhausted under its own --upper-bound: as written
    assert lines[-1].startswith("2 OK (1 with no solution cheaper than the --upper-bound")
    assert lines[-1].endswith(", 10 failed")  # 4 contradictions, and cases 7-12 have no record


def test_a_gzip_compressed_record_file_verifies_and_a_cut_one_is_said_to_be_cut(searchkit_cli_run, recorded, tmp_path):
    """docs/results/ keeps record files over 1 MB compressed (issue 35): verify reads them as they decompress."""
    import gzip

    text = "".join(json.dumps(r) + "\n" for r in recorded).encode()
    whole = tmp_path / "r.jsonl.gz"
    whole.write_bytes(gzip.compress(text))
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(whole)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "12 OK"
    cut = tmp_path / "cut.jsonl.gz"
    packed = gzip.compress(text)
    cut.write_bytes(packed[:len(packed) * 2 // 3])  # cut short: the records before the cut still count
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(cut)])
    assert res.exit_code == 1
    warning = [line for line in res.output.splitlines() if "cut short or corrupt" in line]
    assert len(warning) == 1 and warning[0].startswith(f"searchkit: warning: {cut}: the compressed file is cut")
    ok, failed = res.output.splitlines()[-1].split(" OK, ")
    assert 0 < int(ok) < 12 and failed == f"{12 - int(ok)} failed"
    junk = tmp_path / "junk.gz"
    junk.write_bytes(b"\x1f\x8b not gzip after all")
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(junk)])
    assert res.exit_code == 2 and res.output.strip().endswith("is gzip-compressed but cut short or corrupt before "
                                                              "its first record")


def test_resume_refuses_to_append_to_a_compressed_record_file(searchkit_cli_run, recorded, tmp_path):
    import gzip

    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in recorded).encode()))
    before = packed.read_bytes()
    res = searchkit_cli_run(["solve", "flood", "--output", str(packed), "--resume", str(PC19)])
    assert res.exit_code == 2 and "is gzip-compressed: records are appended to a plain JSON Lines file" in res.output
    assert packed.read_bytes() == before


#: Two solvable 8-puzzle boards (costs 25 and 23) and one a swap away from the goal (wrong parity: the
#: plan's verdict is exhausted, no search).
EIGHTS = "6 5 7\n4 3 0\n8 1 2\n\n5 7 2\n4 6 0\n8 1 3\n\n1 2 3\n4 5 6\n8 7 0\n"
CLAIM = dict(status="exhausted", moves=[], cost=None, length=None, gap=None, lower_bound=None)


def test_a_solvable_case_recorded_as_unsolvable_fails(cli, tmp_path):
    """The defect: a solved 8-puzzle record edited to ``exhausted`` (proven unsolvable) with no moves was
    counted "proven unsolvable, not replayed" and verify exited 0.  The game decides solvability by parity
    (the puzzle's ``solvable``): a claim it refutes fails; the true one is confirmed, not taken on trust."""
    boards = tmp_path / "eights.txt"
    boards.write_text(EIGHTS)
    out = tmp_path / "r.jsonl"
    assert cli("solve", "sliding-tiles", "--output", out, boards).returncode == 0
    rs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["status"] for r in rs] == ["solved", "solved", "exhausted"]
    rs[1].update(CLAIM)
    res = cli("verify", "sliding-tiles", boards, write(tmp_path / "bad.jsonl", rs))
    assert res.returncode == 1, res.stdout
    assert res.stderr.splitlines() == [
        f'searchkit: error: {boards}: case 2: status "exhausted" claims the case has no solution, but the '
        f"game's solvability test (sliding-tiles) proves it has one"]
    assert res.stdout.splitlines()[-1] == ("2 OK (1 proven unsolvable, confirmed by the game's solvability test), "
                                           "1 failed")
    honest = cli("verify", "sliding-tiles", boards, out)
    assert honest.returncode == 0, honest.stderr
    assert honest.stdout.splitlines()[-1] == "3 OK (1 proven unsolvable, confirmed by the game's solvability test)"


def test_the_sliding_tiles_solvability_verify_uses_follows_the_goal_option(cli, tmp_path):
    """A 4x4 board one move from Korf's goal (``--goal blank-first``) cannot reach the blank-last goal (on an
    even width the two goals split the boards between them), so the same claim is refuted under one goal and
    confirmed under the other."""
    board = tmp_path / "korf.txt"
    board.write_text("1 0 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n")
    first, last = tmp_path / "first.jsonl", tmp_path / "last.jsonl"
    assert cli("solve", "sliding-tiles", "--goal", "blank-first", "--output", first, board).returncode == 0
    assert cli("solve", "sliding-tiles", "--output", last, board).returncode == 0
    assert [json.loads(line)["status"] for line in last.read_text().splitlines()] == ["exhausted"]
    assert cli("verify", "sliding-tiles", board, last).stdout.splitlines()[-1] == (
        "1 OK (1 proven unsolvable, confirmed by the game's solvability test)")
    (record,) = [json.loads(line) for line in first.read_text().splitlines()]
    forged = write(tmp_path / "forged.jsonl", [dict(record, **CLAIM)])
    res = cli("verify", "sliding-tiles", "--goal", "blank-first", board, forged)
    assert res.returncode == 1 and "case 1: status \"exhausted\" claims the case has no solution" in res.stderr


def test_a_flood_board_recorded_as_unsolvable_fails(searchkit_cli_run, recorded, tmp_path):
    """Every Flood-It board has a solution: an ``exhausted`` record without an --upper-bound is false."""
    rs = json.loads(json.dumps(recorded))
    rs[0].update(CLAIM)
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "r.jsonl", rs))])
    assert res.exit_code == 1, res.output
    assert (f'searchkit: error: {PC19}: case 1: status "exhausted" claims the case has no solution, but the '
            f"game's solvability test (flood) proves it has one") in res.output.splitlines()
    assert res.output.splitlines()[-1] == "11 OK, 1 failed"


def test_a_mayan_claim_the_game_cannot_decide_is_not_checked_and_one_it_can_is_proven(cli, tmp_path):
    """The Mayan puzzle decides no solvability cheaply, except a board with a colour of 1 or 2 blocks (never
    emptied): a claim it cannot decide is counted apart, "not checked", neither OK nor failed."""
    from tests.conftest import EXAMPLES

    sample = EXAMPLES / "mayan" / "noip2011-sample.in"
    out = tmp_path / "m.jsonl"
    assert cli("solve", "mayan", "--output", out, sample).returncode == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    res = cli("verify", "mayan", sample, write(tmp_path / "claim.jsonl", [dict(record, **CLAIM)]))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == (
        "0 OK, 1 not checked (claimed unsolvable: the game cannot decide that without a search; re-solve to "
        "check)")
    two = tmp_path / "two.in"
    two.write_text("1\n1 1 0\n0\n0\n0\n0\n")  # colour 1 has two blocks: no move ever empties the board
    both = tmp_path / "two.jsonl"
    assert cli("solve", "mayan", "--output", both, two).returncode == 0
    res = cli("verify", "mayan", two, both)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[-1] == "1 OK (1 proven unsolvable, confirmed by the game's solvability test)"


def test_a_record_without_a_data_hash_answers_no_case(searchkit_cli_run, recorded, tmp_path):
    """A record with ``data_hash: null`` matched any data of its case number, and as the last one it overrode
    the case's true record: case 2's moves appended as case 1's, hash removed, failed a valid file (and
    ``show --records`` drew them).  Only a record that gives no answer (a case stopped while it was read)
    is recorded without its hash; one claiming an answer without it matches no data."""
    rs = copy.deepcopy(recorded)
    forged = dict(rs[1], case=1, data_hash=None)
    path = write(tmp_path / "r.jsonl", rs + [forged])
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(path)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "12 OK"
    drawn = searchkit_cli_run(["show", "flood", str(PC19), "--records", str(path), "-o", str(tmp_path / "a.svg")])
    assert drawn.exit_code == 0 and "do not reach a goal" not in drawn.output, drawn.output
    # alone, it is a record for other data, as one with another hash
    alone = write(tmp_path / "alone.jsonl", [forged])
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(alone)])
    assert res.exit_code == 1 and "case 1: mismatched: the record is for other data" in res.output, res.output
    # a case stopped while it was read has no hash, and is matched: not solved
    stopped = dict(rs[0], status="time_limit", data_hash=None, moves=None, cost=None, length=None, lower_bound=None,
                   gap=None)
    res = searchkit_cli_run(["verify", "flood", str(PC19), str(write(tmp_path / "s.jsonl", [stopped]))])
    assert res.exit_code == 1 and "case 1: not solved (status time_limit)" in res.output, res.output
