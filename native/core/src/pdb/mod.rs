//! Pattern databases, the parts no game owns: the file format and its checksum ([`format`]), permutation
//! ranking ([`ranking`]) and the layered builder over an [`Abstraction`] ([`build`](mod@build)), which takes
//! the search's [`Limiter`](crate::Limiter).
//!
//! The Python twins are `searchkit/machinery/pdb/store.py` (the same files, byte for byte), `searchkit/machinery/pdb/ranking.py`
//! (the same ranks) and `searchkit/machinery/pdb/build.py` (the same table: 0/1 breadth-first search backwards from the
//! goals).  A game's crate supplies its abstraction (which items are in the pattern, its moves, how its
//! states fold to entries) and the file's key text with its SHA-256 digest (the core computes no SHA-256; the
//! Python side makes the key).
//!
//! ```ignore
//! let values = searchkit_core::pdb::build(&mut my_abstraction, &limiter, |reached, total| ())?;
//! searchkit_core::pdb::write(path, &values, key, &digest)?;        // .NAME.PID-N.tmp, then renamed
//! let again = searchkit_core::pdb::read(path, &digest)?;           // verified: magic, key, length, CRC
//! ```

pub mod build;
pub mod format;
pub mod ranking;

pub use build::{build, build_in, build_threads, Abstraction, Checks, Children, Ran, Share, Word};
pub use format::{crc32, decode, decode_checked, encode, map_checked, read, read_checked, write, Table};
pub use ranking::{count, rank, unrank, weights};

/// The value of an entry no goal is reachable from (15 in a four-bit file).
pub const UNREACHED: u8 = 255;

#[cfg(test)]
mod tests {
    use super::build::{Abstraction, Children, Word};
    use super::*;
    use crate::{Limiter, Status};
    use std::collections::VecDeque;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// A random abstract graph: `entries` entries of `f` sub-states each, with random cost-0 moves inside an
    /// entry and cost-1 moves between entries (both undirected), and some goals.
    struct Random {
        entries: usize,
        f: u32,
        /// per state (entry * f + sub): its neighbours and the move's cost
        adj: Vec<Vec<(usize, u8)>>,
        goals: Vec<(usize, u32)>,
        region: u64,
        at: usize,
    }

    impl Random {
        fn new(seed: u64, entries: usize, f: u32) -> Random {
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = move |m: usize| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % m as u64) as usize
            };
            let states = entries * f as usize;
            let mut adj = vec![Vec::new(); states];
            // half as many moves with more than 16 sub-states, so that a region's predecessors stay under 64
            for _ in 0..if f > 16 { states } else { states * 2 } {
                let a = next(states);
                let (b, cost) = if next(3) == 0 {
                    ((a / f as usize) * f as usize + next(f as usize), 0)
                } else {
                    (next(states), 1)
                };
                if b / f as usize == a / f as usize && cost == 1 {
                    continue; // a move inside an entry costs 0
                }
                adj[a].push((b, cost));
                adj[b].push((a, cost));
            }
            let goals = (0..1 + next(3)).map(|_| (next(entries), next(f as usize) as u32)).collect();
            Random { entries, f, adj, goals, region: 0, at: 0 }
        }

        /// The table by a plain 0-1 BFS over the states (a deque), folded by the least over each entry.
        fn plain(&self) -> Vec<u8> {
            let f = self.f as usize;
            let mut dist = vec![u32::MAX; self.entries * f];
            let mut q = VecDeque::new();
            for &(r, j) in &self.goals {
                dist[r * f + j as usize] = 0;
                q.push_back(r * f + j as usize);
            }
            while let Some(s) = q.pop_front() {
                for &(t, c) in &self.adj[s] {
                    let nd = dist[s] + u32::from(c);
                    if nd < dist[t] {
                        dist[t] = nd;
                        if c == 0 { q.push_front(t) } else { q.push_back(t) }
                    }
                }
            }
            (0..self.entries).map(|r| {
                let m = dist[r * f..(r + 1) * f].iter().copied().min().unwrap();
                if m == u32::MAX { UNREACHED } else { m as u8 }
            }).collect()
        }
    }

    impl Abstraction for Random {
        fn entries(&self) -> usize {
            self.entries
        }
        fn substates(&self) -> u32 {
            self.f
        }
        fn goals(&self) -> Vec<(usize, u32)> {
            self.goals.clone()
        }
        fn close(&mut self, entry: usize, seeds: u64) -> u64 {
            let f = self.f as usize;
            let mut region = seeds;
            loop {
                let mut grown = region;
                for j in 0..f {
                    if region >> j & 1 != 0 {
                        for &(t, c) in &self.adj[entry * f + j] {
                            if c == 0 {
                                grown |= 1 << (t % f);
                            }
                        }
                    }
                }
                if grown == region {
                    break;
                }
                region = grown;
            }
            self.region = region;
            self.at = entry;
            region
        }
        fn predecessors<W: Word>(&mut self, out: &mut Children<'_, W>) {
            let f = self.f as usize;
            let mut listed = 0;
            for j in 0..f {
                if self.region >> j & 1 != 0 {
                    for &(t, c) in &self.adj[self.at * f + j] {
                        if c == 1 && listed < build::MAX_PREDECESSORS {
                            out.push(t / f, (t % f) as u32);
                            listed += 1;
                        }
                    }
                }
            }
            assert!(listed < build::MAX_PREDECESSORS, "the test graph is too dense");
        }
    }

    #[test]
    fn builder_equals_a_plain_0_1_bfs() {
        // words of 16 bits (f <= 8), 32 (f up to 16) and 64 (f up to 32: a 6-tile group of the 24-puzzle has
        // 19), one sub-state (a plain BFS) too
        for seed in 0..60u64 {
            for (entries, f) in [(50, 1), (200, 3), (130, 8), (90, 9), (40, 16), (30, 17), (20, 19), (12, 32)] {
                let mut a = Random::new(seed * 31 + f as u64, entries, f);
                let plain = a.plain();
                let mut layers = 0;
                let built = build(&mut a, &Limiter::new(), |_, total| {
                    layers += 1;
                    assert_eq!(total, entries as u64);
                }).unwrap();
                assert_eq!(built, plain, "seed {seed}, {entries} entries of {f}");
                assert!(layers >= 1);
            }
        }
    }

    /// The entries of a line `0 .. n`, one sub-state each, the goal at 0: entry `r` is `r` away.
    struct Line(usize, usize);

    impl Abstraction for Line {
        fn entries(&self) -> usize {
            self.0
        }
        fn substates(&self) -> u32 {
            1
        }
        fn goals(&self) -> Vec<(usize, u32)> {
            vec![(0, 0)]
        }
        fn close(&mut self, entry: usize, seeds: u64) -> u64 {
            self.1 = entry;
            seeds
        }
        fn predecessors<W: Word>(&mut self, out: &mut Children<'_, W>) {
            if self.1 + 1 < self.0 {
                out.push(self.1 + 1, 0);
            }
            if self.1 > 0 {
                out.push(self.1 - 1, 0);
            }
        }
    }

    #[test]
    fn a_line_and_its_file() {
        let values = build(&mut Line(254, 0), &Limiter::new(), |_, _| {}).unwrap();
        assert_eq!(values, (0..254).map(|r| r as u8).collect::<Vec<_>>());
        assert_eq!(decode(encode(&values, "line", &[1; 32]), &[1; 32]).unwrap(), values);
    }

    #[test]
    #[should_panic(expected = "a distance above 254")]
    fn a_distance_above_254_is_refused() {
        let _ = build(&mut Line(300, 0), &Limiter::new(), |_, _| {});
    }

    #[test]
    fn a_cancel_flag_set_before_the_build_stops_it_at_once() {
        let mut limiter = Limiter::new();
        limiter.cancel = Some(Arc::new(AtomicBool::new(true)));
        let mut layers = 0;
        // far more entries than memory holds: cancelled before anything is allocated
        let r = build(&mut Line(1 << 50, 0), &limiter, |_, _| layers += 1);
        assert_eq!(r, Err(Status::Cancelled));
        assert_eq!((layers, limiter.bytes_used()), (0, 0));
    }

    #[test]
    fn a_cancel_flag_set_during_the_build_stops_it() {
        // set by the progress callback after the first layer: the build stops before the next
        let mut limiter = Limiter::new();
        let flag = Arc::new(AtomicBool::new(false));
        limiter.cancel = Some(flag.clone());
        let mut layers = 0;
        let r = build(&mut Line(200, 0), &limiter, |_, _| {
            layers += 1;
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!((r, layers), (Err(Status::Cancelled), 1));
        assert_eq!(limiter.bytes_used(), 0);
    }

    /// A binary heap's tree, one sub-state an entry, the goal at its root: entry `r` is `log2(r + 1)` away, and
    /// layer `d` is the entries `2^d - 1 .. 2^(d+1) - 1`, wide enough to be cut among threads.  `panic_at`:
    /// the entry whose expansion panics; `slow`: spin this long an expansion; `expanded`: counts them.
    #[derive(Clone)]
    struct Heap {
        n: usize,
        at: usize,
        panic_at: Option<usize>,
        slow: u32,
        expanded: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Heap {
        fn new(n: usize) -> Self {
            Heap { n, at: 0, panic_at: None, slow: 0, expanded: Arc::default() }
        }
    }

    impl Abstraction for Heap {
        fn entries(&self) -> usize {
            self.n
        }
        fn substates(&self) -> u32 {
            1
        }
        fn goals(&self) -> Vec<(usize, u32)> {
            vec![(0, 0)]
        }
        fn close(&mut self, entry: usize, seeds: u64) -> u64 {
            assert!(Some(entry) != self.panic_at, "a planted panic at entry {entry}");
            for i in 0..self.slow {
                std::hint::black_box(i);
            }
            self.expanded.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.at = entry;
            seeds
        }
        fn predecessors<W: Word>(&mut self, out: &mut Children<'_, W>) {
            for c in [2 * self.at + 1, 2 * self.at + 2] {
                if c < self.n {
                    out.push(c, 0);
                }
            }
            if self.at > 0 {
                out.push((self.at - 1) / 2, 0);
            }
        }
    }

    /// `build_threads` on a thread of its own, so that a hang fails the test (after `secs`) instead of
    /// holding the suite.
    fn threads_within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(secs)).expect("the parallel build hung")
    }

    #[test]
    fn a_heap_on_threads_is_the_one_thread_table() {
        // many slots of 2^16 entries, cut among 2, 3 and 5 threads; the values are the depths in the tree
        let n = 600_000;
        let one = build(&mut Heap::new(n), &Limiter::new(), |_, _| {}).unwrap();
        assert!(one.iter().enumerate().all(|(r, &v)| u32::from(v) == (r as u64 + 1).ilog2()));
        for threads in [2, 3, 5] {
            let many = threads_within(120, move || {
                build_threads::<u16, _>(&mut Heap::new(n), &Limiter::new(), threads, |_, _| {}).unwrap()
            });
            assert!(many == one, "{threads} threads");
        }
    }

    #[test]
    fn a_panic_on_a_builder_thread_reaches_the_caller() {
        // the panic in the last layer's upper half (another thread's run than the first): the others stop,
        // and the panic is passed on, instead of their waiting for the thread that panicked for ever
        let n = 600_000;
        let r = threads_within(60, move || {
            std::panic::catch_unwind(|| {
                let mut heap = Heap { panic_at: Some(n - 10), ..Heap::new(n) };
                build_threads::<u16, _>(&mut heap, &Limiter::new(), 2, |_, _| {})
            })
        });
        // the scope passes it on as its own panic ("a scoped thread panicked"), the thread's message printed
        assert!(r.is_err(), "the planted panic was not passed on");
    }

    #[test]
    fn a_cancel_flag_set_during_a_layer_on_threads_stops_it() {
        // set while the threads expand the widest layers (slowed down): they stop inside the layer, hand over
        // what they found and end it, and the build says cancelled without another layer
        let n: usize = 1 << 21;
        let mut limiter = Limiter::new();
        let flag = Arc::new(AtomicBool::new(false));
        limiter.cancel = Some(flag.clone());
        let heap = Heap { slow: 2000, ..Heap::new(n) };
        let expanded = heap.expanded.clone();
        let (r, layers) = threads_within(120, move || {
            let mut layers = 0;
            let r = build_threads::<u16, _>(&mut heap.clone(), &limiter, 2, |_, _| {
                layers += 1;
                if layers == 18 {
                    let flag = flag.clone();
                    std::thread::spawn(move || {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    });
                }
            });
            assert_eq!(limiter.bytes_used(), 0);
            (r, layers)
        });
        // 22 layers in all (depths 0 to 20, then an empty one); the flag is set 20 ms into layer 18's 262,144
        // slowed expansions (each thread's half: well over 20 ms)
        assert_eq!(r, Err(Status::Cancelled));
        assert!(layers <= 19, "{layers} layers");
        // stopped inside a layer: not all of layers 0 ..= 18 (2^19 - 1 entries) were expanded
        let expanded = expanded.load(std::sync::atomic::Ordering::Relaxed);
        assert!(expanded < (1 << 19) - 1, "{expanded} expanded");
    }

    #[test]
    fn a_passed_deadline_is_time_limit() {
        let limiter = Limiter::started(0.0, Some(0.0));
        assert_eq!(build(&mut Line(10, 0), &limiter, |_, _| {}), Err(Status::TimeLimit));
    }

    #[test]
    fn a_small_budget_is_memory_limit_not_an_abort() {
        // the budget below the buffers' bytes: refused before allocating
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(1000);
        assert_eq!(build(&mut Line(1000, 0), &limiter, |_, _| {}), Err(Status::MemoryLimit));
        assert_eq!(limiter.bytes_used(), 0);
        // more than any machine has, with no budget: the allocation is refused (try_reserve), not an abort
        let r = build(&mut Line(1 << 60, 0), &Limiter::new(), |_, _| {});
        assert_eq!(r, Err(Status::MemoryLimit));
        // within the budget: built, and the entries (one byte each) stay charged, the rest is released
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(1 << 20);
        let v = build(&mut Line(200, 0), &limiter, |_, _| {}).unwrap();
        assert_eq!((v.len(), limiter.bytes_used()), (200, 200));
    }
}
