//! IDA* (Korf 1985), with or without a per-iteration transposition table: the twin of
//! `searchkit/machinery/drivers/ida_star.py`.

use std::collections::HashMap;

pub(crate) mod parallel;
mod rec;

use super::{guarded, Ctx, INF};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::{Puzzle, Estimator, Successor, DEAD};
use crate::result::{IterationRecord, SearchResult};

/// Python's transposition test of a child reached with cost `g2`: `true` when this iteration reached `state` before
/// at a cost no greater (the child is skipped), else `false` with `state` recorded at `g2`.
/// `Err(MemoryLimit)` when the table cannot grow.
#[inline(always)]
fn seen_cheaper<S: Clone + Eq + std::hash::Hash>(table: &mut HashMap<S, u32>, state: &S, g2: u32)
                                                 -> Result<bool, Stop> {
    if table.get(state).is_some_and(|&seen| seen <= g2) {
        return Ok(true);
    }
    if table.try_reserve(1).is_err() {
        return Err(Status::MemoryLimit);
    }
    table.insert(state.clone(), g2);
    Ok(false)
}

/// A child's f = `g2 + h` when it lies above `bound` (it is not entered; the least such f is the next bound),
/// else `None`.
#[inline(always)]
fn above(g2: u32, h: u32, bound: u32) -> Option<u64> {
    let f = u64::from(g2) + u64::from(h);
    (f > u64::from(bound)).then_some(f)
}

struct Ida<D: Puzzle> {
    expanded: u64,
    generated: u64,
    checkpoint: u64,
    path: Vec<D::Move>,
    /// `bufs[d]`: the successors of the state at depth `d` of the path.
    bufs: Vec<Vec<Successor<D::Move, D::State>>>,
    /// The depth-first search's own stack, one frame per state on the path (kept between iterations).
    frames: Vec<Frame>,
    /// The stack of the search by move slots ([`Puzzle::successor_slots`]), kept between iterations.
    slot_frames: Vec<SlotFrame<D::State>>,
    /// The stack of the in-place search ([`Puzzle::in_place`]), kept between iterations.
    place_frames: Vec<Saved<D::Move>>,
    table: Option<HashMap<D::State, u32>>,
}

/// One state on the path: its cost, what is left under the bound, its estimate, the least f above the bound
/// so far, and its next successor to try (`bufs[depth][next]`).
struct Frame {
    g: u32,
    remaining: u32,
    h: u32,
    nxt: u64,
    next: usize,
}

/// One state on the path of the search by move slots: the state itself, its cost, what is left under the
/// bound, its estimate, its next move slot to try and the least f above the bound so far.
struct SlotFrame<S> {
    state: S,
    g: u32,
    remaining: u32,
    h: u32,
    slot: usize,
    nxt: u64,
}

/// A state on the path of the in-place search below its top, saved when a successor of it was entered: its
/// cost, estimate, next move slot to try and least f above the bound so far, and the undo word and move of
/// the successor entered (the state itself is the driver's one state, changed in place). That successor's
/// slot is the one before `slot` ([`Saved::via`]).
struct Saved<M> {
    g: u32,
    h: u32,
    slot: usize,
    nxt: u64,
    undo: u64,
    mv: M,
}

impl<M> Saved<M> {
    /// The slot of the successor entered: the last one tried (`slot` is the next to try).
    #[inline(always)]
    fn via(&self) -> usize {
        self.slot - 1
    }
}

/// The counters of one search, in locals while it runs (written back to [`Ida`] however it ends).
struct Counts {
    expanded: u64,
    generated: u64,
    checkpoint: u64,
}

impl<D: Puzzle> Ida<D> {
    /// A search with no counts yet, its first limit check at `checkpoint`.
    fn new(checkpoint: u64) -> Self {
        Ida {
            expanded: 0,
            generated: 0,
            checkpoint,
            path: Vec::new(),
            bufs: Vec::new(),
            frames: Vec::new(),
            slot_frames: Vec::new(),
            place_frames: Vec::new(),
            table: None,
        }
    }

    /// Enter `state` (cost `g`, estimate `h`): the first half of Python's recursive step, up to its
    /// successors (written into `buf`, the buffer of that depth, and a frame pushed). A value at once (a goal:
    /// its cost; a state the rules cut: `INF`), or `None` with the new frame on top.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn enter<H: Estimator<D> + ?Sized>(ctx: &mut Ctx<D, H>, n: &mut Counts, state: &D::State, g: u32, h: u32,
                                       bound: u32, within: bool, buf: &mut Vec<Successor<D::Move, D::State>>,
                                       frames: &mut Vec<Frame>) -> Result<Option<u64>, Stop> {
        if ctx.puzzle.is_goal(state) {
            return Ok(Some(u64::from(g)));
        }
        let remaining = bound - g;
        if !ctx.pruners.is_empty() && ctx.cut(state, g, Some(remaining)) {
            return Ok(Some(INF));
        }
        if n.expanded >= n.checkpoint {
            n.checkpoint = ctx.checks.checkpoint(n.expanded)?;
            ctx.pruners_ok()?;
            ctx.check_bytes(0)?;
        }
        n.expanded += 1;
        if within {
            ctx.successors_within(state, remaining, buf);
        } else {
            ctx.successors(state, buf);
        }
        frames.push(Frame { g, remaining, h, nxt: INF, next: 0 });
        Ok(None)
    }

    /// One iteration under `bound` from `start` (its estimate `h0`): the solution's cost (its moves in
    /// `path`), or the least f above `bound` (`INF`: none).
    ///
    /// Python's recursive depth-first search (`searchkit/machinery/drivers/ida_star.py`), step for step in the same
    /// order with the same counts, but on a stack of [`Frame`]s of its own: the search runs on any thread with
    /// any stack (it did on a thread of its own with a 16 MiB stack, started for each search, whose start and
    /// hand-off cost more than a small search).
    fn search<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, start: &D::State, h0: u32, bound: u32,
                                        within: bool) -> Result<u64, Stop> {
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        let mut n = Counts { expanded: self.expanded, generated: self.generated, checkpoint: self.checkpoint };
        let r = self.run(ctx, &mut n, start, h0, bound, within, &mut frames);
        (self.expanded, self.generated, self.checkpoint) = (n.expanded, n.generated, n.checkpoint);
        self.frames = frames;
        r
    }

    /// [`Ida::search`] for a game with move slots ([`Puzzle::successor_slots`]): each successor is written
    /// when it is tried, straight into the frame above its parent's, with no list of successors (and no
    /// `successors_within`: the caller keeps [`Ida::search`] for that). The same states in the same order with
    /// the same counts: when the search stops with states on its path (a solution, a limit), their slots not
    /// yet tried are asked then, for the cuts they count, as listing each expanded state's successors would
    /// have counted them.
    fn search_slots<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, start: &D::State, h0: u32,
                                              bound: u32) -> Result<u64, Stop> {
        let mut stack = std::mem::take(&mut self.slot_frames);
        let mut n = Counts { expanded: self.expanded, generated: self.generated, checkpoint: self.checkpoint };
        let mut live = 0;
        let r = self.run_slots(ctx, &mut n, start, h0, bound, &mut stack, &mut live);
        let slots = ctx.puzzle.successor_slots();
        let mut scratch = start.clone();
        for f in &stack[..live] {
            for slot in f.slot..slots {
                let _ = ctx.puzzle.successor_at(&f.state, slot, &mut scratch, &mut ctx.domain_cuts);
            }
        }
        (self.expanded, self.generated, self.checkpoint) = (n.expanded, n.generated, n.checkpoint);
        self.slot_frames = stack;
        r
    }

    /// The search of [`Ida::search_slots`] on `stack`, whose frames `0 .. live` are the path (`stack[live]`
    /// and above: room, their states overwritten).
    #[allow(clippy::too_many_arguments)]
    fn run_slots<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, n: &mut Counts, start: &D::State,
                                           h0: u32, bound: u32, stack: &mut Vec<SlotFrame<D::State>>,
                                           live: &mut usize) -> Result<u64, Stop> {
        let slots = ctx.puzzle.successor_slots();
        let frame = |state: D::State| SlotFrame { state, g: 0, remaining: 0, h: 0, slot: 0, nxt: INF };
        if stack.len() < 2 {
            stack.resize_with(2, || frame(start.clone()));
        }
        stack[0] = SlotFrame { state: start.clone(), g: 0, remaining: bound, h: h0, slot: 0, nxt: INF };
        // Enter the state of frame `i` (Python's recursive step up to its successors): `Some` value when it
        // has one (a goal: its cost; cut by a rule: `INF`), else it is expanded and its frame is on the path.
        macro_rules! enter {
            ($i:expr) => {{
                let f = &stack[$i];
                if ctx.puzzle.is_goal(&f.state) {
                    Some(u64::from(f.g))
                } else if !ctx.pruners.is_empty() && ctx.cut(&f.state, f.g, Some(f.remaining)) {
                    Some(INF)
                } else {
                    if n.expanded >= n.checkpoint {
                        n.checkpoint = ctx.checks.checkpoint(n.expanded)?;
                        ctx.pruners_ok()?;
                        ctx.check_bytes(0)?;
                    }
                    n.expanded += 1;
                    *live = $i + 1;
                    None
                }
            }};
        }
        let mut returned = enter!(0);
        loop {
            if let Some(r) = returned {
                if r <= u64::from(bound) {
                    return Ok(r);
                }
                if *live == 0 {
                    return Ok(r);
                }
                self.path.pop();
                let top = &mut stack[*live - 1];
                top.nxt = top.nxt.min(r);
            }
            let i = *live - 1;
            if stack.len() < i + 2 {
                stack.push(frame(start.clone()));
            }
            // The next successor of the top frame within the bound, if any, written into the frame above it.
            let (lower, upper) = stack.split_at_mut(i + 1);
            let (top, child) = (&mut lower[i], &mut upper[0]);
            let (g, ph, mut slot, mut nxt) = (top.g, top.h, top.slot, top.nxt);
            let mut entered = None;
            while slot < slots {
                let Some((mv, cost)) = ctx.puzzle.successor_at(&top.state, slot, &mut child.state,
                                                               &mut ctx.domain_cuts) else {
                    slot += 1;
                    continue;
                };
                slot += 1;
                n.generated += 1;
                let g2 = g + cost;
                let h = ctx.h.estimate_child(ctx.puzzle, &top.state, ph, mv, &child.state);
                if h == DEAD {
                    continue;
                }
                if let Some(f) = above(g2, h, bound) {
                    nxt = nxt.min(f);
                    continue;
                }
                if let Some(table) = self.table.as_mut() {
                    match seen_cheaper(table, &child.state, g2) {
                        Ok(true) => continue,
                        Ok(false) => {}
                        Err(stop) => {
                            (top.slot, top.nxt) = (slot, nxt);
                            return Err(stop);
                        }
                    }
                }
                (child.g, child.remaining, child.h, child.slot, child.nxt) = (g2, bound - g2, h, 0, INF);
                entered = Some(mv);
                break;
            }
            (top.slot, top.nxt) = (slot, nxt);
            match entered {
                None => {
                    // every slot tried: the frame returns its least f above the bound
                    if !ctx.pruners.is_empty() {
                        ctx.on_fail(&top.state, top.g, Some(top.remaining));
                    }
                    *live = i;
                    returned = Some(nxt);
                }
                Some(mv) => {
                    self.path.push(mv);
                    returned = enter!(i + 1);
                }
            }
        }
    }

    /// [`Ida::search_slots`] for a game that changes a state in place ([`Puzzle::in_place`]): one state,
    /// `state` (the start), each move made in it when the search enters its successor ([`Puzzle::apply`]) and
    /// undone when that successor returns ([`Puzzle::undo`]), as a hand-written IDA* changes its one board.
    /// A successor's estimate comes from the move before it is made when the heuristic can
    /// ([`Estimator::estimate_move`]); then a successor beyond the f-bound is never made at all.
    ///
    /// The same states in the same order with the same counts as [`Ida::search_slots`]: each slot is asked
    /// in turn ([`Puzzle::move_at`]: the same `Some` slots, moves, costs and cuts as `successor_at`), each
    /// `Some` slot counts as generated, and goal test, rules' `cut`, limit checkpoint and the transposition
    /// table see the child exactly where the slot search sees it (after the f test), `on_fail` the state
    /// when its last slot is tried. When the search stops with states on its path, their untried slots are
    /// asked then (each state restored by undoing the moves above it), for the cuts they count.
    ///
    /// Without rules or a table (the usual case) the search is a recursion (`rec`, falling back on this
    /// explicit-stack search where the thread's stack runs low); with them, [`Ida::run_in_place`].
    fn search_in_place<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, start: &D::State, h0: u32,
                                                 bound: u32) -> Result<u64, Stop> {
        let mut n = Counts { expanded: self.expanded, generated: self.generated, checkpoint: self.checkpoint };
        if self.table.is_none() && ctx.pruners.is_empty() {
            // the usual case, no rules and no table: the recursion (its fallback this search's own)
            let by_h = ctx.h.zero_only_at_goal(ctx.puzzle);
            let mut moves = std::mem::take(&mut self.path);
            let r = rec::subtree(ctx, &mut n, start.clone(), 0, h0, bound, by_h, true, &mut moves);
            self.path = moves;
            (self.expanded, self.generated, self.checkpoint) = (n.expanded, n.generated, n.checkpoint);
            return r;
        }
        let mut stack = std::mem::take(&mut self.place_frames);
        stack.clear();
        // with rules or a table: the explicit stack (the state moved in and out by value: a local of the
        // search that nothing else points into, so the compiler keeps its fields in registers)
        let (r, open, mut st) = self.run_in_place::<H, false, false>(ctx, &mut n, start.clone(), 0, h0, bound,
                                                                     &mut stack);
        let state = &mut st;
        if r.as_ref().is_ok_and(|&r| r <= u64::from(bound)) {
            self.path.clear();
            self.path.extend(stack.iter().map(|s| s.mv));
        }
        // the path's states not done with: the top's untried slots (if it was expanded: only when the table
        // could not grow), then each saved state's, restored by undoing the move above it
        let slots = ctx.puzzle.successor_slots();
        for slot in open.unwrap_or(slots)..slots {
            let _ = ctx.puzzle.move_at(state, slot, &mut ctx.domain_cuts);
        }
        for s in stack.iter().rev() {
            ctx.puzzle.undo(state, s.via(), s.undo);
            for slot in s.slot..slots {
                let _ = ctx.puzzle.move_at(state, slot, &mut ctx.domain_cuts);
            }
        }
        (self.expanded, self.generated, self.checkpoint) = (n.expanded, n.generated, n.checkpoint);
        self.place_frames = stack;
        r
    }

    /// The search of [`Ida::search_in_place`]: the top state's cost, estimate, next slot and least f in
    /// locals, the states below it on `stack`; `state` is the top state. Returns the search's value and, when
    /// the top state at the end was expanded, its next slot, and the state. `PLAIN`: no rules and no table.
    /// `BY_H`: a child is a goal when its estimate is 0 ([`Estimator::zero_only_at_goal`]). `g0`: the start's
    /// cost (0 but for a work unit of the parallel search, whose start lies `g0` below the puzzle's).
    #[allow(clippy::too_many_arguments)]
    fn run_in_place<H: Estimator<D> + ?Sized, const PLAIN: bool, const BY_H: bool>(
        &mut self, ctx: &mut Ctx<D, H>, n: &mut Counts, mut st: D::State, g0: u32, h0: u32, bound: u32,
        stack: &mut Vec<Saved<D::Move>>) -> (Result<u64, Stop>, Option<usize>, D::State) {
        let state = &mut st;
        let slots = ctx.puzzle.successor_slots();
        let rules = !PLAIN && !ctx.pruners.is_empty();
        // the counters in locals (registers) while the search runs
        let (mut expanded, mut generated, mut checkpoint) = (n.expanded, n.generated, n.checkpoint);
        // the top state: its cost, estimate, next slot, least f above the bound; whether it is expanded
        let (mut g, mut h, mut slot, mut nxt, mut open) = (g0, h0, 0usize, INF, false);
        // (a labelled block, not a closure: its locals stay registers; `stop!` is its `?`)
        let r: Result<u64, Stop> = 'search: {
            macro_rules! stop {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(e) => break 'search Err(e),
                    }
                };
            }
            // Python's recursive step, entering the start: a goal; cut by a rule; else expanded
            if ctx.puzzle.is_goal(state) {
                break 'search Ok(u64::from(g0));
            }
            if rules && ctx.cut(state, g0, Some(bound - g0)) {
                break 'search Ok(INF);
            }
            if expanded >= checkpoint {
                checkpoint = stop!(limit_check(ctx, expanded));
            }
            expanded += 1;
            open = true;
            loop {
                // the top state's next successor within the bound, if any: its move made and entered
                while slot < slots {
                    let k = slot;
                    slot += 1;
                    let Some((mv, cost)) = ctx.puzzle.move_at(state, k, &mut ctx.domain_cuts) else {
                        continue;
                    };
                    generated += 1;
                    let g2 = g + cost;
                    let (h2, undo) = match ctx.h.estimate_move(ctx.puzzle, state, h, k, mv) {
                        Some(h2) => {
                            if h2 == DEAD {
                                continue;
                            }
                            if let Some(f) = above(g2, h2, bound) {
                                nxt = nxt.min(f);
                                continue;
                            }
                            (h2, ctx.puzzle.apply(state, k))
                        }
                        None => {
                            let undo = ctx.puzzle.apply(state, k);
                            let h2 = ctx.h.estimate(ctx.puzzle, state);
                            if h2 == DEAD {
                                ctx.puzzle.undo(state, k, undo);
                                continue;
                            }
                            if let Some(f) = above(g2, h2, bound) {
                                ctx.puzzle.undo(state, k, undo);
                                nxt = nxt.min(f);
                                continue;
                            }
                            (h2, undo)
                        }
                    };
                    if !PLAIN {
                        if let Some(table) = self.table.as_mut() {
                            match seen_cheaper(table, state, g2) {
                                Ok(false) => {}
                                Ok(true) => {
                                    ctx.puzzle.undo(state, k, undo);
                                    continue;
                                }
                                Err(stop) => {
                                    ctx.puzzle.undo(state, k, undo);
                                    break 'search Err(stop);
                                }
                            }
                        }
                    }
                    // enter the successor (Python's recursive step): a goal; cut by a rule; else expanded
                    stack.push(Saved { g, h, slot, nxt, undo, mv });
                    open = false;
                    debug_assert!(!BY_H || (h2 == 0) == ctx.puzzle.is_goal(state));
                    if if BY_H { h2 == 0 } else { ctx.puzzle.is_goal(state) } {
                        break 'search Ok(u64::from(g2));
                    }
                    if rules && ctx.cut(state, g2, Some(bound - g2)) {
                        // it returns INF at once: the top is its parent again, whose least f it leaves
                        let s = stack.pop().expect("the successor just entered");
                        ctx.puzzle.undo(state, s.via(), s.undo);
                        open = true;
                        continue;
                    }
                    if expanded >= checkpoint {
                        checkpoint = stop!(limit_check(ctx, expanded));
                    }
                    expanded += 1;
                    (g, h, slot, nxt, open) = (g2, h2, 0, INF, true);
                }
                // every slot tried: the top returns its least f above the bound to its parent
                if rules {
                    ctx.on_fail(state, g, Some(bound - g));
                }
                let Some(s) = stack.pop() else {
                    open = false;
                    break 'search Ok(nxt);
                };
                ctx.puzzle.undo(state, s.via(), s.undo);
                (g, h, slot, nxt) = (s.g, s.h, s.slot, s.nxt.min(nxt));
            }
        };
        (n.expanded, n.generated, n.checkpoint) = (expanded, generated, checkpoint);
        (r, open.then_some(slot), st)
    }

    #[allow(clippy::too_many_arguments)]
    fn run<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, n: &mut Counts, start: &D::State, h0: u32,
                                     bound: u32, within: bool, frames: &mut Vec<Frame>) -> Result<u64, Stop> {
        if self.bufs.len() < 2 {
            self.bufs.resize_with(2, Vec::new);
        }
        if let Some(v) = Self::enter(ctx, n, start, 0, h0, bound, within, &mut self.bufs[0], frames)? {
            return Ok(v);
        }
        // The value the last child returned (`None`: the top frame goes on with its next successor).
        let mut returned: Option<u64> = None;
        loop {
            let d = frames.len() - 1;
            // `bufs[d + 1]` is there for a child (grown when a frame is pushed)
            let (upper, lower) = self.bufs.split_at_mut(d + 1);
            let (frame, below) = frames.split_last_mut().expect("a frame");
            if let Some(r) = returned.take() {
                if r <= u64::from(bound) {
                    return Ok(r);
                }
                self.path.pop();
                frame.nxt = frame.nxt.min(r);
            }
            let parent = match below.last() {
                None => start,
                Some(p) => &upper[d - 1][p.next - 1].state,
            };
            // The next successor of the top frame within the bound, if any.
            let buf = &upper[d];
            let (g, ph, mut next, mut nxt) = (frame.g, frame.h, frame.next, frame.nxt);
            let mut child = None;
            while next < buf.len() {
                let s = &buf[next];
                next += 1;
                n.generated += 1;
                let g2 = g + s.cost;
                let h = ctx.h.estimate_child(ctx.puzzle, parent, ph, s.mv, &s.state);
                if h == DEAD {
                    continue;
                }
                if let Some(f) = above(g2, h, bound) {
                    nxt = nxt.min(f);
                    continue;
                }
                if let Some(table) = self.table.as_mut() {
                    if seen_cheaper(table, &s.state, g2)? {
                        continue;
                    }
                }
                child = Some((s, g2, h));
                break;
            }
            (frame.next, frame.nxt) = (next, nxt);
            match child {
                None => {
                    // every successor tried: the frame returns its least f above the bound
                    let frame = frames.pop().expect("a frame");
                    if !ctx.pruners.is_empty() {
                        ctx.on_fail(parent, frame.g, Some(frame.remaining));
                    }
                    if frames.is_empty() {
                        return Ok(frame.nxt);
                    }
                    returned = Some(frame.nxt);
                }
                Some((s, g2, h)) => {
                    self.path.push(s.mv);
                    returned = Self::enter(ctx, n, &s.state, g2, h, bound, within, &mut lower[0], frames)?;
                    if returned.is_none() && self.bufs.len() <= d + 2 {
                        self.bufs.resize_with(d + 3, Vec::new);
                    }
                }
            }
        }
    }
}

/// The limit check at a checkpoint of the in-place search (the node limit, the clock and Ctrl-C, the rules'
/// and the budget's memory): the count to check at next. Out of line and cold, so the search's loop keeps
/// its registers for the search.
#[cold]
#[inline(never)]
fn limit_check<D: Puzzle, H: Estimator<D> + ?Sized>(ctx: &mut Ctx<D, H>, expanded: u64) -> Result<u64, Stop> {
    let next = ctx.checks.checkpoint(expanded)?;
    ctx.pruners_ok()?;
    ctx.check_bytes(0)?;
    Ok(next)
}

pub(crate) fn ida_star<D: Puzzle, H: Estimator<D> + ?Sized>(ctx: &mut Ctx<D, H>, transposition: bool)
                                                            -> SearchResult<D::Move> {
    let start = ctx.puzzle.initial_state();
    let mut ida: Ida<D> = Ida::new(ctx.checks.first_checkpoint());
    let mut iterations = Vec::new();
    let mut peak = 0u64;
    let mut cost = None;
    let h0 = ctx.estimate(&start);
    let mut bound: u64 = if h0 == DEAD { INF } else { u64::from(h0) };
    // Python: the game's `successors_within` with a cost cap only (without one, bound + 1 steps could go on
    // for ever); a pruned successor hides its f, so the bound then rises by one at a time.
    let within = ctx.puzzle.has_successors_within() && ctx.max_cost.is_some();
    // a game with move slots is searched by them (`successors_within` needs the list)
    let slots = !within && ctx.puzzle.successor_slots() > 0;
    // and in place when the game can (the same search, one state changed and changed back)
    let in_place = slots && ctx.puzzle.in_place();
    let status = guarded((|| loop {
        if bound == INF {
            // Python's heuristics are finite: a dead start has no analogue there; no goal is reachable.
            if ctx.puzzle.is_goal(&start) {
                cost = Some(0);
                return Ok(Status::Solved);
            }
            return Ok(Status::Exhausted);
        }
        if ctx.max_cost.is_some_and(|m| bound > u64::from(m)) {
            return Ok(Status::Exhausted);
        }
        let b = u32::try_from(bound).map_err(|_| Status::Exhausted)?;
        let (t0, e0, g0) = (ctx.checks.limiter.elapsed(), ida.expanded, ida.generated);
        ctx.checks.limiter.set_bound(bound);
        if transposition {
            let mut t = HashMap::new();
            t.insert(start.clone(), 0);
            ida.table = Some(t);
        }
        let r = if in_place {
            ida.search_in_place(ctx, &start, h0, b)
        } else if slots {
            ida.search_slots(ctx, &start, h0, b)
        } else {
            ida.search(ctx, &start, h0, b, within)
        };
        if let Some(t) = &ida.table {
            peak = peak.max(t.len() as u64);
        }
        iterations.push(IterationRecord {
            bound,
            expanded: ida.expanded - e0,
            generated: ida.generated - g0,
            elapsed: ctx.checks.limiter.elapsed() - t0,
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
    concluded(status, stats, std::mem::take(&mut ida.path), cost, bound, ctx.max_cost)
}

/// The result of an IDA* search that ended with `status` in the iteration of f-bound `bound`: solved, its
/// moves and cost (the cost its lower bound); exhausted, no bound (within the cap); stopped, the f-bound of
/// the iteration it stopped in (the serial and the parallel search alike).
pub(crate) fn concluded<M>(status: Status, stats: crate::result::SearchStats, moves: Vec<M>, cost: Option<u64>,
                           bound: u64, max_cost: Option<u32>) -> SearchResult<M> {
    let mut o = SearchResult::new(status, stats);
    if status == Status::Solved {
        o.moves = moves;
        o.cost = cost;
        o.lower_bound = cost;
    } else if status == Status::Exhausted && max_cost.is_none_or(|m| bound <= u64::from(m)) {
        o.lower_bound = None;
    } else {
        o.lower_bound = Some(bound).filter(|&b| b != INF);
    }
    o
}
