"""The entry point of a local worker process: ``python -c`` runs :func:`main`, never the caller's main module.

multiprocessing's ``spawn`` (and ``forkserver``) start a worker by importing
the parent's main module again: a script without an ``if __name__ ==
"__main__":`` guard then ran itself in every worker (``RuntimeError`` from
``freeze_support``), and code given on standard input could not be found
(``FileNotFoundError: '<stdin>'``), so every case of ``solve_all(...,
jobs=2)`` came back ``error``.  :class:`searchkit.machinery.batch.executors.LocalPool`
starts its ``spawn`` workers here instead, as a fresh interpreter given the
parent's ``sys.path`` and one end of a socket pair, so scripts, code on
standard input and notebooks all work alike.

Protocol: the parent sends the :class:`~searchkit.machinery.solver.SolverConfig`
first, then what :func:`searchkit.machinery.batch.executors._worker_main` reads.
"""

from __future__ import annotations


def main(conn_fd: int, sentinel_fd: int) -> None:
    """Serve the parent over the connection ``conn_fd`` until it says stop or goes away.

    ``sentinel_fd`` is only held: the parent sees it close when this process ends, however it ends.
    """
    from multiprocessing.connection import Connection

    from searchkit.machinery.batch.executors import _worker_main

    conn = Connection(conn_fd)
    try:
        config = conn.recv()
    except (EOFError, OSError, KeyboardInterrupt):
        return
    _worker_main(conn, config)
