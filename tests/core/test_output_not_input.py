"""A file a command writes is never one it reads: ``show -o``, ``compare --plot`` and ``solve -O`` refuse it.

The rule: never overwrite or truncate a file the user did not clearly hand over for writing.  ``show flood
r8.svg -o r8.svg`` replaced its input with the picture (exit 0, "wrote r8.svg"), ``compare --plot`` likewise;
``solve -O`` already refused, and all three now ask the one check (:func:`searchkit.machinery.output.input_refusal`):
the same path, a symbolic link, a hard link, or the file standard input reads.  Real processes, real files.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES

SAMPLE = (EXAMPLES / "flood" / "hdu4127-sample.txt").read_text()


def run(args, cwd, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "searchkit", *args], cwd=cwd, stdin=stdin, capture_output=True,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def refused(code, err, path):
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("searchkit: error: ") and "Traceback" not in err, err
    assert "would overwrite the input" in err, err
    assert path.read_text() == SAMPLE  # untouched


def cases(tmp_path, name):
    path = tmp_path / name
    path.write_text(SAMPLE)
    return path


def links(tmp_path, name):
    """(input, output) pairs naming one file: itself, a symbolic link, a hard link."""
    path = cases(tmp_path, name)
    stem, suffix = os.path.splitext(name)
    (tmp_path / f"{stem}-sym{suffix}").symlink_to(path)
    os.link(path, tmp_path / f"{stem}-hard{suffix}")
    return path, [(name, name), (name, f"{stem}-sym{suffix}"), (f"{stem}-hard{suffix}", name)]


def test_show_refuses_to_draw_over_its_input(tmp_path):
    path, pairs = links(tmp_path, "r8.svg")
    for given, out in pairs:
        code, _, err = run(["show", "flood", given, "--case", "1", "-o", out], tmp_path)
        refused(code, err, path)


def test_show_refuses_the_file_standard_input_reads(tmp_path):
    path = cases(tmp_path, "r8.svg")
    with open(path) as fh:
        code, _, err = run(["show", "flood", "-", "-o", "r8.svg"], tmp_path, stdin=fh)
    refused(code, err, path)


def test_show_refuses_its_records_and_palette_files(tmp_path):
    path = cases(tmp_path, "in.svg")
    (tmp_path / "cases.txt").write_text(SAMPLE)
    for option in ("--records", "--palette"):
        code, _, err = run(["show", "flood", "cases.txt", option, "in.svg", "-o", "in.svg"], tmp_path)
        refused(code, err, path)


def test_show_still_writes_another_file(tmp_path):
    cases(tmp_path, "r8.txt")
    code, _, err = run(["show", "flood", "r8.txt", "-o", "r8.svg"], tmp_path)
    assert code == 0, err
    assert (tmp_path / "r8.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_compare_refuses_to_plot_over_its_input(tmp_path, suffix):
    path, pairs = links(tmp_path, f"r8c{suffix}")
    for given, out in pairs:
        code, out_text, err = run(["compare", "flood", given, "-H", "puchert", "--plot", out], tmp_path)
        refused(code, err, path)
        assert out_text == ""  # refused before the comparison ran


def test_solve_refuses_to_record_over_its_seed_solution(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("2 1\n1 0\n")  # would be read as moves had it not been refused
    cases(tmp_path, "cases.txt")
    code, _, err = run(["solve", "flood", "--seed-solution", "seeds.txt", "-O", "seeds.txt", "cases.txt"], tmp_path)
    assert code == 2 and "would overwrite the input" in err and err.count("\n") == 1, err
    assert seeds.read_text() == "2 1\n1 0\n"
