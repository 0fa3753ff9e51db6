"""Solving whole datasets, the machinery's part: worker processes, a Dask cluster, input order, a validator.

Modules (each imported only when a command needs it):

- :mod:`searchkit.machinery.batch.executors` -- where cases run: in this process, in a
  pool of local worker processes (``--jobs``), or on a Dask cluster
  (``--executor dask``); per-case memory limits and dead workers.
- :mod:`searchkit.machinery.batch.runner` -- cases in, results out in input order,
  streamed, in chunks sized to the cases' cost; every case under several
  solvers in worker processes (``compare --jobs``).
- :mod:`searchkit.machinery.batch.verify` -- replaying recorded solutions.

The record schema (json and jsonl alike) is :mod:`searchkit.machinery.records`; the
face -- ``solve``'s batch options, the progress bar, the summary -- is
:mod:`searchkit.cli.batch` and :mod:`searchkit.cli.progress`.  Nothing here
imports :mod:`searchkit.cli`.
"""
