"""The machinery: what runs a search for the faces, below them and above the vocabulary.

- :mod:`~searchkit.machinery.solver`: the Solver (plan, resolve, bound, run, settle) and its Outcome.
- :mod:`~searchkit.machinery.engine`: the two engines, Python and native, behind one seam.
- :mod:`~searchkit.machinery.search`: ``searchkit.run``, a named algorithm on a puzzle.
- :mod:`~searchkit.machinery.drivers`: the search algorithms (IDA*, A*, PEA*, BFS, ...).
- :mod:`~searchkit.machinery.pdb`: pattern databases.
- :mod:`~searchkit.machinery.reading`, :mod:`~searchkit.machinery.records`,
  :mod:`~searchkit.machinery.reporting`, :mod:`~searchkit.machinery.output`,
  :mod:`~searchkit.machinery.atomic`: input, records, the solve loop, exit statuses, files written whole.
- :mod:`~searchkit.machinery.batch`: datasets on worker processes or Dask.
- :mod:`~searchkit.machinery.crates`: where the Rust crates' sources are, for a plugin's native build.

docs/architecture.md draws the layers; tests/core/test_layers.py checks that imports only go down them.
"""
