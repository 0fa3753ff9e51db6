"""The Limiter's time checks: prompt however slow expansions get (a fake clock, no wall-clock assertions)."""

from __future__ import annotations

import types

import pytest

import searchkit.limits as limits_module
from searchkit.limits import Limiter, LimitReached, Limits


def run_until_stopped(limiter, now, cost_of):
    """A driver's loop: check at each checkpoint, then expand one state costing ``cost_of(done)`` seconds."""
    done, checkpoint = 0, limiter.first_checkpoint()
    with pytest.raises(LimitReached) as stop:
        while done < 100_000:
            if done >= checkpoint:
                checkpoint = limiter.checkpoint(done)
            now[0] += cost_of(done)
            done += 1
    assert stop.value.status == "time_limit"
    return done


@pytest.fixture
def clock(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(limits_module, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    return now


def test_time_limit_holds_when_expansions_turn_slow(clock):
    """Four quick expansions, then 0.5 s each (a 400x400 Flood-It board): stop within a few of them, not 16."""
    run_until_stopped(Limiter(Limits(time_limit=1.0)), clock, lambda done: 0.001 if done < 4 else 0.5)
    assert clock[0] <= 1.0 + 3 * 0.5


def test_fast_expansions_still_read_the_clock_only_every_clock_every_nodes(monkeypatch):
    now, reads = [0.0], [0]

    def perf_counter():
        reads[0] += 1
        return now[0]

    monkeypatch.setattr(limits_module, "time", types.SimpleNamespace(perf_counter=perf_counter))
    limiter = Limiter(Limits(time_limit=1.0))
    done = run_until_stopped(limiter, now, lambda done: 1e-4)  # 10,000 expansions to the limit
    assert done >= 10_000 - limiter.clock_every
    assert reads[0] <= done / limiter.clock_every + 10


def test_the_running_cases_threads_are_its_limiters():
    # a native table build reads them as it reads the deadline (issue 34 item 2: the build runs on --threads)
    from searchkit.limits import active, threads

    assert threads() == 1  # no case running
    with active(Limiter(Limits(), threads=3)):
        assert threads() == 3
        with active(Limiter(Limits())):
            assert threads() == 1
        assert threads() == 3
    assert threads() == 1


@pytest.mark.parametrize("bad", [0, -1, 1025, 1.5, True, "2", None])
def test_a_limiter_refuses_threads_out_of_range(bad):
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 1024"):
        Limiter(Limits(), threads=bad)
