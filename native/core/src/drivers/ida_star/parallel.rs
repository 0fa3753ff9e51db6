//! Parallel IDA*: each f-bound iteration's tree split below the root into work units, searched by a pool of
//! threads. It has no Python twin (the Python engine is single-threaded and the reference); it is held to
//! the serial search ([`super::ida_star`], the Python twin) by what it finds, and tested against it
//! (`tests/native/test_threads.py`).
//!
//! # The method
//!
//! Parallel window-free IDA* over a static split, as in Rao, Kumar and Ramesh's parallel IDA* (1987) and
//! mspiegel's A087725 solver (32,768 work units, the same node counts at every thread count):
//!
//! 1. **Split.** Each iteration (f-bound `b`) expands the top of the tree level by level, in the serial
//!    search's order, until there are at least [`UNITS_PER_THREAD`] units a thread (or [`MAX_SPLIT`] levels):
//!    each state of the last level whose f is within `b` is a *work unit*, the units in the serial depth-first
//!    order. A goal met on an upper level is a unit of its own, and the split stops there (the serial search
//!    stops at it).
//! 2. **Search.** The threads take units in that order (an atomic counter: a thread that finishes one takes
//!    the next) and run the serial in-place search (`super::rec`, the recursion) from each unit, with the unit's
//!    cost as its start's.
//! 3. **Merge.** The iteration's value is the least f above `b` over the split and all units; its counts are
//!    the split's plus the units'.
//!
//! # What it claims, and why
//!
//! * **The same counts for every completed iteration** (expanded, generated, the fused rules' cuts), at every
//!   thread count and in the serial search. The serial search's tree under `b` is a function of `b` alone
//!   (no transposition table and no driver-level rules: this search runs only without them, and a state's
//!   successors and estimates do not depend on the path); the split visits its upper levels exactly as the
//!   serial search does (goal test, expansion, each slot generated and tested against `b`), and each unit's
//!   search is the serial search of that unit's subtree. The subtrees partition the rest of the tree, so the
//!   sums are equal, whatever the split depth and whichever thread searched what.
//! * **The same next bound**: the least f above `b` over a partition of the tree is the least over the whole.
//! * **The same solution, move for move.** The serial search returns the first goal within `b` in its
//!   depth-first order, which lies in the first unit (in unit order) that holds one, and is that unit's
//!   search's first. A unit's solution is taken only once every unit before it has been searched to the end
//!   without one; a thread searching a unit after the first one known to hold a solution stops it.
//! * **Limits across threads**: the node limit is drawn from one pool ([`Team`]): never exceeded, and short
//!   of it by at most the allowances the other threads hold when one finds the pool empty. The deadline and
//!   Ctrl-C stop every thread within a few milliseconds (each thread reads the clock and the cancel flag;
//!   the calling thread polls Python's signal handlers through [`Limiter::poll`] while it waits).
//!   A search stopped by a limit reports the f-bound of its last iteration as its lower bound, as the serial.
//!
//! * **The same counts on the last iteration too**, the one that finds the solution: they are counted as the
//!   serial search counts them, up to its solution. The split keeps a record of each state it expanded
//!   (its slots from the start, the slots it generated, the cuts it counted); the serial search reaches a
//!   state of the split before its solution exactly when that state's slots are, lexicographically, at most
//!   the solution's unit's (a prefix: an ancestor; else before it in depth-first order), and generates the
//!   child by slot `s` of such a state when its slots followed by `s` are. The units before the solution's
//!   are counted whole, the solution's up to its solution (with the cuts the serial search counts of the
//!   slots its path leaves untried). The units after it that a thread searched meanwhile are work the
//!   serial search never does: they are not counted (the wall time shows them).
//!
//! Under a limit the counts are the work done. A small iteration (the one before it expanded fewer than
//! [`SMALL`] states; the first is small) runs on the calling thread as one unit: the same counts, without
//! the threads' start.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::{above, concluded, rec, Counts};
use crate::drivers::{guarded, Ctx, INF};
use crate::limits::{usable_threads, Checker, Limiter, Stop, Team, POLL_INTERVAL, THREAD_STACK};
use crate::puzzle::{Estimator, Puzzle, DEAD};
use crate::result::{IterationRecord, SearchResult, Status};

/// Work units a thread the split aims at (the split stops at the first level with at least this many per
/// thread).
pub const UNITS_PER_THREAD: usize = 2048;
/// Levels the split expands at most (a thin tree: the units are then the states of this level).
pub const MAX_SPLIT: usize = 24;
/// An iteration runs on the calling thread alone when the one before it expanded fewer states than this
/// (the environment variable `SEARCHKIT_PARALLEL_SMALL`, a count, overrides it: the tests set 0, so that
/// every iteration of a small case is split).
pub const SMALL: u64 = 1 << 14;

fn small() -> u64 {
    std::env::var("SEARCHKIT_PARALLEL_SMALL").ok().and_then(|v| v.parse().ok()).unwrap_or(SMALL)
}

/// A work unit: the slots and moves from the start to its state, its cost and its estimate.
struct Unit<M> {
    path: Vec<(usize, M)>,
    g: u32,
    h: u32,
}

/// A state the split expanded: its slots from the start, the slots it generated, the cuts it counted.
struct Expansion {
    slots: Vec<usize>,
    generated: Vec<usize>,
    cuts: Vec<u64>,
}

/// What a thread did on one unit: the unit, its counts and cuts, and how it ended (`None`: stopped for the
/// team or by a limit, not finished).
struct Done<M> {
    unit: usize,
    expanded: u64,
    generated: u64,
    cuts: Vec<u64>,
    end: Option<End<M>>,
}

/// How a unit's search ended: a solution (its cost and its moves below the unit) or the least f above the
/// bound in it.
enum End<M> {
    Solution(u64, Vec<M>),
    Above(u64),
}

/// What one thread did in an iteration: each unit it searched, and the limit it stopped on.
struct Share<M> {
    units: Vec<Done<M>>,
    stop: Option<Stop>,
}

/// The state `path` leads to from `start` (each move made in place).
fn state_at<D: Puzzle, M>(puzzle: &D, start: &D::State, path: &[(usize, M)]) -> D::State {
    let mut state = start.clone();
    for &(slot, _) in path {
        puzzle.apply(&mut state, slot);
    }
    state
}

/// Split the tree under `bound` into work units (the module's step 1), expanding its upper levels with the
/// counts and limit checks of the serial search into `n`, `ctx.domain_cuts`, and `nxt` (the least f above
/// `bound` met). `target`: the units wanted.
#[allow(clippy::too_many_arguments)]
fn split<D: Puzzle, H: Estimator<D>>(ctx: &mut Ctx<D, H>, n: &mut Counts, start: &D::State, h0: u32, bound: u32,
                                     target: usize, nxt: &mut u64, record: &mut Vec<Expansion>)
                                     -> Result<Vec<Unit<D::Move>>, Stop> {
    let slots = ctx.puzzle.successor_slots();
    let mut units = vec![Unit { path: Vec::new(), g: 0, h: h0 }];
    for _ in 0..MAX_SPLIT {
        if units.len() >= target || units.is_empty() {
            break;
        }
        let mut level = Vec::with_capacity(units.len() * 3);
        let mut rest = units.into_iter();
        let mut goal = false;
        for u in rest.by_ref() {
            // enter the unit's state, as the serial search enters it: a goal; else expanded
            let mut state = state_at(ctx.puzzle, start, &u.path);
            if ctx.puzzle.is_goal(&state) {
                level.push(u);
                goal = true;
                break;
            }
            if n.expanded >= n.checkpoint {
                n.checkpoint = ctx.checks.checkpoint(n.expanded)?;
            }
            n.expanded += 1;
            let before = ctx.domain_cuts.clone();
            let mut generated = Vec::with_capacity(slots);
            for k in 0..slots {
                let Some((mv, cost)) = ctx.puzzle.move_at(&state, k, &mut ctx.domain_cuts) else {
                    continue;
                };
                n.generated += 1;
                generated.push(k);
                let g2 = u.g + cost;
                let h2 = match ctx.h.estimate_move(ctx.puzzle, &state, u.h, k, mv) {
                    Some(h2) => h2,
                    None => {
                        let undo = ctx.puzzle.apply(&mut state, k);
                        let h2 = ctx.h.estimate(ctx.puzzle, &state);
                        ctx.puzzle.undo(&mut state, k, undo);
                        h2
                    }
                };
                if h2 == DEAD {
                    continue;
                }
                if let Some(f) = above(g2, h2, bound) {
                    *nxt = (*nxt).min(f);
                    continue;
                }
                let mut path = Vec::with_capacity(u.path.len() + 1);
                path.extend_from_slice(&u.path);
                path.push((k, mv));
                level.push(Unit { path, g: g2, h: h2 });
            }
            let cuts = ctx.domain_cuts.iter().zip(&before).map(|(a, b)| a - b).collect();
            record.push(Expansion { slots: u.path.iter().map(|&(k, _)| k).collect(), generated, cuts });
        }
        // after a goal, the units not expanded stay as they are (the serial search never reaches them)
        level.extend(rest);
        units = level;
        if goal {
            break;
        }
    }
    Ok(units)
}

/// One thread's part of an iteration (the module's step 2): units taken in order from `next` until none is
/// left, the team halts or a unit before the next holds a solution.
#[allow(clippy::too_many_arguments)]
fn work<D: Puzzle, H: Estimator<D>>(puzzle: &D, h: &mut H, limiter: &Limiter, team: &Team, start: &D::State,
                                    units: &[Unit<D::Move>], next: &AtomicUsize, bound: u32, by_h: bool,
                                    max_cost: Option<u32>) -> Share<D::Move> {
    let mut ctx = Ctx {
        puzzle,
        h,
        pruners: &mut [],
        checks: Checker::in_team(limiter, team),
        pruner_cuts: Vec::new(),
        domain_cuts: vec![0; puzzle.rule_names().len()],
        max_cost,
        admissible: true,
    };
    let mut n = Counts { expanded: 0, generated: 0, checkpoint: ctx.checks.first_checkpoint() };
    let mut below = Vec::new();
    let mut share = Share { units: Vec::new(), stop: None };
    loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= units.len() || team.first.load(Ordering::Relaxed) < k || team.halt.load(Ordering::Relaxed) {
            break;
        }
        let u = &units[k];
        ctx.checks.unit = k;
        let state = state_at(puzzle, start, &u.path);
        let (e0, g0) = (n.expanded, n.generated);
        ctx.domain_cuts.fill(0);
        let r = rec::subtree(&mut ctx, &mut n, state, u.g, u.h, bound, by_h, false, &mut below);
        let end = match r {
            Ok(v) if v <= u64::from(bound) => {
                // (the cuts of the slots the path leaves untried counted, as the serial search counts them)
                team.first.fetch_min(k, Ordering::Relaxed);
                Some(End::Solution(v, below.clone()))
            }
            Ok(v) => Some(End::Above(v)),
            // stopped for the team (a unit before it holds a solution, or another thread met a limit)
            Err(Status::Cancelled) if !limiter.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) => None,
            Err(stop) => {
                team.halt.store(true, Ordering::Relaxed);
                share.stop = Some(stop);
                None
            }
        };
        share.units.push(Done { unit: k, expanded: n.expanded - e0, generated: n.generated - g0,
                                cuts: ctx.domain_cuts.clone(), end });
        if share.stop.is_some() {
            break;
        }
    }
    ctx.checks.give_back(n.expanded);
    share
}

/// How one iteration ended: a solution (its cost and moves), the least f above the bound, or a limit.
enum Iteration<M> {
    Solved(u64, Vec<M>),
    Above(u64),
    Stopped(Stop),
}

/// Parallel IDA* on `threads` threads, at most the usable CPUs ([`usable_threads`]) (module docs): `puzzle` must move in place ([`Puzzle::in_place`], with
/// move slots), without driver-level rules or a transposition table; `h` is cloned for each thread.
/// The result has the serial search's fields, its statistics the threads' sums (`threads` in them).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ida_star<D, H>(puzzle: &D, h: &mut H, max_cost: Option<u32>, limiter: &Limiter, threads: usize,
                             admissible: bool) -> SearchResult<D::Move>
where
    D: Puzzle + Sync,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    H: Estimator<D> + Clone + Send,
{
    let threads = usable_threads(threads);
    let start = puzzle.initial_state();
    let n_rules = puzzle.rule_names().len();
    let team = Team::new(threads, limiter.max_nodes);
    // the threads' limiter: the deadline and the cancel flag, no node limit (the team's pool), no poll (the
    // calling thread polls) and no live figures (the calling thread writes them)
    let mut quiet = limiter.clone();
    (quiet.max_nodes, quiet.poll, quiet.progress) = (None, None, None);
    let mut top = Ctx {
        puzzle,
        h,
        pruners: &mut [],
        checks: Checker::in_team(&quiet, &team),
        pruner_cuts: Vec::new(),
        domain_cuts: vec![0; n_rules],
        max_cost,
        admissible,
    };
    let by_h = top.h.zero_only_at_goal(puzzle);
    let (mut expanded, mut generated) = (0u64, 0u64);
    let mut iterations = Vec::new();
    let mut cost = None;
    let mut moves = Vec::new();
    let (mut last, small) = (0u64, small());
    // the most threads an iteration ran on (1: every iteration was small)
    let mut ran = 1usize;
    let h0 = top.estimate(&start);
    let mut bound: u64 = if h0 == DEAD { INF } else { u64::from(h0) };
    let status = guarded((|| loop {
        if bound == INF {
            if puzzle.is_goal(&start) {
                cost = Some(0);
                return Ok(Status::Solved);
            }
            return Ok(Status::Exhausted);
        }
        if max_cost.is_some_and(|m| bound > u64::from(m)) {
            return Ok(Status::Exhausted);
        }
        let b = u32::try_from(bound).map_err(|_| Status::Exhausted)?;
        let (t0, e0, g0) = (limiter.elapsed(), expanded, generated);
        limiter.set_bound(bound);
        let wide = threads > 1 && last >= small;
        if wide {
            ran = threads;
        }
        let r = iteration(&mut top, limiter, &quiet, &team, &start, h0, b, if wide { threads } else { 1 }, by_h,
                          &mut expanded, &mut generated);
        last = expanded - e0;
        iterations.push(IterationRecord {
            bound,
            expanded: expanded - e0,
            generated: generated - g0,
            elapsed: limiter.elapsed() - t0,
            evaluated: generated - g0,
            kind: crate::protocol::F_BOUND,
        });
        match r {
            Iteration::Solved(c, m) => {
                (cost, moves) = (Some(c), m);
                return Ok(Status::Solved);
            }
            Iteration::Stopped(stop) => return Err(stop),
            Iteration::Above(INF) => return Ok(Status::Exhausted),
            Iteration::Above(r) => bound = r,
        }
    })());
    let mut stats = top.stats(expanded, generated, generated + 1, 0);
    stats.iterations = iterations;
    stats.threads = ran as u32;
    concluded(status, stats, moves, cost, bound, max_cost)
}

/// One iteration under `bound` on `threads` threads (1: on the calling thread, the whole tree one unit);
/// the counts added to `expanded`, `generated` and `top.domain_cuts`.
#[allow(clippy::too_many_arguments)]
fn iteration<D, H>(top: &mut Ctx<D, H>, limiter: &Limiter, quiet: &Limiter, team: &Team, start: &D::State, h0: u32,
                   bound: u32, threads: usize, by_h: bool, expanded: &mut u64, generated: &mut u64)
                   -> Iteration<D::Move>
where
    D: Puzzle + Sync,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    H: Estimator<D> + Clone + Send,
{
    team.first.store(usize::MAX, Ordering::Relaxed);
    let mut nxt = INF;
    let mut record = Vec::new();
    let units = if threads == 1 {
        Ok(vec![Unit { path: Vec::new(), g: 0, h: h0 }])
    } else {
        let mut n = Counts { expanded: 0, generated: 0, checkpoint: top.checks.first_checkpoint() };
        let before = top.domain_cuts.clone();
        let units = split(top, &mut n, start, h0, bound, threads * UNITS_PER_THREAD, &mut nxt, &mut record);
        top.checks.give_back(n.expanded);
        // the split's counts are added at the merge (all of them, or the serial search's up to its solution)
        top.domain_cuts = before;
        if units.is_err() {
            // stopped in the split: the work done is counted
            (*expanded, *generated) = (*expanded + n.expanded, *generated + n.generated);
            for e in &record {
                add(&mut top.domain_cuts, &e.cuts);
            }
        }
        units
    };
    let units = match units {
        Ok(units) => units,
        Err(stop) => return Iteration::Stopped(stop),
    };
    let next = AtomicUsize::new(0);
    let shares: Vec<Share<D::Move>> = if threads == 1 {
        // on the calling thread: its own limiter, whose poll runs Python's signal handlers
        let mut alone = limiter.clone();
        (alone.max_nodes, alone.progress) = (None, None);
        vec![work(top.puzzle, &mut *top.h, &alone, team, start, &units, &next, bound, by_h, top.max_cost)]
    } else {
        let done = Mutex::new(Vec::with_capacity(threads));
        let running = AtomicUsize::new(threads);
        let caller = std::thread::current();
        std::thread::scope(|s| {
            for _ in 0..threads {
                let mut h = top.h.clone();
                let (done, running, caller, units, next) = (&done, &running, &caller, &units, &next);
                let (puzzle, max_cost) = (top.puzzle, top.max_cost);
                let spawned = std::thread::Builder::new().stack_size(THREAD_STACK).spawn_scoped(s, move || {
                    let share = work(puzzle, &mut h, quiet, team, start, units, next, bound, by_h, max_cost);
                    done.lock().unwrap_or_else(|e| e.into_inner()).push(share);
                    if running.fetch_sub(1, Ordering::AcqRel) == 1 {
                        caller.unpark();
                    }
                });
                if spawned.is_err() {
                    // no thread to be had (e.g. its stack under --memory-limit): the search stops with
                    // memory_limit; the threads started stop at their next check
                    team.halt.store(true, Ordering::Relaxed);
                    done.lock().unwrap_or_else(|e| e.into_inner())
                        .push(Share { units: Vec::new(), stop: Some(Status::MemoryLimit) });
                    running.fetch_sub(1, Ordering::AcqRel);
                }
            }
            // wait, polling Python's signal handlers (Ctrl-C sets the cancel flag the threads read) and
            // writing the live figures
            let mut polled = Instant::now();
            let budget = limiter.max_nodes.unwrap_or(u64::MAX);
            while running.load(Ordering::Acquire) > 0 {
                std::thread::park_timeout(POLL_INTERVAL);
                if polled.elapsed() >= POLL_INTERVAL {
                    polled = Instant::now();
                    if let Some(poll) = &limiter.poll {
                        (poll.0)();
                    }
                    limiter.set_expanded(budget - team.pool.load(Ordering::Relaxed));
                }
            }
        });
        done.into_inner().unwrap_or_else(|e| e.into_inner())
    };
    // merge (the module's step 3)
    let mut done: Vec<Option<Done<D::Move>>> = units.iter().map(|_| None).collect();
    let mut stop = None;
    for share in shares {
        for d in share.units {
            let k = d.unit;
            done[k] = Some(d);
        }
        stop = stop.or(share.stop);
    }
    let finished = |d: &Option<Done<D::Move>>| d.as_ref().is_some_and(|d| d.end.is_some());
    // the first unit holding a solution, if every unit before it was searched to the end
    let first = done.iter().position(|d| matches!(d, Some(Done { end: Some(End::Solution(..)), .. })));
    if let Some(k) = first.filter(|&k| done[..k].iter().all(finished)) {
        let path: Vec<usize> = units[k].path.iter().map(|&(s, _)| s).collect();
        for e in record.iter().filter(|e| e.slots <= path) {
            *expanded += 1;
            let mut child = e.slots.clone();
            child.push(0);
            for &s in &e.generated {
                *child.last_mut().expect("a slot") = s;
                *generated += u64::from(child <= path);
            }
            add(&mut top.domain_cuts, &e.cuts);
        }
        let mut moves: Vec<D::Move> = units[k].path.iter().map(|&(_, mv)| mv).collect();
        let mut cost = 0;
        for d in done[..=k].iter().flatten() {
            *expanded += d.expanded;
            *generated += d.generated;
            add(&mut top.domain_cuts, &d.cuts);
            if let Some(End::Solution(c, below)) = &d.end {
                cost = *c;
                moves.extend_from_slice(below);
            }
        }
        return Iteration::Solved(cost, moves);
    }
    // no solution taken: every expansion is counted
    for e in &record {
        (*expanded, *generated) = (*expanded + 1, *generated + e.generated.len() as u64);
        add(&mut top.domain_cuts, &e.cuts);
    }
    for d in done.iter().flatten() {
        (*expanded, *generated) = (*expanded + d.expanded, *generated + d.generated);
        add(&mut top.domain_cuts, &d.cuts);
        if let Some(End::Above(v)) = d.end {
            nxt = nxt.min(v);
        }
    }
    match stop {
        Some(stop) => Iteration::Stopped(stop),
        None if done.iter().all(finished) => Iteration::Above(nxt),
        // a thread stopped for the team without a limit of its own (cannot happen without a solution)
        None => Iteration::Stopped(Status::Cancelled),
    }
}

/// `total += part`, slot by slot.
fn add(total: &mut [u64], part: &[u64]) {
    for (t, p) in total.iter_mut().zip(part) {
        *t += p;
    }
}

/// A measurement aid for the scaling figures (`examples/threads_sim.rs` of the sliding-tiles crate): the
/// iteration under `bound` split for `target` units as the parallel search splits it, and each unit then
/// searched in turn on the calling thread. Returns the split's expansions and, in unit order, each unit's
/// expansions and whether it holds a solution; the units after the first that holds one are not searched
/// (the parallel search gives them up). No limits. Not a search: nothing here is reported to a user.
#[doc(hidden)]
pub fn unit_sizes<D: Puzzle, H: Estimator<D>>(puzzle: &D, h: &mut H, bound: u32, target: usize)
                                                -> (u64, Vec<(u64, bool)>) {
    let limiter = Limiter::new();
    let mut ctx = Ctx {
        puzzle,
        h,
        pruners: &mut [],
        checks: Checker::new(&limiter),
        pruner_cuts: Vec::new(),
        domain_cuts: vec![0; puzzle.rule_names().len()],
        max_cost: None,
        admissible: true,
    };
    let start = puzzle.initial_state();
    let h0 = ctx.estimate(&start);
    let by_h = ctx.h.zero_only_at_goal(puzzle);
    let mut n = Counts { expanded: 0, generated: 0, checkpoint: u64::MAX };
    let (mut nxt, mut record) = (INF, Vec::new());
    let units = split(&mut ctx, &mut n, &start, h0, bound, target, &mut nxt, &mut record).expect("no limits");
    let mut below = Vec::new();
    let mut sizes = Vec::with_capacity(units.len());
    for u in &units {
        let mut c = Counts { expanded: 0, generated: 0, checkpoint: u64::MAX };
        let state = state_at(puzzle, &start, &u.path);
        let r = rec::subtree(&mut ctx, &mut c, state, u.g, u.h, bound, by_h, false, &mut below);
        let solved = r.is_ok_and(|v| v <= u64::from(bound));
        sizes.push((c.expanded, solved));
        if solved {
            break;
        }
    }
    (n.expanded, sizes)
}
