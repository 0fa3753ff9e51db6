"""Imports go down the layers: vocabulary <- engine <- faces, and plugins import only the public vocabulary.

The layers (docs/architecture.md, "Layers", draws them):

- **vocabulary** -- what a plugin is written in: :data:`VOCABULARY`.
- **engine** -- the Solver, the drivers, the plugin manager, the reader, the
  records, the reporter and the batch engine: every other module of
  ``searchkit/`` not a face.
- **faces** -- :data:`FACES`: the command line (``cli/``, with the batch
  command), pictures (``render/``), the tools (``tools/``), the output
  formats (``formats/``), the Python API
  (``api.py``), the test kit (``testing/``: the contract suite and the pytest
  plugin) and ``__main__.py``.

A module may import its own layer and the layers below it, never above; no
module outside ``cli/`` imports ``cli/`` (issue 20 item 1) but ``__main__.py``
(``python -m searchkit`` is the command line) and the test kit's pytest plugin
(its ``cli_run`` fixture runs the command line in-process).  Every import
counts, including those inside functions (they run too, only later), except
the shims named in :data:`SHIMS` (an old path kept for one release) and
imports under ``if TYPE_CHECKING:``.  Plugins (``plugins/*``,
``plugins/sliding-tiles``) import only :data:`PUBLIC`, the modules the
plugin guide names; their tests may import anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

VOCABULARY = {
    "searchkit", "searchkit.puzzle", "searchkit.game", "searchkit.heuristic", "searchkit.pruning",
    "searchkit.pruner", "searchkit.request", "searchkit.result", "searchkit.limits", "searchkit.errors",
    "searchkit._refs", "searchkit.bounds", "searchkit.seeds", "searchkit.generator", "searchkit.algorithm",
    "searchkit.hooks", "searchkit.helpers",
}
FACES = {"searchkit.cli", "searchkit.render", "searchkit.tools", "searchkit.formats", "searchkit.api",
         "searchkit.testing", "searchkit.__main__"}
#: What a plugin may import: the vocabulary that docs/plugin-guide.md names, the hook marker
#: (``searchkit.plugin``), the contract suite and the renderer's frames (a game's ``render`` hook returns them).
PUBLIC = {"searchkit", "searchkit.plugin", "searchkit.puzzle", "searchkit.game", "searchkit.heuristic",
          "searchkit.pruning", "searchkit.result", "searchkit.errors", "searchkit.limits", "searchkit.bounds",
          "searchkit.algorithm", "searchkit.generator", "searchkit.helpers", "searchkit.testing",
          "searchkit.render.grid"}
#: Old import paths kept for one release (issue 20 item 1); each only re-binds its new module.
SHIMS = {"searchkit.cli.io", "searchkit.cli.run", "searchkit.cli.output", "searchkit.batch.records",
         "searchkit.runner"}
#: The modules that may import ``cli/``: ``cli/`` itself and those that run the command line.
RUN_THE_CLI = {"searchkit.cli", "searchkit.__main__", "searchkit.testing.pytest_plugin"}
LAYERS = {"vocabulary": 0, "engine": 1, "face": 2}


def _within(name: str, packages: set) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def layer(module: str) -> str:
    if module == "searchkit" or _within(module, VOCABULARY - {"searchkit"}):
        return "vocabulary"
    if _within(module, FACES):
        return "face"
    return "engine"


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """``(line, module)`` for every import of ``path`` outside ``if TYPE_CHECKING:`` (relative ones resolved)."""
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
    return found


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def violations() -> list[str]:
    found = []
    for path in sorted((ROOT / "searchkit").rglob("*.py")):
        name = module_name(path, ROOT)
        if name in SHIMS:
            continue
        for line, target in imports(path, name):
            if target != "searchkit" and not target.startswith("searchkit."):
                continue
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            if _within(target, {"searchkit.cli"}) and not _within(name, RUN_THE_CLI):
                found.append(f"{where} (only cli/ imports cli/)")
            elif target != "searchkit" and LAYERS[layer(target)] > LAYERS[layer(name)]:
                found.append(f"{where} ({layer(name)} importing {layer(target)})")
    return found


PLUGINS = (ROOT / "plugins" / "flood", ROOT / "plugins" / "mayan", ROOT / "plugins" / "sliding-tiles")


def plugin_violations() -> list[str]:
    found = []
    for base in PLUGINS:
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            if rel.parts[0] in ("tests", "build") or path.name in ("setup.py", "conftest.py"):
                continue
            for line, target in imports(path, module_name(path, base)):
                if (target == "searchkit" or target.startswith("searchkit.")) and not _within(target, PUBLIC):
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {target} (not public vocabulary)")
    return found


def plugin_test_violations() -> list[str]:
    """What would keep a plugin's tests from running alone from its folder (``cd plugins/flood && pytest``).

    Their fixtures come from :mod:`searchkit.testing.pytest_plugin`; a ``conftest.py`` among them would also
    take the place of the core suite's in ``sys.modules`` when every suite runs together (test folders are not
    packages, so each ``conftest.py`` is the module ``conftest``), and an import of a core suite's module
    (``conftest``, ``toy``, ``batch``, ...) works only when the core suite runs too.
    """
    core = ROOT / "tests"
    core_modules = {p.stem for p in core.rglob("*.py") if not (p.parent / "__init__.py").exists()}
    core_modules |= {p.parent.name for p in core.rglob("__init__.py") if not (p.parent.parent / "__init__.py").exists()}
    found = []
    for base in PLUGINS:
        tests = base / "tests"
        own = {p.stem for p in tests.glob("*.py")}
        for path in sorted(tests.rglob("*.py")):
            where = path.relative_to(ROOT)
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
    ("searchkit.game", "vocabulary"), ("searchkit.helpers.grid", "vocabulary"), ("searchkit.solver", "engine"),
    ("searchkit.records", "engine"), ("searchkit.batch.runner", "engine"), ("searchkit.cli.batch", "face"),
    ("searchkit.render.svg", "face"), ("searchkit.api", "face"), ("searchkit.formats.pictures", "face"),
])
def test_layer_of_a_module(module, expected):
    assert layer(module) == expected


def test_the_architecture_page_draws_the_layers():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert "## Layers" in text
    for name in sorted(PUBLIC):
        assert f"`{name}`" in text, f"docs/architecture.md does not list {name} as public"
