"""Flood-It for searchkit (HDU 4127 / NKOJ 2440).

Registered through the entry point ``searchkit: flood = searchkit_flood.plugin``,
exactly as a third-party plugin would be.
"""

__version__ = "0.2.0"
