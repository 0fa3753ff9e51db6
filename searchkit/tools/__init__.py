"""The engine behind ``compare``, ``check`` and the contract suite's instances (not imported at start-up)."""
