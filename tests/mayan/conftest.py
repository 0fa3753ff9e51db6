"""Test setup for the Mayan plugin: make the plugin and the reference model importable."""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED_CASES = os.path.join(os.path.dirname(ROOT), "shared", "cases", "mayan")

sys.path.insert(0, HERE)  # mayan_reference
if importlib.util.find_spec("searchkit_mayan") is None:
    sys.path.insert(0, os.path.join(ROOT, "plugins", "mayan"))
