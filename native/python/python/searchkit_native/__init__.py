"""searchkit's native search engine: the drivers of ``searchkit.drivers`` and game domains, in Rust.

Imported only by :mod:`searchkit.engine` when a case runs on the native engine.  The compiled module
``searchkit_native._native`` holds:

* ``__version__`` and ``ALGORITHMS`` (the driver names with a native twin);
* ``toy_solve(tiles, request)``: the sliding-tile toy domain the tests compare with the Python drivers;
* per-game modules added by the domain crates (``flood``).

Every ``solve`` takes a *request* dict and returns a *result* dict (see :mod:`searchkit.engine`).
"""

from searchkit_native._native import ALGORITHMS, __version__  # noqa: F401
