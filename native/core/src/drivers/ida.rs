//! IDA* (Korf 1985), with or without a per-iteration transposition table: the twin of
//! `searchkit/drivers/ida_star.py`.

use std::collections::HashMap;

use super::{guarded, Ctx, INF};
use crate::control::{Status, Stop};
use crate::domain::{Domain, Successor, DEAD};
use crate::stats::{IterationRecord, Outcome};

struct Ida<D: Domain> {
    expanded: u64,
    generated: u64,
    checkpoint: u64,
    path: Vec<D::Move>,
    bufs: Vec<Vec<Successor<D::Move, D::State>>>,
    table: Option<HashMap<D::State, u32>>,
}

impl<D: Domain> Ida<D> {
    /// The solution's cost, or the least f above `bound` (`INF`: none).
    fn dfs(&mut self, ctx: &mut Ctx<D>, state: &D::State, g: u32, bound: u32, depth: usize, within: bool)
           -> Result<u64, Stop> {
        if ctx.domain.is_goal(state) {
            return Ok(u64::from(g));
        }
        let remaining = bound - g;
        if !ctx.pruners.is_empty() && ctx.cut(state, g, Some(remaining)) {
            return Ok(INF);
        }
        if self.expanded >= self.checkpoint {
            self.checkpoint = ctx.limiter.checkpoint(self.expanded)?;
            ctx.pruners_ok()?;
            ctx.check_bytes(0)?;
        }
        self.expanded += 1;
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        if within {
            ctx.successors_within(state, remaining, &mut buf);
        } else {
            ctx.successors(state, &mut buf);
        }
        let mut nxt = INF;
        for s in &buf {
            self.generated += 1;
            let g2 = g + s.cost;
            let h = ctx.estimate(&s.state);
            if h == DEAD {
                continue;
            }
            let f = u64::from(g2) + u64::from(h);
            if f > u64::from(bound) {
                nxt = nxt.min(f);
                continue;
            }
            if let Some(table) = self.table.as_mut() {
                if table.get(&s.state).is_some_and(|&seen| seen <= g2) {
                    continue;
                }
                table.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                table.insert(s.state.clone(), g2);
            }
            self.path.push(s.mv);
            let r = self.dfs(ctx, &s.state, g2, bound, depth + 1, within)?;
            if r <= u64::from(bound) {
                self.bufs[depth] = buf;
                return Ok(r);
            }
            self.path.pop();
            nxt = nxt.min(r);
        }
        self.bufs[depth] = buf;
        ctx.on_fail(state, g, Some(remaining));
        Ok(nxt)
    }
}

pub(crate) fn ida_star<D: Domain>(ctx: &mut Ctx<D>, transposition: bool) -> Outcome<D::Move> {
    let start = ctx.domain.initial();
    let mut ida: Ida<D> = Ida {
        expanded: 0,
        generated: 0,
        checkpoint: ctx.limiter.first_checkpoint(),
        path: Vec::new(),
        bufs: Vec::new(),
        table: None,
    };
    let mut iterations = Vec::new();
    let mut peak = 0u64;
    let mut cost = None;
    let h0 = ctx.estimate(&start);
    let mut bound: u64 = if h0 == DEAD { INF } else { u64::from(h0) };
    // Python: the game's `successors_within` with a cost cap only (without one, bound + 1 steps could go on
    // for ever); a pruned successor hides its f, so the bound then rises by one at a time.
    let within = ctx.domain.has_successors_within() && ctx.max_cost.is_some();
    let status = guarded((|| loop {
        if bound == INF {
            // Python's heuristics are finite: a dead start has no analogue there; no goal is reachable.
            if ctx.domain.is_goal(&start) {
                cost = Some(0);
                return Ok(Status::Solved);
            }
            return Ok(Status::Exhausted);
        }
        if ctx.max_cost.is_some_and(|m| bound > u64::from(m)) {
            return Ok(Status::Exhausted);
        }
        let b = u32::try_from(bound).map_err(|_| Status::Exhausted)?;
        let (t0, e0, g0) = (ctx.limiter.control.elapsed(), ida.expanded, ida.generated);
        ctx.limiter.control.set_bound(bound);
        if transposition {
            let mut t = HashMap::new();
            t.insert(start.clone(), 0);
            ida.table = Some(t);
        }
        let r = ida.dfs(ctx, &start, 0, b, 0, within);
        if let Some(t) = &ida.table {
            peak = peak.max(t.len() as u64);
        }
        iterations.push(IterationRecord {
            bound,
            expanded: ida.expanded - e0,
            generated: ida.generated - g0,
            elapsed: ctx.limiter.control.elapsed() - t0,
            evaluated: ida.generated - g0,
            kind: "f-bound",
        });
        let r = r?;
        if r <= bound {
            cost = Some(r);
            return Ok(Status::Solved);
        }
        if r == INF && !within {
            return Ok(Status::Exhausted);
        }
        bound = if within { bound + 1 } else { r };
    })());
    let mut stats = ctx.stats(ida.expanded, ida.generated, ida.generated + 1, peak);
    stats.iterations = iterations;
    let mut o = Outcome::new(status, stats);
    if status == Status::Solved {
        o.moves = std::mem::take(&mut ida.path);
        o.cost = cost;
        o.lower_bound = cost;
    } else if status == Status::Exhausted && ctx.max_cost.is_none_or(|m| bound <= u64::from(m)) {
        o.lower_bound = None;
    } else {
        o.lower_bound = Some(bound).filter(|&b| b != INF);
    }
    o
}
