//! Anytime weighted A* with a proven lower bound (Hansen and Zhou 2007; ARA*'s weight schedule): the twin of
//! `searchkit/machinery/drivers/anytime.py`, with the weights as exact ratios (keys q g + p h for w = p/q).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::mem::MaybeUninit;

use super::{conclude, guarded, Ctx, INF};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::{Puzzle, Successor, DEAD};
use crate::result::SearchResult;
use crate::store::Store;
use crate::{Ratio, Seed};

/// Python's heap entry `(g + w h, -g, tie_break, tie, f, state)`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: u64,
    g: u32,
    tb: i64,
    tie: u64,
    f: u64,
    id: u32,
}

impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // BinaryHeap pops the largest: the reverse of (key, -g, tie_break, tie).
        (o.key, self.g, o.tb, o.tie).cmp(&(self.key, o.g, self.tb, self.tie))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The key `g + (p/q) h` scaled by q (the same scale for every entry under one weight).
fn key(w: Ratio, g: u32, f: u64) -> u64 {
    let h = f - u64::from(g);
    w.den * u64::from(g) + w.num * h
}

/// `max(1, w - step)`, exactly.
fn lowered(w: Ratio, step: Ratio) -> Ratio {
    let num = (w.num * step.den).saturating_sub(step.num * w.den);
    let den = w.den * step.den;
    if num <= den {
        Ratio::ONE
    } else {
        Ratio::new(num, den)
    }
}

struct Run<D: Puzzle> {
    store: Store<D::State, D::Move>,
    heap: BinaryHeap<Entry>,
    w: Ratio,
    step: Ratio,
    inc_cost: u64,
    inc_moves: Option<Vec<D::Move>>,
    bound: u64,
    current: u64,
}

impl<D: Puzzle> Run<D> {
    /// min(U, least f over the heap and the state being expanded), the largest seen (Python's `lower`).
    fn lower(&mut self) -> u64 {
        let least = self.heap.iter().map(|e| e.f).min().unwrap_or(INF);
        let value = self.inc_cost.min(least).min(self.current);
        if value > self.bound {
            self.bound = value;
        }
        self.bound
    }

    fn reweight(&mut self) {
        self.w = lowered(self.w, self.step);
        let (w, cost) = (self.w, self.inc_cost);
        let old = std::mem::take(&mut self.heap).into_vec();
        self.heap = old.into_iter().filter(|e| e.f < cost).map(|mut e| {
            e.key = key(w, e.g, e.f);
            e
        }).collect();
    }

    fn improved(&mut self, goal: u32, cost: u64, on_improve: &mut Option<&mut dyn FnMut(u64, Option<u64>)>) {
        self.inc_cost = cost;
        self.inc_moves = Some(self.store.path(goal));
        self.reweight();
        let lb = self.lower();
        if let Some(cb) = on_improve.as_mut() {
            cb(cost, Some(lb).filter(|&b| b != INF));
        }
    }
}

pub(crate) fn anytime<D: Puzzle>(ctx: &mut Ctx<D>, weight: Ratio, step: Ratio, ara: bool, seed: Seed<'_, D::Move>)
                                 -> SearchResult<D::Move> {
    let Seed { incumbent, mut on_improve } = seed;
    let limiter = ctx.checks.limiter;
    let start = ctx.puzzle.initial_state();
    let h0 = ctx.estimate(&start);
    let f0 = if h0 == DEAD { INF } else { u64::from(h0) };
    let heap_each = ctx.puzzle.state_heap_bytes(&start);
    let store = match Store::new(start, heap_each, limiter) {
        Ok(s) => s,
        Err(stop) => return SearchResult::new(stop, ctx.stats(0, 0, 1, 0)),
    };
    let mut run: Run<D> = Run {
        store,
        heap: BinaryHeap::new(),
        w: weight,
        step,
        inc_cost: INF,
        inc_moves: None,
        bound: f0,
        current: f0,
    };
    if f0 != INF {
        run.heap.push(Entry { key: key(weight, 0, f0), g: 0, tb: 0, tie: 0, f: f0, id: 0 });
    }
    if let Some((moves, cost)) = incumbent {
        run.inc_cost = cost;
        run.inc_moves = Some(moves);
    }
    if let Some(m) = ctx.max_cost {
        if u64::from(m) + 1 < run.inc_cost {
            run.inc_cost = u64::from(m) + 1;
            run.inc_moves = None;
        }
    }
    let (mut expanded, mut generated, mut evaluated, mut peak) = (0u64, 0u64, 0u64, 2u64);
    let mut buf: Vec<Successor<D::Move, D::State>> = Vec::new();
    let status = guarded((|| -> Result<Status, Stop> {
        if ctx.puzzle.is_goal(run.store.state(0)) {
            run.improved(0, 0, &mut on_improve);
            return Ok(Status::Solved);
        }
        let mut tie = 0u64;
        let mut checkpoint = ctx.checks.first_checkpoint();
        let mut rescan = 1024u64.max(run.heap.len() as u64 / 4);
        while let Some(entry) = run.heap.pop() {
            let g = entry.g;
            if entry.f >= run.inc_cost || run.store.g(entry.id) < g {
                continue;
            }
            let w = run.w;
            if w != Ratio::ONE && run.inc_cost != INF && entry.key >= w.den * run.inc_cost {
                // The least key reached U, so U <= w C*: ceil(U / w) is a bound.
                let b = (run.inc_cost * w.den).div_ceil(w.num);
                if b > run.bound {
                    run.bound = b;
                }
                if ara && step.num > 0 {
                    run.heap.push(entry);
                    run.reweight();
                    continue;
                }
            }
            run.current = entry.f;
            let state = run.store.state(entry.id).clone();
            if !ctx.pruners.is_empty() && ctx.cut(&state, g, None) {
                continue;
            }
            if expanded >= checkpoint {
                checkpoint = ctx.checks.checkpoint(expanded)?;
                ctx.pruners_ok()?;
                let bytes = run.store.bytes() + run.heap.capacity() * std::mem::size_of::<Entry>();
                ctx.check_bytes(bytes)?;
            }
            if expanded >= rescan {
                rescan = expanded + 1024u64.max(run.heap.len() as u64 / 4);
                run.lower();
            }
            expanded += 1;
            ctx.successors(&state, &mut buf);
            let mut w = run.w;
            for s in buf.drain(..) {
                generated += 1;
                let g2 = g + s.cost;
                if u64::from(g2) >= run.inc_cost {
                    continue;
                }
                let hash = run.store.hash(&s.state);
                let old = run.store.find(hash, &s.state);
                if old.is_some_and(|o| run.store.g(o) <= g2) {
                    continue;
                }
                let is_goal = ctx.puzzle.is_goal(&s.state);
                let h = if is_goal { 0 } else { ctx.estimate(&s.state) };
                let cid = match old {
                    Some(o) => {
                        run.store.update(o, entry.id, s.mv, g2)?;
                        o
                    }
                    None => run.store.insert(hash, s.state, entry.id, MaybeUninit::new(s.mv), g2, limiter)?,
                };
                if is_goal {
                    run.improved(cid, u64::from(g2), &mut on_improve);
                    w = run.w;
                    continue;
                }
                evaluated += 1;
                if h == DEAD {
                    continue;
                }
                let f2 = u64::from(g2) + u64::from(h);
                if f2 >= run.inc_cost {
                    continue;
                }
                tie += 1;
                let tb = ctx.puzzle.tie_break(run.store.state(cid));
                run.heap.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                run.heap.push(Entry { key: key(w, g2, f2), g: g2, tb, tie, f: f2, id: cid });
            }
            run.current = INF;
            peak = peak.max((run.store.len() + run.heap.len()) as u64);
        }
        Ok(Status::Solved)
    })());
    let mut stats = ctx.stats(expanded, generated, evaluated + 1, peak);
    stats.peak_bytes = (run.store.bytes() + run.heap.capacity() * std::mem::size_of::<Entry>()) as u64;
    let (status, bound) = if status == Status::Solved {
        (Status::Exhausted, run.inc_cost)
    } else {
        (status, run.lower())
    };
    let solution = run.inc_moves.take().map(|m| (m, run.inc_cost));
    conclude(status, stats, solution, Some(bound), ctx.max_cost)
}
