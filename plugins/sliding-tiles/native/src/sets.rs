//! The sliding-tile table by **sets of cells**: the same numbers as [`crate::pdb`]'s builder (the Python
//! builder's, module docs there), searched over (set of the group's cells, order of its tiles on them, region
//! of the blank) with the orders as bitsets, so that most of a layer is whole-word work.
//!
//! **The state space.**  A placement of the group's `k` tiles is a set `A` of `k` cells (a *combination*, one
//! of `C(n*n, k)`, ranked in colex order: `sum_j C(a_j, j + 1)` over its cells `a_0 < a_1 < ..`) and an
//! *order*: which tile stands on which of them.  The order is `q = (q_0 .. q_{k-1})`, `q_t` the position of
//! tile `t`'s cell among `A`'s cells in cell order, ranked by its Lehmer code (`sum_t (q_t - #{u < t: q_u <
//! q_t}) (k-1-t)!`, one of `k!`).  The blank's region, a connected component of the cells outside `A`,
//! depends on `A` alone, so the states of the abstract graph are (`A`, region `R`, `q`), and for each (`A`,
//! `R`) the orders reached are a bitset of `k!` bits.
//!
//! **Moves act on whole bitsets.**  A group tile on cell `c` next to a cell `r` of `R` moves into it (cost 1;
//! the blank's moves inside `R` cost 0 and stay in the state): the set becomes `B = A - c + r`, the region
//! the one of `B` holding `c`, and the order changes only by the moved tile's position.  Moving sideways
//! (`r = c +- 1`) passes no cell, so every tile keeps its position: the bitset is carried over unchanged, a
//! word at a time.  Moving up or down passes the `n - 1` cells between; each of `A`'s cells among them shifts
//! the tile's position by one, and those tiles' positions by one the other way: a fixed permutation of the
//! orders (one table of `k!` entries per pair of positions, moved from `i` to `j` with `|i - j| < n`),
//! applied bit by bit.
//!
//! **Breadth-first, pulled.**  Moves are their own reverse, so a state's predecessors are its successors, the
//! table of the reverse move applied.  Layer `d + 1` of state (`B`, `R'`) is the union, over its moves to
//! (`A`, `R`), of layer `d`'s bitset of (`A`, `R`) mapped by the reverse move's permutation, less what was
//! seen.  Every state of layer `d + 1` has a neighbour in layer `d` and none in an earlier one (else it would
//! have been reached then), so the layers are the exact distances (breadth-first search; the cost-0 moves
//! are inside the states).  A placement's entry is its least distance over its regions: the layer in which
//! its first (`A`, `R`, `q`) is reached.  Each thread owns whole combinations (all their regions, and their
//! entries), so a layer is the same at every thread count, and the table byte for byte.
//!
//! **The file's ranks.**  The table is indexed as the core's ranking of the tiles' cells (`crate::pdb`).  The
//! entries, kept per (`A`, `q`), are copied into it last, a block of the file (tiles 0 and 1 on given cells:
//! `P(n*n - 2, k - 2)` consecutive entries) at a time: for each set `A` holding both cells the orders with
//! those two positions are consecutive, and a depth-first walk over the other tiles' positions (the last three
//! unrolled) gives each order's file rank from its parent's.  Tile `t`'s file digit is its cell less the
//! cells of the tiles before it below it, `a_{q_t} - #{u < t: q_u < q_t}` (the cells are in position order).
//!
//! **Size.**  Three bitsets (this layer's, the next's, the seen) of `k!` bits per (`A`, `R`), the entries per
//! (`A`, `q`) (`C(n*n, k) * k!` bytes, the table's size), then the table itself while they are copied (the
//! bitsets freed first).  The 15-puzzle's 8-tile table: 35,347 (`A`, `R`) states, 534 MB of bitsets and 519
//! MB of entries during the search; 1,038 MB while copying.
//!
//! Used for groups of 3 to 8 tiles (`k!` orders in 16 bits); [`crate::pdb`]'s builder for the others and as
//! this one's oracle in the tests.

use searchkit_core::pdb::{count, weights, Checks};
use searchkit_core::{Limiter, Status};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// The groups this builder takes: 3 to 8 tiles on a board of at most 25 cells.
pub fn takes(n: usize, k: usize) -> bool {
    (3..=8).contains(&k) && n * n <= 25 && k < n * n
}

/// No move: the order is carried over unchanged (a sideways move).
const SAME: u8 = u8::MAX;

/// Combinations per piece of a layer's work handed to a thread.
const PIECE: usize = 32;

/// The fixed part of the search: the combinations, their regions and moves, the order permutations.
struct Space {
    k: usize,
    cells: usize,
    /// `k!`, and the 64-bit words of a bitset of that many bits
    orders: usize,
    words: usize,
    fact: [usize; 9],
    /// the combinations' cell masks, in rank order
    combos: Vec<u32>,
    /// per combination, its first state (region); one more at the end
    base: Vec<u32>,
    /// per state, the range of its moves in `target` and `perm`
    mstart: Vec<u32>,
    /// per move, the state it leads to and the permutation of the orders its reverse applies (or [`SAME`])
    target: Vec<u32>,
    perm: Vec<u8>,
    /// the permutations, `k!` entries each
    perms: Vec<Vec<u16>>,
    /// the goal: its state and order
    goal: (usize, usize),
}

fn lehmer_rank(q: &[u8], fact: &[usize]) -> usize {
    let k = q.len();
    let mut used = 0u32;
    let mut r = 0;
    for (t, &p) in q.iter().enumerate() {
        let below = (used & ((1u32 << p) - 1)).count_ones() as usize;
        r += (usize::from(p) - below) * fact[k - 1 - t];
        used |= 1 << p;
    }
    r
}

fn lehmer_unrank(mut r: usize, fact: &[usize], q: &mut [u8]) {
    let k = q.len();
    let mut used = 0u32;
    for (t, slot) in q.iter_mut().enumerate() {
        let f = fact[k - 1 - t];
        let mut m = !used;
        for _ in 0..r / f {
            m &= m - 1;
        }
        r %= f;
        *slot = m.trailing_zeros() as u8;
        used |= 1 << *slot;
    }
}

impl Space {
    /// The space of `n` x `n`'s group `tiles`; its big vectors allocated fallibly, `checks` made every 4096
    /// sets (for the 24-puzzle's groups it takes a while).
    fn new(n: usize, tiles: &[u8], checks: &mut Checks<'_>) -> Result<Space, Status> {
        let (cells, k) = (n * n, tiles.len());
        let (sets, regions) = Self::sets(n, k, checks)?;
        let mut fact = [1usize; 9];
        for i in 1..=8 {
            fact[i] = fact[i - 1] * i;
        }
        let orders = fact[k];
        let Sets { combos, base, region_of, nbr, rank } = sets;
        let spread = |x: u32| {
            let (mut y, mut z) = (0, x);
            while z != 0 {
                y |= nbr[z.trailing_zeros() as usize];
                z &= z - 1;
            }
            y
        };
        // the permutations of the orders: the tile at position i moved to position j, the ones between shifted
        let mut which = [[SAME; 8]; 8];
        let mut perms: Vec<Vec<u16>> = Vec::new();
        let (mut q, mut moved) = ([0u8; 8], [0u8; 8]);
        // i and j index `which` and name the positions the permutation moves: a range reads plainer
        #[allow(clippy::needless_range_loop)]
        for i in 0..k {
            for j in 0..k {
                if i == j || i.abs_diff(j) >= n {
                    continue;
                }
                which[i][j] = perms.len() as u8;
                let mut table = filled(orders, 0u16)?;
                for (p, slot) in table.iter_mut().enumerate() {
                    lehmer_unrank(p, &fact, &mut q[..k]);
                    for (x, y) in q[..k].iter().zip(&mut moved[..k]) {
                        let x = usize::from(*x);
                        *y = if x == i {
                            j
                        } else if i < j && x > i && x <= j {
                            x - 1
                        } else if j < i && x >= j && x < i {
                            x + 1
                        } else {
                            x
                        } as u8;
                    }
                    *slot = lehmer_rank(&moved[..k], &fact) as u16;
                }
                perms.push(table);
            }
        }
        // every state's moves: tile from c (next to the region) to r (in it); pulled, so the reverse's permutation
        let (mut mstart, mut target, mut perm) = (filled(0, 0u32)?, filled(0, 0u32)?, filled(0, 0u8)?);
        let bound = moves_bound(regions.len(), k);
        mstart.try_reserve_exact(regions.len() + 1).map_err(|_| Status::MemoryLimit)?;
        target.try_reserve_exact(bound).map_err(|_| Status::MemoryLimit)?;
        perm.try_reserve_exact(bound).map_err(|_| Status::MemoryLimit)?;
        for (si, &(ci, reg)) in regions.iter().enumerate() {
            if si % 4096 == 0 {
                checks.check()?;
            }
            mstart.push(target.len() as u32);
            let a = combos[ci as usize];
            let mut from = a & spread(reg);
            while from != 0 {
                let c = from.trailing_zeros() as usize;
                from &= from - 1;
                let mut to = nbr[c] & reg;
                while to != 0 {
                    let r = to.trailing_zeros() as usize;
                    to &= to - 1;
                    let b = a ^ 1 << c ^ 1 << r;
                    let bi = rank.of(b);
                    target.push(base[bi] + u32::from(region_of[bi * cells + c]));
                    let i = (a & ((1u32 << c) - 1)).count_ones() as usize;
                    let j = (b & ((1u32 << r) - 1)).count_ones() as usize;
                    perm.push(if i == j { SAME } else { which[j][i] });
                }
            }
        }
        mstart.push(target.len() as u32);
        let goal_cells: u32 = tiles.iter().fold(0, |acc, &t| acc | 1 << (t - 1));
        for (t, &tile) in tiles.iter().enumerate() {
            q[t] = (goal_cells & ((1u32 << (tile - 1)) - 1)).count_ones() as u8;
        }
        let gi = rank.of(goal_cells);
        let goal = ((base[gi] + u32::from(region_of[gi * cells + cells - 1])) as usize, lehmer_rank(&q[..k], &fact));
        Ok(Space { k, cells, orders, words: orders.div_ceil(64), fact, combos, base, mstart, target, perm, perms, goal })
    }

    /// The sets of `k` of `n` x `n`'s cells and their regions (the states), before the moves.
    fn sets(n: usize, k: usize, checks: &mut Checks<'_>) -> Result<(Sets, Vec<(u32, u32)>), Status> {
        let cells = n * n;
        let mut binom = [[0usize; 9]; 33];
        for c in 0..33 {
            binom[c][0] = 1;
            for j in 1..9 {
                binom[c][j] = if c == 0 { 0 } else { binom[c - 1][j - 1] + binom[c - 1][j] };
            }
        }
        let rank = Binomials(binom);
        // the combinations in colex order: increasing as numbers (Gosper's hack)
        let mut combos = filled(0, 0u32)?;
        combos.try_reserve_exact(binom[cells][k]).map_err(|_| Status::MemoryLimit)?;
        let mut m: u32 = (1 << k) - 1;
        while u64::from(m) < 1u64 << cells {
            debug_assert_eq!(rank.of(m), combos.len());
            combos.push(m);
            let low = m & m.wrapping_neg();
            let up = m + low;
            m = (((up ^ m) >> 2) / low) | up;
        }
        let full = ((1u64 << cells) - 1) as u32;
        let nbr: Vec<u32> = (0..cells).map(|c| {
            let (row, col) = (c / n, c % n);
            let mut x = 0u32;
            if row > 0 { x |= 1 << (c - n); }
            if row + 1 < n { x |= 1 << (c + n); }
            if col > 0 { x |= 1 << (c - 1); }
            if col + 1 < n { x |= 1 << (c + 1); }
            x
        }).collect();
        let spread = |x: u32| {
            let (mut y, mut z) = (0, x);
            while z != 0 {
                y |= nbr[z.trailing_zeros() as usize];
                z &= z - 1;
            }
            y
        };
        // each combination's regions: the connected components of its free cells, numbered from the lowest cell
        let mut base = filled(0, 0u32)?;
        base.try_reserve_exact(combos.len() + 1).map_err(|_| Status::MemoryLimit)?;
        let mut region_of = filled(combos.len() * cells, 0u8)?;
        let mut regions: Vec<(u32, u32)> = filled(0, (0, 0))?; // (combination, region's cells) per state
        regions.try_reserve_exact(combos.len() + combos.len() / 2).map_err(|_| Status::MemoryLimit)?;
        for (ci, &a) in combos.iter().enumerate() {
            if ci % 4096 == 0 {
                checks.check()?;
            }
            base.push(regions.len() as u32);
            let free = full & !a;
            let (mut left, mut id) = (free, 0u8);
            while left != 0 {
                let mut reg = left & left.wrapping_neg();
                loop {
                    let grown = (reg | spread(reg)) & free;
                    if grown == reg {
                        break;
                    }
                    reg = grown;
                }
                let mut z = reg;
                while z != 0 {
                    region_of[ci * cells + z.trailing_zeros() as usize] = id;
                    z &= z - 1;
                }
                if regions.len() == regions.capacity() {
                    regions.try_reserve(regions.len() / 2).map_err(|_| Status::MemoryLimit)?;
                }
                regions.push((ci as u32, reg));
                left &= !reg;
                id += 1;
            }
        }
        base.push(regions.len() as u32);
        Ok((Sets { combos, base, region_of, nbr, rank }, regions))
    }

    fn states(&self) -> usize {
        self.mstart.len() - 1
    }
}

/// The combination ranks: `sum_j C(a_j, j + 1)` over the cells `a_0 < a_1 < ..` (colex).
struct Binomials([[usize; 9]; 33]);

impl Binomials {
    fn of(&self, m: u32) -> usize {
        let (mut r, mut j, mut x) = (0, 1, m);
        while x != 0 {
            r += self.0[x.trailing_zeros() as usize][j];
            j += 1;
            x &= x - 1;
        }
        r
    }
}

/// [`Space::sets`]: the combinations, per combination its first state and each cell's region, the cells'
/// neighbours, the ranking.
struct Sets {
    combos: Vec<u32>,
    base: Vec<u32>,
    region_of: Vec<u8>,
    nbr: Vec<u32>,
    rank: Binomials,
}

/// At most this many moves from `states` states of `k` tiles: each of the `k` tiles into at most 4 cells.
fn moves_bound(states: usize, k: usize) -> usize {
    states.saturating_mul(4 * k)
}

/// The bytes [`build`] charges for the group of `k` tiles on the `n` x `n` board (and the Python side reserves
/// before building: `sliding_tiles.native.build_bytes`): the space (its sets, regions, moves, at most
/// `4 k` a state, and permutations), and the larger of the search's buffers (three bitsets of `k!` bits a
/// state, the entries by set) and the copy's (the entries by set and the table).  The regions are counted
/// (a flood fill a set: milliseconds).
///
/// # Panics
///
/// A group [`takes`] refuses.
pub fn bytes(n: usize, k: usize) -> usize {
    assert!(takes(n, k), "3 to 8 tiles on a board of at most 25 cells");
    let (sets, regions) = Space::sets(n, k, &mut Checks::new(&Limiter::new())).expect("no limits");
    space_bytes(n, k, sets.combos.len(), regions.len())
}

/// [`bytes`] from the counts of sets and states.
fn space_bytes(n: usize, k: usize, sets: usize, states: usize) -> usize {
    let orders: usize = (1..=k).product();
    let (cells, words) = (n * n, orders.div_ceil(64));
    let pairs = (0..k).flat_map(|i| (0..k).map(move |j| (i, j))).filter(|&(i, j)| i != j && i.abs_diff(j) < n).count();
    let space = sets * (4 + 4 + cells) + states * (8 + 4) + moves_bound(states, k) * 5 + pairs * orders * 2;
    let kept = sets * orders;
    let search = 3 * states * words * 8 + kept;
    let copy = kept + count(cells, k) as usize;
    space + search.max(copy)
}

/// A piece of a layer: some consecutive combinations and what their owner writes.
struct Piece<'a> {
    first: usize,
    last: usize,
    cur: &'a mut [u64],
    live: &'a mut [u32],
    seen: &'a mut [u64],
    entry: &'a mut [u8],
}

/// What every thread reads in a layer.
struct Layer<'a> {
    space: &'a Space,
    cur: &'a [u64],
    live: &'a [u32],
    d: u8,
    reached: AtomicU64,
    any: AtomicBool,
    halt: AtomicBool,
}

impl Layer<'_> {
    /// Layer `d + 1` of the piece's states (module docs, "breadth-first, pulled").
    fn run(&self, p: Piece<'_>, acc: &mut [u64]) {
        let s = self.space;
        let (words, orders) = (s.words, s.orders);
        let mut reached = 0u64;
        let first_state = s.base[p.first] as usize;
        for ci in p.first..p.last {
            let entry = &mut p.entry[(ci - p.first) * orders..][..orders];
            for t in s.base[ci] as usize..s.base[ci + 1] as usize {
                let at = (t - first_state) * words;
                let mut has = false;
                acc.fill(0);
                for m in s.mstart[t] as usize..s.mstart[t + 1] as usize {
                    let from = s.target[m] as usize;
                    let live = self.live[from] as usize;
                    if live == 0 {
                        continue;
                    }
                    has = true;
                    let src = &self.cur[from * words..][..words];
                    let pm = s.perm[m];
                    if pm == SAME && live * 4 > words {
                        for (x, &y) in acc.iter_mut().zip(src) {
                            *x |= y;
                        }
                    } else if pm == SAME {
                        for (wi, &w) in src.iter().enumerate() {
                            let mut w = w;
                            while w != 0 {
                                let o = wi * 64 + w.trailing_zeros() as usize;
                                w &= w - 1;
                                acc[o >> 6] |= 1 << (o & 63);
                            }
                        }
                    } else {
                        let table = &s.perms[usize::from(pm)][..orders];
                        for (wi, &w) in src.iter().enumerate() {
                            let mut w = w;
                            while w != 0 {
                                let o = usize::from(table[wi * 64 + w.trailing_zeros() as usize]);
                                w &= w - 1;
                                acc[o >> 6] |= 1 << (o & 63);
                            }
                        }
                    }
                }
                let cur = &mut p.cur[at..][..words];
                let li = t - first_state;
                if !has {
                    if p.live[li] != 0 {
                        cur.fill(0);
                        p.live[li] = 0;
                    }
                    continue;
                }
                let seen = &mut p.seen[at..][..words];
                let mut new = 0u32;
                for (wi, ((c, sn), &x)) in cur.iter_mut().zip(seen.iter_mut()).zip(acc.iter()).enumerate() {
                    let nw = x & !*sn;
                    *sn |= nw;
                    *c = nw;
                    new += nw.count_ones();
                    let mut w = nw;
                    while w != 0 {
                        let e = &mut entry[wi * 64 + w.trailing_zeros() as usize];
                        w &= w - 1;
                        if *e == u8::MAX {
                            *e = self.d + 1;
                            reached += 1;
                        }
                    }
                }
                p.live[li] = new;
                if new > 0 {
                    self.any.store(true, Relaxed);
                }
            }
        }
        self.reached.fetch_add(reached, Relaxed);
    }
}

/// Fallibly, `n` copies of `x`.
fn filled<T: Copy>(n: usize, x: T) -> Result<Vec<T>, Status> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Status::MemoryLimit)?;
    v.resize(n, x);
    Ok(v)
}

/// The table of the group `tiles` on the `n` x `n` board, as [`crate::pdb::build_threads`] gives it, byte for
/// byte, built over sets of cells (module docs) on `threads` threads under `limiter` (its cancel flag, poll
/// hook and deadline, checked for every few combinations; its memory budget charged before anything big is
/// allocated, and every big buffer allocated fallibly).  `progress(reached, total)` is called after each layer.
///
/// # Errors
///
/// `Status::Cancelled`, `Status::TimeLimit` or `Status::MemoryLimit` from `limiter`.
///
/// # Panics
///
/// A group this builder does not take ([`takes`]), or tiles that are not distinct numbers `1 .. n*n-1`.
pub fn build(n: usize, tiles: &[u8], threads: usize, limiter: &Limiter, mut progress: impl FnMut(u64, u64))
             -> Result<Vec<u8>, Status> {
    assert!(takes(n, tiles.len()), "3 to 8 tiles on a board of at most 25 cells");
    assert!(tiles.iter().all(|&t| t >= 1 && usize::from(t) < n * n), "tiles 1 .. n*n-1");
    assert!((1..tiles.len()).all(|i| !tiles[..i].contains(&tiles[i])), "distinct tiles");
    let mut checks = Checks::new(limiter);
    checks.check()?;
    let k = tiles.len();
    let entries = count(n * n, k) as usize;
    // the sets and regions first (a few MB at most), then everything charged at once: the space, and the
    // larger of the search's and the copy's buffers ([`bytes`]); the table stays charged while it is held
    let (sets, regions) = Space::sets(n, k, &mut checks)?;
    let held = space_bytes(n, k, sets.combos.len(), regions.len()).max(entries);
    drop((sets, regions));
    let result = limiter.charge(held).and_then(|()| {
        let space = Space::new(n, tiles, &mut checks)?;
        let kept = search_layers(&space, threads, &mut checks, &mut progress, entries)?;
        checks.check()?;
        to_file_ranks(&space, &kept, threads, &mut checks)
    });
    limiter.release(if result.is_ok() { held - entries } else { held });
    result
}

/// The breadth-first layers (module docs): the entries per (set, order).
fn search_layers(space: &Space, threads: usize, checks: &mut Checks<'_>, progress: &mut impl FnMut(u64, u64),
                 entries: usize) -> Result<Vec<u8>, Status> {
    let (orders, words, states) = (space.orders, space.words, space.states());
    let mut cur = [filled(states * words, 0u64)?, filled(states * words, 0u64)?];
    checks.check()?;
    let mut live = [filled(states, 0u32)?, filled(states, 0u32)?];
    let mut seen = filled(states * words, 0u64)?;
    checks.check()?;
    let mut entry = filled(space.combos.len() * orders, u8::MAX)?;
    checks.check()?;
    let (gs, gq) = space.goal;
    cur[0][gs * words + gq / 64] |= 1 << (gq % 64);
    seen[gs * words + gq / 64] |= 1 << (gq % 64);
    live[0][gs] = 1;
    entry[combo_of(space, gs) * orders + gq] = 0;
    let threads = searchkit_core::limits::usable_threads(threads).min(searchkit_core::pdb::build::MAX_BUILD_THREADS);
    let mut reached = 1u64;
    let mut d = 0u8;
    loop {
        let [c0, c1] = &mut cur;
        let [l0, l1] = &mut live;
        let (read, write, lread, lwrite) = if d & 1 == 0 { (&*c0, c1, &*l0, l1) } else { (&*c1, c0, &*l1, l0) };
        let layer = Layer { space, cur: read, live: lread, d, reached: AtomicU64::new(0), any: AtomicBool::new(false),
                            halt: AtomicBool::new(false) };
        let pieces = Mutex::new(pieces(space, write, lwrite, &mut seen, &mut entry).into_iter());
        let work = |acc: &mut Vec<u64>| loop {
            if layer.halt.load(Relaxed) {
                break false;
            }
            let piece = pieces.lock().unwrap_or_else(|e| e.into_inner()).next();
            match piece {
                Some(p) => layer.run(p, acc),
                None => break true,
            }
        };
        let mut stop = None;
        std::thread::scope(|s| {
            for _ in 1..threads {
                let work = &work;
                // a thread that cannot be had leaves its share to the others
                let _ = std::thread::Builder::new().stack_size(searchkit_core::limits::THREAD_STACK)
                    .spawn_scoped(s, move || work(&mut vec![0u64; words]));
            }
            let mut acc = vec![0u64; words];
            loop {
                if let Err(e) = checks.check() {
                    stop = Some(e);
                    layer.halt.store(true, Relaxed);
                    break;
                }
                let piece = pieces.lock().unwrap_or_else(|e| e.into_inner()).next();
                match piece {
                    Some(p) => layer.run(p, &mut acc),
                    None => break,
                }
            }
        });
        if let Some(e) = stop {
            return Err(e);
        }
        reached += layer.reached.into_inner();
        progress(reached, entries as u64);
        if !layer.any.into_inner() {
            break;
        }
        d = d.checked_add(1).filter(|&x| x < u8::MAX - 1).expect("a distance above 254");
    }
    Ok(entry)
}

/// The combination of state `s`.
fn combo_of(space: &Space, s: usize) -> usize {
    space.base.partition_point(|&b| b as usize <= s) - 1
}

/// A layer's pieces: [`PIECE`] combinations each, with their parts of the buffers their owner writes.
fn pieces<'a>(space: &Space, cur: &'a mut [u64], live: &'a mut [u32], seen: &'a mut [u64], entry: &'a mut [u8])
              -> Vec<Piece<'a>> {
    let (words, orders, nc) = (space.words, space.orders, space.combos.len());
    let mut out = Vec::with_capacity(nc.div_ceil(PIECE));
    let (mut cur, mut live, mut seen, mut entry) = (cur, live, seen, entry);
    let mut first = 0;
    while first < nc {
        let last = (first + PIECE).min(nc);
        let states = (space.base[last] - space.base[first]) as usize;
        let (c, c_rest) = cur.split_at_mut(states * words);
        let (l, l_rest) = live.split_at_mut(states);
        let (s, s_rest) = seen.split_at_mut(states * words);
        let (e, e_rest) = entry.split_at_mut((last - first) * orders);
        out.push(Piece { first, last, cur: c, live: l, seen: s, entry: e });
        (cur, live, seen, entry) = (c_rest, l_rest, s_rest, e_rest);
        first = last;
    }
    out
}

/// The entries per (set, order) copied to the file's ranks (module docs, "the file's ranks"), a block of
/// `P(n*n - 2, k - 2)` entries (tiles 0 and 1 on given cells) at a time, on `threads` threads; `checks` made on
/// the calling thread between its blocks (a few milliseconds each), the other threads stopped with it.
fn to_file_ranks(space: &Space, kept: &[u8], threads: usize, checks: &mut Checks<'_>) -> Result<Vec<u8>, Status> {
    let (k, cells, orders) = (space.k, space.cells, space.orders);
    let w = weights(cells, k);
    let block = w[1] as usize;
    let mut table = filled(count(cells, k) as usize, 0u8)?;
    let blocks = Mutex::new(table.chunks_mut(block).enumerate());
    let halt = AtomicBool::new(false);
    let copy = |(b, out): (usize, &mut [u8])| {
        let (c0, d1) = (b / (cells - 1), b % (cells - 1));
        let c1 = d1 + usize::from(d1 >= c0);
        let need = 1u32 << c0 | 1u32 << c1;
        let mut at = [0usize; 8];
        for (ci, &set) in space.combos.iter().enumerate() {
            if set & need != need {
                continue;
            }
            let mut x = set;
            for slot in at.iter_mut().take(k) {
                *slot = x.trailing_zeros() as usize;
                x &= x - 1;
            }
            let p0 = (set & ((1u32 << c0) - 1)).count_ones() as usize;
            let p1 = (set & ((1u32 << c1) - 1)).count_ones() as usize;
            let q = p0 * space.fact[k - 1] + (p1 - usize::from(p1 > p0)) * space.fact[k - 2];
            let mut walk = Walk { k, at: &at, w: &w, kept: &kept[ci * orders..][..orders], q, out: &mut *out };
            walk.down(2, 1 << p0 | 1 << p1, 0);
        }
    };
    let next = || blocks.lock().unwrap_or_else(|e| e.into_inner()).next();
    let work = || {
        while !halt.load(Relaxed) {
            let Some(b) = next() else { break };
            copy(b);
        }
    };
    let threads = searchkit_core::limits::usable_threads(threads);
    let mut stop = None;
    std::thread::scope(|s| {
        for _ in 1..threads {
            let work = &work;
            let _ = std::thread::Builder::new().stack_size(searchkit_core::limits::THREAD_STACK).spawn_scoped(s, work);
        }
        loop {
            if let Err(e) = checks.check() {
                stop = Some(e);
                halt.store(true, Relaxed);
                break;
            }
            let Some(b) = next() else { break };
            copy(b);
        }
    });
    match stop {
        Some(e) => Err(e),
        None => Ok(table),
    }
}

/// The depth-first walk over the positions of tiles 2 .. k-1 of one set, in order rank order.
struct Walk<'a> {
    k: usize,
    /// the set's cells in cell order
    at: &'a [usize; 8],
    w: &'a [u64],
    /// the set's entries by order, and the next order's rank
    kept: &'a [u8],
    q: usize,
    /// the block of the table, and
    out: &'a mut [u8],
}

impl Walk<'_> {
    /// Tiles `t ..` on the positions not in `used`, `part` the file rank so far (within the block).
    fn down(&mut self, t: usize, used: u32, part: usize) {
        let (k, at) = (self.k, self.at);
        let digit = |p: u32| at[p as usize] - (used & ((1u32 << p) - 1)).count_ones() as usize;
        if t + 3 == k {
            // the last three tiles on positions a < b < c, in the orders' rank order (w[k-1] is 1)
            let left = !used & ((1u32 << k) - 1);
            let (a, b, c) = (left.trailing_zeros(), (left & (left - 1)).trailing_zeros(), 31 - left.leading_zeros());
            let (da, db, dc) = (digit(a), digit(b), digit(c));
            let (w2, w1) = (self.w[k - 3] as usize, self.w[k - 2] as usize);
            let kept = &self.kept[self.q..self.q + 6];
            let out = &mut *self.out;
            out[part + da * w2 + (db - 1) * w1 + dc - 2] = kept[0];
            out[part + da * w2 + (dc - 1) * w1 + db - 1] = kept[1];
            out[part + db * w2 + da * w1 + dc - 2] = kept[2];
            out[part + db * w2 + (dc - 1) * w1 + da] = kept[3];
            out[part + dc * w2 + da * w1 + db - 1] = kept[4];
            out[part + dc * w2 + db * w1 + da] = kept[5];
            self.q += 6;
            return;
        }
        if t == k {
            self.out[part] = self.kept[self.q];
            self.q += 1;
            return;
        }
        let mut left = !used & ((1u32 << k) - 1);
        while left != 0 {
            let p = left.trailing_zeros();
            left &= left - 1;
            self.down(t + 1, used | 1 << p, part + digit(p) * self.w[t] as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layered(n: usize, tiles: &[u8]) -> Vec<u8> {
        crate::pdb::build_layered(n, tiles, 1, &Limiter::new(), |_, _| {}).unwrap()
    }

    #[test]
    fn equals_the_layered_builder_on_every_board() {
        // every group size it takes on 2 x 2 to 5 x 5, goals in every corner, with and without the mirror
        let groups: [(usize, &[u8]); 14] = [
            (2, &[1, 2, 3]), (3, &[1, 2, 3]), (3, &[8, 6, 4, 2]), (3, &[1, 2, 3, 4, 5]), (3, &[7, 1, 5, 3, 2, 6]),
            (3, &[1, 2, 3, 4, 5, 6, 7]), (3, &[1, 2, 3, 4, 5, 6, 7, 8]), (4, &[13, 14, 15]), (4, &[1, 2, 3, 4, 5]),
            (4, &[9, 10, 13, 14, 15]), (4, &[6, 1, 11, 16 - 1]), (5, &[1, 2, 3]), (5, &[24, 1, 5, 20]),
            (5, &[7, 8, 12, 13]),
        ];
        for (n, tiles) in groups {
            let want = layered(n, tiles);
            for threads in [1, 2] {
                let got = build(n, tiles, threads, &Limiter::new(), |_, _| {}).unwrap();
                assert!(got == want, "{n} {tiles:?} on {threads} threads");
            }
        }
    }

    #[test]
    fn equals_the_layered_builder_on_drawn_groups() {
        // 40 groups drawn at random (a fixed xorshift): 3 x 3 of 3 to 8 tiles, 4 x 4 of 3 or 4
        let mut x = 0x9e37_79b9u32;
        let mut draw = |m: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % m
        };
        for i in 0..40 {
            let (n, k) = if i % 2 == 0 { (3, 3 + draw(6) as usize) } else { (4, 3 + draw(2) as usize) };
            let mut tiles: Vec<u8> = Vec::new();
            while tiles.len() < k {
                let t = 1 + draw((n * n - 1) as u32) as u8;
                if !tiles.contains(&t) {
                    tiles.push(t);
                }
            }
            let got = build(n, &tiles, 1 + i % 2, &Limiter::new(), |_, _| {}).unwrap();
            assert!(got == layered(n, &tiles), "{n} {tiles:?}");
        }
    }

    #[test]
    fn a_move_and_its_reverse_permute_the_orders_back() {
        let space = Space::new(4, &[1, 2, 3, 4, 5, 6, 7, 8], &mut Checks::new(&Limiter::new())).unwrap();
        assert_eq!((space.combos.len(), space.states(), space.perms.len()), (12_870, 35_347, 36));
        // every move's reverse is a move of its target back to it, with the inverse permutation
        for s in 0..space.states() {
            for m in space.mstart[s] as usize..space.mstart[s + 1] as usize {
                let t = space.target[m] as usize;
                let back: Vec<usize> = (space.mstart[t] as usize..space.mstart[t + 1] as usize)
                    .filter(|&b| space.target[b] as usize == s).collect();
                assert!(!back.is_empty(), "state {s}'s move {m} has no reverse");
                let there = space.perm[m];
                let inverse = back.iter().any(|&b| match (there, space.perm[b]) {
                    (SAME, SAME) => true,
                    (SAME, _) | (_, SAME) => false,
                    (x, y) => (0..space.orders).all(|o| {
                        usize::from(space.perms[usize::from(y)][usize::from(space.perms[usize::from(x)][o])]) == o
                    }),
                });
                assert!(inverse, "state {s}'s move {m}");
            }
        }
    }

    #[test]
    fn what_it_charges_covers_what_it_holds() {
        // the 15-puzzle's tables and the 24-puzzle's 6-tile ones: the search's buffers or the copy's, whichever
        // is larger, and the space; the table alone is less
        for (n, k, sets, states) in [(4, 8, 12_870, 35_347), (4, 7, 11_440, 27_748)] {
            let space = Space::new(n, &(1..=k as u8).collect::<Vec<_>>(), &mut Checks::new(&Limiter::new())).unwrap();
            assert_eq!((space.combos.len(), space.states()), (sets, states));
            let need = bytes(n, k);
            let buffers = (3 * states * space.words * 8 + sets * space.orders).max(sets * space.orders + count(n * n, k) as usize);
            let moves = space.target.len() * 5 + space.mstart.len() * 4;
            assert!(need >= buffers + moves && need < buffers + buffers / 20, "{n} {k}: {need} against {buffers}");
        }
    }

    #[test]
    fn limits_stop_it_and_give_the_memory_back() {
        let mut limiter = Limiter::new();
        limiter.cancel = Some(std::sync::Arc::new(AtomicBool::new(true)));
        assert_eq!(build(4, &[1, 2, 3, 4, 5], 2, &limiter, |_, _| {}), Err(Status::Cancelled));
        let mut limiter = Limiter::new();
        limiter.deadline = Some(std::time::Instant::now());
        assert_eq!(build(4, &[1, 2, 3, 4, 5], 1, &limiter, |_, _| {}), Err(Status::TimeLimit));
        // cancelled during a layer: from the progress hook of the layer before
        let mut limiter = Limiter::new();
        let flag = std::sync::Arc::new(AtomicBool::new(false));
        limiter.cancel = Some(flag.clone());
        let mut layers = 0;
        let stopped = build(4, &[1, 2, 3, 4, 5], 2, &limiter, |_, _| {
            layers += 1;
            flag.store(layers == 3, Relaxed);
        });
        assert_eq!((stopped, layers), (Err(Status::Cancelled), 3));
        // the 8-tile table needs about 1 GB: refused under 100 MB, before anything is allocated
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(100 << 20);
        assert_eq!(build(4, &[1, 2, 3, 4, 5, 6, 7, 8], 2, &limiter, |_, _| {}), Err(Status::MemoryLimit));
        assert_eq!(limiter.bytes_used(), 0);
        // a byte short of what it charges (`bytes`, which the Python side reserves), then just enough: the table
        // stays charged while it is held
        let need = bytes(4, 5);
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(need - 1);
        assert_eq!(build(4, &[1, 2, 3, 4, 5], 1, &limiter, |_, _| {}), Err(Status::MemoryLimit));
        assert_eq!(limiter.bytes_used(), 0);
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(need);
        let v = build(4, &[1, 2, 3, 4, 5], 1, &limiter, |_, _| {}).unwrap();
        assert_eq!(limiter.bytes_used(), v.len());
        // cancelled while the entries are copied into the file's ranks (the last layer's progress sets it)
        let mut limiter = Limiter::new();
        let flag = std::sync::Arc::new(AtomicBool::new(false));
        limiter.cancel = Some(flag.clone());
        let stopped = build(4, &[1, 2, 3, 4, 5], 2, &limiter, |reached, total| flag.store(reached == total, Relaxed));
        assert_eq!(stopped, Err(Status::Cancelled));
        assert_eq!(limiter.bytes_used(), 0);
    }
}
