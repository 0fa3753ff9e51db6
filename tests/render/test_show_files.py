"""``show -o``: the picture is written through an exclusive temporary name and renamed (issue 32 items 8 and 17),
and its size is bounded before anything is drawn (item 9)."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from render_helpers import PC19, solution

from tests.conftest import sigint_default

pytest.importorskip("PIL")


def _show(args, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "searchkit", "show", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, **kw)


def _wide_board(tmp_path, width=2000):
    """A 1 x ``width`` Flood-It board and the moves flooding its first runs (one per run: every one legal)."""
    text = subprocess.run([sys.executable, "-m", "searchkit", "generate", "flood", "--width", str(width),
                           "--height", "1", "--seed", "1"], capture_output=True, text=True, check=True).stdout
    board = tmp_path / "wide.txt"
    board.write_text(text)
    row = text.splitlines()[2].split()
    runs = [colour for colour, _ in itertools.groupby(row)]
    return board, runs[1:]


def test_a_link_at_the_output_name_is_replaced_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for suffix in (".svg", ".png"):
        out = tmp_path / f"pic{suffix}"
        out.symlink_to(victim)
        done = _show(["flood", str(PC19), "-o", str(out)], tmp_path)
        assert done.returncode == 0, done.stderr
        assert victim.read_text() == "precious"
        assert not out.is_symlink() and out.stat().st_size > 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pic.png", "pic.svg", "victim.txt"]  # no temporary file


def test_the_previous_picture_survives_a_failed_write(tmp_path):
    # a real write failure in a real process: its files may not grow past 2,000 bytes (a full disk), so the new
    # picture cannot be written; the old one must be left whole, and no temporary file behind
    keep = tmp_path / "keep.png"
    keep.write_bytes(b"\x89PNG previous picture" * 10)
    before = keep.read_bytes()

    def small_files():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    done = _show(["flood", str(PC19), "-o", str(keep)], tmp_path, preexec_fn=small_files)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(f"searchkit: error: cannot write {keep}")
    assert keep.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.png"]


def test_sigterm_while_the_picture_is_written_leaves_the_previous_one(tmp_path):
    board, runs = _wide_board(tmp_path)
    keep = tmp_path / "keep.png"
    keep.write_bytes(b"\x89PNG previous picture" * 10)
    before = keep.read_bytes()
    child = subprocess.Popen([sys.executable, "-m", "searchkit", "show", "flood", str(board), "--moves",
                              " ".join(runs[:40]), "-o", str(keep)], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        # wait until the new picture is being written: its temporary file exists (or, without one, the file
        # itself has changed), then stop the process as `kill` or a service manager would
        while child.poll() is None:
            names = [p.name for p in tmp_path.iterdir()]
            if any(n.startswith(".keep.png.") for n in names) or keep.read_bytes() != before:
                break
            time.sleep(0.002)
        assert child.poll() is None, "the picture was written before it could be interrupted"
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert keep.read_bytes() == before
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["keep.png", "wide.txt"], (child.returncode, child.stderr.read())


@pytest.mark.parametrize("suffix", [".png", ".gif", ".svg", ".html"])
def test_a_picture_over_max_pixels_is_refused_before_it_is_drawn(searchkit_cli_run, tmp_path, suffix):
    # a 1 x 5000 board's 4,138 moves made a 60,024 x 46,072 PNG (killed at 10.9 GB) and a 14 GB GIF; the same
    # on a small board under a small bound
    board, runs = _wide_board(tmp_path, 300)
    out = tmp_path / f"w{suffix}"
    result = searchkit_cli_run(["show", "flood", str(board), "--moves", " ".join(runs[:30]), "-o", str(out),
                                "--max-pixels", "200000"])
    assert result.exit_code == 1
    last = result.output.strip().splitlines()[-1]
    assert "over --max-pixels 200,000: raise --max-pixels, or draw fewer frames with --max-frames" in last
    assert not out.exists()
    fine = searchkit_cli_run(["show", "flood", str(board), "--moves", " ".join(runs[:30]), "-o", str(out)])
    assert fine.exit_code == 0 and out.exists()
    # over --max-frames too: the refusal, and no 'drew the first 5 frames' (it drew none)
    refused = searchkit_cli_run(["show", "flood", str(board), "--moves", " ".join(runs[:30]), "-o",
                                 str(tmp_path / f"x{suffix}"), "--max-pixels", "1000", "--max-frames", "5"])
    assert refused.exit_code == 1
    assert "drew the first" not in refused.output, refused.output
    assert "over --max-pixels 1,000" in refused.output.strip().splitlines()[-1], refused.output


def test_memory_limit_refuses_a_picture_that_needs_more_before_it_is_drawn(tmp_path):
    out = tmp_path / "x.png"
    done = _show(["flood", str(PC19), "-o", str(out), "--memory-limit", "5"], tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"searchkit: error: {PC19}: case 1: drawing the PNG picture (1,270 x 1,160 pixels) needs about 8 MiB, "
        f"over --memory-limit 5: raise --memory-limit, or draw fewer frames with --max-frames"]
    assert not out.exists()
    done = _show(["flood", str(PC19), "-o", str(out), "--memory-limit", "200"], tmp_path)
    assert done.returncode == 0 and out.exists(), done.stderr


@pytest.mark.parametrize("fmt", ["png", "gif", "svg", "html"])
def test_time_limit_holds_while_drawing(searchkit_registry, fmt):
    # the drawers check the running case's time limit at every frame (show makes its clock the running one
    # while it draws: a picture no longer runs on past --time-limit); a limit already passed stops the first
    from searchkit.limits import Limiter, LimitReached, Limits, active
    from searchkit.render import html, raster, svg

    *_, steps = solution(searchkit_registry, "flood", PC19)
    draw = {"png": lambda: raster.picture(steps), "gif": lambda: raster.frames(steps),
            "svg": lambda: svg.render_svg(steps), "html": lambda: html.render_html(steps)}[fmt]
    draw()  # no running case: no limit
    with active(Limiter(Limits(time_limit=0), start=0.0)), pytest.raises(LimitReached) as stopped:
        draw()
    assert stopped.value.status == "time_limit"


def test_api_show_never_follows_a_link_at_the_output(tmp_path):
    import searchkit

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "a.svg"
    out.symlink_to(victim)
    outcome = next(iter(searchkit.solve_all("flood", [str(PC19)], jobs=1)))
    outcome.show(out)
    assert victim.read_text() == "precious" and not out.is_symlink()
    assert Path(out).read_text().startswith("<?xml") or "<svg" in Path(out).read_text()


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_show_stopped_in_its_search_exits_as_the_signal_says(tmp_path, sig, code):
    # `show` stopped by Ctrl-C or SIGTERM while it searched said "cancelled, nothing to show" and exited 1 (a
    # limit's status); its help, as solve's, says 130 and 143
    import random

    rng = random.Random(1)
    board = tmp_path / "big.txt"  # 60 x 60: within the native engine's 4,096 areas, and minutes of search
    board.write_text("60\n" + "\n".join(" ".join(str(rng.randrange(6)) for _ in range(60)) for _ in range(60))
                     + "\n0\n")
    # SIGINT at its default disposition in the child: a suite started in the background (`pytest &` from a shell
    # without job control) has it ignored, and an ignored signal stays ignored across exec, as it should for a
    # user's background job (this test once waited 120 s in vain so, on either engine)
    child = subprocess.Popen([sys.executable, "-m", "searchkit", "show", "flood", str(board), "-o",
                              str(tmp_path / "x.html")], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default)
    try:
        time.sleep(4)  # started and searching
        assert child.poll() is None, child.stderr.read()
        child.send_signal(sig)
        child.wait(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    err = child.stderr.read()
    assert child.returncode == code, err
    assert "cancelled, nothing to show" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]


def test_a_plan_the_engine_refuses_for_the_case_is_one_line(tmp_path):
    # a 150 x 150 board has 15,201 areas, over the native engine's 4,096: `show` on the native engine raised the
    # PlanError as a traceback
    import random

    rng = random.Random(7)
    board = tmp_path / "big.txt"
    board.write_text("150\n" + "\n".join(" ".join(str(rng.randrange(6)) for _ in range(150)) for _ in range(150))
                     + "\n0\n")
    env = {**__import__("os").environ, "SEARCHKIT_ENGINE": "native"}
    done = _show(["flood", str(board), "-o", str(tmp_path / "x.html")], tmp_path, env=env)
    if "not installed" in done.stderr:
        pytest.skip("no native engine for flood")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "at most 4096" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]
