"""Moved to :mod:`searchkit.reporting` (issue 20 item 1: no module outside ``cli/`` imports ``cli/``).

This old import path is kept for one release (0.3) for plugins and scripts
that imported it; it is the same module object, so every name still works.
"""

import sys

from searchkit import reporting as _moved

sys.modules[__name__] = _moved
