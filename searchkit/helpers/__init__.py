"""Helpers for plugin authors: the pieces every grid game's plugin otherwise writes again.

Part of the public vocabulary (plugins may import them; they import nothing
of the machinery or the faces):

* :mod:`searchkit.helpers.grid`: parsing a character or integer grid, cell
  indexing, neighbour steps, labelling same-value regions (flood fill over
  cells) and bitmask flood fill / reachability;
* :mod:`searchkit.helpers.cache`: a heuristic cache keyed by part of the state;
* :mod:`searchkit.helpers.deadlock`: a base class for deadlock rules (a state
  from which no goal can be reached), usable as a pruning rule and as a
  heuristic returning :data:`searchkit.DEAD`;
* :mod:`searchkit.helpers.assignment`: minimum-cost assignment for matching
  heuristics (SciPy's ``linear_sum_assignment`` when installed, an exact
  fallback otherwise).

``docs/plugin-guide.md`` has a section on each.
"""
