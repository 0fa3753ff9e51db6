//! A*, PEA*, weighted A* and greedy best-first search: the twin of `searchkit/machinery/drivers/best_first.py`, one
//! loop ([`search`]) configured by a [`BestFirst`] value as Python's `search` is, over Python's
//! `BestFirstExpansion` step ([`Expansion`]); `astar.py`, `peastar.py`, `wastar.py` and `gbfs.py` are its
//! configurations ([`ASTAR`], [`PEASTAR`], [`BestFirst::weighted`], [`BestFirst::greedy`]).
//!
//! [`parallel`] is A*'s and PEA*'s multi-threaded form (K-parallel best-first search; no Python twin).

pub(crate) mod parallel;

use std::collections::HashMap;
use std::mem::MaybeUninit;

use super::{conclude, guarded, Ctx, INF};
use crate::limits::Stop;
use crate::result::Status;
use crate::puzzle::{Puzzle, Successor, DEAD};
use crate::queue::BucketQueue;
use crate::result::{IterationRecord, SearchResult, SearchStats};
use crate::store::Store;
use crate::Ratio;

/// The priority of a child reached with cost g and estimate h (smaller first).
#[derive(Clone, Copy, Debug)]
pub(crate) enum KeyKind {
    /// f = g + h (A*, PEA*).
    F,
    /// g + (p/q) h, as the integer q g + p h (weighted A*: the exact ratio, so equal keys tie exactly).
    Weighted { p: u64, q: u64 },
    /// h (greedy best-first search).
    H,
}

impl KeyKind {
    #[inline]
    pub fn key(self, g: u32, h: u32) -> u64 {
        match self {
            KeyKind::F => u64::from(g) + u64::from(h),
            KeyKind::Weighted { p, q } => q * u64::from(g) + p * u64::from(h),
            KeyKind::H => u64::from(h),
        }
    }

    /// f = g + h of an entry of key `key` and cost `g`.
    #[inline]
    pub fn f(self, key: u64, g: u32) -> u64 {
        match self {
            KeyKind::F => key,
            KeyKind::Weighted { p, q } => u64::from(g) + (key - q * u64::from(g)) / p,
            KeyKind::H => key + u64::from(g),
        }
    }
}

/// Python's `BestFirstExpansion`: the expansion step with its counters, over the store and the open list.
pub(crate) struct Expansion<D: Puzzle> {
    pub store: Store<D::State, D::Move>,
    pub queue: BucketQueue,
    pub expanded: u64,
    pub generated: u64,
    pub evaluated: u64,
    pub peak: u64,
    checkpoint: u64,
    /// Least f of the children the last step left unstored (above its ceiling); `INF`: none.
    pub deferred: u64,
    cap: u64,
    kind: KeyKind,
    prune_on_f: bool,
    goal_on_generate: bool,
    buf: Vec<Successor<D::Move, D::State>>,
    pub peak_bytes: usize,
    /// Bytes of the driver's side tables (PEA*'s map of re-pushed states), counted with the store's.
    pub side_bytes: usize,
    /// The pruners' bytes at most (at the limit checks).
    pub pruner_bytes: usize,
}

impl<D: Puzzle> Expansion<D> {
    /// A store holding `start` (g = 0) and an open list holding its entry `(key0, g 0, tie-break key 0)`.
    pub fn new(ctx: &Ctx<D>, start: D::State, key0: u64, kind: KeyKind, prune_on_f: bool, goal_on_generate: bool)
               -> Result<Self, Stop> {
        let heap_each = ctx.puzzle.state_heap_bytes(&start);
        let store = Store::new(start, heap_each, ctx.checks.limiter)?;
        let mut queue = BucketQueue::new();
        queue.push(key0, 0, 0, 0)?;
        Ok(Expansion {
            store,
            queue,
            expanded: 0,
            generated: 0,
            evaluated: 1,
            peak: 2,
            checkpoint: ctx.checks.first_checkpoint(),
            deferred: INF,
            cap: ctx.cap(),
            kind,
            prune_on_f,
            goal_on_generate,
            buf: Vec::new(),
            peak_bytes: 0,
            side_bytes: 0,
            pruner_bytes: 0,
        })
    }

    fn bytes(&self) -> usize {
        self.store.bytes() + self.queue.bytes() + self.side_bytes
    }

    /// `(expanded, generated, evaluated)`, for [`Layers`].
    fn counts(&self) -> (u64, u64, u64) {
        (self.expanded, self.generated, self.evaluated)
    }

    /// Expand state `id` popped with cost `g`: Python's `step(state, g, ceiling, again)`.
    ///
    /// Returns the goal child taken on generation (greedy search), or `None`.
    pub fn step(&mut self, ctx: &mut Ctx<D>, id: u32, g: u32, ceiling: u64, again: bool)
                -> Result<Option<u32>, Stop> {
        self.deferred = INF;
        let state = self.store.state(id).clone();
        if !again && !ctx.pruners.is_empty() && ctx.cut(&state, g, None) {
            return Ok(None);
        }
        if self.expanded >= self.checkpoint {
            self.checkpoint = ctx.checks.checkpoint(self.expanded)?;
            ctx.pruners_ok()?;
            let bytes = self.bytes();
            self.peak_bytes = self.peak_bytes.max(bytes);
            let extra = ctx.check_bytes(bytes)?;
            self.pruner_bytes = self.pruner_bytes.max(extra);
        }
        self.expanded += 1;
        let mut buf = std::mem::take(&mut self.buf);
        ctx.successors(&state, &mut buf);
        let r = self.children(ctx, id, g, ceiling, &buf);
        self.buf = buf;
        let size = (self.store.len() + self.queue.len()) as u64;
        if size > self.peak {
            self.peak = size;
        }
        r
    }

    #[inline]
    fn children(&mut self, ctx: &mut Ctx<D>, id: u32, g: u32, ceiling: u64,
                buf: &[Successor<D::Move, D::State>]) -> Result<Option<u32>, Stop> {
        let limiter = ctx.checks.limiter;
        for s in buf {
            self.generated += 1;
            let g2 = g + s.cost;
            let hash = self.store.hash(&s.state);
            let old = self.store.find(hash, &s.state);
            if let Some(o) = old {
                if self.store.g(o) <= g2 {
                    continue;
                }
            }
            if self.goal_on_generate && ctx.puzzle.is_goal(&s.state) {
                if u64::from(g2) > self.cap {
                    continue;
                }
                let cid = match old {
                    Some(o) => {
                        self.store.update(o, id, s.mv, g2)?;
                        o
                    }
                    None => self.store.insert(hash, s.state.clone(), id, MaybeUninit::new(s.mv), g2, limiter)?,
                };
                return Ok(Some(cid));
            }
            self.evaluated += 1;
            let h = ctx.estimate(&s.state);
            if h == DEAD {
                continue;
            }
            let f2 = u64::from(g2) + u64::from(h);
            if (if self.prune_on_f { f2 } else { u64::from(g2) }) > self.cap {
                continue;
            }
            if f2 > ceiling {
                if f2 < self.deferred {
                    self.deferred = f2;
                }
                continue;
            }
            let cid = match old {
                Some(o) => {
                    self.store.update(o, id, s.mv, g2)?;
                    o
                }
                None => self.store.insert(hash, s.state.clone(), id, MaybeUninit::new(s.mv), g2, limiter)?,
            };
            let tie = ctx.puzzle.tie_break(&s.state);
            self.queue.push(self.kind.key(g2, h), g2, tie, cid)?;
        }
        Ok(None)
    }
}

/// Python's `FLayers`: one record per value of the popped f. The counts it is handed are
/// `(expanded, generated, evaluated)` so far.
pub(super) struct Layers {
    pub f: u64,
    pub records: Vec<IterationRecord>,
    mark: (u64, u64, u64, f64),
}

impl Layers {
    pub fn new<D: Puzzle>(ctx: &Ctx<D>, f0: u64) -> Self {
        ctx.checks.limiter.set_bound(f0);
        Layers { f: f0, records: Vec::new(), mark: (0, 0, 0, 0.0) }
    }

    pub fn close_layer<D: Puzzle>(&mut self, ctx: &Ctx<D>, (expanded, generated, evaluated): (u64, u64, u64)) {
        let (e0, g0, v0, t0) = self.mark;
        self.records.push(IterationRecord {
            bound: self.f,
            expanded: expanded - e0,
            generated: generated - g0,
            elapsed: ctx.checks.limiter.elapsed() - t0,
            evaluated: evaluated - v0,
            kind: crate::protocol::F_LAYER,
        });
    }

    pub fn rise<D: Puzzle>(&mut self, ctx: &Ctx<D>, counts: (u64, u64, u64), f: u64) {
        self.close_layer(ctx, counts);
        self.f = f;
        ctx.checks.limiter.set_bound(f);
        self.mark = (counts.0, counts.1, counts.2, ctx.checks.limiter.elapsed());
    }
}

/// Python's `optimal_result` for a search with f-layers (A*, PEA*, serial or parallel), its layers closed:
/// `solved` with the path to the goal `(id, cost)` taken, `exhausted` with the cost cap's bound, else the
/// status and the largest f popped as the lower bound (its proof: the largest key popped is <= C* until a
/// goal is popped), capped by the cost cap.
pub(super) fn optimal_result<D: Puzzle>(ctx: &Ctx<D>, status: Status, mut stats: SearchStats, layers: Layers,
                                        store: &Store<D::State, D::Move>, goal: Option<(u32, u32)>)
                                        -> SearchResult<D::Move> {
    stats.iterations = layers.records;
    let mut o = SearchResult::new(status, stats);
    match status {
        Status::Solved => {
            let (id, cost) = goal.expect("solved with a goal");
            o.moves = store.path(id);
            o.cost = Some(u64::from(cost));
            o.lower_bound = o.cost;
        }
        Status::Exhausted => o.lower_bound = ctx.max_cost.map(|m| u64::from(m) + 1),
        _ => {
            o.lower_bound = Some(match ctx.max_cost {
                None => layers.f,
                Some(m) => layers.f.min(u64::from(m) + 1),
            })
        }
    }
    o
}

/// No goal is reachable from the start (its estimate is [`DEAD`]).
pub(super) fn dead_start<D: Puzzle>(ctx: &Ctx<D>) -> SearchResult<D::Move> {
    let mut o = SearchResult::new(Status::Exhausted, ctx.stats(0, 0, 1, 1));
    o.lower_bound = ctx.max_cost.map(|m| u64::from(m) + 1);
    o
}

/// A configuration of [`search`]: Python's `BestFirst` (`searchkit/machinery/drivers/best_first.py`), field for field.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BestFirst {
    /// The priority of a state reached with cost g and estimate h (Python's `key`; `F`: A*).
    pub key: KeyKind,
    /// Take a goal when it is generated (greedy search; no bound on its cost follows), not when popped.
    pub goal_on_generate: bool,
    /// A child with g + h above the cost bound is not stored (an admissible h); `false`: g alone is tested.
    pub prune_on_f: bool,
    /// The w of a key g + w h, exactly, for the `ceil(C / w)` bound (`None`: no such bound).
    pub weight: Option<Ratio>,
    /// Keep A*'s f-layer records and prove the bound A*'s way: the largest key popped (`false`: the least
    /// g + h left in the open list and of the state popped last, min'ed with the cost found).
    pub layers: bool,
    /// Partial expansion (PEA*): a state stores only the children with f up to its key and goes back on the
    /// open list for the rest.
    pub partial: bool,
}

/// A* (`astar.py`).
pub(crate) const ASTAR: BestFirst =
    BestFirst { key: KeyKind::F, goal_on_generate: false, prune_on_f: true, weight: None, layers: true, partial: false };
/// Partial-expansion A* (`peastar.py`).
pub(crate) const PEASTAR: BestFirst = BestFirst { partial: true, ..ASTAR };

impl BestFirst {
    /// Weighted A* on g + w h (`wastar.py`); `admissible`: the heuristic is, so f prunes and bounds.
    pub fn weighted(w: Ratio, admissible: bool) -> BestFirst {
        BestFirst { key: KeyKind::Weighted { p: w.num, q: w.den }, prune_on_f: admissible, weight: Some(w),
                    layers: false, ..ASTAR }
    }

    /// Greedy best-first search on h, a goal taken when generated (`gbfs.py`).
    pub fn greedy(admissible: bool) -> BestFirst {
        BestFirst { key: KeyKind::H, goal_on_generate: true, prune_on_f: admissible, layers: false, ..ASTAR }
    }
}

/// Best-first search as `cfg` says: Python's `search(puzzle, heuristic, config)`, step for step in the same
/// order with the same counts (the differential tests hold both to it).
///
/// Returns, with `cfg.layers`, Python's `optimal_result`: `solved` with the first goal popped, else the
/// status and the largest f popped as the lower bound, and the f-layers in `stats.iterations`. Otherwise
/// Python's `conclude`: `solved` when the proven bound meets the cost, else `feasible`; `exhausted` with
/// `max_cost + 1`; or the limit's status with the bound (the bound only with `prune_on_f`, an admissible h).
pub(crate) fn search<D: Puzzle>(ctx: &mut Ctx<D>, cfg: BestFirst) -> SearchResult<D::Move> {
    let start = ctx.puzzle.initial_state();
    let h0 = ctx.estimate(&start);
    if h0 == DEAD {
        return dead_start(ctx);
    }
    let kind = cfg.key;
    let mut e = match Expansion::new(ctx, start, kind.key(0, h0), kind, cfg.prune_on_f, cfg.goal_on_generate) {
        Ok(e) => e,
        Err(stop) => return SearchResult::new(stop, ctx.stats(0, 0, 1, 0)),
    };
    let mut layers = cfg.layers.then(|| Layers::new(ctx, u64::from(h0)));
    // Partial expansion: state -> (g, key) of its pending next slice.
    let mut again: HashMap<u32, (u32, u64)> = HashMap::new();
    let mut goal: Option<(u32, u32)> = None;
    // g + h of the state popped last: a limit (raised before its expansion) or a goal generated among its
    // children leaves it out of the open list (the bound of the configurations without layers).
    let mut current = u64::from(h0);
    let status = guarded((|| {
        if cfg.goal_on_generate && ctx.puzzle.is_goal(e.store.state(0)) {
            goal = Some((0, 0)); // popped states are not tested: test the start here
            return Ok(Status::Solved);
        }
        while let Some((key, g, id)) = e.queue.pop() {
            if let Some(l) = layers.as_mut() {
                if key > l.f {
                    l.rise(ctx, e.counts(), key); // the popped f rose: a new f-layer
                }
            }
            if e.store.g(id) < g {
                if cfg.partial && again.get(&id).is_some_and(|a| a.0 == g) {
                    again.remove(&id);
                }
                continue;
            }
            current = kind.f(key, g);
            if !cfg.goal_on_generate && ctx.puzzle.is_goal(e.store.state(id)) {
                goal = Some((id, g));
                return Ok(Status::Solved);
            }
            if !cfg.partial {
                if let Some(c) = e.step(ctx, id, g, INF, false)? {
                    goal = Some((c, e.store.g(c)));
                    return Ok(Status::Solved);
                }
                continue;
            }
            let slice_again = again.get(&id) == Some(&(g, key));
            if slice_again {
                again.remove(&id);
            }
            e.step(ctx, id, g, key, slice_again)?;
            let nxt = e.deferred;
            if nxt != INF {
                // Some children were left out: come back for them at their least f.
                if again.len() == again.capacity() {
                    again.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                    // A slot: the id, (g, f) and hashbrown's control byte.
                    e.side_bytes = again.capacity() * (std::mem::size_of::<(u32, (u32, u64))>() + 1);
                }
                again.insert(id, (g, nxt));
                let tie = ctx.puzzle.tie_break(e.store.state(id));
                e.queue.push_again(nxt, g, tie, id)?;
            }
        }
        Ok(Status::Exhausted)
    })());
    let mut stats = ctx.stats(e.expanded, e.generated, e.evaluated, e.peak);
    stats.peak_bytes = e.peak_bytes.max(e.bytes()) as u64;
    stats.pruner_bytes = e.pruner_bytes.max(ctx.pruner_bytes()) as u64;
    stats.states_stored = e.store.len() as u64;
    if let Some(mut l) = layers {
        // Python's `optimal_result` (its proof: the largest key popped is <= C* until a goal is popped).
        l.close_layer(ctx, e.counts());
        return optimal_result(ctx, status, stats, l, &e.store, goal);
    }
    let mut bound = None;
    if cfg.prune_on_f {
        // g + h of every entry left and of the state popped last (the wastar module's proof).
        let mut least = INF;
        e.queue.for_each(|k, g, _| least = least.min(kind.f(k, g)));
        let mut b = least.min(current);
        if let Some(m) = ctx.max_cost {
            b = b.min(u64::from(m) + 1);
        }
        bound = Some(b);
    }
    let Some((goal, cost)) = goal else {
        return conclude(status, stats, None, bound, ctx.max_cost);
    };
    let cost = u64::from(cost);
    if let (Some(b), Some(w), false) = (bound, cfg.weight, cfg.goal_on_generate) {
        // ceil(cost / w) by w-admissibility, w = num/den exactly.
        let by_weight = (cost * w.den).div_ceil(w.num);
        bound = Some(b.min(cost).max(by_weight));
    }
    conclude(status, stats, Some((e.store.path(goal), cost)), bound, ctx.max_cost)
}
