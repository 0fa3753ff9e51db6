"""Every test that sends Ctrl-C to a child process starts the child with SIGINT at its default disposition.

A shell without job control starts a background command with SIGINT ignored, an ignored signal stays ignored
across ``exec`` (POSIX), and Python then installs no ``KeyboardInterrupt`` handler: a suite run as ``pytest &``
hands every child a deaf Ctrl-C.  The product is right to stay deaf there (a user's background job), so a test
sending SIGINT to a child must restore the default itself (``preexec_fn=sigint_default``, tests/conftest.py).
``show``'s signal test did not, and once waited 120 s in vain under a CI run started in the background.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def deaf_children(source: str) -> list[str]:
    """The names of the functions in ``source`` that start a child with ``subprocess.Popen``, name ``signal.SIGINT``
    (in their code or their decorators' parameters, not in a docstring) and pass no ``preexec_fn``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        sigint = any(isinstance(name, ast.Attribute) and name.attr == "SIGINT"
                     for part in [*node.decorator_list, node] for name in ast.walk(part))
        popens = [call for call in ast.walk(node) if isinstance(call, ast.Call)
                  and isinstance(call.func, ast.Attribute) and call.func.attr == "Popen"]
        if popens and sigint and any(all(k.arg != "preexec_fn" for k in call.keywords) for call in popens):
            found.append(node.name)
    return found


def test_every_child_sent_ctrl_c_has_sigint_restored():
    files = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("plugins/*/tests/**/*.py")]
    assert len(files) > 100
    bad = {f"{path.relative_to(ROOT)}::{name}" for path in files for name in deaf_children(path.read_text())}
    assert not bad, f"these start a child they send SIGINT without preexec_fn=sigint_default: {sorted(bad)}"


def test_the_guard_finds_a_planted_deaf_child():
    """The guard above, shown failing: ``show``'s signal test as it was (SIGINT in a parameter, no preexec_fn)."""
    planted = '''
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_show(tmp_path, sig, code):
    child = subprocess.Popen([sys.executable, "-m", "searchkit", "show"], env=env)
    child.send_signal(sig)
'''
    assert deaf_children(planted) == ["test_show"]
    assert deaf_children(planted.replace("env=env", "env=env, preexec_fn=sigint_default")) == []
