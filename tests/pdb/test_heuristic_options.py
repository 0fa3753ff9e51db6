"""Heuristics take options like algorithms: ``-H 'NAME(KEY=VALUE, ...)'`` (the sliding-tile ``pdb``)."""

from __future__ import annotations

import pytest

from searchkit.errors import UnknownNameError


def test_options_are_parsed_bound_and_spelled_in_the_name(searchkit_registry):
    h = searchkit_registry.heuristic("sliding-tiles", "pdb(partition=4-4, reflect=0)")
    assert h.name == "pdb(partition=4-4, reflect=0)"
    assert h.options == {"partition": "4-4", "reflect": 0, "blank": 0}
    assert h.admissible and not h.consistent
    assert h.native == "pdb"  # its twin's name; the options cross typed (searchkit.machinery.engine.request)
    plain = searchkit_registry.heuristic("sliding-tiles", "pdb")
    assert plain.options == {"partition": "auto", "reflect": 1, "blank": 0} and plain.native is None  # its own name


def test_claims_follow_the_options(searchkit_registry):
    h = searchkit_registry.heuristic("sliding-tiles", "pdb(partition=4-4, blank=1)")
    assert h.consistent and h.native is False  # the blank-keeping tables are Python-only


@pytest.mark.parametrize("spec, message", [
    ("pdb(parts=4-4)", "has no option 'parts' (its options: partition, reflect, blank)"),
    ("pdb(reflect=2)", "option reflect must be at most 1"),
    ("pdb(reflect=1", "closing parenthesis"),
    ("manhattan(x=1)", "has no option 'x'"),
    ("nope(x=1)", "nope"),
])
def test_bad_options_are_one_line_errors(searchkit_registry, spec, message):
    with pytest.raises(UnknownNameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        searchkit_registry.heuristic("sliding-tiles", spec)


def test_cli_lists_options_and_refuses_bad_ones(searchkit_cli_run):
    out = searchkit_cli_run(["heuristics", "sliding-tiles"]).output
    assert "  partition=auto\tstr" in out and "  reflect=1\tint" in out
    bad = searchkit_cli_run(["solve", "sliding-tiles", "-H", "pdb(reflect=7)", "-"], input="1 2\n3 0\n")
    assert bad.exit_code == 2 and "option reflect must be at most 1" in bad.output


def test_pdb_commands_build_info_and_clear(searchkit_cli_run, tmp_path, monkeypatch):
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    spec = "pdb(partition=4-4)"
    assert searchkit_cli_run(["pdb", "info", "sliding-tiles", spec]).exit_code == 1  # not built yet
    built = searchkit_cli_run(["pdb", "build", "sliding-tiles", spec])
    assert built.stdout.count("3,024 entries") == 2 and "built" in built.stdout
    # the size is stated before each table is built (issue 32 item 15)
    assert built.stderr.count("searchkit: building sliding-tiles 3x3 tiles") == 2 and "KiB of memory" in built.stderr
    info = searchkit_cli_run(["pdb", "info", "sliding-tiles", spec])
    assert info.exit_code == 0 and info.output.count("verified") == 2
    again = searchkit_cli_run(["pdb", "build", "sliding-tiles", spec]).output
    assert again.count("cached") == 2
    gone = searchkit_cli_run(["pdb", "clear", "sliding-tiles", spec]).output
    assert gone.count("deleted") == 2 and not list(tmp_path.glob("*.pdb"))
    none = searchkit_cli_run(["pdb", "build", "sliding-tiles", "manhattan"])
    assert none.exit_code == 2 and "uses no pattern database" in none.output


def test_pdb_clear_deletes_only_pattern_databases(searchkit_cli_run, tmp_path, monkeypatch):
    """A tester's defect: `pdb clear GAME` deleted every GAME-*.pdb, a file of the user's that merely had
    a table's name included."""
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    searchkit_cli_run(["pdb", "build", "sliding-tiles", "pdb(partition=4-4)"])
    mine = tmp_path / "sliding-tiles-notes.pdb"
    mine.write_text("my notes, not a table\n")
    out = searchkit_cli_run(["pdb", "clear", "sliding-tiles"])
    assert out.exit_code == 0 and out.output.count("deleted") == 2
    assert f"left alone {mine}: not a searchkit pattern database" in out.output
    assert mine.read_text() == "my notes, not a table\n"
    assert sorted(tmp_path.glob("*.pdb")) == [mine]


def test_pdb_info_shows_the_tables_own_max_not_the_headers(searchkit_cli_run, tmp_path, monkeypatch):
    # The header's max field is outside the checksum (it covers the entries): a file edited there still
    # verifies, so info must not repeat the header's figure.
    from searchkit.machinery.pdb.store import _HEAD

    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    spec = "pdb(partition=4-4)"
    searchkit_cli_run(["pdb", "build", "sliding-tiles", spec])
    # "verified": the CRC is checked now
    before = searchkit_cli_run(["pdb", "info", "--verify", "sliding-tiles", spec]).output
    for path in tmp_path.glob("*.pdb"):
        blob = bytearray(path.read_bytes())
        fields = list(_HEAD.unpack_from(blob))
        fields[6] = 99  # max
        _HEAD.pack_into(blob, 0, *fields)
        path.write_bytes(bytes(blob))
    after = searchkit_cli_run(["pdb", "info", "sliding-tiles", spec])  # the edit broke the stamp: CRC checked again
    assert after.exit_code == 0 and "max 99" not in after.output and after.output == before


def test_pdb_commands_say_in_one_line_what_is_wrong_with_the_cache(searchkit_cli_run, tmp_path, monkeypatch):
    """A tester's defects: a cached table shorter than its header, and a cache folder that cannot be made,
    gave tracebacks; a table that could not be put in place (a folder where its file goes) left its
    temporary file behind, and `pdb clear` then blamed "the output"."""
    spec = "pdb(partition=4-4)"
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    searchkit_cli_run(["pdb", "build", "sliding-tiles", spec])
    short, other = sorted(tmp_path.glob("*.pdb"))
    short.write_bytes(b"SKPDB01\n")
    info = searchkit_cli_run(["pdb", "info", "sliding-tiles", spec])
    assert info.exit_code == 1 and "UNUSABLE (8 bytes, shorter than the 76-byte header)" in info.output
    assert info.output.count("verified") == 1
    short.unlink()
    short.mkdir()  # a folder where the table's file goes: it cannot be rebuilt in place
    built = searchkit_cli_run(["pdb", "build", "sliding-tiles", spec])
    lines = built.output.strip().splitlines()  # the file is unusable, rebuilding it; and why that failed
    assert built.exit_code == 2 and len(lines) == 2 and "Is a directory" in lines[-1], built.output
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    gone = searchkit_cli_run(["pdb", "clear", "sliding-tiles", spec])
    assert gone.exit_code == 2 and f"cannot delete {short}" in gone.output
    afile = tmp_path / "afile"
    afile.write_text("x")
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(afile))
    built = searchkit_cli_run(["pdb", "build", "sliding-tiles", spec])
    assert built.exit_code == 2 and built.output.strip().splitlines() == [
        f"searchkit: error: cannot use the pattern database cache {afile}: it cannot be made: File exists; set "
        "SEARCHKIT_CACHE_DIR to a folder of yours searchkit may write"], built.output


def test_python_engine_pdbs_without_numpy_say_what_to_install(searchkit_cli_run, tmp_path, monkeypatch):
    """A tester's defect: without numpy (README's first command installs no `pdb` extra), a Python-engine
    PDB heuristic failed every case with "the search raised ModuleNotFoundError ... a defect in the game's
    plugin or in searchkit"; now one line per case says what to install."""
    import sys

    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(sys.modules, "numpy", None)
    out = searchkit_cli_run(["solve", "sliding-tiles", "--engine", "python", "-H", "pdb(partition=4-4)", "-"],
                            input="1 2 3\n4 5 6\n0 7 8\n")
    assert out.stdout == "? (error)\n", out.output
    assert out.stderr.splitlines() == [
        "searchkit: error: <stdin>: case 1: pattern databases on the Python engine need numpy: pip install "
        "'searchkit-puzzles[pdb]' (the native engine builds and reads them without it)"], out.stderr


def test_pdb_clear_takes_a_game_name_not_a_pattern_and_lists_what_it_deleted(searchkit_cli_run, tmp_path, monkeypatch):
    """A tester's defects: `pdb clear '*'` (or `sliding`, or `../elsewhere/x`) was a glob: it deleted tables
    of any game, or outside the cache folder; and with a folder where a table goes, the tables deleted
    before it were not listed."""
    monkeypatch.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path / "cache"))
    searchkit_cli_run(["pdb", "build", "sliding-tiles", "pdb(partition=4-4)"])
    tables = sorted((tmp_path / "cache").glob("*.pdb"))
    assert len(tables) == 2
    for name in ("*", "sliding", "../cache/sliding-tiles", "nosuchgame"):
        out = searchkit_cli_run(["pdb", "clear", name])
        assert out.exit_code == 2 and f"unknown game {name!r}" in out.stderr, out.output
    assert sorted((tmp_path / "cache").glob("*.pdb")) == tables
    folder = tmp_path / "cache" / "sliding-tiles-zz-folder.pdb"  # sorts after both tables
    folder.mkdir()
    out = searchkit_cli_run(["pdb", "clear", "sliding-tiles"])
    assert out.exit_code == 2 and out.stdout.splitlines() == [f"deleted {p}" for p in tables]
    assert out.stderr.splitlines() == [f"searchkit: error: cannot delete {folder}: Is a directory"]


def test_an_unknown_partition_is_one_usage_line_before_any_case_is_read(searchkit_cli_run):
    # issue 32, S3: `pdb(partition=bogus)` was said once per case, as each case bound the heuristic
    from sliding_tiles.pdb import PARTITIONS

    boards = "1 2 3\n4 5 6\n0 7 8\n\n1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n7 8 0\n"
    out = searchkit_cli_run(["solve", "sliding-tiles", "-H", "pdb(partition=bogus)", "-"], input=boards)
    assert out.exit_code == 2 and out.stdout == ""
    assert ("option partition must be one of auto, 6-6-6-6, 3-3-3-3-3-3-3-3, 5-5-5, 6-6-3, 7-8, 4-4, 8, got 'bogus'"
            in out.stderr)
    assert out.stderr.count("bogus") == 1
    from searchkit.plugin.manager import load_registry

    param = next(p for p in load_registry().heuristic("sliding-tiles", "pdb").params if p.name == "partition")
    assert set(param.choices) == {"auto", *PARTITIONS}
