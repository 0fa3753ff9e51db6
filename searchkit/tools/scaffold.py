"""``searchkit new plugin NAME``: a working plugin package written from the templates in ``searchkit/templates``.

The templates are real files, shipped as package data: ``searchkit/templates/plugin/`` holds the plugin's
tree, each file ending in ``.tmpl``, a folder or file name ``PACKAGE`` standing for the import package, and
``{{name}}``, ``{{package}}``, ``{{distribution}}`` and ``{{series}}`` in the text for the game's name, the
import package, the distribution and the searchkit versions it is written for.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: A game name ``new plugin`` takes: lower-case letters and digits, words joined by ``-`` or ``_``, starting
#: with a letter (it becomes a command-line word, an entry-point name and, with ``_``, a Python identifier).
NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
#: The longest name taken.
MAX_NAME = 40
#: The placeholders of the templates.
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class ScaffoldError(Exception):
    """A name or folder ``new plugin`` refuses; the message is one line naming it."""


def names(name: str) -> dict[str, str]:
    """The template's values for the game ``name``: ``name``, ``package``, ``distribution`` and ``series``.

    ``package`` is ``NAME_puzzle`` (``-`` as ``_``), ``distribution`` ``NAME-puzzle`` (``_`` as ``-``), and
    ``series`` the requirement on searchkit-puzzles, the installed release's minor series
    (``>=0.2,<0.3``).

    Raises:
        ScaffoldError: ``name`` is not a game name :data:`NAME` takes, or longer than :data:`MAX_NAME`.
    """
    if not isinstance(name, str) or not NAME.fullmatch(name) or len(name) > MAX_NAME:
        shown = repr(name) if len(repr(name)) <= 62 else repr(name)[:59] + "..."  # one line, whatever it holds
        raise ScaffoldError(f"plugin name {shown}: expected lower-case letters and digits, words joined by - or _, "
                            f"starting with a letter, at most {MAX_NAME} characters (e.g. pancake, light-switch)")
    from searchkit import __version__

    major, minor = (int(part) for part in __version__.split(".")[:2])
    return {"name": name, "package": name.replace("-", "_") + "_puzzle",
            "distribution": name.replace("_", "-") + "-puzzle", "series": f">={major}.{minor},<{major}.{minor + 1}"}


def native_values() -> dict[str, str]:
    """The values the native template adds: ``kit_dependency`` (the one ``Cargo.toml`` line naming the kit
    crate by the path of the installed searchkit's copy, :func:`searchkit.machinery.crates.dependency_line`) and
    ``crates_version``.

    Raises:
        ScaffoldError: the kit's sources are not installed with searchkit.
    """
    from searchkit.machinery.crates import CRATES_VERSION, dependency_line

    try:
        return {"kit_dependency": dependency_line("kit"), "crates_version": CRATES_VERSION}
    except FileNotFoundError as exc:
        raise ScaffoldError(str(exc)) from None


def render(values: dict[str, str], tree: str = "plugin") -> dict[str, str]:
    """``{relative path: text}`` of the template ``tree`` (``plugin``; ``plugin_native``, the native domain
    added by ``--native``) with ``values`` put in.

    Raises:
        ScaffoldError: a template names a placeholder without a value (a defect of the template).
    """
    from importlib.resources import files

    root = files("searchkit").joinpath("templates", tree)
    out: dict[str, str] = {}

    def walk(node, parts: tuple[str, ...]) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            name = child.name.replace("PACKAGE", values["package"])
            if child.is_dir():
                if child.name != "__pycache__":
                    walk(child, parts + (name,))
            elif name.endswith(".tmpl"):
                def value(match: re.Match) -> str:
                    key = match.group(1)
                    if key not in values:
                        raise ScaffoldError(f"template {'/'.join(parts + (child.name,))}: unknown placeholder "
                                            f"{{{{{key}}}}}")
                    return values[key]

                out["/".join(parts + (name[: -len(".tmpl")],))] = PLACEHOLDER.sub(value, child.read_text("utf-8"))

    walk(root, ())
    return out


def write_plugin(name: str, folder: str | os.PathLike, native: bool = False) -> list[str]:
    """Write the plugin ``name`` into ``folder`` (made; or an empty folder there), all of it or nothing; with
    ``native``, also its native domain (``native/``: a Rust crate built with the kit by maturin).

    The files are written into a fresh temporary folder beside ``folder`` (:func:`tempfile.mkdtemp`: ours,
    created exclusively), each through :func:`searchkit.machinery.atomic.write_file`, and that folder is renamed to
    ``folder`` at the end: the rename fails rather than replace a folder that is not empty, a file or a link,
    so nothing that was there is overwritten, and an interrupted run leaves no half-written plugin.

    Returns:
        The relative paths written, sorted.

    Raises:
        ScaffoldError: a bad name (:func:`names`), or ``folder`` exists and is not an empty folder (a file, a
            link, or a folder with anything in it), or its parent folder is missing.
        OSError: the parent folder cannot be written.
    """
    import shutil
    import tempfile

    from searchkit.machinery.atomic import write_file

    values = names(name)
    # the game names its native module only when it has one: a plain plugin's `searchkit plugins` line would
    # otherwise say a native module is "not installed" that was never written
    values["native_module"] = f'"{values["package"]}_native"' if native else "None"
    if native:
        values.update(native_values())
    target = Path(folder)
    shown = os.fspath(folder)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise ScaffoldError(f"{shown}: exists and is not a folder; new plugin writes only into a new or empty "
                            f"folder (give another with -o DIR)")
    if target.is_dir() and any(target.iterdir()):
        raise ScaffoldError(f"{shown}: the folder is not empty; new plugin writes only into a new or empty folder, "
                            f"and has no option to overwrite (give another with -o DIR)")
    parent = target.absolute().parent
    if not parent.is_dir():
        raise ScaffoldError(f"{shown}: its folder {os.fspath(parent)} does not exist")
    texts = render(values)
    if native:
        texts.update(render(values, "plugin_native"))
    staging = tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    try:
        for rel, text in texts.items():
            path = Path(staging, *rel.split("/"))
            path.parent.mkdir(parents=True, exist_ok=True)  # inside our own fresh folder
            write_file(path, text)
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)  # mkdtemp's folder is 0700: give it a new folder's permissions
        try:
            os.rename(staging, target)  # replaces an empty folder only; never follows or replaces a link
        except OSError as exc:
            raise ScaffoldError(f"{shown}: cannot put the plugin there ({exc.strerror}); new plugin writes only "
                                f"into a new or empty folder") from None
        staging = ""
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)
    return sorted(texts)
