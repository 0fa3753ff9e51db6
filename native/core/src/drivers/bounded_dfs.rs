//! Depth-bounded depth-first search returning the first solution in move order: the twin of
//! `searchkit/drivers/bounded_dfs.py` (modes `exact`, `at_most`, `shortest`; the game's
//! `successors_within` when it has one; the heuristic optional; `per_depth` and `per_depth_seconds`).

use std::time::Instant;

use super::{guarded, Ctx};
use crate::control::{Status, Stop};
use crate::domain::{Domain, Successor, DEAD};
use crate::stats::{IterationRecord, Outcome};
use crate::DfsMode;

struct Dfs<D: Domain> {
    expanded: u64,
    generated: u64,
    evaluated: u64,
    checkpoint: u64,
    path: Vec<D::Move>,
    bufs: Vec<Vec<Successor<D::Move, D::State>>>,
    /// States expanded at each depth g (grown as the search goes deeper).
    per_depth: Vec<u64>,
    /// Seconds spent in subtrees rooted at each depth (one more slot than `per_depth`).
    inclusive: Vec<f64>,
    solution_cost: Option<u32>,
    use_h: bool,
    within: bool,
}

impl<D: Domain> Dfs<D> {
    /// Whether a solution lies below `state` (reached with cost `g`) within `limit`; its moves are `path`.
    fn dfs(&mut self, ctx: &mut Ctx<D>, state: &D::State, g: u32, limit: u32, exact: bool, depth: usize)
           -> Result<bool, Stop> {
        while self.per_depth.len() <= g as usize {
            self.per_depth.push(0);
            self.inclusive.push(0.0);
        }
        let left = limit - g;
        if ctx.domain.is_goal(state) && (left == 0 || !exact) {
            self.solution_cost = Some(g);
            return Ok(true);
        }
        if left == 0 {
            return Ok(false);
        }
        if !ctx.pruners.is_empty() && ctx.cut(state, g, Some(left)) {
            return Ok(false);
        }
        if self.expanded >= self.checkpoint {
            self.checkpoint = ctx.limiter.checkpoint(self.expanded)?;
            ctx.pruners_ok()?;
            ctx.check_bytes(0)?;
        }
        self.expanded += 1;
        self.per_depth[g as usize] += 1;
        let t0 = Instant::now();
        if self.bufs.len() <= depth {
            self.bufs.resize_with(depth + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.bufs[depth]);
        if self.within {
            ctx.successors_within(state, left, &mut buf);
        } else {
            ctx.successors(state, &mut buf);
        }
        for s in &buf {
            self.generated += 1;
            if s.cost > left {
                continue;
            }
            if self.use_h {
                self.evaluated += 1;
                let h = ctx.estimate(&s.state);
                if h == DEAD || u64::from(s.cost) + u64::from(h) > u64::from(left) {
                    continue;
                }
            }
            self.path.push(s.mv);
            if self.dfs(ctx, &s.state, g + s.cost, limit, exact, depth + 1)? {
                self.inclusive[g as usize] += t0.elapsed().as_secs_f64();
                self.bufs[depth] = buf;
                return Ok(true);
            }
            self.path.pop();
        }
        self.bufs[depth] = buf;
        ctx.on_fail(state, g, Some(left));
        self.inclusive[g as usize] += t0.elapsed().as_secs_f64();
        Ok(false)
    }
}

/// Python's `bounded_dfs(puzzle, depth = max_cost, mode, heuristic if use_h)`.
pub(crate) fn bounded_dfs<D: Domain>(ctx: &mut Ctx<D>, mode: DfsMode, use_h: bool) -> Outcome<D::Move> {
    let Some(depth) = ctx.max_cost else {
        let mut o = Outcome::new(Status::Error, ctx.stats(0, 0, 0, 0));
        o.message = Some("bounded_dfs needs a depth (max_cost)".to_string());
        return o;
    };
    let start = ctx.domain.initial();
    let mut d: Dfs<D> = Dfs {
        expanded: 0,
        generated: 0,
        evaluated: 0,
        checkpoint: ctx.limiter.first_checkpoint(),
        path: Vec::new(),
        bufs: Vec::new(),
        per_depth: vec![0],
        inclusive: vec![0.0, 0.0],
        solution_cost: None,
        use_h,
        within: ctx.domain.has_successors_within(),
    };
    let exact = mode != DfsMode::AtMost;
    let first = if mode == DfsMode::Shortest { 0 } else { depth };
    let mut iterations = Vec::new();
    let status = guarded((|| {
        for bound in first..=depth {
            let (t0, e0, g0, v0) = (ctx.limiter.control.elapsed(), d.expanded, d.generated, d.evaluated);
            ctx.limiter.control.set_bound(u64::from(bound));
            let r = d.dfs(ctx, &start, 0, bound, exact, 0);
            // A limit keeps the partial iteration's record too (Python's `finally`).
            iterations.push(IterationRecord {
                bound: u64::from(bound),
                expanded: d.expanded - e0,
                generated: d.generated - g0,
                elapsed: ctx.limiter.control.elapsed() - t0,
                evaluated: d.evaluated - v0,
                kind: "depth",
            });
            if r? {
                return Ok(Status::Solved);
            }
        }
        Ok(Status::Exhausted)
    })());
    let mut stats = ctx.stats(d.expanded, d.generated, d.evaluated, 0);
    if mode == DfsMode::Shortest {
        stats.iterations = iterations;
    }
    stats.per_depth_seconds =
        (0..d.per_depth.len()).map(|g| (d.inclusive[g] - d.inclusive[g + 1]).max(0.0)).collect();
    stats.per_depth = d.per_depth;
    let mut o = Outcome::new(status, stats);
    if status == Status::Solved {
        o.moves = d.path;
        o.cost = d.solution_cost.map(u64::from);
    }
    o
}
