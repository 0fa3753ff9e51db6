"""``generate --count N``: the instances are written as they are made, and the count and the text are bounded.

Each command runs in a child process under an address-space limit (1 GiB) and a file-size limit (64 MiB), so
that a regression fails here instead of filling the machine's memory or disk.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import threading

import pytest

from searchkit.game import option_defaults

MAX_COUNT = 10_000_000  # searchkit.tools.generate.MAX_COUNT

MEMORY = 2**30
FILE_SIZE = 64 * 2**20


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))


def _run(args, out_path, timeout=120):
    with open(out_path, "w") as out:
        try:
            return subprocess.run([sys.executable, "-m", "searchkit", *args], stdout=out, stderr=subprocess.PIPE,
                                  text=True, timeout=timeout, preexec_fn=_limits)
        except subprocess.TimeoutExpired:
            pytest.fail(f"searchkit {' '.join(args)} still ran after {timeout} s")


def test_ten_million_8_puzzles_come_a_board_at_a_time_in_bounded_memory():
    proc = subprocess.Popen([sys.executable, "-m", "searchkit", "generate", "sliding-tiles", "-n", str(MAX_COUNT)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_limits)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout.readline() for _ in range(8)), daemon=True)
    reader.start()
    try:
        reader.join(90)  # made all first, they came after minutes (or a MemoryError under the limit)
    finally:
        proc.kill()
        proc.wait()
    assert len(lines) == 8 and lines[3] == "\n", (lines, proc.stderr.read())
    assert sorted(int(t) for line in lines[:3] for t in line.split()) == list(range(9))


@pytest.mark.parametrize("args, named", [
    (["generate", "sliding-tiles", "-n", "1000000000", "--size", "2"], "'--count'"),
    (["generate", "flood", "-n", str(MAX_COUNT + 1), "--size", "2"], "'--count'"),
    (["generate", "mayan", "-n", "1000000000"], "'--count'"),
    (["generate", "flood", "-n", "1000", "--size", "1000"], "--count 1000"),  # 2 MB a board: 2 GB in all
    (["generate", "sliding-tiles", "-n", "5000", "--size", "1000"], "--count 5000"),
])
def test_a_count_or_a_text_over_the_cap_is_refused_in_one_line_before_anything_is_written(tmp_path, args, named):
    out = tmp_path / "out.txt"
    proc = _run(args, out)
    assert proc.returncode == 2, proc.stderr
    (line,) = proc.stderr.splitlines()  # no traceback
    assert line.startswith("searchkit: error: ") and named in line, line
    assert out.read_text() == ""


def test_mayan_refuses_a_second_instance_before_making_many(tmp_path):
    proc = _run(["generate", "mayan", "-n", str(MAX_COUNT)], tmp_path / "out.txt", timeout=60)
    assert proc.returncode == 2 and "one case per file" in proc.stderr
    assert (tmp_path / "out.txt").read_text() == ""


def test_the_python_function_is_bounded_too(tmp_path):
    code = ("import searchkit\n"
            "for count in (10**9, 5000):\n"
            "    try:\n"
            "        searchkit.generate('sliding-tiles', count=count, size=1000)\n"
            "    except ValueError as exc:\n"
            "        print(exc)\n")
    with open(tmp_path / "err", "w") as err:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=False, stdout=subprocess.PIPE,
                              stderr=err, text=True, timeout=120, preexec_fn=_limits)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2, (proc.stdout, (tmp_path / "err").read_text())
    assert lines[0] == f"count must be from 1 to {MAX_COUNT}, got 1000000000"
    assert "over the 67108864 written at most" in lines[1]


def test_generate_keeps_its_seed_and_options_and_reads_back(searchkit_cli_run, searchkit_registry):
    args = ["generate", "sliding-tiles", "-n", "50", "--seed", "3", "--size", "4", "-o", "scramble=30"]
    a, b = searchkit_cli_run(args), searchkit_cli_run(args)
    assert a.exit_code == 0 and a.output == b.output
    other = searchkit_cli_run([*args[:5], "4", *args[6:]])
    assert other.exit_code == 0 and other.output != a.output
    gen, game = searchkit_registry.generator("sliding-tiles"), searchkit_registry.game("sliding-tiles")
    rng = random.Random(3)
    datas = [gen(rng, 4, {"scramble": 30}) for _ in range(50)]
    assert a.output == game.format_input(datas)  # the text written all at once before
    parsed = [c.data for c in game.parse(a.output, "<generated>", option_defaults(game.options))]
    assert parsed == datas
