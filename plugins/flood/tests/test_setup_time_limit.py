"""The time limit holds in every set-up loop of the area graph, from a case's first byte.

A 1000x1000 board (``searchkit generate flood --size 1000``) under
``--time-limit 1.8`` used to stop at 2.2 to 2.7 s: the counting sort in
``_csr`` walks the cross-area cell pairs (about four per cell) three times
and read the clock only once per 4096 *areas*, so on a board with few large
areas it could run a whole pass without a check.
"""

from __future__ import annotations

from array import array

from searchkit_flood import areas


def test_csr_reads_the_clock_every_few_thousand_pairs(monkeypatch):
    calls = []
    monkeypatch.setattr(areas, "_setup_check", lambda: calls.append(1))
    pairs = 200_000
    src = array("i", [k % 2 for k in range(pairs)])  # two areas, each adjacent to the other many times
    dst = array("i", [1 - k % 2 for k in range(pairs)])
    start, targets = areas._csr(2, src, dst)
    assert list(targets) == [1, 0] and list(start) == [0, 1, 2]
    assert len(calls) >= pairs // 4096  # one check per 4096 pairs at least, not one per 4096 areas

