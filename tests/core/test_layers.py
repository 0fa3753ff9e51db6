"""Imports go down the layers: vocabulary <- engine <- faces, and plugins import only the public vocabulary.

The layers (docs/architecture.md, "Layers", draws them):

- **vocabulary** -- what a plugin is written in: :data:`VOCABULARY`.
- **engine** -- the Solver, the drivers, the plugin manager, the reader, the
  records, the reporter and the batch runner: every other module of
  ``searchkit/`` not a face.
- **faces** -- :data:`FACES`: the command line (``cli/``, with the batch
  command), pictures (``render/``), the tools (``tools/``), the output
  formats (``formats/``), the Python API
  (``api.py``), the test kit (``testing/``: the contract suite and the pytest
  plugin) and ``__main__.py``.

A module may import its own layer and the layers below it, never above; no
module outside ``cli/`` imports ``cli/`` (issue 20 item 1) but ``__main__.py``
(``python -m searchkit`` is the command line) and the test kit's pytest plugin
(its ``searchkit_cli_run`` fixture runs the command line in-process).  Every import
counts, including those inside functions (they run too, only later), except
imports under ``if TYPE_CHECKING:`` (no old-path shim is kept: issue 33).  Plugins (``plugins/*``,
``plugins/sliding-tiles``) import only :data:`PUBLIC`, the modules the
plugin guide names, by their exact names (and the modules of
:data:`PUBLIC_PACKAGES`); their tests may import anything.  A name is public
only when it is listed: ``searchkit`` being public does not make
``searchkit.cli.batch`` public (issue 33 item 4: it did, so an import of it in
a plugin's ``game.py`` passed).  ``importlib.import_module("searchkit...")``
with a constant name counts as an import.

Each check is a function of the tree it reads, so the ``*_fails_on_a_planted_*``
tests run it on a small tree holding one violation of each kind and see it
reported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The layers, bottom up; a module may import its own layer and those below it.
LAYERS = {"vocabulary": 0, "machinery": 1, "faces": 2}
#: What a plugin may import, each module by its exact name: the vocabulary that docs/plugin-guide.md names,
#: the hook marker (``searchkit.plugin``), the test kit (the contract suite, the terminal runner and the pytest
#: plugin) and the renderer's frames (a game's ``render`` hook returns them).
PUBLIC = {"searchkit", "searchkit.plugin", "searchkit.puzzle", "searchkit.game", "searchkit.heuristic",
          "searchkit.pruning", "searchkit.result", "searchkit.errors", "searchkit.limits", "searchkit.bounds",
          "searchkit.algorithm", "searchkit.generator", "searchkit.helpers", "searchkit.testing",
          "searchkit.testing.terminal", "searchkit.testing.pytest_plugin", "searchkit.render.grid"}
#: Packages whose every module is public (the plugin guide: "``searchkit.helpers`` and its modules").
PUBLIC_PACKAGES = {"searchkit.helpers"}
#: The modules that may import ``cli/``: ``cli/`` itself and those that run the command line.
RUN_THE_CLI = {"searchkit.cli", "searchkit.__main__", "searchkit.testing.pytest_plugin"}
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def drawing(text: str) -> dict[str, str]:
    """The entries of ``searchkit/`` the architecture page's "Layers" drawing names, each with its layer.

    The drawing is the first ``text`` code block after ``## Layers``; a line starting with a layer's name
    (:data:`LAYERS`) opens that layer, and its words ending in ``.py`` or ``/`` are entries of ``searchkit/``
    (a folder's name without its ``/``, a module's with its ``.py``), on that line and the indented lines
    under it.

    Raises:
        ValueError: no "Layers" drawing, or an entry drawn twice.
    """
    try:
        block = text.split("## Layers", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    except IndexError:
        raise ValueError("no drawing under ## Layers") from None
    found: dict[str, str] = {}
    current = None
    for line in block.splitlines():
        words = line.split()
        if words and words[0] in LAYERS:
            current, words = words[0], words[1:]
        elif not line.startswith("    ") or not words or words[0] in ("|", "v"):
            current = None
            continue
        for word in words:
            if current and (word.endswith(".py") or word.endswith("/")):
                entry = word.rstrip("/")
                if entry in found:
                    raise ValueError(f"{word} is drawn twice")
                found[entry] = current
    return found


def tree_entries(root: Path = ROOT) -> set[str]:
    """What ``root/searchkit`` holds at its top: modules (``name.py``) and folders (``name``), caches aside."""
    return {p.name for p in (root / "searchkit").iterdir()
            if p.name != "__pycache__" and (p.suffix == ".py" or p.is_dir())}


def drawing_gaps(text: str, root: Path = ROOT) -> list[str]:
    """Where the drawing and the tree differ: an entry of ``searchkit/`` not drawn, or one drawn that is not
    there."""
    drawn = drawing(text)
    entries = tree_entries(root)
    return [f"searchkit/{e} is not in the drawing" for e in sorted(entries - set(drawn))] + \
        [f"the drawing names searchkit/{e}, which does not exist" for e in sorted(set(drawn) - entries)]


#: Each entry of ``searchkit/`` with its layer, as docs/architecture.md draws it.
LAYER_OF = drawing(ARCHITECTURE.read_text())


def _within(name: str, packages: set) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def is_public(name: str) -> bool:
    """Whether a plugin may import the module ``name``: listed in :data:`PUBLIC` exactly, or a module of
    :data:`PUBLIC_PACKAGES`."""
    return name in PUBLIC or _within(name, PUBLIC_PACKAGES)


def layer(module: str, layer_of: dict[str, str] | None = None) -> str:
    """The layer of ``searchkit.X...``: that of its top entry ``X`` (``X.py`` or the folder ``X``) in the
    drawing; ``searchkit`` itself is its ``__init__.py``'s.

    Raises:
        KeyError: a module whose top entry the drawing does not name.
    """
    layer_of = LAYER_OF if layer_of is None else layer_of
    parts = module.split(".")
    top = "__init__.py" if len(parts) == 1 else parts[1]
    return layer_of[top] if top in layer_of else layer_of[top + ".py"]


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """``(line, module)`` for every import of ``path`` outside ``if TYPE_CHECKING:`` (relative ones resolved),
    ``importlib.import_module`` of a constant name included."""
    tree = ast.parse(path.read_text(), str(path))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names
                      if _is_module(f"{base}.{alias.name}")]
        elif (isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module",
                                                                         "__import__")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return sorted(found, key=lambda item: item[0])


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def violations(root: Path = ROOT) -> list[str]:
    """Imports that go up a layer, or into ``cli/`` from outside it, in ``root/searchkit``."""
    found = []
    for path in sorted((root / "searchkit").rglob("*.py")):
        name = module_name(path, root)
        for line, target in imports(path, name):
            if target != "searchkit" and not target.startswith("searchkit."):
                continue
            where = f"{path.relative_to(root)}:{line} imports {target}"
            if _within(target, {"searchkit.cli"}) and not _within(name, RUN_THE_CLI):
                found.append(f"{where} (only cli/ imports cli/)")
            elif target != "searchkit" and LAYERS[layer(target)] > LAYERS[layer(name)]:
                found.append(f"{where} ({layer(name)} importing {layer(target)})")
    return found


PLUGINS = (ROOT / "plugins" / "flood", ROOT / "plugins" / "mayan", ROOT / "plugins" / "sliding-tiles")


def plugin_violations(plugins=PLUGINS) -> list[str]:
    """Imports of a non-public ``searchkit`` module in the plugins' code (their tests and builds aside)."""
    found = []
    for base in plugins:
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            if rel.parts[0] in ("tests", "build") or path.name in ("setup.py", "conftest.py"):
                continue
            for line, target in imports(path, module_name(path, base)):
                if (target == "searchkit" or target.startswith("searchkit.")) and not is_public(target):
                    found.append(f"{base.name}/{rel}:{line} imports {target} (not public vocabulary)")
    return found


def plugin_test_violations(plugins=PLUGINS, core: Path = ROOT / "tests") -> list[str]:
    """What would keep a plugin's tests from running alone from its folder (``cd plugins/flood && pytest``).

    Their fixtures come from :mod:`searchkit.testing.pytest_plugin`; a ``conftest.py`` among them would also
    take the place of the core suite's in ``sys.modules`` when every suite runs together (test folders are not
    packages, so each ``conftest.py`` is the module ``conftest``), and an import of a core suite's module
    (``conftest``, ``toy``, ``batch``, ...) works only when the core suite runs too.
    """
    core_modules = {p.stem for p in core.rglob("*.py") if not (p.parent / "__init__.py").exists()}
    core_modules |= {p.parent.name for p in core.rglob("__init__.py") if not (p.parent.parent / "__init__.py").exists()}
    found = []
    for base in plugins:
        tests = base / "tests"
        own = {p.stem for p in tests.glob("*.py")}
        for path in sorted(tests.rglob("*.py")):
            where = f"{base.name}/{path.relative_to(base)}"
            if path.name == "conftest.py":
                found.append(f"{where}: a conftest.py (the fixtures are searchkit.testing.pytest_plugin's)")
            for line, target in imports(path, module_name(path, tests)):
                top = target.split(".")[0]
                if top in core_modules and top not in own:
                    found.append(f"{where}:{line} imports {target}, a module of the core suite (tests/)")
    return found


def test_imports_only_go_down_the_layers():
    assert violations() == []


def test_plugins_import_only_the_public_vocabulary():
    assert plugin_violations() == []


def test_plugins_tests_stand_alone():
    assert [base.name for base in PLUGINS if (base / "tests").is_dir()] == ["flood", "mayan", "sliding-tiles"]
    assert plugin_test_violations() == []


@pytest.mark.parametrize("module, expected", [
    ("searchkit", "vocabulary"), ("searchkit.game", "vocabulary"), ("searchkit.helpers.grid", "vocabulary"),
    ("searchkit.machinery.solver", "machinery"), ("searchkit.machinery.records", "machinery"),
    ("searchkit.machinery.batch.runner", "machinery"), ("searchkit.plugin.manager", "machinery"),
    ("searchkit.cli.batch", "faces"), ("searchkit.render.svg", "faces"), ("searchkit.api.solving", "faces"),
    ("searchkit.formats.pictures", "faces"), ("searchkit.__main__", "faces"),
])
def test_layer_of_a_module(module, expected):
    assert layer(module) == expected


def undocumented(text: str) -> list[str]:
    """What the architecture page ``text`` lacks: its "Layers" section, or a public module named in it."""
    missing = [] if "## Layers" in text else ["## Layers"]
    return missing + [name for name in sorted(PUBLIC) if f"`{name}`" not in text]


def test_the_architecture_page_draws_the_layers():
    assert undocumented(ARCHITECTURE.read_text()) == []


def test_the_drawing_is_the_tree():
    """Every entry at the top of ``searchkit/`` is drawn in exactly one layer, and every drawn entry exists:
    the top holds the vocabulary's modules and the layers' packages, and nothing the drawing does not show."""
    assert drawing_gaps(ARCHITECTURE.read_text()) == []


def test_the_machinery_and_the_faces_are_packages():
    """Above the vocabulary, the top of ``searchkit/`` shows packages only (``__main__.py`` is ``python -m
    searchkit``)."""
    assert sorted(e for e, where in LAYER_OF.items() if where != "vocabulary" and e.endswith(".py")) == \
        ["__main__.py"]


# The guards above, each shown failing on planted violations.

def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_the_plugin_check_fails_on_planted_imports(tmp_path):
    """A plugin's game importing the batch command, the Solver and a driver: each reported, by exact name
    (``searchkit`` and ``searchkit.helpers`` being public make neither ``searchkit.cli.batch`` nor anything but
    ``searchkit.helpers``' own modules public)."""
    base = tmp_path / "planted"
    _write(base / "planted_game" / "game.py", "\n".join([
        "import searchkit",                                     # public
        "from searchkit.helpers.grid import coords",            # public: a module of searchkit.helpers
        "from searchkit.plugin import hookimpl",                # public
        "import searchkit.cli.batch",                           # line 4
        "from searchkit.machinery import solver",                         # line 5
        "def later():",
        "    from searchkit.machinery.drivers.astar import astar",        # line 7
        "    import importlib",
        "    importlib.import_module('searchkit.machinery.engine')",      # line 9
        "from searchkit.plugin import manager",                 # line 10
        ""]))
    _write(base / "tests" / "test_x.py", "import searchkit.machinery.solver\n")  # tests may import anything
    found = plugin_violations([base])
    assert found == [
        "planted/planted_game/game.py:4 imports searchkit.cli.batch (not public vocabulary)",
        "planted/planted_game/game.py:5 imports searchkit.machinery (not public vocabulary)",
        "planted/planted_game/game.py:5 imports searchkit.machinery.solver (not public vocabulary)",
        "planted/planted_game/game.py:7 imports searchkit.machinery.drivers.astar (not public vocabulary)",
        "planted/planted_game/game.py:9 imports searchkit.machinery.engine (not public vocabulary)",
        "planted/planted_game/game.py:10 imports searchkit.plugin.manager (not public vocabulary)",
    ], found


def test_the_layer_check_fails_on_planted_imports(tmp_path):
    """A vocabulary module importing the machinery, the machinery importing a face and ``cli/``, inside a function
    too; an import under ``if TYPE_CHECKING:`` and one down the layers are not reported."""
    _write(tmp_path / "searchkit" / "game.py", "from searchkit.machinery.solver import Solver\n")
    _write(tmp_path / "searchkit" / "machinery" / "solver.py", "\n".join([
        "from typing import TYPE_CHECKING",
        "from searchkit.game import Case",
        "if TYPE_CHECKING:",
        "    from searchkit.api import Outcome",
        "def later():",
        "    from searchkit import api",
        "    from searchkit.cli.common import registry",
        ""]))
    found = violations(tmp_path)
    assert found == [
        "searchkit/game.py:1 imports searchkit.machinery.solver (vocabulary importing machinery)",
        "searchkit/machinery/solver.py:6 imports searchkit.api (machinery importing faces)",
        "searchkit/machinery/solver.py:7 imports searchkit.cli.common (only cli/ imports cli/)",
    ], found


def test_the_plugin_tests_check_fails_on_a_planted_conftest_and_core_import(tmp_path):
    base = tmp_path / "planted"
    _write(base / "tests" / "conftest.py", "")
    _write(base / "tests" / "test_x.py", "import toy\nimport helpers_of_mine\n")
    _write(base / "tests" / "helpers_of_mine.py", "")
    found = plugin_test_violations([base], ROOT / "tests")
    assert found == ["planted/tests/conftest.py: a conftest.py (the fixtures are searchkit.testing.pytest_plugin's)",
                     "planted/tests/test_x.py:1 imports toy, a module of the core suite (tests/)"], found


def test_the_architecture_check_fails_on_a_page_missing_a_public_module():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert undocumented(text.replace("`searchkit.render.grid`", "the grid module")) == ["searchkit.render.grid"]
    assert undocumented(text.replace("## Layers", "## Strata")) == ["## Layers"]


def test_the_drawing_check_fails_on_a_planted_gap(tmp_path):
    """A module added at the top of ``searchkit/`` but not drawn, and a drawn folder removed: both reported;
    an entry drawn twice, or no drawing, is refused."""
    text = ARCHITECTURE.read_text()
    for entry in tree_entries():
        target = tmp_path / "searchkit" / entry
        target.mkdir(parents=True) if not entry.endswith(".py") else _write(target, "")
    _write(tmp_path / "searchkit" / "runner.py", "")
    (tmp_path / "searchkit" / "tools").rmdir()
    assert drawing_gaps(text, tmp_path) == ["searchkit/runner.py is not in the drawing",
                                            "the drawing names searchkit/tools, which does not exist"]
    with pytest.raises(ValueError, match="drawn twice"):
        drawing(text.replace("machinery  machinery/", "machinery  machinery/ api/"))
    with pytest.raises(ValueError, match="no drawing"):
        drawing(text.replace("## Layers", "## Strata"))
