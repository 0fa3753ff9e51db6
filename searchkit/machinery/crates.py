"""Where the native crates a plugin builds against are: the core crate ``searchkit-core`` and the kit crate
``searchkit-pyo3`` (``native/core`` and ``native/kit`` in the repository).

They are not on crates.io yet.  An installed searchkit carries their sources (``searchkit/_crates/``, put
there by the wheel's build, ``pyproject.toml``); an editable install or a checkout uses the repository's
``native/`` folder.  A plugin's ``Cargo.toml`` names the kit with one line, for example::

    searchkit-pyo3 = { path = "/…/site-packages/searchkit/_crates/kit", version = "=0.1.0" }

(``searchkit new plugin --native`` writes it), which a crates.io release will replace with
``searchkit-pyo3 = "=0.1.0"``.  The kit re-exports the core (``searchkit_pyo3::searchkit_core``) and PyO3
(``searchkit_pyo3::pyo3``), so that line is the only one.
"""

from __future__ import annotations

from pathlib import Path

#: The crates' version, which a plugin pins with ``=`` (the kit and the core move together).
CRATES_VERSION = "0.1.0"
#: Crate folder names -> crate names.
CRATES = {"core": "searchkit-core", "kit": "searchkit-pyo3"}


def crate_dir(name: str) -> Path:
    """The folder of the crate ``name`` (``"core"`` or ``"kit"``): the installed copy, else the repository's.

    Raises:
        KeyError: another name.
        FileNotFoundError: neither copy is there (a broken install).
    """
    if name not in CRATES:
        raise KeyError(f"no crate {name!r}: expected one of {', '.join(CRATES)}")
    package = Path(__file__).resolve().parents[1]  # searchkit/ (this module is searchkit/machinery/crates.py)
    for folder in (package / "_crates" / name, package.parent / "native" / name):
        if (folder / "Cargo.toml").is_file():
            return folder
    raise FileNotFoundError(f"the {CRATES[name]} crate's sources are not installed with searchkit "
                            f"(looked in {package / '_crates'} and {package.parent / 'native'})")


def dependency_line(name: str = "kit") -> str:
    """The ``Cargo.toml`` line naming the crate ``name`` by path, pinned to :data:`CRATES_VERSION`."""
    path = crate_dir(name).as_posix().replace('"', '\\"')
    return f'{CRATES[name]} = {{ path = "{path}", version = "={CRATES_VERSION}" }}'
