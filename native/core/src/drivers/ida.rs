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
    /// `bufs[d]`: the successors of the state at depth `d` of the path.
    bufs: Vec<Vec<Successor<D::Move, D::State>>>,
    /// The depth-first search's own stack, one frame per state on the path (kept between iterations).
    frames: Vec<Frame>,
    table: Option<HashMap<D::State, u32>>,
}

/// One state on the path: its cost, what is left under the bound, the least f above the bound so far, and its
/// next successor to try (`bufs[depth][next]`).
struct Frame {
    g: u32,
    remaining: u32,
    nxt: u64,
    next: usize,
}

/// What entering a state gives: a value at once (a goal: its cost; a state the rules cut: `INF`), or a frame
/// whose successors are in its buffer.
enum Entered {
    Value(u64),
    Frame(Frame),
}

impl<D: Domain> Ida<D> {
    /// Enter `state` (cost `g`): the first half of Python's recursive step, up to its successors
    /// (written into `buf`, the buffer of that depth).
    #[allow(clippy::too_many_arguments)]
    fn enter(ctx: &mut Ctx<D>, expanded: &mut u64, checkpoint: &mut u64, state: &D::State, g: u32, bound: u32,
             within: bool, buf: &mut Vec<Successor<D::Move, D::State>>) -> Result<Entered, Stop> {
        if ctx.domain.is_goal(state) {
            return Ok(Entered::Value(u64::from(g)));
        }
        let remaining = bound - g;
        if !ctx.pruners.is_empty() && ctx.cut(state, g, Some(remaining)) {
            return Ok(Entered::Value(INF));
        }
        if *expanded >= *checkpoint {
            *checkpoint = ctx.limiter.checkpoint(*expanded)?;
            ctx.pruners_ok()?;
            ctx.check_bytes(0)?;
        }
        *expanded += 1;
        if within {
            ctx.successors_within(state, remaining, buf);
        } else {
            ctx.successors(state, buf);
        }
        Ok(Entered::Frame(Frame { g, remaining, nxt: INF, next: 0 }))
    }

    /// One iteration under `bound` from `start`: the solution's cost (its moves in `path`), or the least f
    /// above `bound` (`INF`: none).
    ///
    /// Python's recursive depth-first search (`searchkit/drivers/ida_star.py`), step for step in the same
    /// order with the same counts, but on a stack of [`Frame`]s of its own: the search runs on any thread with
    /// any stack (it did on a thread of its own with a 16 MiB stack, started for each search, whose start and
    /// hand-off cost more than a small search).
    fn search(&mut self, ctx: &mut Ctx<D>, start: &D::State, bound: u32, within: bool) -> Result<u64, Stop> {
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        let r = self.run(ctx, start, bound, within, &mut frames);
        self.frames = frames;
        r
    }

    fn run(&mut self, ctx: &mut Ctx<D>, start: &D::State, bound: u32, within: bool, frames: &mut Vec<Frame>)
           -> Result<u64, Stop> {
        if self.bufs.is_empty() {
            self.bufs.push(Vec::new());
        }
        match Self::enter(ctx, &mut self.expanded, &mut self.checkpoint, start, 0, bound, within, &mut self.bufs[0])? {
            Entered::Value(v) => return Ok(v),
            Entered::Frame(f) => frames.push(f),
        }
        // The value the last child returned (`None`: the top frame goes on with its next successor).
        let mut returned: Option<u64> = None;
        loop {
            let d = frames.len() - 1;
            if let Some(r) = returned.take() {
                if r <= u64::from(bound) {
                    return Ok(r);
                }
                self.path.pop();
                frames[d].nxt = frames[d].nxt.min(r);
            }
            // The next successor of the top frame within the bound, if any.
            let mut child = None;
            {
                // the frame's fields in locals while its successors are tried (written back once)
                let frame = &mut frames[d];
                let buf = &self.bufs[d];
                let (g, mut next, mut nxt) = (frame.g, frame.next, frame.nxt);
                let mut generated = 0;
                while next < buf.len() {
                    let s = &buf[next];
                    next += 1;
                    generated += 1;
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
                        if table.try_reserve(1).is_err() {
                            self.generated += generated;
                            return Err(Status::MemoryLimit);
                        }
                        table.insert(s.state.clone(), g2);
                    }
                    child = Some((next - 1, g2));
                    break;
                }
                self.generated += generated;
                (frame.next, frame.nxt) = (next, nxt);
            }
            match child {
                None => {
                    // every successor tried: the frame returns its least f above the bound
                    let frame = frames.pop().expect("a frame");
                    if !ctx.pruners.is_empty() {
                        let state = if d == 0 { start } else { &self.bufs[d - 1][frames[d - 1].next - 1].state };
                        ctx.on_fail(state, frame.g, Some(frame.remaining));
                    }
                    if frames.is_empty() {
                        return Ok(frame.nxt);
                    }
                    returned = Some(frame.nxt);
                }
                Some((i, g2)) => {
                    if self.bufs.len() <= d + 1 {
                        self.bufs.resize_with(d + 2, Vec::new);
                    }
                    let (upper, lower) = self.bufs.split_at_mut(d + 1);
                    let s = &upper[d][i];
                    self.path.push(s.mv);
                    match Self::enter(ctx, &mut self.expanded, &mut self.checkpoint, &s.state, g2, bound, within,
                                      &mut lower[0])? {
                        Entered::Value(v) => returned = Some(v),
                        Entered::Frame(f) => frames.push(f),
                    }
                }
            }
        }
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
        frames: Vec::new(),
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
        let r = ida.search(ctx, &start, b, within);
        if let Some(t) = &ida.table {
            peak = peak.max(t.len() as u64);
        }
        iterations.push(IterationRecord {
            bound,
            expanded: ida.expanded - e0,
            generated: ida.generated - g0,
            elapsed: ctx.limiter.control.elapsed() - t0,
            evaluated: ida.generated - g0,
            kind: crate::protocol::F_BOUND,
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
