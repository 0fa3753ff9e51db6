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

/// The recursion of one search of a subtree ([`subtree`]).
struct Rec<'c, 'r, 'p, D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool> {
    ctx: &'c mut Ctx<'r, 'p, D, H>,
    puzzle: &'r D,
    /// The state, changed in place.
    st: D::State,
    bound: u32,
    generated: u64,
    /// Expansions left before the next limit check; `end`: the count of expansions then (so the count so
    /// far is `end - left`).
    left: u64,
    end: u64,
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
/// below `st` in `moves`), or the least f above `bound` (`INF`: none).
#[allow(clippy::too_many_arguments)]
pub(super) fn subtree<D: Puzzle, H: Estimator<D> + ?Sized>(ctx: &mut Ctx<D, H>, n: &mut Counts, st: D::State,
                                                           g0: u32, h0: u32, bound: u32, by_h: bool,
                                                           count_stopped: bool, moves: &mut Vec<D::Move>)
                                                           -> Result<u64, Stop> {
    if by_h {
        run::<D, H, true>(ctx, n, st, g0, h0, bound, count_stopped, moves)
    } else {
        run::<D, H, false>(ctx, n, st, g0, h0, bound, count_stopped, moves)
    }
}

#[allow(clippy::too_many_arguments)]
fn run<D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool>(ctx: &mut Ctx<D, H>, n: &mut Counts, st: D::State,
                                                             g0: u32, h0: u32, bound: u32, count_stopped: bool,
                                                             moves: &mut Vec<D::Move>) -> Result<u64, Stop> {
    let rules = ctx.domain_cuts.len();
    // more rules than the array holds: the explicit stack from the start
    let floor = if rules > CUT_SLOTS { usize::MAX } else { ctx.checks.limiter.stack_floor(stack_pointer()) };
    let puzzle = ctx.puzzle;
    let mut rec: Rec<D, H, BY_H> = Rec {
        ctx,
        puzzle,
        st,
        bound,
        generated: n.generated,
        left: 0,
        end: 0,
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
        rec.fallback(g0, h0)
    } else if puzzle.is_goal(&rec.st) {
        u64::from(g0)
    } else {
        rec.expand(g0, h0)
    };
    *n = rec.counts();
    for (total, c) in rec.ctx.domain_cuts.iter_mut().zip(rec.cuts) {
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

impl<D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool> Rec<'_, '_, '_, D, H, BY_H> {
    /// The counts as the explicit-stack search keeps them: a check due when `expanded >= checkpoint`.
    fn counts(&self) -> Counts {
        Counts { expanded: self.end - self.left, generated: self.generated, checkpoint: self.end }
    }

    fn set_counts(&mut self, n: &Counts) {
        self.generated = n.generated;
        self.left = n.checkpoint.saturating_sub(n.expanded);
        self.end = n.expanded + self.left;
    }

    /// Expand the state (not a goal): the limit check when due, then its slots ([`Rec::dfs`]).
    #[inline(always)]
    fn expand(&mut self, g: u32, h: u32) -> u64 {
        if self.left == 0 && !self.check() {
            return 0;
        }
        self.left -= 1;
        self.dfs(g, h)
    }

    /// The limit check ([`limit_check`]), before the expansion of state number `end`: `false` when the search
    /// stops ([`Rec::stop`] set). The next is due at the count it gives (at the next expansion if that is
    /// not above this one, as the explicit-stack search's `expanded >= checkpoint`).
    #[cold]
    #[inline(never)]
    fn check(&mut self) -> bool {
        let expanded = self.end;
        match limit_check(self.ctx, expanded) {
            Ok(next) => {
                self.left = next.saturating_sub(expanded).max(1);
                self.end = expanded + self.left;
                true
            }
            Err(stop) => {
                self.stop = Some(stop);
                false
            }
        }
    }

    /// The slots of the state (expanded, cost `g`, estimate `h`) in turn, each successor within the bound
    /// entered: a solution's cost (a value within the bound, its move pushed), 0 with [`Rec::stop`] set (a
    /// limit), or the least f above the bound.
    fn dfs(&mut self, g: u32, h: u32) -> u64 {
        let mut nxt = INF;
        let slots = self.puzzle.successor_slots();
        macro_rules! slot {
            ($k:expr) => {
                if let Some(r) = self.child($k, g, h, &mut nxt) {
                    return r;
                }
            };
        }
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
    fn child(&mut self, k: usize, g: u32, h: u32, nxt: &mut u64) -> Option<u64> {
        let puzzle = self.puzzle;
        let bound = self.bound;
        let (mv, cost) = puzzle.move_at(&self.st, k, &mut self.cuts)?;
        self.generated += 1;
        let g2 = g + cost;
        let (h2, undo) = match self.ctx.h.estimate_move(puzzle, &self.st, h, k, mv) {
            Some(h2) => {
                if h2 == DEAD {
                    return None;
                }
                if let Some(f) = above(g2, h2, bound) {
                    *nxt = (*nxt).min(f);
                    return None;
                }
                (h2, puzzle.apply(&mut self.st, k))
            }
            None => self.made(k, g2, nxt)?,
        };
        // enter the successor: a goal; else expanded (or searched on the heap when the stack runs low)
        let r = if stack_pointer() < self.floor {
            self.fallback(g2, h2)
        } else {
            debug_assert!(!BY_H || (h2 == 0) == puzzle.is_goal(&self.st));
            if if BY_H { h2 == 0 } else { puzzle.is_goal(&self.st) } {
                u64::from(g2)
            } else {
                self.expand(g2, h2)
            }
        };
        puzzle.undo(&mut self.st, k, undo);
        if r <= u64::from(bound) {
            self.done(k, mv);
            return Some(r);
        }
        *nxt = (*nxt).min(r);
        None
    }

    /// A heuristic that estimates a successor from the successor itself: slot `k`'s move made and estimated;
    /// undone and `None` when the successor is dead or its f (cost `g2`) above the bound (then in `nxt`),
    /// else its estimate and undo word. Out of line: such an estimate costs far more than the call.
    #[inline(never)]
    fn made(&mut self, k: usize, g2: u32, nxt: &mut u64) -> Option<(u32, u64)> {
        let puzzle = self.puzzle;
        let undo = puzzle.apply(&mut self.st, k);
        let h2 = self.ctx.h.estimate(puzzle, &self.st);
        if h2 == DEAD {
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
    fn done(&mut self, k: usize, mv: D::Move) {
        if self.stop.is_none() {
            self.moves.push(mv);
        }
        if self.stop.is_none() || self.count_stopped {
            for slot in k + 1..self.puzzle.successor_slots() {
                let _ = self.puzzle.move_at(&self.st, slot, &mut self.cuts);
            }
        }
    }

    /// Enter the state (cost `g`, estimate `h`) and search it on the explicit stack ([`Ida::run_in_place`]):
    /// the thread's stack has run low. Returns as the recursion would, the state as it was.
    #[cold]
    #[inline(never)]
    fn fallback(&mut self, g: u32, h: u32) -> u64 {
        let mut n = self.counts();
        let mut stack = std::mem::take(&mut self.spill);
        stack.clear();
        let (r, open, back) = Ida::<D>::new(0).run_in_place::<H, true, BY_H>(self.ctx, &mut n, self.st.clone(), g, h,
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
        let (puzzle, slots) = (self.puzzle, self.puzzle.successor_slots());
        let cuts = &mut self.ctx.domain_cuts;
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
