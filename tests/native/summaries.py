"""What the flood and sliding-tiles differential tests compare: a result of either engine as one dict
(status, moves, cost, lower bound, the counts, the iterations and the rule cuts, the fused rules' included)."""


def summary_python(r, puzzle):
    """A Python driver's result on ``puzzle``, its fused rules' cuts merged as the Solver merges them."""
    s = r.stats
    cuts = dict(s.rule_cuts)
    cuts.update(puzzle.rule_cuts)  # as the Solver merges the fused rules' cuts
    return dict(status=r.status, moves=list(r.moves), cost=r.cost, lower_bound=r.lower_bound, expanded=s.expanded,
                generated=s.generated, evaluated=s.evaluated, peak_stored=s.peak_stored,
                iterations=[(i.bound, i.expanded, i.generated, i.evaluated) for i in s.iterations],
                rule_cuts=cuts)


def summary_native(d):
    """A native result dict (not an error)."""
    s = d["stats"]
    assert d["status"] != "error", d["message"]
    return dict(status=d["status"], moves=list(d["moves"]), cost=d["cost"], lower_bound=d["lower_bound"],
                expanded=s["expanded"], generated=s["generated"], evaluated=s["evaluated"],
                peak_stored=s["peak_stored"], iterations=[(b, e, g, v) for b, e, g, _, v, *_ in s["iterations"]],
                rule_cuts=dict(s["rule_cuts"]))
