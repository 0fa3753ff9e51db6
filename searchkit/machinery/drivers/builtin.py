"""searchkit's own plugin: the core's search algorithms, collected from their driver modules.

Registered exactly as any other plugin's components are (plugin label
``searchkit.builtin``), so listings and look-ups treat them alike.  Each
driver module declares its :class:`~searchkit.algorithm.Algorithm` values
beside its code (``ALGORITHMS``); this module only lists the modules, in
listing order.
"""

from __future__ import annotations

import importlib

from searchkit.plugin.spec import hookimpl

#: The driver modules under :mod:`searchkit.machinery.drivers`, in listing order.
MODULES = ("ida_star", "astar", "peastar", "bounded_dfs", "bfs", "wastar", "gbfs", "beam", "anytime")


def algorithms() -> tuple:
    """Every :class:`~searchkit.algorithm.Algorithm` the driver modules declare, in :data:`MODULES` order."""
    return tuple(alg for name in MODULES
                 for alg in importlib.import_module(f"searchkit.machinery.drivers.{name}").ALGORITHMS)


@hookimpl
def register_algorithms(register):
    for algorithm in algorithms():
        register(algorithm)
