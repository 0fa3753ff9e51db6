"""The table of optional hooks (``searchkit.hooks``) names every hook the core looks up (issue 20 item 9).

A hook is looked up on a game, a puzzle or a generator however the core holds it: a variable
(``game``, ``puzzle``, ``gen``, ...) or an attribute chain (``self.game``, ``self.solver.game``,
``built.puzzle``), with ``getattr``/``hasattr`` or as a plain attribute (``game.format_input``).  The scan
only saw ``getattr`` on bare variable names, so ``getattr(self.game, "replay_puzzle", None)`` escaped it and
``replay_puzzle`` was missing from the table (issue 33 item 4).  What is neither in the table nor a part of
the protocols (:class:`~searchkit.game.Game`, :class:`~searchkit.puzzle.Puzzle`,
:class:`~searchkit.generator.Generator`; a registered game may also be a
:class:`~searchkit.game.LazyGame`) fails the test.  The ``*_planted_*`` tests run the same checks on a
small planted source tree and see each violation reported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attrs

from searchkit.game import Game, LazyGame
from searchkit.generator import Generator
from searchkit.hooks import REMOVED_HOOKS, OPTIONAL_HOOKS, OptionalHook, hook_names
from searchkit.puzzle import Puzzle

CORE = Path(__file__).resolve().parents[2] / "searchkit"
#: Names of the variables that hold a game, a puzzle or a generator in the core's code.
OWNERS = {"game": "game", "the_game": "game", "puzzle": "puzzle", "plain": "puzzle", "gen": "generator",
          "generator": "generator"}
#: The last attribute of a chain that holds one (``self.game``, ``self.solver.game``, ``built.puzzle``).
ATTRIBUTE_OWNERS = {"game": "game", "puzzle": "puzzle", "generator": "generator"}


def _members(cls) -> set[str]:
    names = set(getattr(cls, "__annotations__", {}))
    names |= {name for name, value in vars(cls).items() if not name.startswith("_") and callable(value)}
    if attrs.has(cls):
        names |= {f.name for f in attrs.fields(cls)}
    return names


#: The required parts (the protocols), which the core uses directly or checks with getattr too; a registered
#: game not loaded yet is a LazyGame, whose fields count too unless they are hooks (``native_module``).
REQUIRED = {"game": _members(Game) | (_members(LazyGame) - hook_names("game")), "puzzle": _members(Puzzle),
            "generator": _members(Generator)}


def owner_of(node: ast.expr) -> str | None:
    """``"game"``, ``"puzzle"`` or ``"generator"`` when the expression holds one, by its name."""
    if isinstance(node, ast.Name):
        return OWNERS.get(node.id)
    if isinstance(node, ast.Attribute):
        return ATTRIBUTE_OWNERS.get(node.attr)
    return None


def looked_up(core: Path = CORE) -> set[tuple[str, str, str]]:
    """``(owner, name, where)`` for every ``getattr``/``hasattr`` of a constant name, and every attribute
    read, on a game, puzzle or generator in ``core``."""
    found = set()
    for path in sorted(core.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(core.parent)}:{getattr(node, 'lineno', 0)}"
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2):
                target, name = node.args[0], node.args[1]
                owner = owner_of(target)
                if owner and isinstance(name, ast.Constant) and isinstance(name.value, str):
                    found.add((owner, name.value, where))
            elif isinstance(node, ast.Attribute) and owner_of(node.value):
                found.add((owner_of(node.value), node.attr, where))
    return found


def missing(lookups, hooks=OPTIONAL_HOOKS) -> list[tuple[str, str, str]]:
    """The lookups of a name neither in ``hooks``, nor deprecated, nor a required part of its owner."""
    table = {(h.owner, h.name) for h in hooks}
    return sorted((owner, name, where) for owner, name, where in lookups
                  if (owner, name) not in table and name not in REMOVED_HOOKS and name not in REQUIRED[owner])


def unused(lookups, hooks=OPTIONAL_HOOKS) -> list[tuple[str, str]]:
    """The hooks of ``hooks`` that nothing looks up."""
    used = {(owner, name) for owner, name, _ in lookups}
    return [(h.owner, h.name) for h in hooks if (h.owner, h.name) not in used]


def test_every_hook_the_core_looks_up_is_in_the_table():
    lookups = looked_up()
    assert len(lookups) >= 8  # the scan does find them
    assert ("game", "replay_puzzle") in {(owner, name) for owner, name, _ in lookups}
    assert not missing(lookups), f"hooks looked up but not in searchkit.hooks.OPTIONAL_HOOKS: {missing(lookups)}"


def test_every_hook_in_the_table_is_looked_up():
    assert not unused(looked_up()), f"in the table but never looked up: {unused(looked_up())}"


def test_one_name_for_the_bound_fused_into_successors():
    assert "successors_within" in hook_names("puzzle") and "bounded_successors" not in hook_names()
    assert REMOVED_HOOKS == {"bounded_successors": "successors_within"}


def test_the_checks_fail_on_planted_lookups(tmp_path):
    """The guards above, shown failing: hooks looked up through an attribute chain, a bare variable and a
    plain attribute read, none of them in the table; and a table entry nothing looks up."""
    core = tmp_path / "searchkit"
    core.mkdir()
    (core / "planted.py").write_text("\n".join([
        "class Planted:",
        "    def run(self, puzzle, gen):",
        "        replay = getattr(self.game, 'planted_replay', None)",     # line 3
        "        cuts = getattr(puzzle, 'planted_cuts', None)",             # line 4
        "        self.solver.game.planted_method()",                        # line 5
        "        if hasattr(gen, 'planted_size'):",                         # line 6
        "            return self.game.puzzle, puzzle.successors, gen.min_size",  # required parts: not reported
        ""]))
    assert missing(looked_up(core)) == [
        ("game", "planted_method", "searchkit/planted.py:5"),
        ("game", "planted_replay", "searchkit/planted.py:3"),
        ("generator", "planted_size", "searchkit/planted.py:6"),
        ("puzzle", "planted_cuts", "searchkit/planted.py:4"),
    ]
    never = OptionalHook("game", "planted_unused", "planted_unused()", "nobody", "planted")
    assert unused(looked_up(core), OPTIONAL_HOOKS[:1] + (never,)) == [(OPTIONAL_HOOKS[0].owner,
                                                                         OPTIONAL_HOOKS[0].name),
                                                                        ("game", "planted_unused")]
