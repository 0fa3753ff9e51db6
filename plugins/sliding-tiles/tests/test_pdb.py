"""Pattern databases for sliding tiles, on the whole 8-puzzle: exact tables, admissibility, consistency, mirror."""

from __future__ import annotations

import heapq
from collections import deque

import pytest

np = pytest.importorskip("numpy")

from searchkit.machinery.pdb.ranking import rank  # noqa: E402
from sliding_tiles.pdb import TileAbstraction, abstractions, mirror, pdb  # noqa: E402
from sliding_tiles.puzzle import SlidingPuzzle, goal_board, neighbours  # noqa: E402


GOAL = goal_board(3)


@pytest.fixture(autouse=True, scope="module")
def _cache(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("SEARCHKIT_CACHE_DIR", str(tmp_path_factory.mktemp("pdb")))
    yield
    mp.undo()


def moves(board):
    b = board.index(0)
    for _, p in neighbours(3)[b]:
        child = list(board)
        child[b], child[p] = child[p], 0
        yield tuple(child), board[p]


@pytest.fixture(scope="module")
def truth():
    """Every solvable 8-puzzle board -> its distance to the goal (plain BFS)."""
    dist = {GOAL: 0}
    queue = deque([GOAL])
    while queue:
        board = queue.popleft()
        for child, _ in moves(board):
            if child not in dist:
                dist[child] = dist[board] + 1
                queue.append(child)
    assert len(dist) == 181_440
    return dist


def abstract_table(tiles, keep_blank):
    """Dijkstra over abstract boards (other tiles erased), costs 1 for the group's tiles: cells -> distance."""
    def erase(board):
        return tuple(t if t in tiles or t == 0 else -1 for t in board)

    start = erase(GOAL)
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, board = heapq.heappop(heap)
        if d > dist[board]:
            continue
        for child, tile in moves(board):
            nd = d + (tile in tiles)
            if nd < dist.get(child, 99):
                dist[child] = nd
                heapq.heappush(heap, (nd, child))
    out = {}
    for board, d in dist.items():
        cells = tuple(board.index(t) for t in tiles) + ((board.index(0),) if keep_blank else ())
        out[cells] = min(d, out.get(cells, 99))
    return out


@pytest.mark.parametrize("keep_blank", [False, True])
@pytest.mark.parametrize("tiles", [(1, 2, 3, 4), (5, 6, 7, 8), (2, 7)])
def test_tables_equal_exhaustive_distances_of_the_abstraction(tiles, keep_blank):
    from searchkit.machinery.pdb import load_or_build

    db = load_or_build(TileAbstraction(3, tiles, blank=keep_blank), quiet=True)
    expected = abstract_table(tiles, keep_blank)
    assert db.entries == len(expected)
    for cells, d in expected.items():
        assert db[rank(cells, 9)] == d


def test_the_full_pattern_is_the_exact_distance(truth):
    h = pdb(SlidingPuzzle(GOAL), partition="8", reflect=0)
    assert all(h(board + (-1,)) == d for board, d in truth.items())


@pytest.mark.parametrize("reflect", [0, 1])
def test_additive_4_4_is_admissible_and_beats_each_part(truth, reflect):
    h = pdb(SlidingPuzzle(GOAL), partition="4-4", reflect=reflect)
    values = {b: h(b + (-1,)) for b in truth}
    assert all(values[b] <= d for b, d in truth.items())
    single = abstract_table((1, 2, 3, 4), False)
    assert any(values[b] > single[tuple(b.index(t) for t in (1, 2, 3, 4))] for b in truth)


def test_mirror_keeps_distances_and_reflection_is_the_larger_lookup(truth):
    cell, tile = mirror(3)

    def flip(board):
        out = [0] * 9
        for p, t in enumerate(board):
            out[cell[p]] = tile[t]
        return tuple(out)

    assert flip(GOAL) == GOAL
    assert all(truth[flip(b)] == d for b, d in list(truth.items())[::97])
    plain = pdb(SlidingPuzzle(GOAL), partition="4-4", reflect=0)
    both = pdb(SlidingPuzzle(GOAL), partition="4-4", reflect=1)
    for b in list(truth)[::13]:
        assert both(b + (-1,)) == max(plain(b + (-1,)), plain(flip(b) + (-1,)))


def test_blank_kept_tables_are_consistent_and_folded_ones_are_not(truth):
    for blank, consistent in ((1, True), (0, False)):
        h = pdb(SlidingPuzzle(GOAL), partition="4-4", reflect=1, blank=blank)
        values = {b: h(b + (-1,)) for b in truth}
        worst = max(values[b] - values[c] for b in truth for c, _ in moves(b))
        assert (worst <= 1) == consistent, (blank, worst)


def test_partitions_of_the_15_puzzle_are_disjoint_and_cover_the_tiles():
    from sliding_tiles.pdb import PARTITIONS

    for name, (side, groups) in PARTITIONS.items():
        tiles = [t for g in groups for t in g]
        assert sorted(tiles) == list(range(1, side * side)) or name == "8" and len(tiles) == 8, name
        assert [len(g) for g in sorted(groups, key=len, reverse=True)] == sorted(
            map(int, name.split("-")), reverse=True)
    assert [a.entries for a in abstractions("7-8")] == [518_918_400, 57_657_600]
    assert [a.entries for a in abstractions("6-6-3")] == [5_765_760, 5_765_760, 3_360]
    assert [a.entries for a in abstractions("6-6-6-6")] == [127_512_000] * 4
    assert [a.entries for a in abstractions("3-3-3-3-3-3-3-3")] == [13_800] * 8
    assert [a.pattern for a in abstractions("auto", n=5)] == [a.pattern for a in abstractions("6-6-6-6")]


def test_6_6_6_6_is_korf_and_felners_partition_turned_to_this_goal():
    """Their groups for the blank-first goal (Korf and Felner 2002, figure 5), tile t -> 25 - t: the groups, and
    so the heuristic's values on a board and its turned twin, are theirs."""
    from sliding_tiles.pdb import groups

    theirs = [(1, 5, 6, 10, 11, 12), (2, 3, 4, 7, 8, 9), (15, 16, 17, 20, 21, 22), (13, 14, 18, 19, 23, 24)]
    assert sorted(tuple(sorted(25 - t for t in g)) for g in theirs) == sorted(groups("6-6-6-6")[1])


@pytest.mark.parametrize("reflect", [0, 1])
def test_lookup_on_5x5_ranks_25_cells(reflect):
    """The Python lookup on the 24-puzzle equals the tables indexed by searchkit's ranking of the groups' cells
    (mirrored too): a used-cell mask above 16 bits once indexed a 16-bit popcount table (a wrong entry or an
    IndexError)."""
    import random

    from sliding_tiles.pdb import databases, groups

    side, tiles = groups("3-3-3-3-3-3-3-3")
    dbs = databases("3-3-3-3-3-3-3-3", 5)
    cell_map, tile_map = mirror(5)
    h = pdb(SlidingPuzzle(goal_board(5)), partition="3-3-3-3-3-3-3-3", reflect=reflect)
    rng = random.Random(5)
    seen_high = False
    for _ in range(300):
        board = list(range(25))
        rng.shuffle(board)
        where = [0] * 25
        for p, t in enumerate(board):
            where[t] = p
        a = sum(db.table[rank([where[t] for t in g], 25)] for db, g in zip(dbs, tiles))
        b = sum(db.table[rank([cell_map[where[tile_map[t]]] for t in g], 25)] for db, g in zip(dbs, tiles))
        assert h(tuple(board) + (-1,)) == (max(a, b) if reflect else a)
        seen_high |= max(where[1:]) >= 16
    assert seen_high


def test_check_explores_all_8_puzzle_states_and_finds_blank_kept_pdb_consistent(tmp_path):
    """`searchkit check` on 8-puzzles only: one instance is the whole solvable half, 181,440 states."""
    from click.testing import CliRunner

    from searchkit.cli import cli

    args = ["check", "sliding-tiles", "-H", "pdb(partition=4-4, blank=1)", "--min-size", "3", "--max-size", "3",
            "--samples", "1", "--max-states", "181440", "--no-shrink"]
    out = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "OK: admissible and consistent" in out.output
    assert "2 instances explored, 0 skipped" in out.output  # one per property, each the whole solvable half


def test_korf_format_reads_boards_for_the_blank_first_goal():
    from sliding_tiles.game import SlidingTilesGame, to_blank_last

    game = SlidingTilesGame()
    assert to_blank_last(tuple(range(16))) == goal_board(4)
    text = "14 13 15 7\n11 12 9 5\n6 0 2 1\n4 8 10 3\n"  # Korf's instance 1 as published
    (case,) = game.parse(text, "korf.txt", {"goal": "blank-first"})
    korf100 = __import__("pathlib").Path(__file__).resolve().parents[4] / "shared/cases/sliding-tiles/korf100.txt"
    if korf100.exists():
        first = korf100.read_text().split("\n\n")[0].split()
        assert case.data == tuple(map(int, first))


def test_korf_blank_first_example_is_the_converted_example():
    from sliding_tiles.game import SlidingTilesGame

    folder = __import__("pathlib").Path(__file__).resolve().parents[1] / "examples"
    game = SlidingTilesGame()
    theirs = game.parse((folder / "15-puzzle-korf-blank-first.txt").read_text(), "a", {"goal": "blank-first"})
    ours = game.parse((folder / "15-puzzle-korf.txt").read_text(), "b", {})
    assert [c.data for c in theirs] == [c.data for c in ours]


def _native():
    from sliding_tiles.native import _module

    if _module() is None:
        pytest.skip("the native engine (sliding_tiles_native) is not installed")
    return _module()


@pytest.mark.parametrize("n, tiles", [(3, (1, 2, 3, 4)), (3, (5, 6, 7, 8)), (3, (1, 2, 3, 4, 5, 6, 7, 8)),
                                      (3, (2, 7)), (4, (13, 14, 15)), (4, (1, 2, 3, 5, 6)), (5, (1, 2, 3)),
                                      (5, (19, 20, 24)), (5, (2, 8))])
def test_native_builder_writes_the_python_builders_file(tmp_path, n, tiles):
    from searchkit.machinery.pdb.build import build
    from searchkit.machinery.pdb.store import encode
    from sliding_tiles.native import pdb_builder

    _native()
    a = TileAbstraction(n, tiles)
    path = tmp_path / "t.pdb"
    assert pdb_builder()(a, path, a.key())
    assert path.read_bytes() == encode(a.key(), build(a))


def test_native_engine_reads_the_same_tables_and_rebuilds_a_corrupt_one(capfd, tmp_path):
    import hashlib

    from searchkit.machinery.pdb import finish_writes, load_or_build, path_for
    from sliding_tiles.native import _ensure, solve

    mod = _native()
    board = (8, 6, 7, 2, 5, 4, 3, 0, 1)  # 31 moves
    result = solve(board, {"algorithm": "ida_star", "heuristic": "pdb",
                          "heuristic_params": {"partition": "4-4", "reflect": 1}})
    assert result["status"] == "solved" and result["cost"] == 31
    # a table the Python builder wrote is read by the native loader; damaged copies are refused with the reason
    a = TileAbstraction(3, (3, 6))
    db = load_or_build(a, builder=lambda *_: False, quiet=True)
    digest = hashlib.sha256(a.key().encode()).digest()
    assert mod.tiles_load_pdb(str(db.path), digest) == db.entries
    blob = db.path.read_bytes()
    for name, bad, reason in (("flip", blob[:-1] + bytes([blob[-1] ^ 1]), "checksum"),
                              ("short", blob[:-1], "bytes, expected"), ("other", blob, "another table")):
        copy = tmp_path / name
        copy.write_bytes(bad)
        with pytest.raises(ValueError, match=reason):
            mod.tiles_load_pdb(str(copy), digest if name != "other" else b"\0" * 32)
    # a corrupt cached file is rebuilt natively, with one line saying so
    b = TileAbstraction(3, (4, 8))
    load_or_build(b, builder=lambda *_: False, quiet=True)
    path = path_for(b)
    path.write_bytes(path.read_bytes()[:-2] + b"\xff\xff")
    capfd.readouterr()
    assert _ensure(b) == path
    finish_writes()  # the rebuilt table's file, written behind
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "unusable" in err and "rebuilding" in err
    assert mod.tiles_load_pdb(str(path), hashlib.sha256(b.key().encode()).digest()) == 72


# SHA-256 of the files `tiles_build_pdb` wrote before the builder and the file format moved into searchkit-core
# (issue 31; commit a87a97b), under the key text '{"test": "N [TILES]"}': the same bytes must come out.
_WRITTEN_BEFORE = {
    (2, (1, 2, 3)): "9f5e1a381ef4e7311aaaa3c5f5722146df4696cb23bcbab35d8c9b37e8b60766",
    (3, (1, 2)): "a73daf80cfaa51ca77823961cc1063c76d5d0cd146b06bf33fadc7a4abae267e",
    (3, (1, 2, 3, 4)): "c8db8960b53fa3a1d73bc76a52f21c86a0caf0f6abbd1933724880a92d4432ac",
    (3, (5, 6, 7, 8)): "adf671c0f9fd1539da3a772fe76c63e4b7d8b545d511672255fe9de540ab3499",
    (3, (1, 2, 3, 4, 5, 6, 7, 8)): "49f627a97d30cb9fcd6d60b8b1a1152336f51483aa3e25663bff277253144b0c",
    (4, (1, 2, 3)): "99ce4cd97f7a51def0ecdae2942064ff4f9f1c8293b4494e839d1a41f74fcef6",
    (4, (13, 14, 15)): "06fd3400025ac41e92497411fde9aa2f45a2d1295153b20d21bf4680b13d546f",
    (4, (1, 2, 3, 4)): "991bcdd752b08be32a3ff5237334c9ee2683d3b43c0958117fa6d78126b567ea",
    (4, (1, 2, 3, 5, 6)): "c3d391c940f84c4dade305a9a4897470450fee30d1408522fcb4a6eda252f811",
}


@pytest.mark.parametrize("n, tiles", sorted(_WRITTEN_BEFORE))
def test_native_builder_files_keep_their_bytes(tmp_path, n, tiles):
    import hashlib

    mod = _native()
    key = f'{{"test": "{n} {list(tiles)}"}}'
    path = tmp_path / "t.pdb"
    mod.tiles_build_pdb(n, list(tiles), str(path), key, hashlib.sha256(key.encode()).digest())
    assert hashlib.sha256(path.read_bytes()).hexdigest() == _WRITTEN_BEFORE[n, tiles]


def test_native_builder_refuses_a_repeated_tile(tmp_path):
    mod = _native()
    with pytest.raises(ValueError, match="distinct tiles"):
        mod.tiles_build_pdb(3, [1, 2, 1], str(tmp_path / "t.pdb"), "k", bytes(32))
    assert not list(tmp_path.iterdir())
