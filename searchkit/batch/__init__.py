"""Solving whole datasets: worker processes, a Dask cluster, resumable JSON Lines records, a validator.

Modules (each imported only when a command needs it):

- :mod:`searchkit.batch.executors` -- where cases run: in this process, in a
  pool of local worker processes (``--jobs``), or on a Dask cluster
  (``--executor dask``); per-case memory limits and dead workers.
- :mod:`searchkit.batch.runner` -- cases in, results out in input order,
  streamed, in chunks sized to the cases' cost.
- :mod:`searchkit.batch.records` -- the JSON Lines record schema, writing,
  resume and torn-line detection (documented in ``docs/records.md``).
- :mod:`searchkit.batch.progress` -- the progress bar on stderr.
- :mod:`searchkit.batch.verify` -- replaying recorded solutions.
"""
