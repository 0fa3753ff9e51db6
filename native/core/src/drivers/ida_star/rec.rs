//! IDA*'s in-place search as a recursion: one Rust call a state, as a hand-written IDA* recurses, so that each
//! level's cost, estimate and least f live in registers and are saved by the call, not in a stack of the
//! driver's own. Used by the serial search without rules or a transposition table and by each work unit of
//! the parallel search.
//!
//! It is [`Ida::run_in_place`] with `PLAIN` (the explicit-stack search), step for step: the same slots asked
//! in the same order, the same counts, limit checks, cuts and first solution. When the thread's stack runs
//! low ([`Limiter::stack_floor`](crate::limits::Limiter): [`crate::limits::STACK_FLOOR`] above its end),
//! the state about to be entered is searched by [`Ida::run_in_place`] on its explicit stack on the heap
//! instead, as one call of the recursion: so a search runs on any thread with any depth.
//!
//! What keeps it close to a hand-written search: the state is a field of the recursion (one pointer for all
//! of it), a game of 4 slots has them unrolled (each slot's tables at fixed offsets), the fused rules' cuts
//! are counted into a fixed array of [`CUT_SLOTS`] (no bounds check; added to the search's counts at the
//! end), and the limit check is a count down to the next checkpoint.

use super::{above, limit_check, Counts, Ida, Saved};
use crate::drivers::{Ctx, INF};
use crate::limits::{stack_pointer, Stop};
use crate::puzzle::{Estimator, Puzzle, DEAD};

/// The fused rules a game may have for the recursion to count their cuts in a fixed array; a game with more
/// is searched on the explicit stack alone.
const CUT_SLOTS: usize = 8;

/// The recursion of one search of a subtree ([`subtree`]). The search's context is not a field but an argument
/// of each call beside it: two references the compiler knows apart, so the puzzle's and the heuristic's tables
/// are read once a state, not again after each count the recursion writes.
struct Rec<D: Puzzle, const BY_H: bool, const LIVE: bool> {
    /// The state, changed in place.
    st: D::State,
    bound: u32,
    generated: u64,
    /// Expansions left before the next stop at [`Rec::check`] (taken off before each expansion: it goes below
    /// 0 at that stop, one `dec` and one branch); `end`: the count of expansions then (so the count so far is
    /// `end - left`).
    left: i64,
    end: u64,
    /// The count of expansions at which the next limit check is due (the search's `checkpoint`).
    checkpoint: u64,
    /// The cuts of the fused rules (added to `ctx.domain_cuts` at the end).
    cuts: [u64; CUT_SLOTS],
    /// The lowest stack address the recursion goes to (below: [`Rec::fallback`]).
    floor: usize,
    /// The limit the search stopped on (its calls then return 0, "done", up the path).
    stop: Option<Stop>,
    /// Whether the slots not tried of the states on the path are counted when the search stops on a limit
    /// (the serial search counts them; a unit of the parallel search counts them only on a solution).
    count_stopped: bool,
    /// The solution's moves, last first.
    moves: Vec<D::Move>,
    /// The explicit stack of [`Rec::fallback`].
    spill: Vec<Saved<D::Move>>,
}

/// Search the subtree of `st` (cost `g0`, estimate `h0`) under `bound`, as [`Ida::run_in_place`] with `PLAIN`
/// does (`by_h`: its `BY_H`), counting into `n` and `ctx.domain_cuts`; then the cuts of the slots the path
/// leaves untried are counted (on a limit only when `count_stopped`). The value: a solution's cost (its moves
/// below `st` in `moves`), or the least f above `bound` (`INF`: none). A heuristic that never returns
/// [`DEAD`] ([`Estimator::never_dead`]) is searched without that test.
#[allow(clippy::too_many_arguments)]
pub(super) fn subtree<D: Puzzle, H: Estimator<D> + ?Sized>(ctx: &mut Ctx<D, H>, n: &mut Counts, st: D::State,
                                                           g0: u32, h0: u32, bound: u32, by_h: bool,
                                                           count_stopped: bool, moves: &mut Vec<D::Move>)
                                                           -> Result<u64, Stop> {
    match (by_h, ctx.h.never_dead(ctx.puzzle)) {
        (true, true) => run::<D, H, true, true>(ctx, n, st, g0, h0, bound, count_stopped, moves),
        (true, false) => run::<D, H, true, false>(ctx, n, st, g0, h0, bound, count_stopped, moves),
        (false, true) => run::<D, H, false, true>(ctx, n, st, g0, h0, bound, count_stopped, moves),
        (false, false) => run::<D, H, false, false>(ctx, n, st, g0, h0, bound, count_stopped, moves),
    }
}

#[allow(clippy::too_many_arguments)]
fn run<D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool, const LIVE: bool>(
    ctx: &mut Ctx<D, H>, n: &mut Counts, st: D::State, g0: u32, h0: u32, bound: u32, count_stopped: bool,
    moves: &mut Vec<D::Move>) -> Result<u64, Stop> {
    let rules = ctx.domain_cuts.len();
    // more rules than the array holds: the explicit stack from the start
    let floor = if rules > CUT_SLOTS { usize::MAX } else { ctx.checks.limiter.stack_floor(stack_pointer()) };
    let puzzle = ctx.puzzle;
    let mut rec: Rec<D, BY_H, LIVE> = Rec {
        st,
        bound,
        generated: n.generated,
        left: 0,
        end: 0,
        checkpoint: 0,
        cuts: [0; CUT_SLOTS],
        floor,
        stop: None,
        count_stopped,
        moves: std::mem::take(moves),
        spill: Vec::new(),
    };
    rec.set_counts(n);
    rec.moves.clear();
    // the start, entered as the explicit-stack search enters it (goal test by the puzzle)
    let r = if stack_pointer() < rec.floor {
        rec.fallback(ctx, g0, h0)
    } else if puzzle.is_goal(&rec.st) {
        u64::from(g0)
    } else {
        rec.expand(ctx, puzzle, g0, h0)
    };
    *n = rec.counts();
    for (total, c) in ctx.domain_cuts.iter_mut().zip(rec.cuts) {
        *total += c;
    }
    *moves = std::mem::take(&mut rec.moves);
    if let Some(stop) = rec.stop {
        return Err(stop);
    }
    if r <= u64::from(bound) {
        moves.reverse();
    }
    Ok(r)
}

impl<D: Puzzle, const BY_H: bool, const LIVE: bool> Rec<D, BY_H, LIVE> {
    /// The counts as the explicit-stack search keeps them: a check due when `expanded >= checkpoint`.
    fn counts(&self) -> Counts {
        Counts { expanded: self.expanded(), generated: self.generated, checkpoint: self.checkpoint }
    }

    /// The count of expansions so far.
    fn expanded(&self) -> u64 {
        self.end - self.left as u64
    }

    fn set_counts(&mut self, n: &Counts) {
        self.generated = n.generated;
        self.checkpoint = n.checkpoint;
        self.arm(n.expanded);
    }

    /// The count down to the next stop at [`Rec::check`] from `expanded`: at the checkpoint (and at least
    /// every `i64::MAX` expansions, where it only counts down again).
    fn arm(&mut self, expanded: u64) {
        let left = self.checkpoint.saturating_sub(expanded).min(i64::MAX as u64);
        self.left = left as i64;
        self.end = expanded + left;
    }

    /// Expand the state (not a goal): the limit check when due, then its slots ([`Rec::dfs`]).
    #[inline(always)]
    fn expand<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, puzzle: &D, g: u32, h: u32) -> u64 {
        self.left -= 1;
        if self.left < 0 && !self.check(ctx) {
            return 0;
        }
        self.dfs(ctx, puzzle, g, h)
    }

    /// The count down went below 0, before the expansion of state number `end`: the limit check
    /// ([`limit_check`]) when due; `false` when the search stops ([`Rec::stop`] set). Else the count down
    /// armed again (to the next check, at the next expansion if that is not above this one, as the
    /// explicit-stack search's `expanded >= checkpoint`), this expansion taken off it.
    #[cold]
    #[inline(never)]
    fn check<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>) -> bool {
        let expanded = self.end;
        if expanded >= self.checkpoint {
            match limit_check(ctx, expanded) {
                Ok(next) => self.checkpoint = next.max(expanded + 1),
                Err(stop) => {
                    self.left = 0;
                    self.stop = Some(stop);
                    return false;
                }
            }
        }
        self.arm(expanded);
        self.left -= 1;
        true
    }

    /// The slots of the state (expanded, cost `g`, estimate `h`) in turn, each successor within the bound
    /// entered: a solution's cost (a value within the bound, its move pushed), 0 with [`Rec::stop`] set (a
    /// limit), or the least f above the bound. `puzzle` is `ctx.puzzle`, an argument of its own: the
    /// compiler then knows its tables unchanged by the search's writes and calls, and reads each once.
    fn dfs<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, puzzle: &D, g: u32, h: u32) -> u64 {
        let mut nxt = INF;
        let slots = puzzle.successor_slots();
        macro_rules! slot {
            ($k:expr) => {
                if let Some(r) = self.child(ctx, puzzle, $k, g, h, &mut nxt) {
                    return r;
                }
            };
        }
        ctx.h.expanding(puzzle, &self.st);
        if slots == 4 {
            // unrolled (the sliding tiles' four moves): each slot's tables at fixed offsets
            slot!(0);
            slot!(1);
            slot!(2);
            slot!(3);
        } else {
            for k in 0..slots {
                slot!(k);
            }
        }
        nxt
    }

    /// Slot `k` of the state (cost `g`, estimate `h`): its successor generated and, within the bound, entered.
    /// `Some` value when the search is done (a solution within the bound, or a limit); else `None`, the least
    /// f above the bound in `nxt`.
    #[inline(always)]
    fn child<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, puzzle: &D, k: usize, g: u32, h: u32,
                                       nxt: &mut u64) -> Option<u64> {
        let bound = self.bound;
        let (mv, cost) = puzzle.move_at(&self.st, k, &mut self.cuts)?;
        self.generated += 1;
        let g2 = g + cost;
        // only an estimate below this can enter the child or lower `nxt` (Estimator::estimate_move_below)
        let cap = u32::try_from(nxt.saturating_sub(u64::from(g2))).unwrap_or(u32::MAX);
        let (h2, undo) = match ctx.h.estimate_move_below(puzzle, &self.st, h, k, mv, cap) {
            Some(h2) => {
                if !LIVE && h2 == DEAD {
                    return None;
                }
                if let Some(f) = above(g2, h2, bound) {
                    *nxt = (*nxt).min(f);
                    return None;
                }
                (h2, puzzle.apply(&mut self.st, k))
            }
            None => self.made(ctx, k, g2, nxt)?,
        };
        // enter the successor: a goal; else expanded (or searched on the heap when the stack runs low)
        let r = if stack_pointer() < self.floor {
            self.fallback(ctx, g2, h2)
        } else {
            debug_assert!(!BY_H || (h2 == 0) == puzzle.is_goal(&self.st));
            if if BY_H { h2 == 0 } else { puzzle.is_goal(&self.st) } {
                u64::from(g2)
            } else {
                self.expand(ctx, puzzle, g2, h2)
            }
        };
        puzzle.undo(&mut self.st, k, undo);
        if r <= u64::from(bound) {
            self.done(puzzle, k, mv);
            return Some(r);
        }
        *nxt = (*nxt).min(r);
        None
    }

    /// A heuristic that estimates a successor from the successor itself: slot `k`'s move made and estimated;
    /// undone and `None` when the successor is dead or its f (cost `g2`) above the bound (then in `nxt`),
    /// else its estimate and undo word. Out of line: such an estimate costs far more than the call.
    #[inline(never)]
    fn made<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, k: usize, g2: u32, nxt: &mut u64)
                                      -> Option<(u32, u64)> {
        let puzzle = ctx.puzzle;
        let undo = puzzle.apply(&mut self.st, k);
        let h2 = ctx.h.estimate(puzzle, &self.st);
        if !LIVE && h2 == DEAD {
            puzzle.undo(&mut self.st, k, undo);
            return None;
        }
        if let Some(f) = above(g2, h2, self.bound) {
            puzzle.undo(&mut self.st, k, undo);
            *nxt = (*nxt).min(f);
            return None;
        }
        Some((h2, undo))
    }

    /// The search ends below slot `k` of the state (a solution: its move `mv` kept; or a limit): the cuts of
    /// the slots after `k`, as the explicit-stack search counts them.
    #[cold]
    #[inline(never)]
    fn done(&mut self, puzzle: &D, k: usize, mv: D::Move) {
        if self.stop.is_none() {
            self.moves.push(mv);
        }
        if self.stop.is_none() || self.count_stopped {
            for slot in k + 1..puzzle.successor_slots() {
                let _ = puzzle.move_at(&self.st, slot, &mut self.cuts);
            }
        }
    }

    /// Enter the state (cost `g`, estimate `h`) and search it on the explicit stack ([`Ida::run_in_place`]):
    /// the thread's stack has run low. Returns as the recursion would, the state as it was.
    #[cold]
    #[inline(never)]
    fn fallback<H: Estimator<D> + ?Sized>(&mut self, ctx: &mut Ctx<D, H>, g: u32, h: u32) -> u64 {
        let mut n = self.counts();
        let mut stack = std::mem::take(&mut self.spill);
        stack.clear();
        let (r, open, back) = Ida::<D>::new(0).run_in_place::<H, true, BY_H>(ctx, &mut n, self.st.clone(), g, h,
                                                                           self.bound, &mut stack);
        self.st = back;
        self.set_counts(&n);
        let (value, count) = match r {
            Ok(v) if v <= u64::from(self.bound) => {
                self.moves.extend(stack.iter().rev().map(|s| s.mv));
                (v, true)
            }
            Ok(v) => (v, false),
            Err(stop) => {
                self.stop = Some(stop);
                (0, self.count_stopped)
            }
        };
        // the states on its path restored (their untried slots' cuts counted), top first
        let (puzzle, slots) = (ctx.puzzle, ctx.puzzle.successor_slots());
        let cuts = &mut ctx.domain_cuts;
        if count {
            for slot in open.unwrap_or(slots)..slots {
                let _ = puzzle.move_at(&self.st, slot, cuts);
            }
        }
        for s in stack.iter().rev() {
            puzzle.undo(&mut self.st, s.via(), s.undo);
            if count {
                for slot in s.slot..slots {
                    let _ = puzzle.move_at(&self.st, slot, cuts);
                }
            }
        }
        self.spill = stack;
        value
    }
}
