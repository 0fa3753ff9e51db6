"""Where a plugin's native build finds the core and kit crates (``searchkit.machinery.crates``).

A tester's defect: after the machinery moved into ``searchkit/machinery/``, ``crate_dir`` looked for the
crates beside that folder, so ``searchkit new plugin --native`` failed in every install.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from searchkit.machinery.crates import CRATES_VERSION, crate_dir, dependency_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["core", "kit"])
def test_a_checkout_finds_each_crate_in_its_native_folder(name):
    assert crate_dir(name) == ROOT / "native" / name
    assert (crate_dir(name) / "Cargo.toml").is_file()


def test_the_dependency_line_names_the_kit_by_path_and_version():
    assert dependency_line() == (f'searchkit-pyo3 = {{ path = "{(ROOT / "native" / "kit").as_posix()}", '
                                 f'version = "={CRATES_VERSION}" }}')


def test_an_unknown_crate_is_refused():
    with pytest.raises(KeyError, match="no crate 'pdb'"):
        crate_dir("pdb")
