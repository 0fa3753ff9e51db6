//! IDA*'s in-place search as a recursion: one Rust call a state, as a hand-written IDA* recurses, so that each
//! level's cost, estimate, slot and least f live in registers and are saved by the call, not in a stack of
//! the driver's own. Used by the serial search without rules or a transposition table and by each work unit
//! of the parallel search.
//!
//! It is [`Ida::run_in_place`] with `PLAIN` (the explicit-stack search), step for step: the same slots asked
//! in the same order, the same counts, limit checks, cuts and first solution. When the thread's stack runs
//! low ([`Limiter::stack_floor`]: [`crate::limits::STACK_FLOOR`] above its end), the state about to be
//! entered is searched by [`Ida::run_in_place`] on its explicit stack on the heap instead, as one call of
//! the recursion: so a search runs on any thread with any depth.

use super::{above, limit_check, Counts, Ida, Saved};
use crate::drivers::{Ctx, INF};
use crate::limits::{stack_pointer, Stop};
use crate::puzzle::{Estimator, Puzzle, DEAD};

/// The recursion of one search of a subtree ([`subtree`]).
struct Rec<'c, 'r, 'p, D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool> {
    ctx: &'c mut Ctx<'r, 'p, D, H>,
    puzzle: &'r D,
    bound: u32,
    expanded: u64,
    generated: u64,
    checkpoint: u64,
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
fn run<D: Puzzle, H: Estimator<D> + ?Sized, const BY_H: bool>(ctx: &mut Ctx<D, H>, n: &mut Counts, mut st: D::State,
                                                             g0: u32, h0: u32, bound: u32, count_stopped: bool,
                                                             moves: &mut Vec<D::Move>) -> Result<u64, Stop> {
    let floor = ctx.checks.limiter.stack_floor(stack_pointer());
    let puzzle = ctx.puzzle;
    let mut rec: Rec<D, H, BY_H> = Rec {
        ctx,
        puzzle,
        bound,
        expanded: n.expanded,
        generated: n.generated,
        checkpoint: n.checkpoint,
        floor,
        stop: None,
        count_stopped,
        moves: std::mem::take(moves),
        spill: Vec::new(),
    };
    rec.moves.clear();
    // the start, entered as the explicit-stack search enters it (goal test by the puzzle)
    let r = if stack_pointer() < rec.floor {
        rec.fallback(&mut st, g0, h0)
    } else if puzzle.is_goal(&st) {
        u64::from(g0)
    } else {
        rec.expand(&mut st, g0, h0)
    };
    (n.expanded, n.generated, n.checkpoint) = (rec.expanded, rec.generated, rec.checkpoint);
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
    /// Expand `st` (not a goal): the limit check, then its slots ([`Rec::dfs`]).
    #[inline(always)]
    fn expand(&mut self, st: &mut D::State, g: u32, h: u32) -> u64 {
        if self.expanded >= self.checkpoint {
            match limit_check(self.ctx, self.expanded) {
                Ok(next) => self.checkpoint = next,
                Err(stop) => {
                    self.stop = Some(stop);
                    return 0;
                }
            }
        }
        self.expanded += 1;
        self.dfs(st, g, h)
    }

    /// The slots of `st` (expanded, cost `g`, estimate `h`) in turn, each successor within the bound entered:
    /// a solution's cost (a value within the bound, its move pushed), 0 with [`Rec::stop`] set (a limit), or
    /// the least f above the bound.
    fn dfs(&mut self, st: &mut D::State, g: u32, h: u32) -> u64 {
        let puzzle = self.puzzle;
        let bound = self.bound;
        let mut nxt = INF;
        for k in 0..puzzle.successor_slots() {
            let Some((mv, cost)) = puzzle.move_at(st, k, &mut self.ctx.domain_cuts) else {
                continue;
            };
            self.generated += 1;
            let g2 = g + cost;
            let (h2, undo) = match self.ctx.h.estimate_move(puzzle, st, h, k, mv) {
                Some(h2) => {
                    if h2 == DEAD {
                        continue;
                    }
                    if let Some(f) = above(g2, h2, bound) {
                        nxt = nxt.min(f);
                        continue;
                    }
                    (h2, puzzle.apply(st, k))
                }
                None => {
                    let undo = puzzle.apply(st, k);
                    let h2 = self.ctx.h.estimate(puzzle, st);
                    if h2 == DEAD {
                        puzzle.undo(st, k, undo);
                        continue;
                    }
                    if let Some(f) = above(g2, h2, bound) {
                        puzzle.undo(st, k, undo);
                        nxt = nxt.min(f);
                        continue;
                    }
                    (h2, undo)
                }
            };
            // enter the successor: a goal; else expanded (or searched on the heap when the stack runs low)
            let r = if stack_pointer() < self.floor {
                self.fallback(st, g2, h2)
            } else {
                debug_assert!(!BY_H || (h2 == 0) == puzzle.is_goal(st));
                if if BY_H { h2 == 0 } else { puzzle.is_goal(st) } {
                    u64::from(g2)
                } else {
                    self.expand(st, g2, h2)
                }
            };
            puzzle.undo(st, k, undo);
            if r <= u64::from(bound) {
                self.done(st, k, mv);
                return r;
            }
            nxt = nxt.min(r);
        }
        nxt
    }

    /// The search ends below slot `k` of `st` (a solution: its move `mv` kept; or a limit): the cuts of the
    /// slots of `st` after `k`, as the explicit-stack search counts them.
    #[cold]
    #[inline(never)]
    fn done(&mut self, st: &D::State, k: usize, mv: D::Move) {
        if self.stop.is_none() {
            self.moves.push(mv);
        }
        if self.stop.is_none() || self.count_stopped {
            for slot in k + 1..self.puzzle.successor_slots() {
                let _ = self.puzzle.move_at(st, slot, &mut self.ctx.domain_cuts);
            }
        }
    }

    /// Enter `st` (cost `g`, estimate `h`) and search it on the explicit stack ([`Ida::run_in_place`]): the
    /// stack of the thread has run low. Returns as the recursion would, `st` as it was.
    #[cold]
    #[inline(never)]
    fn fallback(&mut self, st: &mut D::State, g: u32, h: u32) -> u64 {
        let mut n = Counts { expanded: self.expanded, generated: self.generated, checkpoint: self.checkpoint };
        let mut stack = std::mem::take(&mut self.spill);
        stack.clear();
        let (r, open, back) =
            Ida::<D>::new(0).run_in_place::<H, true, BY_H>(self.ctx, &mut n, st.clone(), g, h, self.bound, &mut stack);
        *st = back;
        (self.expanded, self.generated, self.checkpoint) = (n.expanded, n.generated, n.checkpoint);
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
        let slots = self.puzzle.successor_slots();
        if count {
            for slot in open.unwrap_or(slots)..slots {
                let _ = self.puzzle.move_at(st, slot, &mut self.ctx.domain_cuts);
            }
        }
        for s in stack.iter().rev() {
            self.puzzle.undo(st, s.via(), s.undo);
            if count {
                for slot in s.slot..slots {
                    let _ = self.puzzle.move_at(st, slot, &mut self.ctx.domain_cuts);
                }
            }
        }
        self.spill = stack;
        value
    }
}
