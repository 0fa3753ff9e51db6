//! The layered builder: 0/1 breadth-first search backwards from an abstraction's goals, the twin of
//! `searchkit/machinery/pdb/build.py`, over states grouped by the table's entry.
//!
//! **The abstraction** ([`Abstraction`]).  An abstract state is a pair *(entry, sub-state)*: the entry is the
//! table index the state folds to (`0 .. entries`), the sub-state one of `f <= 32` states of that entry.  A
//! move between two states of one entry costs 0, a move between entries costs 1 (the table is the least
//! number of cost-1 moves from any state of the entry to a goal state).  The abstraction answers three
//! questions, and the builder does the rest: which states are goals; given an entry and some of its states
//! (the *seeds*), which states of the entry the cost-0 moves reach from them (the *region*); and which states
//! are one cost-1 move away from that region (its *predecessors*: with reversible moves, its successors).
//! Optionally: an entry whose value equals this one's by a symmetry of the abstract graph that maps the goals
//! onto themselves (its *twin*), so that the abstraction can keep to one state of each symmetric pair.
//!
//! **Layers.**  Layer `d` is the set of states first reached at distance `d`.  A layer's states are closed
//! under cost-0 moves (the region of its seeds); the first layer that reaches an entry (in any region) is its
//! value.  This is Dijkstra's algorithm for costs 0 and 1 (the 0-1 BFS argument of `build.py`: a state is
//! labelled only from a closed layer of smaller or equal distance), so every entry gets its exact distance,
//! and the order in which a layer's predecessors are applied changes no entry.
//!
//! **Memory.**  Per entry one word of two bit planes over its `f` sub-states, at bits 0 and `f` (so 16 bits when
//! `f <= 8`, 32 when `f <= 16`, else 64: [`Word`]).  A sub-state is *unseen* (0, 0), *seen* (1, 1: in a region reached
//! at this layer or before), or a seed of the layer of one parity, (1, 0) or (0, 1); the two seed states swap roles
//! with the layer's parity (current, next), so nothing is copied between layers. Beside the words, the entries (one
//! byte each) and, per parity, a bitmap of the entries that may hold seeds of that layer.  A layer is the set bits of
//! its bitmap, scanned in rank order: each entry's seeds give (the abstraction) the region expanded, all its sub-states
//! set seen (the seeds among them, so no layer mask is cleared), and its predecessors are queued (an unseen sub-state
//! becomes a seed of the next layer) unless they are seen, in this layer, or queued already; a seed later covered by a
//! region of this layer is seen, so it is dropped.  Each (entry, region) is therefore expanded once, at its exact
//! distance.  Each predecessor's word is prefetched when it is listed and the predecessor applied once the next entry
//! is expanded (the words are far larger than the caches; this keeps many of those loads in flight at once).  So is a
//! twin's entry: its byte is prefetched and set (if still unreached) after the next entry is expanded, or at the end of
//! the layer if none is, so with the layer's `d`, which is the twin's value as it is the entry's
//! ([`twin`](Abstraction::twin)); an entry set in between (the twin itself, expanded next) has that same value, so
//! setting it later changes no entry.  (Not waiting on that byte saved 4% of the 8-tile table's time on one thread, 7%
//! of its wall time on two.)  On threads, a twin in another thread's entries is handed to that thread instead, which
//! sets it before the layer ends ([`build_threads`]).  Before the first layer the entries, the bitmaps and the pages of
//! words the abstraction may write ([`writes`](Abstraction::writes)) are backed with memory, in a few calls, split
//! among the build's threads (`back`: a page faulted in on threads cost an interrupt on every CPU); the words are
//! allocated zeroed, so the pages an abstraction says it never writes (e.g. one of each symmetric pair) are never
//! allocated if it is right (by default it says it may write them all: an abstraction that reaches few of its entries
//! should say which). The entries ask for 2 MB pages ([`huge_pages`]): they become the search's table, read at random
//! (on the words, 2 MB pages saved no user time and cost system time: docs/pdb.md).
//!
//! **Limiter.**  The builder takes the search's [`Limiter`]: its cancel flag, its `poll` hook and its deadline
//! are checked before anything is allocated, every [`CHECK_EVERY`] expanded entries (well under a millisecond
//! of work) and after each layer; the three big buffers are charged to its memory budget and allocated
//! fallibly.  So a build ends with `Err(Status::Cancelled)`, `Err(Status::TimeLimit)` or
//! `Err(Status::MemoryLimit)` instead of running on or aborting; its memory is then freed.
//!
//! **Speed.**  [`build_in`] is `#[inline(always)]` and generic: an abstraction whose methods are
//! `#[inline(always)]` is compiled into one loop with the builder, and a caller may compile that loop for the
//! CPU's instructions (`#[target_feature]`) and override [`Abstraction::apply`] to match.  The loop is written
//! as functions, not closures: a closure is a function of its own, compiled for the default target, and
//! when it is not inlined the caller's instructions are lost (the loop once was a closure: the sliding tiles'
//! `pdep` became calls and their popcounts loops, and the 8-tile table took 54.5 s in place of 44.5).  The
//! parallel builder's threads run their part of each layer ([`Share`]) through
//! [`Abstraction::run_share`], for the same reason.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use crate::limits::{usable_threads, Limiter, POLL_INTERVAL, THREAD_STACK};
use crate::result::Status;

use super::UNREACHED;

/// Expanded entries between two checks of the [`Limiter`] (at tens of nanoseconds an entry, well under a
/// millisecond).
pub const CHECK_EVERY: u64 = 4096;

/// The most predecessors one region may have ([`Abstraction::predecessors`]).
pub const MAX_PREDECESSORS: usize = 64;

mod sealed {
    /// The integer types the builder allocates zeroed.
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// One entry's word in the builder: two bit planes over the entry's `f` sub-states, at bits 0 and `f`
/// (module docs, "memory"): `u16` when `2 f <= 16`, `u32` when `2 f <= 32`, else `u64`.  Only `u16`, `u32`
/// and `u64` implement it (the builder allocates the words zeroed).
pub trait Word: Copy + sealed::Sealed {
    /// The bits as a `u64`.
    fn get(self) -> u64;
    /// The low bits of `x`.
    fn put(x: u64) -> Self;
}

impl Word for u32 {
    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn put(x: u64) -> Self {
        x as u32
    }
}

impl Word for u64 {
    #[inline(always)]
    fn get(self) -> u64 {
        self
    }
    #[inline(always)]
    fn put(x: u64) -> Self {
        x
    }
}

impl Word for u16 {
    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn put(x: u64) -> Self {
        x as u16
    }
}

/// The bits of a sub-state in a listed predecessor, `(sub-state << (64 - SUB_BITS)) | entry`: five, for up to 32
/// sub-states (the 24-puzzle's 6-tile groups have 19 free cells; four bits served the 15-puzzle's at most 16).
pub const SUB_BITS: u32 = 5;
/// The bits of the entry in a listed predecessor ([`kid`]): the rest of its 64.
const ENTRY_BITS: u32 = 64 - SUB_BITS;

/// A listed predecessor, `(sub-state << ENTRY_BITS) | entry` (`sub` below 32; `entry` below 2^59: no address
/// space holds a table that large): the entry in the low bits, so that taking it apart is a mask and a shift.
/// The one place the packing is written (with [`unkid`]); with the entry above the sub-state the mirrored
/// 6-tile table took 0.5% more instructions (callgrind).
#[inline(always)]
fn kid(entry: usize, sub: u32) -> u64 {
    entry as u64 | u64::from(sub) << ENTRY_BITS
}

/// A listed predecessor's entry and sub-state ([`kid`]).
#[inline(always)]
fn unkid(c: u64) -> (usize, u32) {
    ((c & ((1 << ENTRY_BITS) - 1)) as usize, (c >> ENTRY_BITS) as u32)
}

/// Whether entry `x` is in `own`, `(lo, n)`: the entries `lo .. lo + n` (in the parallel builder, a thread's own
/// entries: its slots are one run, `cut`).  One subtraction and a compare, not a look-up in the owners table
/// (1-2% of a build on 2 threads); `usize::MAX` (no entry) is in no run, since a run ends far below it.
#[inline(always)]
fn owns(own: (usize, usize), x: usize) -> bool {
    x.wrapping_sub(own.0) < own.1
}

/// The predecessors of one region, as the abstraction lists them (each `(sub-state << 59) | entry`):
/// in the parallel builder, those of the calling thread's own entries in `buf` and the others' in `away`.
pub struct Kids {
    buf: [u64; MAX_PREDECESSORS],
    n: usize,
    away: [u64; MAX_PREDECESSORS],
    away_n: usize,
}

impl Kids {
    fn new() -> Self {
        Kids { buf: [0; MAX_PREDECESSORS], n: 0, away: [0; MAX_PREDECESSORS], away_n: 0 }
    }
}

/// Where [`Abstraction::predecessors`] lists a region's predecessors: [`Children::push`] each.
///
/// It holds the words only to prefetch them (a pointer and a length: the parallel builder's threads write
/// them meanwhile, each thread its own entries).
pub struct Children<'a, W> {
    word: *const W,
    len: usize,
    kids: &'a mut Kids,
    /// In the parallel builder: the calling thread's entries, `lo .. lo + n` (its slots are one run: `cut`);
    /// only its own kids' words are prefetched (another thread's would be fetched into the wrong core's cache).
    mine: Option<(usize, usize)>,
}

impl<'a, W: Word> Children<'a, W> {
    fn new(word: &'a [W], kids: &'a mut Kids) -> Self {
        Children { word: word.as_ptr(), len: word.len(), kids, mine: None }
    }

    /// Over the words of the parallel builder, which its threads write meanwhile (each its own entries).
    fn new_raw(word: *const W, len: usize, kids: &'a mut Kids, mine: (usize, usize)) -> Self {
        Children { word, len, kids, mine: Some(mine) }
    }

    /// The state `(entry, sub)` is one cost-1 move from the region (`entry < entries`, `sub < f`; repeats
    /// are allowed).  Its word is prefetched now and the state queued for the next layer after the next
    /// entry is expanded; in the parallel builder, a state of another thread's entries is not prefetched but
    /// handed to that thread, which queues it at its next visit to its box.
    ///
    /// # Panics
    ///
    /// `entry` out of range; more than [`MAX_PREDECESSORS`] for one region (the builder checks after the
    /// call).
    #[inline(always)]
    pub fn push(&mut self, entry: usize, sub: u32) {
        debug_assert!(sub < 32);
        assert!(entry < self.len, "a predecessor's entry is below entries()"); // `apply_kids` relies on it
        let kid = kid(entry, sub);
        if let Some(own) = self.mine {
            if !owns(own, entry) {
                // another thread's: not prefetched (it would be fetched into the wrong core's cache)
                self.kids.away[self.kids.away_n & (MAX_PREDECESSORS - 1)] = kid;
                self.kids.away_n += 1;
                return;
            }
        }
        prefetch(self.word.wrapping_add(entry));
        self.kids.buf[self.kids.n & (MAX_PREDECESSORS - 1)] = kid;
        self.kids.n += 1;
    }
}

/// A pattern database's abstract state space, grouped by entry (module docs, "the abstraction").
///
/// The builder calls, for each entry it expands in a layer, [`close`](Abstraction::close), then
/// [`twin`](Abstraction::twin) if the entry had no value yet, then
/// [`predecessors`](Abstraction::predecessors); the abstraction may keep what it worked out in `close` (the
/// entry decoded, the region) for the two calls after it.  Entries are expanded in ascending order within a
/// layer (on threads: each thread's clone of the abstraction sees its own entries in ascending order).
pub trait Abstraction {
    /// The number of entries (the table's length).
    fn entries(&self) -> usize;

    /// `f`, the number of sub-states of each entry (1 to 32).
    fn substates(&self) -> u32;

    /// The goal states, `(entry, sub-state)`: their entries get 0.
    fn goals(&self) -> Vec<(usize, u32)>;

    /// The states of entry `entry` reached from its states `seeds` (bit `j`: sub-state `j`) by cost-0 moves,
    /// the seeds included, as the same kind of mask (the *region*).
    fn close(&mut self, entry: usize, seeds: u64) -> u64;

    /// An entry with the same value as the one just closed (by a symmetry of the abstract graph mapping the
    /// goal states onto themselves), below [`entries`](Abstraction::entries); called only when the entry gets
    /// its value, and set to that value (unless it has one already) before the layer ends: after the next
    /// entry is expanded, or on threads by its slot's owner (module docs, "memory").  `None` (the default): no
    /// such entry.  The symmetry is an involution (the twin's twin is the entry), as a mirror is: on threads an
    /// entry set as a twin may still be expanded in the same layer before its byte is set, and then its twin is
    /// the entry that set it, so the table is the same at every thread count.
    ///
    /// # Panics
    ///
    /// The builder panics on an entry not below `entries()`.
    #[inline(always)]
    fn twin(&mut self, entry: usize) -> Option<usize> {
        let _ = entry;
        None
    }

    /// Whether the builder may write the word of an entry in `lo .. hi` (`lo < hi <= entries()`): a hint for
    /// backing the words with memory before the first layer (module docs, "memory"), so a wrong answer costs
    /// time, never an entry.  The default: true.  An abstraction that keeps to one of each symmetric pair of
    /// entries ([`twin`](Abstraction::twin)) writes only about half the words, and saying which spares backing
    /// the rest.
    #[inline(always)]
    fn writes(&self, lo: usize, hi: usize) -> bool {
        let _ = (lo, hi);
        true
    }

    /// The states one cost-1 move away from the region of the last [`close`](Abstraction::close), each by
    /// [`Children::push`]: at most [`MAX_PREDECESSORS`].  With a symmetry ([`twin`](Abstraction::twin)), a
    /// state may be pushed as its image instead.
    fn predecessors<W: Word>(&mut self, out: &mut Children<'_, W>);

    /// Queue `kids` for the next layer ([`apply_kids`]).  The default calls it out of line; an abstraction
    /// whose builder is compiled for other CPU instructions may call it from a function compiled for them.
    ///
    /// # Safety
    ///
    /// As [`apply_kids`].
    #[inline(always)]
    unsafe fn apply<W: Word>(word: &mut [W], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise
        unsafe { apply_kids_outlined(word, nextbits, f, next, kids) }
    }

    /// Run `share`, a thread's part of a layer of [`build_threads`], and return what [`Share::run`] returns
    /// (only it makes a [`Ran`], so an override cannot leave the share unrun: the other threads would wait
    /// for it).  The default calls it; an abstraction whose builder is compiled for other CPU instructions
    /// calls it from a function compiled for them (as for [`apply`](Abstraction::apply)).
    #[inline(always)]
    fn run_share<W: Word>(share: Share<'_, W, Self>) -> Ran
    where
        Self: Sized,
    {
        share.run()
    }
}

#[inline(always)]
fn prefetch<T>(x: *const T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    // SAFETY: a prefetch is only a hint: it reads nothing, and never faults
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// For each of `kids` (each `(sub-state << 59) | entry`, [`SUB_BITS`]), queue sub-state `j` of entry `r` for
/// the next layer (its bit in the plane at `next`, and `r` in the bitmap `nextbits`) unless it is seen, in this
/// layer, or queued already.  Returns whether any was queued.
///
/// # Safety
///
/// Every kid's entry is below `word.len()`, and `nextbits` has a bit for each ([`Children::push`] indexes
/// `word` with the entry, bounds-checked, to prefetch its word).
#[inline(always)]
pub unsafe fn apply_kids<W: Word>(word: &mut [W], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
    // without branches: whether the child is new is a coin toss the branch predictor would lose (a branch here
    // cost 6% on a 57 M-entry table)
    let seen = 1u64 | 1 << f;
    let mut any = 0;
    for &c in kids {
        let (r, j) = unkid(c);
        debug_assert!(r < word.len() && r >> 6 < nextbits.len());
        // SAFETY: the caller's promise (`r` is in range)
        let at = unsafe { word.get_unchecked_mut(r) };
        let e = at.get();
        let new = u64::from(e & (seen << j) == 0);
        *at = W::put(e | new << (j + next));
        // SAFETY: as above
        unsafe { *nextbits.get_unchecked_mut(r >> 6) |= new << (r & 63) };
        any |= new;
    }
    any != 0
}

/// Set `value[twin]` to `d` if it is unreached (`twin` is `usize::MAX` for none): the twin deferred by the
/// one-thread builder (module docs, "memory").  Returns how many entries it set (0 or 1).
#[inline(always)]
fn set_twin(value: &mut [u8], twin: usize, d: u8) -> u64 {
    match value.get_mut(twin) {
        Some(v) if *v == UNREACHED => {
            *v = d;
            1
        }
        _ => 0,
    }
}

/// [`set_twin`] on the parallel builder's bytes, by the thread that owns `twin`'s slot (the only one that
/// writes its byte: a plain load and store, not a compare-and-swap, which waited for the thread's pending
/// stores and took 4% of a build on 2 threads).
#[inline(always)]
fn set_twin_at(value_at: &[AtomicU8], twin: usize, d: u8) -> u64 {
    match value_at.get(twin) {
        Some(v) if v.load(Relaxed) == UNREACHED => {
            v.store(d, Relaxed);
            1
        }
        _ => 0,
    }
}

/// The twin the parallel builder deferred (`usize::MAX`: none): set by [`set_twin_at`] if it lies in the calling
/// thread's entries (`own`: `lo .. lo + n`), else handed to its slot's owner in `outbox` (module docs of
/// [`build_threads`]).  Returns how many entries it set (0 or 1).
#[inline(always)]
fn hand_twin(value_at: &[AtomicU8], twin: usize, own: (usize, usize), owners: &[u8], outbox: &mut [Mail], d: u8)
             -> u64 {
    if owns(own, twin) {
        set_twin_at(value_at, twin, d)
    } else {
        if twin != usize::MAX {
            outbox[usize::from(owners[twin >> SLOT_BITS])].twins.push(twin);
        }
        0
    }
}

/// [`apply_kids`] out of line: in the builder's loop its pointers would be spilled to the stack and read again
/// for every child.
///
/// # Safety
///
/// As [`apply_kids`].
#[inline(never)]
pub unsafe fn apply_kids_outlined<W: Word>(word: &mut [W], nextbits: &mut [u64], f: u32, next: u32,
                                           kids: &[u64]) -> bool {
    // SAFETY: the caller's promise
    unsafe { apply_kids(word, nextbits, f, next, kids) }
}

/// Back the whole of `v`'s allocation with memory now, in one call (Linux's `madvise(MADV_POPULATE_WRITE)`,
/// kernel 5.14 on), instead of one page fault per 4 kB page as it is first written: for a table read from a
/// file (the builder backs its buffers the same way, `back`: for a 519 M-entry table that took its system
/// time from 2.0 s to 1.4 s here, docs/pdb.md).  Only advice: without it (another system, an older kernel)
/// the pages are faulted in as they are written.
pub fn prefault<T>(v: &mut Vec<T>) {
    let start = v.as_mut_ptr() as usize;
    // SAFETY: the range is `v`'s allocation, which we own
    unsafe { populate(start, start + v.capacity() * std::mem::size_of::<T>()) };
}

/// The byte ranges of the pages of `word` that `abstraction` may write ([`Abstraction::writes`], asked page
/// by page), consecutive pages merged: under a symmetric abstraction, about half the pages, in runs of about
/// 32 (the 8-tile table writes 131,460 of 253,379 pages; backing those said to be written first left the
/// build's peak memory as it was, 1.16 GB).
fn written_pages<W, A: Abstraction>(word: &mut [W], abstraction: &A) -> Vec<(usize, usize)> {
    const PAGE: usize = 4096;
    let size = std::mem::size_of::<W>().max(1);
    let start = word.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(word);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut page = start & !(PAGE - 1);
    while page < end {
        let (a, b) = (page.max(start), (page + PAGE).min(end));
        if abstraction.writes((a - start) / size, (b - start).div_ceil(size)) {
            match runs.last_mut() {
                Some(last) if last.1 == a => last.1 = b,
                _ => runs.push((a, b)),
            }
        }
        page += PAGE;
    }
    runs
}

/// Back the byte ranges `ranges` (of allocations the caller owns) with memory now ([`populate`]), split among
/// `threads` threads (each part's pages are zeroed on its own CPU), or on the calling thread: each thread
/// gets a piece of every big range and about as many bytes of the small ones (the entries, on 2 MB pages, cost
/// about four times as much a byte as the words in a cold run: cut by bytes alone, one thread had the entries
/// and the other the words, and the first took 1.2 s against 0.3; a small range, below `threads` 2 MB pages,
/// goes whole to one thread).  For the builder's buffers: a page backed in one call costs less than one
/// faulted in as it is first written; on threads, a page of words first read (the kernel maps its shared
/// zero page) and then written is faulted twice, and the second fault flushes the page from the TLB of every
/// CPU running the build, by an inter-processor interrupt (`perf`: 2-6% of a build on 2 threads).  A thread
/// that cannot be started leaves its part to be faulted in as it is written.
///
/// The threads start backing only once all have started: a thread's start maps memory (the C library's heap
/// for the thread, at its first allocation), which waits for the process's memory map while another thread's
/// call holds it, so the second thread used to wait for the first one's part (1.0-1.2 s for the 8-tile
/// table's entries, `strace`), and the parts were backed one after the other.
///
/// # Safety
///
/// Each range lies in one allocation of the caller's, and the ranges are disjoint.
unsafe fn back(ranges: &[(usize, usize)], threads: usize) {
    const HUGE: usize = 2 << 20;
    if threads <= 1 {
        // SAFETY: the caller's promise
        ranges.iter().for_each(|&(a, b)| unsafe { populate(a, b) });
        return;
    }
    // a part a thread: a piece of each big range (cut at 2 MB pages), and whole small ranges, each to the part
    // with the fewest bytes of them
    let mut parts: Vec<Vec<(usize, usize)>> = vec![Vec::new(); threads];
    let mut small = vec![0usize; threads];
    for &(a, b) in ranges {
        if b - a >= threads * HUGE {
            let piece = (b - a) / threads;
            let cut = |t: usize| match t {
                0 => a,
                t if t >= threads => b,
                t => (a + t * piece).next_multiple_of(HUGE).min(b),
            };
            for (t, part) in parts.iter_mut().enumerate() {
                if cut(t) < cut(t + 1) {
                    part.push((cut(t), cut(t + 1)));
                }
            }
        } else {
            let t = (0..threads).min_by_key(|&t| small[t]).unwrap_or(0);
            parts[t].push((a, b));
            small[t] += b - a;
        }
    }
    let gate: Gate = (Mutex::new((0, usize::MAX)), Condvar::new());
    std::thread::scope(|s| {
        let gate = &gate;
        // the count of threads spawned is set when the loop ends, or unwinds (then the scope waits for the threads
        // spawned, which must not wait for the rest)
        let mut spawned = Spawned(gate, 0);
        for p in parts.iter().filter(|p| !p.is_empty()) {
            let part = move || {
                enter(gate);
                // SAFETY: the caller's promise; the parts are disjoint
                p.iter().for_each(|&(a, b)| unsafe { populate(a, b) });
            };
            let builder = std::thread::Builder::new().stack_size(THREAD_STACK);
            spawned.1 += usize::from(builder.spawn_scoped(s, part).is_ok());
        }
    });
}

/// [`back`]'s gate: (threads started, threads spawned: `usize::MAX` until all are), and the wake-up of those
/// waiting.
type Gate = (Mutex<(usize, usize)>, Condvar);

/// A thread of [`back`] has started: it waits until every thread spawned has ([`Spawned`] says how many).
fn enter(gate: &Gate) {
    let mut g = gate.0.lock().unwrap_or_else(|e| e.into_inner());
    g.0 += 1;
    if g.0 == g.1 {
        gate.1.notify_all();
    }
    while g.0 < g.1 {
        g = gate.1.wait(g).unwrap_or_else(|e| e.into_inner());
    }
}

/// The threads spawned so far for [`back`]'s gate, which it opens when dropped: when the spawning loop ends,
/// or if it unwinds, so that no started thread waits for threads that will never start (and the scope, which
/// joins them before the panic goes on, for it).
struct Spawned<'a>(&'a Gate, usize);

impl Drop for Spawned<'_> {
    fn drop(&mut self) {
        self.0 .0.lock().unwrap_or_else(|e| e.into_inner()).1 = self.1;
        self.0 .1.notify_all();
    }
}

/// `madvise(MADV_POPULATE_WRITE)` (Linux 5.14 on) over the whole pages of the bytes `start .. end`: they are
/// backed with memory now, in one call.  Only advice: its result (an error on an older kernel) is ignored,
/// and elsewhere it does nothing.
///
/// # Safety
///
/// The bytes are one allocation of the caller's (the advice writes no byte of it: the pages are made present
/// as if written).
unsafe fn populate(start: usize, end: usize) {
    #[cfg(target_os = "linux")]
    {
        let (lo, hi) = ((start + 4095) & !4095, end & !4095);
        if hi > lo {
            // SAFETY: whole pages inside the caller's allocation; the advice changes no byte of it
            unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_POPULATE_WRITE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, end);
}

/// Advise the kernel to back `v`'s allocation with 2 MB pages where it can (Linux's transparent huge pages in
/// `madvise` mode, this host's setting), before its pages are first touched.  The builder's words and a
/// search's tables are read and written at random places: with 4 kB pages nearly every access to a table of
/// hundreds of MB misses the TLB and walks the page tables (whose own entries, 2 MB for 1 GB of words, miss
/// the caches too); a 2 MB page covers 512 times as much.  Call it before [`prefault`] (or the builder's
/// `back`), which then backs the range with huge pages.  Only advice: without it (another system, huge pages
/// off or none free) the buffer has ordinary pages, with the same bytes.
pub fn huge_pages<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        let (lo, hi) = ((start + HUGE - 1) & !(HUGE - 1), (start + bytes) & !(HUGE - 1));
        if hi > lo {
            // SAFETY: whole pages inside `v`'s allocation, which we own; the advice changes no byte of it, and
            // its result (an error where huge pages are off) is ignored.
            unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// `n` zeros, allocated fallibly and zeroed by the allocator (fresh pages are not touched until written).
fn zeroed<T: Copy + sealed::Sealed>(n: usize) -> Result<Vec<T>, Status> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| Status::MemoryLimit)?;
    // SAFETY: the layout's size is not zero (`n > 0`, and every `Sealed` type has a size)
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if ptr.is_null() {
        return Err(Status::MemoryLimit);
    }
    // SAFETY: `ptr` was allocated by the global allocator with `T`'s layout for `n` elements, and all-zero
    // bytes are a valid `T` (only the integer types u16, u32 and u64 are `Sealed`)
    Ok(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// The checks of a [`Limiter`] the builder makes (cancel, `poll`, deadline; not the node limit, which counts
/// a search's expansions), public for a game's own builder (the sliding tiles' `sets` builder).
pub struct Checks<'a> {
    limiter: &'a Limiter,
    polled: Instant,
}

impl<'a> Checks<'a> {
    /// The checks of `limiter`, its poll hook first due [`POLL_INTERVAL`] from now.
    pub fn new(limiter: &'a Limiter) -> Self {
        Checks { limiter, polled: Instant::now() }
    }

    /// Call `poll` if it is due, then stop on the cancel flag or the deadline.
    ///
    /// # Errors
    ///
    /// [`Status::Cancelled`] or [`Status::TimeLimit`].
    pub fn check(&mut self) -> Result<(), Status> {
        let c = self.limiter;
        if c.cancel.is_none() && c.deadline.is_none() && c.poll.is_none() {
            return Ok(());
        }
        let mut now = Instant::now();
        if let Some(poll) = &c.poll {
            if now - self.polled >= POLL_INTERVAL {
                (poll.0)();
                now = Instant::now();
                self.polled = now;
            }
        }
        if c.cancel.as_ref().is_some_and(|x| x.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Status::Cancelled);
        }
        if c.deadline.is_some_and(|d| now > d) {
            return Err(Status::TimeLimit);
        }
        Ok(())
    }
}

/// The bytes of [`buffers`] for `entries` entries in words `W`, charged to the memory budget before they are
/// allocated (the entries stay charged while the caller holds the table; the rest is released at the end).
fn held<W: Word>(entries: usize) -> usize {
    entries.saturating_add(entries.saturating_mul(std::mem::size_of::<W>())).saturating_add(entries.div_ceil(64) * 16)
}

/// `f` sub-states, two bits each, fit the builder's words `W`.
fn assert_fits<W: Word>(f: u32) {
    assert!((1..=32).contains(&f) && 2 * f as usize <= 8 * std::mem::size_of::<W>(),
            "an abstraction has 1 to 32 sub-states per entry, two bits each in its word");
}

/// The builder's three big buffers for `abstraction` (module docs, "memory"), allocated fallibly: the entries
/// (all unreached), per layer parity a bitmap of the entries that may hold seeds (the goals' in layer 0's),
/// and per entry its word of two bit planes over the `f` sub-states (the goals seeds of layer 0).  All their
/// pages but the words' the abstraction never writes ([`Abstraction::writes`]) are backed first, on `threads`
/// threads ([`back`]).
#[allow(clippy::type_complexity)]
fn buffers<W: Word, A: Abstraction>(abstraction: &A, f: u32, threads: usize)
                                    -> Result<(Vec<u8>, [Vec<u64>; 2], Vec<W>), Status> {
    let entries = abstraction.entries();
    let bits_len = entries.div_ceil(64);
    let mut value: Vec<u8> = Vec::new();
    value.try_reserve_exact(entries).map_err(|_| Status::MemoryLimit)?;
    huge_pages(&mut value);
    let mut bits: [Vec<u64>; 2] = [zeroed(bits_len)?, zeroed(bits_len)?];
    let mut word: Vec<W> = zeroed(entries)?;
    let whole = |start: usize, bytes: usize| (start, start + bytes);
    let mut ranges = vec![whole(value.as_mut_ptr() as usize, value.capacity())];
    for b in &mut bits {
        ranges.push(whole(b.as_mut_ptr() as usize, b.len() * 8));
    }
    ranges.extend(written_pages(&mut word, abstraction));
    // SAFETY: the whole of `value`'s and the bitmaps' allocations, and pages of the words', all ours, disjoint
    unsafe { back(&ranges, threads) };
    value.resize(entries, UNREACHED);
    for (r, j) in abstraction.goals() {
        assert!(j < f, "a goal's sub-state is below substates()");
        word[r] = W::put(word[r].get() | 1u64 << (j + f));
        bits[0][r >> 6] |= 1u64 << (r & 63);
    }
    Ok((value, bits, word))
}

/// The table of `abstraction`: `entries()` values, each the least number of cost-1 moves from a state of the
/// entry to a goal state, 255 where none reaches one (module docs), in the smaller [`Word`] that holds two
/// bits per sub-state.
///
/// `progress(reached, entries)` is called after each layer.
///
/// # Errors
///
/// [`Status::Cancelled`], [`Status::TimeLimit`] or [`Status::MemoryLimit`] from `limiter` (module docs,
/// "limiter"); nothing is kept.
///
/// # Panics
///
/// `substates()` outside 1 to 32, a goal or predecessor outside the entries, more than [`MAX_PREDECESSORS`]
/// predecessors of one region, or a distance above 254.
pub fn build<A: Abstraction>(abstraction: &mut A, limiter: &Limiter, progress: impl FnMut(u64, u64))
                             -> Result<Vec<u8>, Status> {
    match 2 * abstraction.substates() {
        0..=16 => build_in::<u16, A>(abstraction, limiter, progress),
        17..=32 => build_in::<u32, A>(abstraction, limiter, progress),
        _ => build_in::<u64, A>(abstraction, limiter, progress),
    }
}

/// [`build`] with the word type `W` chosen by the caller (it must hold `2 * substates()` bits).
#[inline(always)]
pub fn build_in<W: Word, A: Abstraction>(abstraction: &mut A, limiter: &Limiter, mut progress: impl FnMut(u64, u64))
                                         -> Result<Vec<u8>, Status> {
    assert_fits::<W>(abstraction.substates());
    let mut checks = Checks { limiter, polled: Instant::now() };
    checks.check()?;
    let entries = abstraction.entries();
    // the three big buffers, charged to the budget and allocated fallibly (a refusal is memory_limit)
    let held = held::<W>(entries);
    let charged = limiter.charge(held);
    // a `match`, not a closure (see `layers`)
    let result = match charged {
        Ok(()) => layers::<W, A>(abstraction, &mut checks, &mut progress),
        Err(e) => Err(e),
    };
    // the words and bitmaps are freed; the entries stay charged while the caller holds them
    limiter.release(if result.is_ok() { held - entries } else { held });
    result
}

/// [`build_in`]'s layers, once its memory is charged: a function of its own, not a closure, so that it is
/// compiled into [`build_in`]'s caller with that caller's CPU instructions (`#[target_feature]`: a closure is a
/// function of its own, compiled for the default target, and it was not inlined: the abstraction's BMI2 masks
/// and popcounts were then calls and loops).
#[inline(always)]
fn layers<W: Word, A: Abstraction>(abstraction: &mut A, checks: &mut Checks<'_>, progress: &mut impl FnMut(u64, u64))
                                   -> Result<Vec<u8>, Status> {
    let f = abstraction.substates();
    let fmask = (1u64 << f) - 1;
    let entries = abstraction.entries();
    let (mut value, mut bits, mut word) = buffers::<W, A>(abstraction, f, 1)?;
    let mut d: u8 = 0;
    let mut reached = 0u64;
    // a region's predecessors, applied after the next entry is expanded (prefetched until then)
    let mut kids = Kids::new();
    // the twin of the entry last given its value (none: `usize::MAX`), set after the next entry is expanded
    // (its byte prefetched until then)
    let mut twin = usize::MAX;
    let mut until_check = CHECK_EVERY;
    loop {
        let par = (d & 1) as usize;
        let cur = f * (1 - par as u32);
        let next = f * par as u32;
        let (b0, b1) = bits.split_at_mut(1);
        let (curbits, nextbits) = if par == 0 { (&mut b0[0], &mut b1[0]) } else { (&mut b1[0], &mut b0[0]) };
        let mut any = false;
        for (wi, slot) in curbits.iter_mut().enumerate() {
            let mut m = std::mem::take(slot);
            while m != 0 {
                let r = (wi << 6) | m.trailing_zeros() as usize;
                m &= m - 1;
                let e = word[r].get();
                let seeds = (e >> cur) & !(e >> next) & fmask;
                if seeds == 0 {
                    continue;
                }
                let x = abstraction.close(r, seeds) & fmask;
                let e = e | x | x << f;
                // the last twin, its entry prefetched since
                reached += set_twin(&mut value, std::mem::replace(&mut twin, usize::MAX), d);
                if value[r] == UNREACHED {
                    value[r] = d;
                    reached += 1;
                    if let Some(t) = abstraction.twin(r) {
                        assert!(t < entries, "a twin is below entries()");
                        prefetch(value.as_ptr().wrapping_add(t));
                        twin = t;
                    }
                }
                word[r] = W::put(e);
                // the previous region's predecessors, their words prefetched meanwhile
                // SAFETY: each kid's entry indexed `word` (bounds-checked) when it was pushed
                any |= unsafe { A::apply(&mut word, nextbits, f, next, &kids.buf[..kids.n]) };
                kids.n = 0;
                abstraction.predecessors(&mut Children::new(&word, &mut kids));
                assert!(kids.n <= MAX_PREDECESSORS, "more than {MAX_PREDECESSORS} predecessors of one region");
                until_check -= 1;
                if until_check == 0 {
                    checks.check()?;
                    until_check = CHECK_EVERY;
                }
            }
        }
        // SAFETY: as in the loop
        any |= unsafe { A::apply(&mut word, nextbits, f, next, &kids.buf[..kids.n]) };
        kids.n = 0;
        reached += set_twin(&mut value, std::mem::replace(&mut twin, usize::MAX), d);
        progress(reached, entries as u64);
        checks.check()?;
        if !any {
            break;
        }
        d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
    }
    Ok(value)
}

/// Entries in one slot of [`build_threads`]'s owners table: slot `s` holds entries `s << SLOT_BITS ..` (whole
/// words of the layer bitmaps) and belongs to one thread, `owners[s]` (a thread's slots are one run, so its
/// own predecessors are told by a range; the table is looked up for those in another thread's slots).
const SLOT_BITS: u32 = 16;
/// At most this many threads build (a thread's number is a byte of the owners table).
pub const MAX_BUILD_THREADS: usize = 64;

/// [`build_threads`]'s cut of the entries among its threads for a layer: `owners[s]`, the owner of slot `s`
/// (entries `s << SLOT_BITS ..`), so that the `threads` runs of consecutive slots take about equal time.
/// Runs of consecutive entries, because a predecessor's rank is mostly near its parent's (e.g. a sliding
/// tile's move keeps the cells of the tiles before it: the first digits of the rank), so few predecessors
/// belong to another thread; equal times, because the layer ends when its slowest thread does.  A slot's
/// time is guessed as its `weights` (the entries that may hold the layer's seeds) times `cost[t]`, the time an
/// expansion took its last owner `t` in the layer before (the cost of an expansion drifts along the ranks:
/// on the 8-tile table, by a third between the two halves); `owners` holds the last cut on entry.
fn cut(owners: &mut [u8], weights: &[AtomicU64], cost: &[f64], threads: usize) {
    let time: Vec<f64> =
        owners.iter().zip(weights).map(|(&o, w)| w.load(Relaxed) as f64 * cost[usize::from(o)]).collect();
    let total: f64 = time.iter().sum();
    let mut before = 0.0;
    for (o, t) in owners.iter_mut().zip(time) {
        // the run the slot's middle falls in
        let at = if total > 0.0 { ((before + t / 2.0) * threads as f64 / total) as usize } else { 0 };
        *o = at.min(threads - 1) as u8;
        before += t;
    }
}

/// Entries a thread of [`build_threads`] expands between two visits to the boxes: it hands the others the
/// predecessors it found in their slots and queues those they found in its own.
const ROUND: u64 = 1 << 12;

/// The builder's words and bitmaps as raw pointers, shared by the threads of [`build_threads`], each of
/// which reads and writes only the entries of its own slots (and their bitmap words: a slot is whole
/// bitmap words).
#[derive(Clone, Copy)]
struct Owned<W> {
    word: *mut W,
    bits: [*mut u64; 2],
}

// SAFETY: the pointers are only dereferenced by the thread that owns the entry (module docs of
// `build_threads`); the vectors outlive the threads (a scope).
unsafe impl<W> Send for Owned<W> {}
// SAFETY: as above
unsafe impl<W> Sync for Owned<W> {}

/// [`apply_kids`] through the owner's pointers: each kid of `kids` belongs to the calling thread.
///
/// # Safety
///
/// Every kid's entry is below the number of entries and in a slot of the calling thread, which no other
/// thread reads or writes meanwhile.
#[inline(always)]
unsafe fn apply_owned<W: Word>(word: *mut W, nextbits: *mut u64, f: u32, next: u32, kids: &[u64]) -> bool {
    let seen = 1u64 | 1 << f;
    let mut any = 0;
    for &c in kids {
        let (r, j) = unkid(c);
        // SAFETY: the caller's promise
        let new = unsafe {
            let at = word.add(r);
            let e = (*at).get();
            let new = u64::from(e & (seen << j) == 0);
            *at = W::put(e | new << (j + next));
            *nextbits.add(r >> 6) |= new << (r & 63);
            new
        };
        any |= new;
    }
    any != 0
}

/// What the threads of one layer of [`build_threads`] share: the layer's outcome, its limits and its end.
struct LayerSync<'a> {
    /// whether any thread queued a state for the next layer
    any: AtomicBool,
    /// the entries the layer reached
    reached: AtomicU64,
    /// stop expanding (a limit was hit: `stop`)
    halt: AtomicBool,
    stop: Mutex<Option<Status>>,
    /// threads that expanded all their entries and handed over all they found for the others; and threads
    /// still running
    finished: AtomicUsize,
    running: AtomicUsize,
    /// per thread: its expansions and the nanoseconds it took for them (and to hand over what it found)
    work: Vec<(AtomicU64, AtomicU64)>,
    caller: std::thread::Thread,
    /// the cancel flag and the deadline (no `poll`: the calling thread polls)
    quiet: &'a Limiter,
}

/// One thread's part of a layer of [`build_threads`]: expand the layer's entries in its own slots, queue their
/// predecessors (its own at once, the others' through the boxes, visited every 4,096 entries: `ROUND`), then queue
/// what the others hand it until they have all finished.
/// Made by the builder and handed to [`Abstraction::run_share`], which calls [`Share::run`].
pub struct Share<'a, W, A> {
    a: A,
    me: usize,
    threads: usize,
    owners: &'a [u8],
    owned: Owned<W>,
    value_at: &'a [AtomicU8],
    /// boxes[to]: predecessors and twins the others found in `to`'s slots
    boxes: &'a [Mutex<Mail>],
    /// per slot, the entries that may hold seeds of the next layer (set by the slot's owner at the end)
    weights: &'a [AtomicU64],
    sync: &'a LayerSync<'a>,
    f: u32,
    par: usize,
    d: u8,
    entries: usize,
}

/// What the threads of [`build_threads`] hand a thread, in its box, or gather for it, in their outboxes: the
/// predecessors they found in its slots ([`kid`]s), and the twins
/// ([`Abstraction::twin`]) there, which it sets to the layer's `d` if unreached (only a slot's owner writes
/// its entries' bytes).
#[derive(Default)]
struct Mail {
    kids: Vec<u64>,
    twins: Vec<usize>,
}

/// Proof that a [`Share`] was run ([`Abstraction::run_share`] returns it).
pub struct Ran(());

/// On a panic in a thread's part of a layer (an assertion, the abstraction's own): stop the others and let the
/// layer end as if the thread had finished, so that the scope joins the threads and passes the panic on,
/// instead of the others and the calling thread waiting for this one for ever.
struct Unwind<'a, 'b> {
    sync: &'a LayerSync<'b>,
    finished: bool,
}

impl Drop for Unwind<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.sync.halt.store(true, Relaxed);
            if !self.finished {
                self.sync.finished.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
            }
            if self.sync.running.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
                self.sync.caller.unpark();
            }
        }
    }
}

impl<W: Word, A: Abstraction> Share<'_, W, A> {
    /// Do this thread's part of the layer (`#[inline(always)]`: compiled into the function that calls it, with
    /// that function's CPU instructions).
    #[inline(always)]
    pub fn run(self) -> Ran {
        let Share { mut a, me, threads, owners, owned, value_at, boxes, weights, sync, f, par, d, entries } = self;
        let mut unwind = Unwind { sync, finished: false };
        let fmask = (1u64 << f) - 1;
        let (cur, next) = (f * (1 - par as u32), f * par as u32);
        let bits_len = entries.div_ceil(64);
        let slots = owners.len();
        let per_slot = (1usize << SLOT_BITS) / 64;
        let (wp, curp, nextp) = (owned.word, owned.bits[par], owned.bits[1 - par]);
        let owner = |r: usize| usize::from(owners[r >> SLOT_BITS]);
        let mine = |slot: usize| usize::from(owners[slot]) == me;
        let mut checks = Checks { limiter: sync.quiet, polled: Instant::now() };
        // this thread's own predecessors of the last region, applied after the next entry is expanded
        let mut kids = Kids::new();
        // the twin of the entry last given its value (none: `usize::MAX`), set or handed over after the next
        // entry is expanded (its byte prefetched until then if it is this thread's)
        let mut twin = usize::MAX;
        let mut outbox: Vec<Mail> = (0..threads).map(|_| Mail::default()).collect();
        let (mut got, mut queued, mut until_check) = (0u64, false, CHECK_EVERY);
        // where this thread is in its slots: slot, bitmap word, the word's bits left
        let first = (0..slots).find(|&s| mine(s)).unwrap_or(slots);
        // this thread's entries: its slots are one run (`cut`)
        let run = (first..slots).take_while(|&s| mine(s)).count();
        let own = (first << SLOT_BITS, (run << SLOT_BITS).min(entries.saturating_sub(first << SLOT_BITS)));
        let (mut slot, mut wi, mut m) = (first, first * per_slot, 0u64);
        let mut loaded = false;
        let start = Instant::now();
        let mut expanded = 0u64;
        // the others' predecessors and twins in this thread's slots, taken from its box
        let mut inbox = Mail::default();
        // hand the others what this thread found in their slots; queue the predecessors they found in its own
        // and set the twins; returns whether any was queued, and how many entries were set
        let visit = |outbox: &mut [Mail], inbox: &mut Mail| {
            for (to, out) in outbox.iter_mut().enumerate() {
                if !out.kids.is_empty() || !out.twins.is_empty() {
                    let mut b = boxes[to].lock().unwrap_or_else(|p| p.into_inner());
                    b.kids.append(&mut out.kids);
                    b.twins.append(&mut out.twins);
                }
            }
            std::mem::swap(&mut *boxes[me].lock().unwrap_or_else(|p| p.into_inner()), inbox);
            let mut any = false;
            for chunk in inbox.kids.chunks(MAX_PREDECESSORS) {
                for &c in chunk {
                    // SAFETY: an entry below `entries` (pushed by `Children`)
                    prefetch(unsafe { wp.add(unkid(c).0) });
                }
                // SAFETY: each is an entry of this thread's slots
                any |= unsafe { apply_owned(wp, nextp, f, next, chunk) };
            }
            let mut set = 0;
            for chunk in inbox.twins.chunks(MAX_PREDECESSORS) {
                chunk.iter().for_each(|&t| prefetch(value_at.as_ptr().wrapping_add(t)));
                set += chunk.iter().map(|&t| set_twin_at(value_at, t, d)).sum::<u64>();
            }
            inbox.kids.clear();
            inbox.twins.clear();
            (any, set)
        };
        loop {
            // expand up to ROUND entries of this thread's slots
            let mut budget = ROUND;
            while budget > 0 && slot < slots && !sync.halt.load(Relaxed) {
                if !loaded {
                    // SAFETY: `wi` is a bitmap word of this thread's slot
                    m = unsafe { std::mem::take(&mut *curp.add(wi)) };
                    loaded = true;
                }
                if m == 0 {
                    wi += 1;
                    loaded = false;
                    if wi == ((slot + 1) * per_slot).min(bits_len) {
                        slot += 1;
                        while slot < slots && !mine(slot) {
                            slot += 1;
                        }
                        wi = slot * per_slot;
                    }
                    continue;
                }
                let r = (wi << 6) | m.trailing_zeros() as usize;
                m &= m - 1;
                // SAFETY: `r` is an entry of this thread's slot
                let e = unsafe { (*wp.add(r)).get() };
                let seeds = (e >> cur) & !(e >> next) & fmask;
                if seeds == 0 {
                    continue;
                }
                budget -= 1;
                expanded += 1;
                let x = a.close(r, seeds) & fmask;
                // SAFETY: as above
                unsafe { *wp.add(r) = W::put(e | x | x << f) };
                // the last twin, set (its byte prefetched since) or handed over
                got += hand_twin(value_at, std::mem::replace(&mut twin, usize::MAX), own, owners, &mut outbox, d);
                if value_at[r].load(Relaxed) == UNREACHED {
                    value_at[r].store(d, Relaxed);
                    got += 1;
                    if let Some(t) = a.twin(r) {
                        assert!(t < entries, "a twin is below entries()");
                        if owns(own, t) {
                            prefetch(value_at.as_ptr().wrapping_add(t));
                        }
                        twin = t;
                    }
                }
                // the previous region's own predecessors, prefetched meanwhile
                // SAFETY: each is an entry of this thread's slots, below `entries`
                queued |= unsafe { apply_owned(wp, nextp, f, next, &kids.buf[..kids.n]) };
                (kids.n, kids.away_n) = (0, 0);
                a.predecessors(&mut Children::new_raw(wp, entries, &mut kids, own));
                assert!(kids.n + kids.away_n <= MAX_PREDECESSORS,
                        "more than {MAX_PREDECESSORS} predecessors of one region");
                for &c in &kids.away[..kids.away_n] {
                    outbox[owner(unkid(c).0)].kids.push(c);
                }
                until_check -= 1;
                if until_check == 0 {
                    until_check = CHECK_EVERY;
                    if let Err(e) = checks.check() {
                        sync.stop.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                        sync.halt.store(true, Relaxed);
                    }
                }
            }
            // SAFETY: as above
            queued |= unsafe { apply_owned(wp, nextp, f, next, &kids.buf[..kids.n]) };
            kids.n = 0;
            got += hand_twin(value_at, std::mem::replace(&mut twin, usize::MAX), own, owners, &mut outbox, d);
            let (q, set) = visit(&mut outbox, &mut inbox);
            (queued, got) = (queued | q, got + set);
            if slot >= slots || sync.halt.load(Relaxed) {
                break;
            }
        }
        // all handed over (the boxes' lock orders it before the count): queue what the others still hand this
        // thread until they have all finished, then what is left
        sync.work[me].0.store(expanded, Relaxed);
        sync.work[me].1.store(start.elapsed().as_nanos() as u64, Relaxed);
        sync.finished.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        unwind.finished = true;
        let mut idle = 0u32;
        while sync.finished.load(std::sync::atomic::Ordering::Acquire) < threads {
            let (q, set) = visit(&mut outbox, &mut inbox);
            (queued, got) = (queued | q, got + set);
            idle += 1;
            if idle < 64 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
        }
        let (q, set) = visit(&mut outbox, &mut inbox);
        (queued, got) = (queued | q, got + set);
        // the next layer's weight of each of this thread's slots (its bitmap words are final: the boxes are
        // applied), for the next layer's cut
        for s in (0..slots).filter(|&s| mine(s)) {
            let words = s * per_slot..((s + 1) * per_slot).min(bits_len);
            // SAFETY: the bitmap words of this thread's slot
            let n: u32 = words.map(|w| unsafe { *nextp.add(w) }.count_ones()).sum();
            weights[s].store(u64::from(n), Relaxed);
        }
        if queued {
            sync.any.store(true, Relaxed);
        }
        sync.reached.fetch_add(got, Relaxed);
        if sync.running.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
            sync.caller.unpark();
        }
        Ran(())
    }
}

/// [`build_in`] on `threads` threads: the same table, byte for byte (`threads` <= 1: [`build_in`] itself).
///
/// **Ownership.** The entries are cut into slots of 2^16 (whole words of the layer bitmaps), and for each
/// layer the slots into one run of consecutive slots a thread (at most [`MAX_BUILD_THREADS`]), of about equal
/// time (`cut`, after each layer). A thread expands the entries of its own slots in each layer (the layer's
/// bitmap scanned in rank order, as [`build_in`] does) and is the only one to read or write their words and
/// bitmap bits, so it needs no atomic instruction for them: a predecessor in one of its own slots is queued
/// at once (with [`build_in`]'s pipeline: applied after the next entry is expanded, prefetched meanwhile),
/// one in another thread's slot is put in that thread's box. Every 4,096 expansions (`ROUND`) a thread hands
/// over what it found for the others and queues what its box holds, without waiting; when it has expanded
/// all its entries it hands over the rest, counts itself finished, and queues what its box receives until
/// every thread has finished (a thread hands over nothing after it counts itself: queuing finds no new
/// predecessors), then what is left. An entry's value byte, too, is written by its slot's owner alone (through
/// relaxed atomic loads and stores, as the bytes are shared): a twin in another thread's slot is handed to that
/// thread with the predecessors (`Mail`), which sets it if still unreached when it queues its box; a thread
/// sets or hands over its last twin before each visit to the boxes (every `ROUND`, so before it counts itself
/// finished), each with the layer's `d`; so each entry is counted once as reached. (The twin was set by a
/// compare-and-swap from any thread before, which waited for the thread's pending stores: 4% of the 8-tile
/// build on 2 threads.) A thread's part of a layer is a [`Share`], run by the abstraction's
/// [`run_share`](Abstraction::run_share) (so that it is compiled with the abstraction's CPU instructions).
///
/// **Why the bytes are the same.** An entry's value is the first layer whose regions reach it (module docs,
/// "layers"). A layer's seeds are fixed when it starts (the layer before has ended for every thread), and
/// each seed is expanded exactly once in it (by its slot's owner); queuing a predecessor sets bits only,
/// and "unless seen, in this layer, or queued already" is a test of the owner's own word, read and written
/// by the owner alone, so the order in which a layer's predecessors are queued changes no entry, as in the
/// one-thread builder (whose kids are applied in one order among many: its module docs). So each layer holds
/// the same states at every thread count and under any cut of the entries among the threads, and each
/// entry gets the same value: its own, set by its slot's owner in the first layer whose regions reach it, or
/// its twin's, set in that same layer (a twin's value equals the entry's, and the layer's `d` is what every
/// setter writes, so it does not matter whether the entry or its twin reached the byte first).
///
/// **Limits.** The calling thread waits, polling `limiter` (its `poll` hook: Python's signal handlers; the
/// cancel flag; the deadline) every [`POLL_INTERVAL`]; the threads check the cancel flag and the deadline
/// every [`CHECK_EVERY`] entries; once one has seen a limit, each stops expanding, hands over and finishes
/// the layer as above. `progress` is called after each layer, on the calling thread.
///
/// # Errors and panics
///
/// As [`build`]; a panic on one of the threads stops the others and is passed on to the caller when they
/// have ended. On a platform where `u8` and `AtomicU8` differ in alignment it builds on one thread.
pub fn build_threads<W: Word, A: Abstraction + Clone + Send>(abstraction: &mut A, limiter: &Limiter, threads: usize,
                                                              mut progress: impl FnMut(u64, u64))
                                                              -> Result<Vec<u8>, Status> {
    if threads <= 1 || std::mem::align_of::<u8>() != std::mem::align_of::<AtomicU8>() {
        return build_in::<W, A>(abstraction, limiter, progress);
    }
    let threads = usable_threads(threads).min(MAX_BUILD_THREADS);
    // the threads are started for each layer: find out now whether as many can be had
    // (each needs its stack; under --memory-limit they may not be), else build on one
    let can = std::thread::scope(|s| {
        (0..threads).all(|_| std::thread::Builder::new().stack_size(THREAD_STACK).spawn_scoped(s, || {}).is_ok())
    });
    if threads <= 1 || !can {
        return build_in::<W, A>(abstraction, limiter, progress);
    }
    let f = abstraction.substates();
    assert_fits::<W>(f);
    let mut checks = Checks { limiter, polled: Instant::now() };
    checks.check()?;
    let entries = abstraction.entries();
    // the first layer's cut: runs of equal length (the weights are set by each layer for the next)
    let weights: Vec<AtomicU64> = (0..entries.div_ceil(1 << SLOT_BITS)).map(|_| AtomicU64::new(1)).collect();
    let mut owners = vec![0u8; weights.len()];
    let mut cost = vec![1.0; threads];
    cut(&mut owners, &weights, &cost, threads);
    let held = held::<W>(entries);
    let charged = limiter.charge(held);
    // the threads' limiter: the cancel flag and the deadline, no poll (the calling thread polls)
    let mut quiet = limiter.clone();
    quiet.poll = None;
    let result = (|| {
        charged?;
        let (mut value, mut bits, mut word) = buffers::<W, A>(abstraction, f, threads)?;
        let owned = Owned { word: word.as_mut_ptr(), bits: [bits[0].as_mut_ptr(), bits[1].as_mut_ptr()] };
        // SAFETY: `AtomicU8` has `u8`'s size and alignment (checked above) and every bit pattern is valid in
        // both; `value` is only reached through this view until it ends
        let value_at = unsafe { std::slice::from_raw_parts(value.as_mut_ptr() as *const AtomicU8, entries) };
        let boxes: Vec<Mutex<Mail>> = (0..threads).map(|_| Mutex::new(Mail::default())).collect();
        let mut d: u8 = 0;
        let mut reached = 0u64;
        loop {
            let sync = LayerSync {
                any: AtomicBool::new(false),
                reached: AtomicU64::new(0),
                halt: AtomicBool::new(false),
                stop: Mutex::new(None),
                finished: AtomicUsize::new(0),
                running: AtomicUsize::new(threads),
                work: (0..threads).map(|_| (AtomicU64::new(0), AtomicU64::new(0))).collect(),
                caller: std::thread::current(),
                quiet: &quiet,
            };
            std::thread::scope(|s| {
                for me in 0..threads {
                    let share = Share {
                        a: abstraction.clone(), me, threads, owners: &owners, owned, value_at, boxes: &boxes,
                        weights: &weights, sync: &sync, f, par: (d & 1) as usize, d, entries,
                    };
                    let builder = std::thread::Builder::new().stack_size(THREAD_STACK);
                    builder.spawn_scoped(s, move || A::run_share(share))
                        .expect("a thread of the build (as many were started before its first layer)");
                }
                // wait, polling (Ctrl-C: the cancel flag the threads read; the deadline)
                while sync.running.load(std::sync::atomic::Ordering::Acquire) > 0 {
                    std::thread::park_timeout(POLL_INTERVAL);
                    if let Err(e) = checks.check() {
                        sync.stop.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                        sync.halt.store(true, Relaxed);
                    }
                }
            });
            if let Some(e) = sync.stop.into_inner().unwrap_or_else(|p| p.into_inner()) {
                return Err(e);
            }
            reached += sync.reached.into_inner();
            // each thread's time an expansion in this layer (the mean of the others' for one that had none)
            let work: Vec<(u64, u64)> = sync.work.iter().map(|(x, t)| (x.load(Relaxed), t.load(Relaxed))).collect();
            let (xs, ts) = work.iter().fold((0, 0), |(x, t), w| (x + w.0, t + w.1));
            for (c, &(x, t)) in cost.iter_mut().zip(&work) {
                *c = if x > 0 { t as f64 / x as f64 } else if xs > 0 { ts as f64 / xs as f64 } else { 1.0 };
            }
            cut(&mut owners, &weights, &cost, threads);
            progress(reached, entries as u64);
            checks.check()?;
            if !sync.any.into_inner() {
                break;
            }
            d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
        }
        Ok(value)
    })();
    limiter.release(if result.is_ok() { held - entries } else { held });
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spawning loop of [`back`] unwinding after one thread has started: the gate opens for that thread
    /// (it would wait for the threads never spawned, and the scope, joining it, for ever: then this test fails
    /// after a minute instead of hanging).
    #[test]
    fn the_gate_opens_when_spawning_unwinds() {
        let (done, got) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let gate: Gate = (Mutex::new((0, usize::MAX)), Condvar::new());
            let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                std::thread::scope(|s| {
                    let mut spawned = Spawned(&gate, 0);
                    s.spawn(|| enter(&gate));
                    spawned.1 += 1;
                    panic!("the spawning loop fails after one thread");
                })
            }));
            let counts = *gate.0.lock().unwrap_or_else(|e| e.into_inner());
            done.send((unwound.is_err(), counts)).expect("the test waits");
        });
        let (unwound, counts) = got.recv_timeout(std::time::Duration::from_secs(60)).expect("the gate stayed shut");
        assert!(unwound, "the panic goes on once the thread is through");
        assert_eq!(counts, (1, 1));
    }
}
