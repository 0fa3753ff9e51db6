"""The table of optional hooks (``searchkit.hooks``) names every hook the core looks up (issue 20 item 9)."""

from __future__ import annotations

import ast
from pathlib import Path

from searchkit.hooks import DEPRECATED_HOOKS, OPTIONAL_HOOKS, hook_names

CORE = Path(__file__).resolve().parents[2] / "searchkit"
#: Names of the variables that hold a game, a puzzle or a generator in the core's code.
OWNERS = {"game": "game", "puzzle": "puzzle", "plain": "puzzle", "gen": "generator", "generator": "generator"}
#: The required parts (the protocols), which the manager checks with getattr too.
REQUIRED = {"name", "summary", "options", "parse", "puzzle", "plan", "format_result", "initial_state", "is_goal",
            "successors", "generate"}


def looked_up() -> set[tuple[str, str, str]]:
    """``(owner, name, where)`` for every ``getattr``/``hasattr`` of a constant name on a game, puzzle or
    generator variable in ``searchkit/``."""
    found = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2):
                continue
            target, name = node.args[0], node.args[1]
            if isinstance(target, ast.Name) and target.id in OWNERS and isinstance(name, ast.Constant):
                found.add((OWNERS[target.id], name.value, f"{path.relative_to(CORE.parent)}:{node.lineno}"))
    return found


def test_every_hook_the_core_looks_up_is_in_the_table():
    lookups = looked_up()
    assert len(lookups) >= 8  # the scan does find them
    missing = [(owner, name, where) for owner, name, where in lookups
               if name not in hook_names(owner) and name not in DEPRECATED_HOOKS and name not in REQUIRED]
    assert not missing, f"hooks looked up but not in searchkit.hooks.OPTIONAL_HOOKS: {missing}"


def test_every_hook_in_the_table_is_looked_up():
    used = {(owner, name) for owner, name, _ in looked_up()}
    unused = [(h.owner, h.name) for h in OPTIONAL_HOOKS if (h.owner, h.name) not in used]
    assert not unused, f"in the table but never looked up: {unused}"


def test_one_name_for_the_bound_fused_into_successors():
    assert "successors_within" in hook_names("puzzle") and "bounded_successors" not in hook_names()
    assert DEPRECATED_HOOKS == {"bounded_successors": "successors_within"}
