"""Shared by the picture tests: solutions as steps, and an independent Flood-It replay."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PC19 = HERE / "pc19-first3.txt"
RANDOM8 = HERE / "random-8x8-first3.txt"
MAYAN = ROOT / "examples" / "mayan" / "noip2011-sample.in"
EIGHT = ROOT / "plugins" / "sliding-tiles" / "examples" / "8-puzzle.txt"


def solution(registry, game: str, path: Path, case: int = 1, **options):
    """``(game, case, moves, steps)`` of case ``case`` of ``path``, solved with the game's plan."""
    from searchkit.render.steps import replay_steps
    from searchkit.machinery.solver import Solver

    solver = Solver(registry, game, options=options)
    cases = [c for c in solver.game.parse(path.read_text(), str(path), solver.options)]
    the_case = next(c for c in cases if getattr(c, "index", None) == case)
    result = solver.solve(the_case).result
    assert result.solved
    rules = frozenset(r.name for r in registry.rules_for(game))
    puzzle = solver.game.puzzle(the_case, solver.options, rules)
    steps, final = replay_steps(solver.game, the_case, puzzle, result.moves)
    assert puzzle.is_goal(final)
    return solver.game, the_case, list(result.moves), steps


def flood_grids(rows: list[list[str]], colours: list[str]) -> list[list[list[str]]]:
    """The board after each move (the start first), by a plain flood fill from the top-left cell.

    Written without the plugin's code, so the pictures are checked against the rules themselves.
    """
    grid = [list(r) for r in rows]
    h, w = len(grid), len(grid[0])
    out = [[r[:] for r in grid]]
    for colour in colours:
        old = grid[0][0]
        seen, stack = {(0, 0)}, [(0, 0)]
        while stack:
            y, x = stack.pop()
            for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= yy < h and 0 <= xx < w and (yy, xx) not in seen and grid[yy][xx] == old:
                    seen.add((yy, xx))
                    stack.append((yy, xx))
        for y, x in seen:
            grid[y][x] = colour
        out.append([r[:] for r in grid])
    return out
