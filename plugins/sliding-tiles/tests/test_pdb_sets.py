"""The sets builder (native ``sets.rs``) and its Python twin (``sliding_tiles/sets.py``) against the generic
Python builder, the table's definition: the same bytes."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from searchkit.machinery.pdb.build import build as generic  # noqa: E402
from sliding_tiles import sets  # noqa: E402
from sliding_tiles.pdb import TileAbstraction  # noqa: E402


@st.composite
def small_groups(draw):
    n = draw(st.sampled_from([2, 3, 3, 3]))
    k = draw(st.integers(3, min(5, n * n - 1)))
    tiles = draw(st.permutations(range(1, n * n)))[:k]
    return n, tuple(tiles)


@given(small_groups())
@settings(max_examples=30, deadline=None)
def test_the_twin_equals_the_generic_builder(group):
    n, tiles = group
    assert np.array_equal(sets.build(n, tiles), generic(TileAbstraction(n, tiles)))


@pytest.mark.parametrize("n, tiles", [(3, (1, 2, 3, 4, 5, 6)), (4, (13, 14, 15)), (4, (1, 2, 3, 5)),
                                      (5, (1, 2, 3)), (5, (24, 1, 5))])
def test_the_twin_equals_the_generic_builder_on_larger_boards(n, tiles):
    assert np.array_equal(sets.build(n, tiles), generic(TileAbstraction(n, tiles)))


def test_the_twin_takes_what_the_native_builder_takes():
    assert [k for k in range(1, 16) if sets.takes(4, k)] == [3, 4, 5, 6, 7, 8]
    assert not sets.takes(6, 3)
    with pytest.raises(ValueError, match="3 to 8 tiles"):
        sets.build(3, (1, 2))
    assert [sets.lehmer_unrank(r, 3) for r in range(6)] == [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0],
                                                            [2, 0, 1], [2, 1, 0]]
    assert all(sets.lehmer_rank(sets.lehmer_unrank(r, 5)) == r for r in range(120))


@given(small_groups())
@settings(max_examples=20, deadline=None)
def test_the_native_builder_writes_the_twins_table(tmp_path_factory, group):
    from searchkit.machinery.pdb.store import encode
    from sliding_tiles.native import _module, pdb_builder

    if _module() is None:
        pytest.skip("the native engine (sliding_tiles_native) is not installed")
    n, tiles = group
    a = TileAbstraction(n, tiles)
    path = tmp_path_factory.mktemp("sets") / "t.pdb"
    assert pdb_builder()(a, path, a.key())
    assert path.read_bytes() == encode(a.key(), sets.build(n, tiles))
