"""The plugin author's test kit is one extra, ``plugin-dev``, named in README (issue 32 item 27).

README's first command installs no test kit, and its second the whole ``[test]`` extra (a browser driver,
Dask, Jupyter, the docs site).  A plugin author needs ``searchkit check``, the contract suite and pattern
databases: every distribution those modules import must come with the core or with ``plugin-dev``.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from conftest import ROOT

#: What a plugin author runs: ``searchkit check``, the contract suite and its pytest plugin, pattern databases.
KIT = ["searchkit/testing", "searchkit/tools/check.py", "searchkit/tools/instances.py", "searchkit/machinery/pdb"]


def _requirement_names(requirements) -> set[str]:
    return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower() for r in requirements}


def _extra(project: dict, name: str) -> set[str]:
    """The distributions an extra brings, its references to the project's own extras followed."""
    own = project["name"]
    out = set()
    for req in project["optional-dependencies"][name]:
        dist = _requirement_names([req]).pop()
        if dist == own:
            for inner in re.search(r"\[(.*)\]", req)[1].split(","):
                out |= _extra(project, inner.strip())
        else:
            out.add(dist)
    return out


def _imported_distributions(kit=KIT, root=ROOT) -> set[str]:
    top = set()
    for base in kit:
        path = root / base
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for node in ast.walk(ast.parse(file.read_text())):
                if isinstance(node, ast.Import):
                    top |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    top.add(node.module.split(".")[0])
    top -= set(sys.stdlib_module_names) | {"searchkit"}
    dists = packages_distributions()
    return {d.lower() for name in top for d in dists.get(name, [name])}


def missing_from_the_extra(kit=KIT, root=ROOT) -> set[str]:
    """The distributions the kit's modules import that neither the core nor ``plugin-dev`` brings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return _imported_distributions(kit, root) - _extra(project, "plugin-dev") - \
        _requirement_names(project["dependencies"])


def test_the_plugin_dev_extra_holds_the_whole_kit_and_no_more():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    kit = _extra(project, "plugin-dev")
    missing = missing_from_the_extra()
    assert not missing, f"check, the contract suite or pdb import {sorted(missing)}, which plugin-dev lacks"
    assert "pytest" in kit  # the contract suite runs under pytest, and searchkit's pytest plugin with it
    assert kit < _extra(project, "test"), "plugin-dev is part of the test extra, not all of it"
    assert not kit & {"selenium", "dask", "mkdocs", "ipykernel"}


def test_the_extra_check_fails_on_a_planted_import(tmp_path):
    """The guard above, shown failing: a kit module importing Selenium (only the test extra has it) inside a
    function, beside imports the core or plugin-dev bring."""
    kit = tmp_path / "searchkit" / "testing"
    kit.mkdir(parents=True)
    (kit / "planted.py").write_text("import attrs\nimport hypothesis\n\n\ndef later():\n"
                                    "    from selenium import webdriver\n")
    assert missing_from_the_extra(["searchkit/testing"], tmp_path) == {"selenium"}


def test_readme_and_guide_name_the_plugin_dev_extra():
    readme = ROOT.joinpath("README.md").read_text()
    assert "'.[plugin-dev]'" in readme and "plugin-guide.md" in readme
    guide = ROOT.joinpath("docs", "plugin-guide.md").read_text()
    assert 'test = ["searchkit-puzzles[plugin-dev]' in guide
