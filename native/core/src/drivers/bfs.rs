//! Breadth-first search, unit costs: the twin of `searchkit/machinery/drivers/bfs.py`.

use std::collections::VecDeque;
use std::mem::MaybeUninit;

use super::{guarded, Ctx};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::Puzzle;
use crate::result::SearchResult;
use crate::store::Store;

pub(crate) fn bfs<D: Puzzle>(ctx: &mut Ctx<D>) -> SearchResult<D::Move> {
    let limiter = ctx.checks.limiter;
    let start = ctx.puzzle.initial_state();
    let start_goal = ctx.puzzle.is_goal(&start);
    let heap_each = ctx.puzzle.state_heap_bytes(&start);
    let mut store: Store<D::State, D::Move> = match Store::new(start, heap_each, limiter) {
        Ok(s) => s,
        Err(stop) => return SearchResult::new(stop, ctx.stats(0, 0, 0, 0)),
    };
    let mut frontier: VecDeque<(u32, u32)> = VecDeque::new();
    frontier.push_back((0, 0));
    let (mut expanded, mut generated) = (0u64, 0u64);
    let mut checkpoint = ctx.checks.first_checkpoint();
    let mut goal = None;
    let mut bad_cost = None;
    let mut buf = Vec::new();
    let status = guarded((|| -> Result<Status, Stop> {
        if start_goal {
            goal = Some(0);
            return Ok(Status::Solved);
        }
        while let Some((id, g)) = frontier.pop_front() {
            if ctx.max_cost.is_some_and(|m| g >= m) {
                continue;
            }
            if expanded >= checkpoint {
                checkpoint = ctx.checks.checkpoint(expanded)?;
                if ctx.checks.limiter.memory_budget.is_some_and(|b| store.bytes() + frontier.len() * 8 > b) {
                    return Err(Status::MemoryLimit);
                }
            }
            expanded += 1;
            let state = store.state(id).clone();
            ctx.successors(&state, &mut buf);
            for s in buf.drain(..) {
                generated += 1;
                if s.cost != 1 {
                    bad_cost = Some(format!("bfs needs unit step costs, got {} for move {:?}", s.cost, s.mv));
                    return Ok(Status::Error);
                }
                let h = store.hash(&s.state);
                if store.find(h, &s.state).is_some() {
                    continue;
                }
                let is_goal = ctx.puzzle.is_goal(&s.state);
                let cid = store.insert(h, s.state, id, MaybeUninit::new(s.mv), g + 1, limiter)?;
                if is_goal {
                    goal = Some(cid);
                    return Ok(Status::Solved);
                }
                frontier.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                frontier.push_back((cid, g + 1));
            }
        }
        Ok(Status::Exhausted)
    })());
    let mut stats = ctx.stats(expanded, generated, 0, store.len() as u64);
    stats.peak_bytes = store.bytes() as u64;
    let mut o = SearchResult::new(status, stats);
    match status {
        Status::Error => o.message = bad_cost,
        Status::Solved => {
            let moves = store.path(goal.expect("solved with a goal"));
            o.cost = Some(moves.len() as u64);
            o.lower_bound = o.cost;
            o.moves = moves;
        }
        Status::Exhausted => o.lower_bound = ctx.max_cost.map(|m| u64::from(m) + 1),
        _ => {}
    }
    o
}
