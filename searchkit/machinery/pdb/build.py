"""Building a pattern database: 0-1 breadth-first search backwards from the abstract goals.

Layer by layer: layer ``d`` starts from the states first reached at cost
``d``, is closed under cost-0 moves (every state met gets ``d``), and its
cost-1 moves give the states of layer ``d + 1`` not met before.  This is
Dijkstra's algorithm for 0/1 costs, so every state gets its exact distance
(the classic 0-1 BFS argument: a state is labelled only from a closed
layer of smaller or equal distance).  Work and memory are linear in the
number of abstract states; each layer is processed as numpy arrays.
"""

from __future__ import annotations

UNREACHED = 255


def build(abstraction, progress=None):
    """The folded table of exact abstract distances of ``abstraction``.

    Args:
        abstraction: a :class:`~searchkit.machinery.pdb.abstraction.Abstraction`.
        progress: ``progress(reached, total)`` called after each batch, or ``None``.

    Returns:
        A numpy ``uint8`` array of ``abstraction.entries`` entries; 255 marks
        entries no abstract state of which reaches a goal.

    Raises:
        ValueError: a move cost other than 0 or 1, or a distance above 254.
        searchkit.limits.LimitReached: built for a running case (a heuristic's
            tables made on first use) whose time runs out, checked after
            every batch, or whose ``--memory-limit`` allowance is less than
            the table's bytes, checked before anything is allocated.
    """
    import numpy as np

    from searchkit.limits import reserve, setup_check

    size = abstraction.size
    reserve(size)
    dist = np.full(size, UNREACHED, dtype=np.uint8)
    frontier = np.unique(np.asarray(abstraction.goals(), dtype=np.int64))
    dist[frontier] = 0
    reached = int(frontier.size)
    d = 0
    batch = 1 << 20
    while frontier.size:
        nexts = []
        pending = [frontier]
        while pending:
            cur = pending.pop()
            for start in range(0, cur.size, batch):
                part = cur[start:start + batch]
                for preds, costs in abstraction.predecessors(part):
                    costs = np.broadcast_to(np.asarray(costs), preds.shape)
                    if ((costs != 0) & (costs != 1)).any():
                        raise ValueError(f"{abstraction.label()}: move costs must be 0 or 1")
                    ok = preds >= 0
                    zero = preds[ok & (costs == 0)]
                    zero = zero[dist[zero] == UNREACHED]
                    if zero.size:
                        zero = np.unique(zero)
                        dist[zero] = d
                        reached += int(zero.size)
                        pending.append(zero)
                    one = preds[ok & (costs == 1)]
                    one = one[dist[one] == UNREACHED]
                    if one.size:
                        nexts.append(one)
                if progress is not None:
                    progress(reached, size)
                setup_check()  # setup-check: every batch of up to 2**20 states
        if not nexts:
            break
        frontier = np.concatenate(nexts)
        frontier = np.unique(frontier[dist[frontier] == UNREACHED])
        d += 1
        if d >= UNREACHED:
            raise ValueError(f"{abstraction.label()}: a distance above {UNREACHED - 1}; one byte per entry is too few")
        dist[frontier] = d
        reached += int(frontier.size)
    if abstraction.fold > 1:
        dist = dist.reshape(-1, abstraction.fold).min(axis=1)
    return dist
