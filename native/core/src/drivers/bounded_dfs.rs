//! Depth-bounded depth-first search returning the first solution in move order: the twin of
//! `searchkit/machinery/drivers/bounded_dfs.py` (modes `exact`, `at_most`, `shortest`; the game's
//! `successors_within` when it has one; the heuristic optional; `per_depth` and `per_depth_seconds`).

use std::time::Instant;

use super::{guarded, Ctx};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::{Puzzle, Successor, DEAD};
use crate::result::{IterationRecord, SearchResult};
use crate::DfsMode;

struct Dfs<D: Puzzle> {
    tally: Tally,
    generated: u64,
    evaluated: u64,
    path: Vec<D::Move>,
    /// `bufs[d]`: the successors of the state at depth `d` of the path.
    bufs: Vec<Vec<Successor<D::Move, D::State>>>,
    /// The depth-first search's own stack, one frame per state on the path (kept between iterations).
    frames: Vec<Frame>,
    use_h: bool,
}

/// What entering a state updates.
struct Tally {
    expanded: u64,
    checkpoint: u64,
    /// States expanded at each depth g (grown as the search goes deeper).
    per_depth: Vec<u64>,
    /// Seconds spent in subtrees rooted at each depth (one more slot than `per_depth`).
    inclusive: Vec<f64>,
    solution_cost: Option<u32>,
    within: bool,
}

/// One expanded state on the path: its cost, what is left of the limit, its next successor to try
/// (`bufs[depth][next]`) and when its expansion began.
struct Frame {
    g: u32,
    left: u32,
    next: usize,
    t0: Instant,
}

/// What entering a state gives: an answer at once (a goal within the mode: true; no cost left, or a state the
/// rules cut: false), or a frame whose successors are in its buffer.
enum Entered {
    Found(bool),
    Frame(Frame),
}

impl<D: Puzzle> Dfs<D> {
    /// Enter `state` (cost `g`): the first half of Python's recursive step, up to its successors (written into
    /// `buf`, the buffer of its depth).
    #[allow(clippy::too_many_arguments)]
    fn enter(ctx: &mut Ctx<D>, t: &mut Tally, state: &D::State, g: u32, limit: u32, exact: bool,
             buf: &mut Vec<Successor<D::Move, D::State>>) -> Result<Entered, Stop> {
        while t.per_depth.len() <= g as usize {
            t.per_depth.push(0);
            t.inclusive.push(0.0);
        }
        let left = limit - g;
        if ctx.puzzle.is_goal(state) && (left == 0 || !exact) {
            t.solution_cost = Some(g);
            return Ok(Entered::Found(true));
        }
        if left == 0 {
            return Ok(Entered::Found(false));
        }
        if !ctx.pruners.is_empty() && ctx.cut(state, g, Some(left)) {
            return Ok(Entered::Found(false));
        }
        if t.expanded >= t.checkpoint {
            t.checkpoint = ctx.checks.checkpoint(t.expanded)?;
            ctx.pruners_ok()?;
            ctx.check_bytes(0)?;
        }
        t.expanded += 1;
        t.per_depth[g as usize] += 1;
        let t0 = Instant::now();
        if t.within {
            ctx.successors_within(state, left, buf);
        } else {
            ctx.successors(state, buf);
        }
        Ok(Entered::Frame(Frame { g, left, next: 0, t0 }))
    }

    /// Whether a solution lies below `start` within `limit`; its moves are `path`.
    ///
    /// Python's recursive depth-first search (`searchkit/machinery/drivers/bounded_dfs.py`), step for step in the same
    /// order with the same counts, on a stack of [`Frame`]s of its own: it runs on any thread with any stack.
    fn search(&mut self, ctx: &mut Ctx<D>, start: &D::State, limit: u32, exact: bool) -> Result<bool, Stop> {
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        let r = self.run(ctx, start, limit, exact, &mut frames);
        self.frames = frames;
        r
    }

    fn run(&mut self, ctx: &mut Ctx<D>, start: &D::State, limit: u32, exact: bool, frames: &mut Vec<Frame>)
           -> Result<bool, Stop> {
        if self.bufs.is_empty() {
            self.bufs.push(Vec::new());
        }
        match Self::enter(ctx, &mut self.tally, start, 0, limit, exact, &mut self.bufs[0])? {
            Entered::Found(found) => return Ok(found),
            Entered::Frame(f) => frames.push(f),
        }
        // Whether the last child found a solution (`None`: the top frame goes on with its next successor).
        let mut returned: Option<bool> = None;
        loop {
            let d = frames.len() - 1;
            match returned.take() {
                Some(true) => {
                    // found: every state on the path counts its subtree's time, deepest first
                    for f in frames.iter().rev() {
                        self.tally.inclusive[f.g as usize] += f.t0.elapsed().as_secs_f64();
                    }
                    return Ok(true);
                }
                Some(false) => {
                    self.path.pop();
                }
                None => {}
            }
            let mut child = None;
            {
                let frame = &mut frames[d];
                let buf = &self.bufs[d];
                while frame.next < buf.len() {
                    let s = &buf[frame.next];
                    frame.next += 1;
                    self.generated += 1;
                    if s.cost > frame.left {
                        continue;
                    }
                    if self.use_h {
                        self.evaluated += 1;
                        let h = ctx.estimate(&s.state);
                        if h == DEAD || u64::from(s.cost) + u64::from(h) > u64::from(frame.left) {
                            continue;
                        }
                    }
                    child = Some((frame.next - 1, frame.g + s.cost));
                    break;
                }
            }
            match child {
                None => {
                    let frame = frames.pop().expect("a frame");
                    let state = if d == 0 { start } else { &self.bufs[d - 1][frames[d - 1].next - 1].state };
                    ctx.on_fail(state, frame.g, Some(frame.left));
                    self.tally.inclusive[frame.g as usize] += frame.t0.elapsed().as_secs_f64();
                    if frames.is_empty() {
                        return Ok(false);
                    }
                    returned = Some(false);
                }
                Some((i, g2)) => {
                    if self.bufs.len() <= d + 1 {
                        self.bufs.resize_with(d + 2, Vec::new);
                    }
                    let (upper, lower) = self.bufs.split_at_mut(d + 1);
                    let s = &upper[d][i];
                    self.path.push(s.mv);
                    match Self::enter(ctx, &mut self.tally, &s.state, g2, limit, exact, &mut lower[0])? {
                        Entered::Found(found) => returned = Some(found),
                        Entered::Frame(f) => frames.push(f),
                    }
                }
            }
        }
    }
}

/// Python's `bounded_dfs(puzzle, depth = max_cost, mode, heuristic if use_h)`.
pub(crate) fn bounded_dfs<D: Puzzle>(ctx: &mut Ctx<D>, mode: DfsMode, use_h: bool) -> SearchResult<D::Move> {
    let Some(depth) = ctx.max_cost else {
        let mut o = SearchResult::new(Status::Error, ctx.stats(0, 0, 0, 0));
        o.message = Some("bounded_dfs needs a depth (max_cost)".to_string());
        return o;
    };
    let start = ctx.puzzle.initial_state();
    let mut d: Dfs<D> = Dfs {
        tally: Tally {
            expanded: 0,
            checkpoint: ctx.checks.first_checkpoint(),
            per_depth: vec![0],
            inclusive: vec![0.0, 0.0],
            solution_cost: None,
            within: ctx.puzzle.has_successors_within(),
        },
        generated: 0,
        evaluated: 0,
        path: Vec::new(),
        bufs: Vec::new(),
        frames: Vec::new(),
        use_h,
    };
    let exact = mode != DfsMode::AtMost;
    let first = if mode == DfsMode::Shortest { 0 } else { depth };
    let mut iterations = Vec::new();
    let status = guarded((|| {
        for bound in first..=depth {
            let (t0, e0, g0, v0) = (ctx.checks.limiter.elapsed(), d.tally.expanded, d.generated, d.evaluated);
            ctx.checks.limiter.set_bound(u64::from(bound));
            let r = d.search(ctx, &start, bound, exact);
            // A limit keeps the partial iteration's record too (Python's `finally`).
            iterations.push(IterationRecord {
                bound: u64::from(bound),
                expanded: d.tally.expanded - e0,
                generated: d.generated - g0,
                elapsed: ctx.checks.limiter.elapsed() - t0,
                evaluated: d.evaluated - v0,
                kind: crate::protocol::DEPTH,
            });
            if r? {
                return Ok(Status::Solved);
            }
        }
        Ok(Status::Exhausted)
    })());
    let mut stats = ctx.stats(d.tally.expanded, d.generated, d.evaluated, 0);
    if mode == DfsMode::Shortest {
        stats.iterations = iterations;
    }
    let t = d.tally;
    stats.per_depth_seconds =
        (0..t.per_depth.len()).map(|g| (t.inclusive[g] - t.inclusive[g + 1]).max(0.0)).collect();
    stats.per_depth = t.per_depth;
    let mut o = SearchResult::new(status, stats);
    if status == Status::Solved {
        o.moves = d.path;
        o.cost = t.solution_cost.map(u64::from);
    }
    o
}
