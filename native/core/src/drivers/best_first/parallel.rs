//! A* and PEA* on several threads for one instance: K-parallel best-first search. It has no Python twin (the
//! Python engine is single-threaded and the reference); it is held to the serial search ([`super::search`],
//! the Python twin) by its answers, and tested against it (`tests/native/test_best_first_threads.py`).
//!
//! # The method
//!
//! K-parallel best-first search (KBFS: Felner, Kraus and Korf, "KBFS: K-Best-First Search", Annals of
//! Mathematics and Artificial Intelligence 39, 2003; on threads as in Vidal, Bordeaux and Hamadi, "Adaptive
//! K-Parallel Best-First Search: A Simple but Efficient Algorithm for Multi-Core Domain-Independent
//! Planning", SoCS 2010, with a fixed K):
//!
//! 1. **Take.** The calling thread pops up to [`BATCH`] (K) entries of the open list, in the serial
//!    search's order (f ascending, then larger g, then the puzzle's tie-break, then first in), all of the
//!    least f: it stops at the first entry of a larger f. Each entry goes through the serial search's pop
//!    rules in that order: a stale entry (a better g recorded since) is dropped, a goal ends the search, the
//!    driver-level rules (`dominance`) may cut it, the limits are checked (as the serial search checks them
//!    before an expansion).
//! 2. **Expand.** The states taken are expanded on the threads (the calling thread too), each taking the
//!    next state of the batch from an atomic counter: the successors, the duplicate test against the closed
//!    set as it stood when the batch was taken (read-only), and the heuristic of each child not dropped
//!    there. This is where the time goes on Flood-It (a child's flood and its Puchert estimate, about 6 µs
//!    a generated state on 24x24 boards).
//! 3. **Merge.** The calling thread merges the children into the closed set and the open list batch entry
//!    by batch entry, in the order taken, each entry's children in the puzzle's move order, with the serial
//!    search's rules (a child already stored with a g no larger is dropped, a better g updates it and pushes
//!    it again; PEA* stores the children with f up to the entry's key and pushes the entry again at the
//!    least f it left out).
//!
//! Every decision is taken on the calling thread in a fixed order from values that do not depend on which
//! thread computed them, so **for a fixed K the search is deterministic**: the same expansions, counts,
//! answer (moves too) and lower bound at every thread count, and on the calling thread alone. The counts
//! differ from the serial search's (which pops one state, merges its children, and pops again): they are
//! the batch search's, summed over the threads (expanded: states expanded; generated: successors made;
//! evaluated: estimates computed, a child dropped as a duplicate before its estimate not among them), and
//! `SearchStats::threads` says how many threads ran (1: the search stayed small, or no thread could be
//! started). The f-layer records are the batch search's.
//!
//! # Why it is exact
//!
//! * **A batch's states cannot improve each other's g when the heuristic is consistent.** Take A and B in
//!   one batch, both at the least f, `f = g(A) + h(A) = g(B) + h(B)`, and a move A -> B of cost c. By
//!   consistency `h(A) <= c + h(B)`, so `g(A) + c + h(B) >= g(A) + h(A) = f = g(B) + h(B)`, that is
//!   `g(A) + c >= g(B)`: B's g is already as good as A can make it, and expanding B before A's children are
//!   merged loses nothing. With an inconsistent (admissible) heuristic the merge applies the serial search's
//!   reopening rules: a child found with a smaller g is updated and pushed again, and its stale entries are
//!   dropped when popped, so a state expanded with a g bettered in the same batch is expanded again later.
//! * **A goal is returned only when no open state can beat it.** A goal is taken when it is popped, as in
//!   the serial search: at the least f of the open list and of the batch being taken. With an admissible
//!   heuristic some state on an optimal path, with its optimal g, is always in the open list or the batch
//!   taken but not yet expanded (the serial search's invariant; the entries of a batch count as open until
//!   their children are merged), and its f is at most C*; the goal's cost is its f (h is 0 at a goal), at
//!   most that state's f, so it is C*. The states taken before the goal in its batch are dropped unexpanded.
//!   The `dominance` rule's proof (`searchkit_flood/dominance.py`) holds as it stands: a state it cuts lies
//!   inside one expanded at the same g, earlier in the same batch or in an earlier one, whose children are
//!   merged before any state of a larger f is taken.
//! * **Lower bounds.** A search stopped by a limit reports the largest f popped, as the serial search: at
//!   most C* by the same invariant.
//!
//! # Limits across threads
//!
//! The limits are checked on the calling thread as each state is taken, exactly as the serial search checks
//! them before each expansion: the node limit is exact (a batch is cut short where it would pass it; the
//! count is the states expanded on all threads), the deadline and Ctrl-C (the calling thread's
//! [`crate::Limiter::poll`] runs Python's signal handlers) are seen within one batch (K states' expansion: a
//! few ms on 24x24 Flood-It boards), and the memory budget counts the one closed set and open list all
//! threads share, with the batch's children. Each thread's own copy of the puzzle and heuristic (made by
//! the caller's `replicate`, fallibly) is the game's set-up, as the serial search's one copy is: under
//! `--memory-limit` the process's address-space limit covers them.
//!
//! # Threads
//!
//! The search starts no thread while it is small: the batches are expanded on the calling thread until
//! [`SMALL`] states were expanded, and the threads are started then (the same counts either way).
//! `SEARCHKIT_PARALLEL_SMALL` and `SEARCHKIT_PARALLEL_BATCH` (counts) override [`SMALL`] and [`BATCH`]; the
//! tests set them.

use std::collections::HashMap;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, RwLock};

use super::{dead_start, optimal_result, BestFirst, Layers};
use crate::drivers::{guarded, Ctx, INF};
use crate::limits::{usable_threads, POLL_INTERVAL, THREAD_STACK};
use crate::puzzle::{Estimator, Pruner, Puzzle, Successor, DEAD};
use crate::queue::BucketQueue;
use crate::result::{SearchResult, Status};
use crate::store::Store;

/// K: the states a batch takes at most (all of the least f). Large enough that a batch's expansion
/// (K x about 40 µs on a 24x24 Flood-It board) dwarfs the hand-over to the threads; small enough that the
/// last f-layer, where the batch search expands states the serial search would not reach, costs little.
pub const BATCH: usize = 64;
/// The threads are started once this many states were expanded (a search that ends before never starts
/// one).
pub const SMALL: u64 = 1 << 12;

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A state taken for expansion: its id, its g, the f up to which its children are stored (PEA*: its key;
/// A*: none), whether the driver-level rules are asked of it (not for PEA*'s next slice), and a copy of the
/// state.
struct Item<S> {
    id: u32,
    g: u32,
    ceiling: u64,
    rules: bool,
    state: S,
}

/// A child kept by a thread's expansion: the move, the state and its hash, its g, h and tie-break key.
struct Child<M, S> {
    mv: M,
    state: S,
    hash: u64,
    g: u32,
    h: u32,
    tie: i64,
}

/// What a thread's expansion of one [`Item`] gave: the driver-level rule whose [`Pruner::test`] cut it (it
/// is then not expanded), the children kept, the successors made, the estimates computed, the fused rules'
/// cuts.
struct Out<M, S> {
    cut: Option<usize>,
    children: Vec<Child<M, S>>,
    generated: u64,
    evaluated: u64,
    cuts: Vec<u64>,
}

/// Expand `item` (the module's step 2) with this thread's `puzzle` and `h`, against the closed set `store`
/// as it stood when the batch was taken: a child stored with a g no larger is dropped before its estimate,
/// a dead one or one above the cost cap `cap` after it (as the serial search drops them).
#[allow(clippy::too_many_arguments)]
fn expand<D: Puzzle, H: Estimator<D> + ?Sized>(puzzle: &D, h: &mut H, store: &Store<D::State, D::Move>,
                                              rules: &[&mut Rule<'_, D>], item: &Item<D::State>, cap: u64,
                                              prune_on_f: bool, buf: &mut Vec<Successor<D::Move, D::State>>)
                                              -> Out<D::Move, D::State> {
    let mut cuts = vec![0; puzzle.rule_names().len()];
    if item.rules {
        if let Some(i) = rules.iter().position(|r| r.test(puzzle, &item.state, item.g)) {
            return Out { cut: Some(i), children: Vec::new(), generated: 0, evaluated: 0, cuts };
        }
    }
    buf.clear();
    puzzle.successors(&item.state, buf, &mut cuts);
    let mut out = Out { cut: None, children: Vec::with_capacity(buf.len()), generated: buf.len() as u64,
                        evaluated: 0, cuts };
    for s in buf.drain(..) {
        let g2 = item.g + s.cost;
        let hash = store.hash(&s.state);
        if store.find(hash, &s.state).is_some_and(|o| store.g(o) <= g2) {
            continue;
        }
        out.evaluated += 1;
        let h2 = h.estimate(puzzle, &s.state);
        if h2 == DEAD {
            continue;
        }
        let f2 = u64::from(g2) + u64::from(h2);
        if (if prune_on_f { f2 } else { u64::from(g2) }) > cap {
            continue;
        }
        let tie = puzzle.tie_break(&s.state);
        out.children.push(Child { mv: s.mv, state: s.state, hash, g: g2, h: h2, tie });
    }
    out
}

/// The outputs of a batch's expansions, each with its place in the batch.
type Outs<D> = Vec<(usize, Out<<D as Puzzle>::Move, <D as Puzzle>::State>)>;

/// A driver-level rule as the threads share it.
type Rule<'p, D> = dyn Pruner<D> + Send + Sync + 'p;

/// What the threads share: the closed set and the driver-level rules (changed by the calling thread between
/// batches, read by all while one is expanded), the batch, the next entry to take, the outputs, and the
/// gate that starts a batch (`(batch number, stop)`) with the count of threads still on it.
struct Shared<'a, 'p, D: Puzzle> {
    store: RwLock<Store<D::State, D::Move>>,
    rules: RwLock<Vec<&'a mut Rule<'p, D>>>,
    batch: RwLock<Vec<Item<D::State>>>,
    next: AtomicUsize,
    outs: Mutex<Outs<D>>,
    gate: Mutex<(u64, bool)>,
    wake: Condvar,
    running: AtomicUsize,
}

impl<D: Puzzle> Shared<'_, '_, D> {
    /// Tell the threads to stop (at the end of the search, or unwinding from a panic on the calling thread).
    fn stop(&self) {
        self.gate.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.wake.notify_all();
    }
}

/// Stops the threads when dropped (so a panic on the calling thread does not leave them waiting).
struct StopOnDrop<'a, 'r, 'p, D: Puzzle>(&'a Shared<'r, 'p, D>);

impl<D: Puzzle> Drop for StopOnDrop<'_, '_, '_, D> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Counts a thread off its batch when dropped (a panic in a puzzle or heuristic included) and wakes the
/// calling thread when it is the last.
struct Leave<'a> {
    running: &'a AtomicUsize,
    caller: &'a std::thread::Thread,
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.caller.unpark();
        }
    }
}

/// Take the batch's entries in turn until none is left, expanding each (one thread's share of step 2).
fn take_turns<D: Puzzle, H: Estimator<D> + ?Sized>(shared: &Shared<'_, '_, D>, puzzle: &D, h: &mut H,
                                                  cap: u64, prune_on_f: bool,
                                                  buf: &mut Vec<Successor<D::Move, D::State>>) {
    let store = shared.store.read().unwrap_or_else(|e| e.into_inner());
    let rules = shared.rules.read().unwrap_or_else(|e| e.into_inner());
    let batch = shared.batch.read().unwrap_or_else(|e| e.into_inner());
    loop {
        let k = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = batch.get(k) else { break };
        let out = expand(puzzle, h, &store, &rules, item, cap, prune_on_f, buf);
        shared.outs.lock().unwrap_or_else(|e| e.into_inner()).push((k, out));
    }
}

/// A* or PEA* (`cfg`: [`super::ASTAR`] or [`super::PEASTAR`]) as K-parallel best-first search on `threads`
/// threads, at most the usable CPUs ([`usable_threads`]) (module docs). `replicate` makes a thread's own
/// puzzle and heuristic, equal to `ctx`'s (the same successors, in the same order, and the same estimates);
/// `None`: it could not (its memory), and the search goes on without that thread.
///
/// The result has the serial search's fields and meaning (Python's `optimal_result`: `solved` with the
/// first goal taken, else the status and the largest f popped as the lower bound, the f-layers in
/// `stats.iterations`); the counts are the batch search's (module docs), `stats.threads` the threads run.
pub(crate) fn search<D, F>(ctx: &mut Ctx<D>, rules: &mut [&mut Rule<'_, D>], cfg: BestFirst, threads: usize,
                           replicate: &F) -> SearchResult<D::Move>
where
    D: Puzzle,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    F: Fn() -> Option<(D, Box<dyn Estimator<D>>)> + Sync,
{
    debug_assert!(cfg.layers && !cfg.goal_on_generate && ctx.pruners.is_empty(), "A* and PEA*, rules apart");
    let names: Vec<&'static str> = rules.iter().map(|r| r.name()).collect();
    let mut rule_cuts = vec![0u64; rules.len()];
    let threads = usable_threads(threads);
    let (k, small) = (knob("SEARCHKIT_PARALLEL_BATCH", BATCH as u64).max(1) as usize, knob("SEARCHKIT_PARALLEL_SMALL", SMALL));
    let start = ctx.puzzle.initial_state();
    let h0 = ctx.estimate(&start);
    if h0 == DEAD {
        return dead_start(ctx);
    }
    let kind = cfg.key;
    let limiter = ctx.checks.limiter;
    let heap_each = ctx.puzzle.state_heap_bytes(&start);
    let store = match Store::new(start, heap_each, limiter) {
        Ok(s) => s,
        Err(stop) => return SearchResult::new(stop, ctx.stats(0, 0, 1, 0)),
    };
    let mut queue = BucketQueue::new();
    if let Err(stop) = queue.push(kind.key(0, h0), 0, 0, 0) {
        return SearchResult::new(stop, ctx.stats(0, 0, 1, 0));
    }
    let shared = Shared {
        store: RwLock::new(store),
        rules: RwLock::new(rules.iter_mut().map(|r| &mut **r).collect()),
        batch: RwLock::new(Vec::new()),
        next: AtomicUsize::new(0),
        outs: Mutex::new(Vec::new()),
        gate: Mutex::new((0, false)),
        wake: Condvar::new(),
        running: AtomicUsize::new(0),
    };
    let (cap, prune_on_f, partial) = (ctx.cap(), cfg.prune_on_f, cfg.partial);
    let mut layers = Layers::new(ctx, u64::from(h0));
    // (expanded, generated, evaluated), the peak of stored + queued, the peak bytes and the pruners' bytes
    let mut n = (0u64, 0u64, 1u64);
    let (mut peak, mut peak_bytes, mut pruner_bytes, mut side_bytes) = (2u64, 0usize, 0usize, 0usize);
    // PEA*: state -> (g, key) of its pending next slice
    let mut again: HashMap<u32, (u32, u64)> = HashMap::new();
    let mut goal: Option<(u32, u32)> = None;
    let mut ran = 1usize;
    let caller = std::thread::current();
    let status = std::thread::scope(|s| {
        let _stop = StopOnDrop(&shared);
        let mut workers = 0usize;
        let mut started = threads <= 1;
        let mut checkpoint = ctx.checks.first_checkpoint();
        let mut buf = Vec::new();
        let mut batch: Vec<Item<D::State>> = Vec::with_capacity(k);
        guarded((|| loop {
            // step 1: take up to k entries of the least f
            {
                let store = shared.store.read().unwrap_or_else(|e| e.into_inner());
                let mut first: Option<u64> = None;
                while batch.len() < k {
                    let taken = n.0 + batch.len() as u64;
                    if !batch.is_empty() && limiter.max_nodes.is_some_and(|m| taken >= m) {
                        break; // the next entry is taken (and refused) after this batch, as the serial search would
                    }
                    match queue.peek_key() {
                        None => break,
                        Some(key) if first.is_some_and(|f| key != f) => break,
                        Some(_) => {}
                    }
                    let (key, g, id) = queue.pop().expect("an entry was peeked");
                    if key > layers.f {
                        layers.rise(ctx, n, key); // the popped f rose: a new f-layer
                    }
                    if store.g(id) < g {
                        if partial && again.get(&id).is_some_and(|a| a.0 == g) {
                            again.remove(&id);
                        }
                        continue;
                    }
                    if ctx.puzzle.is_goal(store.state(id)) {
                        goal = Some((id, g));
                        return Ok(Status::Solved);
                    }
                    let slice_again = partial && again.get(&id) == Some(&(g, key));
                    if slice_again {
                        again.remove(&id);
                    }
                    // (the driver-level rules are asked when the batch is expanded and merged)
                    let state = store.state(id);
                    if taken >= checkpoint {
                        checkpoint = ctx.checks.checkpoint(taken)?;
                        let rules = shared.rules.read().unwrap_or_else(|e| e.into_inner());
                        if rules.iter().any(|r| r.out_of_memory()) {
                            return Err(Status::MemoryLimit);
                        }
                        let bytes = store.bytes() + queue.bytes() + side_bytes;
                        peak_bytes = peak_bytes.max(bytes);
                        let extra: usize = rules.iter().map(|r| r.bytes()).sum();
                        pruner_bytes = pruner_bytes.max(extra);
                        if limiter.memory_budget.is_some_and(|b| bytes + extra > b) {
                            return Err(Status::MemoryLimit);
                        }
                    }
                    if batch.len() == batch.capacity() {
                        batch.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                    }
                    // (the batch's f: set by the first entry taken, not by one dropped or cut)
                    first = Some(key);
                    batch.push(Item { id, g, ceiling: if partial { key } else { INF }, rules: !slice_again,
                                      state: state.clone() });
                }
            }
            if batch.is_empty() {
                return Ok(Status::Exhausted);
            }
            // the threads, once the search is no longer small
            if !started && n.0 >= small {
                started = true;
                let (ready_tx, ready) = mpsc::channel();
                for _ in 1..threads {
                    let (shared, caller, ready_tx) = (&shared, &caller, ready_tx.clone());
                    let spawned = std::thread::Builder::new().stack_size(THREAD_STACK).spawn_scoped(s, move || {
                        let made = replicate();
                        // (the sender dropped at once: the calling thread reads the answers until every one is)
                        let _ = ready_tx.send(made.is_some());
                        drop(ready_tx);
                        let Some((puzzle, mut h)) = made else { return };
                        let (mut seen, mut buf) = (0u64, Vec::new());
                        loop {
                            {
                                let mut gate = shared.gate.lock().unwrap_or_else(|e| e.into_inner());
                                while gate.0 == seen && !gate.1 {
                                    gate = shared.wake.wait(gate).unwrap_or_else(|e| e.into_inner());
                                }
                                if gate.1 {
                                    return;
                                }
                                seen = gate.0;
                            }
                            let _leave = Leave { running: &shared.running, caller };
                            take_turns(shared, &puzzle, &mut *h, cap, prune_on_f, &mut buf);
                        }
                    });
                    if spawned.is_err() {
                        break; // no thread to be had (its stack under --memory-limit): go on with those started
                    }
                }
                drop(ready_tx);
                workers = ready.iter().filter(|&ok| ok).count();
                ran = workers + 1;
            }
            // step 2: expand the batch (the calling thread too), the rules frozen for their tests
            for r in shared.rules.write().unwrap_or_else(|e| e.into_inner()).iter_mut() {
                r.freeze();
            }
            let batch_bytes = batch.capacity() * std::mem::size_of::<Item<D::State>>();
            *shared.batch.write().unwrap_or_else(|e| e.into_inner()) = std::mem::take(&mut batch);
            shared.next.store(0, Ordering::Relaxed);
            if workers > 0 {
                shared.running.store(workers, Ordering::Release);
                shared.gate.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
                shared.wake.notify_all();
            }
            take_turns(&shared, ctx.puzzle, &mut *ctx.h, cap, prune_on_f, &mut buf);
            while shared.running.load(Ordering::Acquire) > 0 {
                std::thread::park_timeout(POLL_INTERVAL);
            }
            batch = std::mem::take(&mut *shared.batch.write().unwrap_or_else(|e| e.into_inner()));
            let mut outs = std::mem::take(&mut *shared.outs.lock().unwrap_or_else(|e| e.into_inner()));
            assert_eq!(outs.len(), batch.len(), "a search thread stopped (panicked) in its expansion");
            outs.sort_unstable_by_key(|o| o.0);
            let child_bytes: usize = outs.iter()
                .map(|(_, o)| o.children.capacity() * std::mem::size_of::<Child<D::Move, D::State>>()).sum();
            peak_bytes = peak_bytes.max({
                let store = shared.store.read().unwrap_or_else(|e| e.into_inner());
                store.bytes() + queue.bytes() + side_bytes + batch_bytes + child_bytes
            });
            // step 3: merge, in the order taken
            let mut store = shared.store.write().unwrap_or_else(|e| e.into_inner());
            let mut rules = shared.rules.write().unwrap_or_else(|e| e.into_inner());
            for (item, (_, out)) in batch.drain(..).zip(outs) {
                if item.rules {
                    // `test || cut_since_frozen` is `cut`, asked in the pop order; the first rule that cuts counts
                    let cut = (0..rules.len()).find(|&i| {
                        out.cut == Some(i) || rules[i].cut_since_frozen(ctx.puzzle, &item.state, item.g, None)
                    });
                    if let Some(i) = cut {
                        rule_cuts[i] += 1;
                        continue;
                    }
                }
                n.0 += 1;
                n.1 += out.generated;
                n.2 += out.evaluated;
                for (t, c) in ctx.domain_cuts.iter_mut().zip(&out.cuts) {
                    *t += c;
                }
                let mut deferred = INF;
                for c in out.children {
                    let old = store.find(c.hash, &c.state);
                    if old.is_some_and(|o| store.g(o) <= c.g) {
                        continue;
                    }
                    let f2 = u64::from(c.g) + u64::from(c.h);
                    if f2 > item.ceiling {
                        deferred = deferred.min(f2);
                        continue;
                    }
                    let cid = match old {
                        Some(o) => {
                            store.update(o, item.id, c.mv, c.g)?;
                            o
                        }
                        None => store.insert(c.hash, c.state, item.id, MaybeUninit::new(c.mv), c.g, limiter)?,
                    };
                    queue.push(kind.key(c.g, c.h), c.g, c.tie, cid)?;
                }
                if deferred != INF {
                    // PEA*: some children were left out; come back for them at their least f
                    if again.len() == again.capacity() {
                        again.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                        side_bytes = again.capacity() * (std::mem::size_of::<(u32, (u32, u64))>() + 1);
                    }
                    again.insert(item.id, (item.g, deferred));
                    let tie = ctx.puzzle.tie_break(store.state(item.id));
                    queue.push_again(deferred, item.g, tie, item.id)?;
                }
                peak = peak.max((store.len() + queue.len()) as u64);
            }
        })())
    });
    let store = shared.store.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut stats = ctx.stats(n.0, n.1, n.2, peak);
    stats.peak_bytes = peak_bytes.max(store.bytes() + queue.bytes() + side_bytes) as u64;
    let rules = shared.rules.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.pruner_bytes = pruner_bytes.max(rules.iter().map(|r| r.bytes()).sum()) as u64;
    // the rules' cuts first, then the puzzle's fused rules (as `Ctx::rule_cuts`)
    let mut cuts: Vec<(String, u64)> = names.iter().map(|n| n.to_string()).zip(rule_cuts).collect();
    for (name, k) in std::mem::take(&mut stats.rule_cuts) {
        match cuts.iter_mut().find(|(c, _)| *c == name) {
            Some(e) => e.1 = k,
            None => cuts.push((name, k)),
        }
    }
    stats.rule_cuts = cuts;
    stats.states_stored = store.len() as u64;
    stats.threads = ran as u32;
    layers.close_layer(ctx, n);
    optimal_result(ctx, status, stats, layers, &store, goal)
}
