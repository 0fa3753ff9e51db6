"""``python -m searchkit``: the same as the ``searchkit`` command."""

from searchkit.cli import main

main()
