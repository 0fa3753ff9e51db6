"""Write plugins/flood/native/tests/data/golden.json: what the Python plugin computes, for the Rust tests to match.

For about 50 boards (2x2 to 14x14, a few wider ones up to the boxed-slice fallback of more than 576 areas, and
various pivots) it records the area graph (each area's colour and neighbours), a sample of reachable states, and
for each state: the successors (move, child) and the rule cuts under several disabled-rule sets, and the value of
every heuristic. It also records a sequence of ``dominance`` questions and Python's answers.

States are written as the hexadecimal flooded area set (bit a = area a). Run from the repository root with the
plugin installed:  python plugins/flood/native/tests/make_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from searchkit_flood.areas import FloodPuzzle
from searchkit_flood.board import Board, pivot_index
from searchkit_flood.dominance import dominance_pruner
from searchkit_flood.greedy import greedy, two_best
from searchkit_flood.heuristics import colours, eccentricity, layered, puchert

OUT = Path(__file__).parent / "data" / "golden.json"

#: Disabled-rule sets whose successors are recorded.
DISABLED = [
    [],
    ["frontier-colours"],
    ["frontier-colours", "no-growth"],
    ["completion"],
    ["exposure"],
    ["frontier-colours", "no-growth", "completion", "exposure"],
]
HEURISTICS = {"colours": colours, "eccentricity": eccentricity, "layered": layered, "puchert": puchert,
              "greedy": greedy, "two-best": two_best}


def boards(rng: random.Random):
    sizes = [(2, 2, 2), (3, 3, 3), (1, 5, 3), (5, 1, 2), (1, 1, 1), (4, 4, 4), (4, 6, 3), (6, 4, 5), (5, 5, 6)]
    sizes += [(rng.randint(3, 9), rng.randint(3, 9), rng.randint(2, 7)) for _ in range(24)]
    sizes += [(rng.randint(10, 14), rng.randint(10, 14), rng.randint(3, 8)) for _ in range(12)]
    sizes += [(14, 14, 6), (18, 18, 6), (24, 24, 4), (40, 30, 6)]  # 2, 4-6 and > 9 words
    for k, (w, h, c) in enumerate(sizes):
        cells = [rng.randrange(c) for _ in range(w * h)]
        start = ("top-left", "centre", "bottom-right", "top-right", "bottom-left")[k % 5]
        yield Board.from_values(w, h, cells, pivot_index(w, h, start))


def sample_states(puzzle, rng: random.Random, walks: int, length: int) -> list[int]:
    """Packed states met on random play-outs of frontier colours from the start (the start first)."""
    g = puzzle.graph
    start = puzzle.initial_state()
    seen = {start: None}
    for _ in range(walks):
        state = start
        for _ in range(rng.randint(1, length)):
            flooded, frontier = g.split(state)
            if not frontier:
                break
            cols = [c for c, a in enumerate(g.colour_areas) if a & frontier]
            c = rng.choice(cols)
            state = g.absorb(flooded, frontier, g.colour_areas[c] & frontier)
            seen.setdefault(state, None)
    return list(seen)


def main() -> None:
    rng = random.Random(20261201)
    cases = []
    for board in boards(rng):
        base = FloodPuzzle(board)
        g = base.graph
        big = g.count > 200
        states = sample_states(base, rng, 2 if big else 8, 6 if big else 30)[:6 if big else 14]
        puzzles = [FloodPuzzle(board, frozenset(d)) for d in DISABLED]
        heur = {name: make(base) for name, make in HEURISTICS.items()}
        rows = []
        for s in states:
            flooded = s & g.all_areas
            row = {"state": format(flooded, "x"), "h": {name: h(s) for name, h in heur.items()}, "succ": []}
            for p in puzzles:
                before = dict(p.rule_cuts)
                succ = p.successors(s)
                after = p.rule_cuts
                row["succ"].append({"children": [[m, format(c & g.all_areas, "x")] for m, c, _ in succ],
                                    "cuts": {k: v - before.get(k, 0) for k, v in after.items()}})
            rows.append(row)
        pruner = dominance_pruner(base)
        dominance = []
        for _ in range(20 if big else 40):
            s = rng.choice(states)
            gcost = rng.randrange(3)
            dominance.append([format(s & g.all_areas, "x"), gcost, pruner.cut(s, gcost, None)])
        cases.append({
            "width": board.width, "height": board.height, "cells": list(board.cells), "pivot": board.pivot,
            "colour": list(g.colour), "adjacency": [list(g.adjacency[g.adjacency_start[a]:g.adjacency_start[a + 1]])
                                                     for a in range(g.count)],
            "disabled": DISABLED, "states": rows,
            "dominance": dominance,
        })
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"cases": cases}, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(cases)} boards, {sum(len(c['states']) for c in cases)} states, "
          f"{OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
