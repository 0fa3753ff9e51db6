//! Beam search, breadth-first by moves, the `width` best states of each layer by g + h: the twin of
//! `searchkit/machinery/drivers/beam.py`.

use std::mem::MaybeUninit;

use super::{conclude, guarded, Ctx, INF};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::{Puzzle, DEAD};
use crate::result::SearchResult;
use crate::store::Store;

pub(crate) fn beam<D: Puzzle>(ctx: &mut Ctx<D>, width: usize) -> SearchResult<D::Move> {
    let limiter = ctx.checks.limiter;
    let start = ctx.puzzle.initial_state();
    let h0 = ctx.estimate(&start);
    let start_goal = ctx.puzzle.is_goal(&start);
    let heap_each = ctx.puzzle.state_heap_bytes(&start);
    let mut store: Store<D::State, D::Move> = match Store::new(start, heap_each, limiter) {
        Ok(s) => s,
        Err(stop) => return SearchResult::new(stop, ctx.stats(0, 0, 1, 0)),
    };
    let (mut expanded, mut generated, mut evaluated, mut peak) = (0u64, 0u64, 1u64, 1u64);
    let mut dropped = INF;
    let mut unit = true;
    // (f, g, id) of the layer being expanded.
    let mut layer: Vec<(u64, u32, u32)> = vec![(if h0 == DEAD { INF } else { u64::from(h0) }, 0, 0)];
    let mut found: Option<(u32, u32)> = None;
    let mut buf = Vec::new();
    let cap = ctx.cap();
    let admissible = ctx.admissible;
    let status = guarded((|| -> Result<Status, Stop> {
        if start_goal {
            found = Some((0, 0));
            return Ok(Status::Solved);
        }
        let mut checkpoint = ctx.checks.first_checkpoint();
        let mut tie = 0u64;
        while !layer.is_empty() {
            // (g + h, tie-break key, tie, g, id)
            let mut children: Vec<(u64, i64, u64, u32, u32)> = Vec::new();
            let mut goal: Option<(u32, u32)> = None;
            for &(_, g, id) in &layer {
                let state = store.state(id).clone();
                if !ctx.pruners.is_empty() && ctx.cut(&state, g, None) {
                    continue;
                }
                if expanded >= checkpoint {
                    checkpoint = ctx.checks.checkpoint(expanded)?;
                    ctx.pruners_ok()?;
                    if ctx.checks.limiter.memory_budget.is_some_and(|b| store.bytes() + children.len() * 32 > b) {
                        return Err(Status::MemoryLimit);
                    }
                }
                expanded += 1;
                ctx.successors(&state, &mut buf);
                for s in buf.drain(..) {
                    generated += 1;
                    if s.cost != 1 {
                        unit = false;
                    }
                    let hash = store.hash(&s.state);
                    if store.find(hash, &s.state).is_some() {
                        continue;
                    }
                    let g2 = g + s.cost;
                    if ctx.puzzle.is_goal(&s.state) {
                        if u64::from(g2) > cap {
                            continue;
                        }
                        let cid = store.insert(hash, s.state, id, MaybeUninit::new(s.mv), g2, limiter)?;
                        if goal.is_none_or(|(_, c)| g2 < c) {
                            goal = Some((cid, g2));
                        }
                        continue;
                    }
                    let h = ctx.estimate(&s.state);
                    evaluated += 1;
                    if h == DEAD {
                        continue;
                    }
                    let f = u64::from(g2) + u64::from(h);
                    if (if admissible { f } else { u64::from(g2) }) > cap {
                        continue;
                    }
                    let tb = ctx.puzzle.tie_break(&s.state);
                    let cid = store.insert(hash, s.state, id, MaybeUninit::new(s.mv), g2, limiter)?;
                    tie += 1;
                    children.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                    children.push((f, tb, tie, g2, cid));
                }
            }
            peak = peak.max(store.len() as u64);
            children.sort_unstable();
            for e in children.iter().skip(width) {
                dropped = dropped.min(e.0);
            }
            children.truncate(width);
            layer = children.iter().map(|&(f, _, _, g, id)| (f, g, id)).collect();
            if goal.is_some() {
                found = goal;
                return Ok(Status::Solved);
            }
        }
        Ok(if dropped == INF { Status::Exhausted } else { Status::Incomplete })
    })());
    let mut stats = ctx.stats(expanded, generated, evaluated, peak);
    stats.peak_bytes = store.bytes() as u64;
    let mut bound = None;
    if admissible && unit {
        let mut b = dropped.min(layer.iter().map(|e| e.0).min().unwrap_or(INF));
        if let Some(m) = ctx.max_cost {
            b = b.min(u64::from(m) + 1);
        }
        bound = Some(b);
    }
    match found {
        Some((id, cost)) => conclude(status, stats, Some((store.path(id), u64::from(cost))), bound, ctx.max_cost),
        None => conclude(status, stats, None, bound, ctx.max_cost),
    }
}
