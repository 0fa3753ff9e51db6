"""The threads a search ran on, in its stats and records (issue 34, item 1)."""

from __future__ import annotations


def test_the_stats_write_threads_only_when_the_search_ran_on_more_than_one():
    from searchkit.machinery.engine.native import result_of
    from searchkit.result import SearchStats

    assert "threads" not in SearchStats().to_dict(), "a one-thread search's record is as before threads existed"
    assert SearchStats(threads=4).to_dict()["threads"] == 4
    stats = {"expanded": 1, "generated": 1, "evaluated": 1, "elapsed": 0.0, "iterations": [], "per_depth": [],
             "per_depth_seconds": [], "peak_stored": 0, "rule_cuts": [], "peak_bytes": 0, "pruner_bytes": 0,
             "states_stored": 0}
    native = {"engine": "native", "status": "solved", "moves": [], "cost": 0, "lower_bound": 0, "message": None}
    assert result_of(dict(native, stats=stats)).stats.threads == 1
    assert result_of(dict(native, stats=dict(stats, threads=2))).stats.threads == 2
