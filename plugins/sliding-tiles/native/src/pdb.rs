//! Pattern databases for sliding tiles: the puzzle's abstraction for the core's layered builder
//! (`searchkit_core::pdb`, which also holds the file format, its checksum and permutation ranking).
//!
//! **Table** (the Python builder's definition, `searchkit/machinery/pdb/build.py` with the plugin's
//! `TileAbstraction`): entry `rank(cells)` is the least number of moves of the group's tiles that bring the
//! group home with the blank on the last cell, over every cell of the blank (moves of other tiles are
//! free).  The ranks are the core's ranking of the tiles' cells, `(p_0 .. p_{k-1})` a k-permutation of the
//! `n*n` cells.
//!
//! **The abstraction** ([`TileAbstraction`] for the core's [`Abstraction`]): an entry is a placement of the group's
//! tiles, its sub-states the `f = n*n - k` free cells (the blank's), numbered in cell order.  With the group's
//! tiles placed, the blank moves for free inside its connected region of the free cells, so a region is a flood
//! fill of the seeds (a 32-bit cell mask); a group tile next to the region moving into it gives a
//! predecessor, the placement with that tile moved and the blank on the tile's old cell (moves are their own
//! reverse).  The goal is the group home with the blank on the last cell.  The core's builder does the
//! layers, the two bits per free cell and the prefetching (its module docs); this crate keeps what is the
//! puzzle's and the speed that comes from it:
//!
//! * **decoding by blocks**: the frontier is scanned in rank order, so of the first `s` digits of a rank, digit
//!   `t` is kept while the rank stays in the block of `w[t]` placements that digits 0 ..= t fix, and only the
//!   digits from the first block left are decoded again; the last two come from a table.
//! * **incremental ranks**: a predecessor's rank is its parent's changed by the moved tile's digit (and, for a
//!   vertical move, the digits of the later tiles stepped over), without ranking it again.  Because the scan
//!   is in rank order, a child moving a late tile lands near its parent (tile `i` keeps the digits before `i`:
//!   a block of `P(n*n-1-(i-1), k-i)` placements); children moving the first tiles land far away.  (Gathering
//!   those and applying them after a counting sort by their rank's high bits, in ascending blocks, cost more
//!   than the cache misses it saved: docs/pdb.md.)
//! * **the twin's rank in part**: with the mirror, the image's first tiles are often the images of tiles among
//!   those decoded by blocks (for the group of tiles 1..8, the image's tiles of indices 0-3 are the images of
//!   those of indices 3-0), so their part of the image's rank is kept until such a digit is decoded again, and
//!   only the rest is ranked (8-tile table: 43.0 -> 41.6 s user, two runs each in turns).
//! * **the board side as a constant** (the flood fill's masks and the moves' loops unroll) and **BMI2**
//!   (`pdep`/`pext` for the masks over the free cells), chosen when the CPU has it; the core's builder loop is
//!   compiled into the same function.
//!
//! **The mirror** ([`Mirror`]).  Let `M` be the left-right mirror of the board and suppose the group is closed
//! under it (tile `t`'s goal mirrored is the goal of a group tile `t'`; `pi(i)` is the index of `t'`) and so
//! is the blank's region in the goal (the free cells connected to the last cell): the 7-8 partition's 8-tile
//! group 1..8, the top two rows, whose goal region is the bottom two rows.  Map a state (placement `p`, blank
//! cell `b`) to its image, the placement `p'` with `p'[pi(i)] = M(p[i])` and the blank on `M(b)`.  The image of a
//! move is a move of the image tile (M maps neighbours to neighbours), of a group tile exactly when the move is,
//! so of the same cost; the map is its own inverse, and it maps the goal states (the group home, the blank in
//! the goal region) onto themselves.  So it is an automorphism of the 0/1-cost graph fixing the goal set: a
//! state and its image have the same distance, and the entry of `p` (the least over its blank cells) equals
//! that of `p'`.  The builder therefore searches the quotient: a placement is *canonical* when its rank is at
//! most its image's, only canonical placements hold seeds, a predecessor whose placement is not canonical is
//! pushed as its image (the image placement, the blank's cell mirrored), and when a placement's entry is set,
//! so is its image's (the abstraction's `twin`).  Breadth-first search on the quotient of a graph by an
//! automorphism group that fixes the goal set gives each class its distance, so every entry is the plain
//! search's.  Rank order is the lexicographic order of the cells, so the test compares the cells packed as
//! nibbles (tile 0 highest) with the image's.  A canonical parent's cells first differ from its image's at some
//! tile `a`, where the parent's is lower; a move of tile `i` changes only tile `i`'s cell in the placement and
//! tile `pi(i)`'s in the image, so when both `i` and `pi(i)` come after `a` the child still ranks strictly below
//! its image, canonical without a test (for tiles 1..8, mostly `a = 0`, and then only the moves of tiles 1 and
//! 4 are tested, since `pi` swaps 1<->4, 2<->3).  Half the placements are expanded, and half the words are
//! touched (the others' pages are never written, so never allocated, and the builder backs only the pages of
//! canonical placements before the first layer: `writes`).

use searchkit_core::pdb::{self, count, rank, weights, Abstraction, Children, Ran, Share, Word};
use searchkit_core::{Limiter, Status};

/// The rank of the placement packed as nibbles, tile `i`'s cell at bit `nib[i]` (a field of `mask`'s bits:
/// four on boards up to 4 x 4, five on 5 x 5).
#[inline]
fn rank_nibbles(packed: u64, w: &[u64], nib: &[u32], mask: u64) -> u64 {
    rank_nibbles_from(packed, w, nib, mask, 0, 0).0
}

/// [`rank_nibbles`] of the tiles whose nibbles and weights are `nib` and `w`, after tiles that gave the part
/// `r` of the rank and hold the cells `used`: the whole rank, and the cells then used.
#[inline(always)]
fn rank_nibbles_from(packed: u64, w: &[u64], nib: &[u32], mask: u64, mut r: u64, mut used: u32) -> (u64, u32) {
    for (&s, &wi) in nib.iter().zip(w) {
        let c = ((packed >> s) & mask) as u32;
        r += u64::from(c - (used & ((1u32 << c) - 1)).count_ones()) * wi;
        used |= 1 << c;
    }
    (r, used)
}

/// [`pdb::build::apply_kids`] compiled with BMI2's shifts (only reached from [`build_bmi2`], which checks the
/// CPU has them).
///
/// # Safety
///
/// As [`pdb::build::apply_kids`], on a CPU with BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[inline(never)]
unsafe fn apply_kids_bmi2<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
    // SAFETY: the caller's promise
    unsafe { pdb::build::apply_kids(word, nextbits, f, next, kids) }
}

/// [`Share::run`] (a thread's part of a layer of the core's parallel builder) compiled with `popcnt` and
/// BMI1/2, as [`build_bmi2`] compiles the one-thread builder: the thread's loop is inlined here (a thread's
/// body is a function of its own, which would otherwise be compiled for the default x86-64 target).
///
/// # Safety
///
/// The CPU has popcnt, BMI1 and BMI2 (only reached from [`build_bmi2`], which checks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
#[inline(never)]
unsafe fn run_share_bmi2<T: Word, A: Abstraction>(share: Share<'_, T, A>) -> Ran {
    share.run()
}

/// The table of the group `tiles` (tile numbers, goal `1 .. n*n-1` row-major then the blank) on the
/// `n` x `n` board: `P(n*n, k)` entries, the Python builder's numbers (module docs), built on one thread
/// ([`build_threads`]) under `limiter` (its cancel flag, deadline and memory budget).
///
/// `progress(reached, total)` is called after each layer.
///
/// # Errors
///
/// `Status::Cancelled`, `Status::TimeLimit` or `Status::MemoryLimit` from `limiter`.
///
/// # Panics
///
/// A board side outside 2 to 5, or tiles that are not distinct numbers `1 .. n*n-1` (the caller checks).
pub fn build(n: usize, tiles: &[u8], limiter: &Limiter, progress: impl FnMut(u64, u64))
             -> Result<Vec<u8>, Status> {
    build_threads(n, tiles, 1, limiter, progress)
}

/// [`build`] on `threads` threads: the same table, byte for byte, at every thread count.  Groups of 3 to 8
/// tiles are built over sets of cells ([`crate::sets`], several times faster), the others by
/// [`build_layered`].
pub fn build_threads(n: usize, tiles: &[u8], threads: usize, limiter: &Limiter, progress: impl FnMut(u64, u64))
                     -> Result<Vec<u8>, Status> {
    if crate::sets::takes(n, tiles.len()) {
        return crate::sets::build(n, tiles, threads, limiter, progress);
    }
    build_layered(n, tiles, threads, limiter, progress)
}

/// [`build_threads`] by the core's layered builder over [`TileAbstraction`] (its parallel builder,
/// `searchkit_core::pdb::build::build_threads`, on more than one thread), whatever the group: the oracle of
/// [`crate::sets`] in the tests, and the builder the benchmarks compare it with.
pub fn build_layered(n: usize, tiles: &[u8], threads: usize, limiter: &Limiter, progress: impl FnMut(u64, u64))
                     -> Result<Vec<u8>, Status> {
    build_with(n, tiles, true, threads, limiter, progress)
}

/// [`build`] with or without a group's mirror symmetry (the tests try both; neither changes an entry).
fn build_with(n: usize, tiles: &[u8], sym: bool, threads: usize, limiter: &Limiter,
              progress: impl FnMut(u64, u64)) -> Result<Vec<u8>, Status> {
    assert!((2..=5).contains(&n), "boards of side 2 to 5");
    let cells = n * n;
    let k = tiles.len();
    assert!(k >= 1 && k < cells && tiles.iter().all(|&t| t >= 1 && (t as usize) < cells));
    assert!((1..k).all(|i| !tiles[..i].contains(&tiles[i])), "distinct tiles");
    let mirror = if sym { Mirror::of(n, tiles) } else { None };
    match 2 * (cells - k) {
        0..=16 => dispatch::<u16>(n, tiles, mirror, threads, limiter, progress),
        17..=32 => dispatch::<u32>(n, tiles, mirror, threads, limiter, progress),
        _ => dispatch::<u64>(n, tiles, mirror, threads, limiter, progress),
    }
}

/// The left-right mirror of a group whose table it leaves unchanged (module docs, "the mirror").
#[derive(Clone, Copy)]
struct Mirror {
    /// the mirror image of each cell (`n*n` of them)
    cell: [u8; 32],
    /// per tile index `i`, the index of the tile whose goal is the mirror of tile `i`'s
    tile: [u8; 32],
}

impl Mirror {
    /// The mirror of the group `tiles` on the `n` x `n` board, if it maps the table onto itself: the group
    /// is closed under the mirror (each tile's goal mirrored is a group tile's goal) and so is the blank's
    /// region in the goal (the free cells connected to the last cell).
    fn of(n: usize, tiles: &[u8]) -> Option<Mirror> {
        let cells = n * n;
        let mut m = Mirror { cell: [0; 32], tile: [0; 32] };
        for c in 0..cells {
            m.cell[c] = (c - c % n + (n - 1 - c % n)) as u8;
        }
        for (i, &t) in tiles.iter().enumerate() {
            let image = m.cell[usize::from(t - 1)] + 1;
            m.tile[i] = tiles.iter().position(|&u| u == image)? as u8;
        }
        let used: u32 = tiles.iter().fold(0, |acc, &t| acc | 1 << (t - 1));
        let mut region = 1u32 << (cells - 1);
        loop {
            let mut grown = region;
            for c in 0..cells {
                if region >> c & 1 != 0 {
                    for d in 0..cells {
                        let (r1, c1, r2, c2) = (c / n, c % n, d / n, d % n);
                        if r1.abs_diff(r2) + c1.abs_diff(c2) == 1 && used >> d & 1 == 0 {
                            grown |= 1 << d;
                        }
                    }
                }
            }
            if grown == region {
                break;
            }
            region = grown;
        }
        let mirrored = (0..cells).filter(|&c| region >> c & 1 != 0).fold(0u32, |acc, c| acc | 1 << m.cell[c]);
        (mirrored == region).then_some(m)
    }
}

/// [`side`] in the fastest variant the CPU runs.
fn dispatch<T: Word>(n: usize, tiles: &[u8], mirror: Option<Mirror>, threads: usize, limiter: &Limiter,
                     progress: impl FnMut(u64, u64)) -> Result<Vec<u8>, Status> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has the instructions the function is compiled for (checked just above).
        return unsafe { build_bmi2::<T>(n, tiles, mirror, threads, limiter, progress) };
    }
    side::<T, Soft>(n, tiles, mirror, threads, limiter, progress)
}

/// [`side`] compiled with `popcnt` and BMI1/2 (`pdep`/`pext` for the masks over the free cells, `tzcnt`,
/// `blsr`; otherwise loops of a dozen instructions each), the core's builder loop with it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
unsafe fn build_bmi2<T: Word>(n: usize, tiles: &[u8], mirror: Option<Mirror>, threads: usize, limiter: &Limiter,
                              progress: impl FnMut(u64, u64)) -> Result<Vec<u8>, Status> {
    side::<T, Bmi2>(n, tiles, mirror, threads, limiter, progress)
}

/// The core's builder over [`TileAbstraction`] for the board side `n` as a constant (the flood fill's masks and the
/// moves' loops then unroll), all compiled into one function.
#[inline(always)]
fn side<T: Word, B: Bits>(n: usize, tiles: &[u8], mirror: Option<Mirror>, threads: usize, limiter: &Limiter,
                          progress: impl FnMut(u64, u64)) -> Result<Vec<u8>, Status> {
    if threads > 1 {
        return match n {
            2 => pdb::build_threads::<T, _>(&mut TileAbstraction::<B, 2>::new(tiles, mirror), limiter, threads, progress),
            3 => pdb::build_threads::<T, _>(&mut TileAbstraction::<B, 3>::new(tiles, mirror), limiter, threads, progress),
            4 => pdb::build_threads::<T, _>(&mut TileAbstraction::<B, 4>::new(tiles, mirror), limiter, threads, progress),
            _ => pdb::build_threads::<T, _>(&mut TileAbstraction::<B, 5>::new(tiles, mirror), limiter, threads, progress),
        };
    }
    match n {
        2 => pdb::build_in::<T, _>(&mut TileAbstraction::<B, 2>::new(tiles, mirror), limiter, progress),
        3 => pdb::build_in::<T, _>(&mut TileAbstraction::<B, 3>::new(tiles, mirror), limiter, progress),
        4 => pdb::build_in::<T, _>(&mut TileAbstraction::<B, 4>::new(tiles, mirror), limiter, progress),
        _ => pdb::build_in::<T, _>(&mut TileAbstraction::<B, 5>::new(tiles, mirror), limiter, progress),
    }
}

/// Masks over a placement's free cells: `deposit(x, m)` puts bit `j` of `x` on the `j`-th set bit of `m`,
/// `extract` is its inverse on the bits of `m` (the x86 `pdep`/`pext`).
trait Bits: Clone + Send {
    fn deposit(x: u32, m: u32) -> u32;
    fn extract(x: u32, m: u32) -> u32;
    /// The `d`-th set bit of `m` (lowest first).
    #[inline(always)]
    fn select(m: u32, d: u32) -> u32 {
        Self::deposit(1 << d, m).trailing_zeros()
    }
    /// The core's `apply_kids` for this variant, not inlined: in the builder's loop its pointers would be
    /// spilled to the stack and read again for every child.
    ///
    /// # Safety
    ///
    /// As [`pdb::build::apply_kids`].
    #[inline(always)]
    unsafe fn apply_all<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise
        unsafe { pdb::build::apply_kids_outlined(word, nextbits, f, next, kids) }
    }

    /// A thread's part of a layer of the core's parallel builder, compiled for this variant's instructions.
    #[inline(always)]
    fn run_share<T: Word, A: Abstraction>(share: Share<'_, T, A>) -> Ran {
        share.run()
    }
}

/// [`Bits`] by loops over the set bits.
#[derive(Clone)]
struct Soft;

impl Bits for Soft {
    #[inline(always)]
    fn deposit(mut x: u32, mut m: u32) -> u32 {
        let mut out = 0;
        while x != 0 {
            let low = m & m.wrapping_neg();
            if x & 1 != 0 {
                out |= low;
            }
            m ^= low;
            x >>= 1;
        }
        out
    }
    #[inline(always)]
    fn extract(x: u32, m: u32) -> u32 {
        let mut out = 0;
        let mut bits = x & m;
        while bits != 0 {
            let c = bits.trailing_zeros();
            bits &= bits - 1;
            out |= 1 << (m & ((1u32 << c) - 1)).count_ones();
        }
        out
    }
}

/// [`Bits`] by the BMI2 instructions (only inside [`build_bmi2`], which checks the CPU has them).
#[cfg(target_arch = "x86_64")]
#[derive(Clone)]
struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn deposit(x: u32, m: u32) -> u32 {
        // SAFETY: reached only from `build_bmi2`, run only on CPUs with BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(x, m) }
    }
    #[inline(always)]
    fn extract(x: u32, m: u32) -> u32 {
        // SAFETY: as in `deposit`.
        unsafe { std::arch::x86_64::_pext_u32(x, m) }
    }
    #[inline(always)]
    unsafe fn apply_all<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise, and reached only from `build_bmi2`, run only on CPUs with BMI2
        unsafe { apply_kids_bmi2(word, nextbits, f, next, kids) }
    }
    #[inline(always)]
    fn run_share<T: Word, A: Abstraction>(share: Share<'_, T, A>) -> Ran {
        // SAFETY: reached only from `build_bmi2`'s builder, run only on CPUs with popcnt, BMI1 and BMI2
        unsafe { run_share_bmi2(share) }
    }
}

/// The left column's cells of the `n` x `n` board.
const fn left_col(n: usize) -> u32 {
    let mut m = 0u32;
    let mut r = 0;
    while r < n {
        m |= 1 << (r * n);
        r += 1;
    }
    m
}

/// A group's abstraction for the core's builder (module docs, "the abstraction"), on the board of side `N`,
/// with the masks over the free cells by `B`; it keeps the placement last closed, decoded, for its
/// predecessors.
#[derive(Clone)]
struct TileAbstraction<B, const N: usize> {
    k: usize,
    f: u32,
    w: Vec<u64>,
    entries: usize,
    goal: (usize, u32),
    mirror: bool,
    /// tile i's nibble in a placement packed as nibbles, tile 0 highest (the mirror's test, module docs)
    nib: [u32; 32],
    /// tile i's cell mirrored is tile `m.tile[i]`'s in the image: its nibble there
    image_nib: [u32; 32],
    /// The tiles whose moves are tested against the mirror: a move of tile `i` changes the first
    /// `before(i) = min(i, pi(i))` tiles' cells of neither the placement nor its image, so it is tested when
    /// `before(i)` is at most the first tile where the two differ, `f0` (module docs, "the mirror").  The tile
    /// indices by `before` ascending, and per `f0 <= k` how many of them have `before <= f0`, so the tested
    /// tiles are a prefix (none without the mirror).
    by_before: [u8; 32],
    upto: [u8; 33],
    /// each cell mirrored (each cell itself without the mirror)
    mcell: [u8; 32],
    // Decoding a rank (module docs, "decoding by blocks"): of the first `s` digits, digit `t` is kept while the
    // rank stays in the block of `w[t]` placements that digits 0 ..= t fix (it starts at `start[t]`), so only
    // the digits from the first block left are decoded again; the last ones come from the table `low`.
    s: usize,
    tail: usize,
    low: Vec<[u8; 2]>,
    start: [usize; 32],
    /// per prefix length t <= s, with the first t tiles decoded: the cells packed as nibbles (tile 0 highest,
    /// so that numeric order is rank order), those of the mirror image, and the image's used cells
    pk: [u64; 32],
    im: [u64; 32],
    iu: [u32; 32],
    /// per used cell the index of its tile (read only by the mirror's test), its weight and the cells of the
    /// tiles before it; per tile `t <= s` the cells of the tiles before it; kept with the decoded digits, never
    /// cleared: only used cells are read (a mover's cell, and `wcell` masked by `passed`)
    tile_at: [u8; 32],
    wcell: [u64; 32],
    ecell: [u32; 32],
    earlier: [u32; 32],
    // the placement last closed: its rank, used and free cells, the region, the nibbles of it and its image,
    // the image's used cells, and the first tile whose cell differs from the image's
    r: usize,
    used: u32,
    free: u32,
    region: u32,
    packed: u64,
    image: u64,
    image_used: u32,
    first: usize,
    /// The image's rank is kept in part (the twin's rank, [`rank_nibbles_from`]): the image's first `lead`
    /// tiles are the images of the placement's tiles before `needs` (`needs <= s`, so they change only when
    /// the decoding by blocks redoes a digit before `needs`: a tile's cell depends only on its digit and those
    /// before it); their part of the rank and their cells, or `lead_stale` when those are to be worked out
    /// again.  Why the image's tile `u` is the image of tile `m.tile[u]`: tile `i`'s image is the image's tile
    /// `m.tile[i]` (`image_nib`), and `m.tile` is its own inverse (the mirror is), so the image's tile `u` is
    /// the image of tile `m.tile[u]`.  Taking the longest `lead` whose tiles all come from tiles before `s`
    /// means the tiles decoded from the table `low` (indices `s` on) only ever feed the image's tiles from
    /// `lead` on, which are ranked every time.
    lead: usize,
    needs: usize,
    lead_rank: u64,
    lead_used: u32,
    lead_stale: bool,
    _bits: std::marker::PhantomData<B>,
}

impl<B: Bits, const N: usize> TileAbstraction<B, N> {
    const CELLS: usize = N * N;
    const FULL: u32 = (1u32 << (N * N)) - 1;
    const LEFT: u32 = left_col(N);
    const RIGHT: u32 = left_col(N) << (N - 1);
    /// The bits of a cell in a placement packed as "nibbles": four up to 16 cells, five for 25.
    const NIB: u32 = if N * N > 16 { 5 } else { 4 };
    const NIB_MASK: u64 = (1 << Self::NIB) - 1;

    /// The cells next to the cells of `m`.
    #[inline(always)]
    fn spread(m: u32) -> u32 {
        let nn = N as u32;
        ((m << nn) | (m >> nn) | ((m & !Self::RIGHT) << 1) | ((m & !Self::LEFT) >> 1)) & Self::FULL
    }

    #[inline(always)]
    fn new(tiles: &[u8], mirror: Option<Mirror>) -> Self {
        let cells = Self::CELLS;
        let k = tiles.len();
        let f = (cells - k) as u32;
        let w = weights(cells, k);
        let entries = count(cells, k) as usize;
        assert!(k * Self::NIB as usize <= 64, "a placement packed in 64 bits");
        let mut nib = [0u32; 32];
        for (i, x) in nib[..k].iter_mut().enumerate() {
            *x = Self::NIB * (k - 1 - i) as u32;
        }
        let mut image_nib = [0u32; 32];
        // `before(i)` (read only with the mirror)
        let mut before = [32u8; 32];
        if let Some(m) = mirror {
            for (i, x) in image_nib[..k].iter_mut().enumerate() {
                *x = nib[usize::from(m.tile[i])];
                before[i] = m.tile[i].min(i as u8);
            }
        }
        let mut by_before = [0u8; 32];
        let mut upto = [0u8; 33];
        if mirror.is_some() {
            let mut order: Vec<u8> = (0..k as u8).collect();
            order.sort_by_key(|&i| before[usize::from(i)]);
            by_before[..k].copy_from_slice(&order);
            for (f0, x) in upto[..=k].iter_mut().enumerate() {
                *x = order.iter().filter(|&&i| usize::from(before[usize::from(i)]) <= f0).count() as u8;
            }
        }
        let s = k.saturating_sub(2);
        let tail = if s == 0 { entries } else { w[s - 1] as usize };
        let low: Vec<[u8; 2]> = (0..tail as u64)
            .map(|mut rem| {
                let mut dg = [0u8; 2];
                for (slot, &wi) in w[s..].iter().enumerate() {
                    dg[slot] = (rem / wi) as u8;
                    rem %= wi;
                }
                dg
            })
            .collect();
        // the longest lead of image tiles that are images of tiles among the first `s` (decoded by blocks)
        let (mut lead, mut needs) = (0, 0);
        if let Some(m) = mirror {
            let mut most = 0;
            for u in 1..=k {
                most = most.max(usize::from(m.tile[u - 1]) + 1);
                if most <= s {
                    (lead, needs) = (u, most);
                }
            }
        }
        let mut mcell = [0u8; 32];
        for (c, x) in mcell.iter_mut().enumerate() {
            *x = mirror.map_or(c as u8, |m| m.cell[c]);
        }
        // the goal: the group home, the blank on the last cell (its index among the free cells)
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        let rg = rank(&goal, &w) as usize;
        let goal_used: u32 = goal.iter().fold(0, |m, &c| m | 1 << c);
        let j0 = (Self::FULL & !goal_used & ((1u32 << (cells - 1)) - 1)).count_ones();
        TileAbstraction {
            k, f, w, entries, goal: (rg, j0), mirror: mirror.is_some(), nib, image_nib,
            by_before, upto, mcell, s, tail, low, start: [usize::MAX / 2; 32], pk: [0; 32], im: [0; 32], iu: [0; 32],
            tile_at: [0; 32], wcell: [0; 32], ecell: [0; 32], earlier: [0; 32], r: 0, used: 0, free: 0, region: 0,
            packed: 0, image: 0, image_used: 0, first: 0, lead, needs, lead_rank: 0, lead_used: 0, lead_stale: true,
            _bits: std::marker::PhantomData,
        }
    }
}

impl<B: Bits, const N: usize> TileAbstraction<B, N> {
    /// Whether placement `r` (below `entries`) ranks at most its mirror image (module docs, "the mirror"; read
    /// only with the mirror).
    fn canonical(&self, r: usize) -> bool {
        let mut at = [0u8; 32];
        pdb::unrank(r as u64, &self.w, &mut at[..self.k]);
        let (mut packed, mut image) = (0u64, 0u64);
        for (t, &c) in at[..self.k].iter().enumerate() {
            packed |= u64::from(c) << self.nib[t];
            image |= u64::from(self.mcell[usize::from(c)]) << self.image_nib[t];
        }
        packed <= image
    }

    /// The children of the tiles on the cells `movers`, each moving one step in direction `DIR` (0 left,
    /// 1 right, 2 up, 3 down) into the region of the last `close`; with `CHECK`, each tested against the
    /// mirror (pushed as the image when that ranks lower).
    #[inline(always)]
    fn moves<T: Word, const DIR: u8, const CHECK: bool>(&self, mut movers: u32, out: &mut Children<'_, T>) {
        let (r, used, free) = (self.r, self.used, self.free);
        let n = N as u32;
        while movers != 0 {
            let p = movers.trailing_zeros() & 31;
            movers &= movers - 1;
            let (wi, at_p) = (self.wcell[p as usize], 1u32 << p);
            // the child's blank cell p among its free cells: p's index among ours, less one when the tile moves
            // to a lower cell (that cell is no longer free)
            let jp = (free & (at_p - 1)).count_ones();
            // up or down: the mover's digit moves by one for the step and one per cell stepped over that is free
            // or a later tile's; each later tile j stepped over moves its own digit by one (its count of earlier
            // cells below it changes), so the rank by w[j]
            let vertical = |lo: u32| {
                let between = ((1u32 << (N - 1)) - 1) << (lo + 1);
                let earlier = self.ecell[p as usize];
                let passed = between & used & !earlier;
                let mut delta = wi * u64::from(1 + (between & !earlier).count_ones());
                for t in 1..n {
                    let c = (lo + t) & 31;
                    delta += self.wcell[c as usize] & u64::from((passed >> c) & 1).wrapping_neg();
                }
                delta as usize
            };
            let (q, mut r2, mut j) = match DIR {
                0 => (p - 1, r - wi as usize, jp - 1),
                1 => (p + 1, r + wi as usize, jp),
                2 => (p - n, r - vertical(p - n), jp - 1),
                _ => (p + n, r + vertical(p), jp),
            };
            if CHECK {
                let i = self.tile_at[p as usize] as usize & 31;
                // tile i from p to q: if the child's image ranks lower, push the image instead
                let (mp, mq) = (u32::from(self.mcell[p as usize]), u32::from(self.mcell[q as usize]));
                let others = self.packed & !(Self::NIB_MASK << self.nib[i]);
                let image_others = self.image & !(Self::NIB_MASK << self.image_nib[i]);
                let child = others | u64::from(q) << self.nib[i];
                let child_image = image_others | u64::from(mq) << self.image_nib[i];
                if child_image < child {
                    r2 = rank_nibbles(child_image, &self.w, &self.nib[..self.k], Self::NIB_MASK) as usize;
                    let image_free = Self::FULL & !(self.image_used ^ (1 << mp) ^ (1 << mq));
                    j = (image_free & ((1 << mp) - 1)).count_ones();
                }
            }
            out.push(r2, j);
        }
    }
}

impl<B: Bits, const N: usize> Abstraction for TileAbstraction<B, N> {
    #[inline(always)]
    fn entries(&self) -> usize {
        self.entries
    }

    #[inline(always)]
    fn substates(&self) -> u32 {
        self.f
    }

    fn goals(&self) -> Vec<(usize, u32)> {
        vec![self.goal]
    }

    /// Decode placement `r` (by blocks), flood-fill the blank's region from the seeds, and note where the
    /// placement and its mirror image first differ.
    #[inline(always)]
    fn close(&mut self, r: usize, seeds: u64) -> u64 {
        let (k, s, w) = (self.k, self.s, &self.w);
        let full = Self::FULL;
        // decode r into the per-cell and per-tile tables, the used cells and the nibbles
        let block_start = if s == 0 {
            0
        } else {
            if r.wrapping_sub(self.start[s - 1]) >= self.tail {
                // the first digit whose block r left (the blocks nest; with the scan ascending, mostly a late one)
                let mut t = s - 1;
                while t > 0 && r.wrapping_sub(self.start[t - 1]) >= w[t - 1] as usize {
                    t -= 1;
                }
                self.lead_stale |= t < self.needs;
                let mut base = if t == 0 { 0 } else { self.start[t - 1] };
                // t indexes seven arrays, at t and t + 1: a range reads plainer than zipped iterators
                #[allow(clippy::needless_range_loop)]
                for t in t..s {
                    let wt = w[t] as usize;
                    let dg = (r - base) / wt;
                    base += dg * wt;
                    self.start[t] = base;
                    let c = B::select(full & !self.earlier[t], dg as u32);
                    self.ecell[c as usize] = self.earlier[t];
                    self.earlier[t + 1] = self.earlier[t] | 1 << c;
                    self.tile_at[c as usize] = t as u8;
                    self.wcell[c as usize] = w[t];
                    let mc = self.mcell[c as usize];
                    self.pk[t + 1] = self.pk[t] | u64::from(c) << self.nib[t];
                    self.im[t + 1] = self.im[t] | u64::from(mc) << self.image_nib[t];
                    self.iu[t + 1] = self.iu[t] | 1 << mc;
                }
            }
            self.start[s - 1]
        };
        let (mut used, mut packed, mut image, mut image_used) = (self.earlier[s], self.pk[s], self.im[s], self.iu[s]);
        for (i, &dg) in (s..k).zip(&self.low[r - block_start][..k - s]) {
            let c = B::select(full & !used, u32::from(dg));
            self.ecell[c as usize] = used;
            self.tile_at[c as usize] = i as u8;
            self.wcell[c as usize] = w[i];
            let mc = self.mcell[c as usize];
            packed |= u64::from(c) << self.nib[i];
            image |= u64::from(mc) << self.image_nib[i];
            image_used |= 1 << mc;
            used |= 1 << c;
        }
        let free = full & !used;
        // the seeds' cells, their region, and the region as free-cell indices
        let mut region = B::deposit(seeds as u32, free);
        // one step before the loop's first test (a region is rarely its seeds alone)
        region = (region | Self::spread(region)) & free;
        loop {
            let grown = (region | Self::spread(region)) & free;
            if grown == region {
                break;
            }
            region = grown;
        }
        // with the mirror: the first tile whose cell differs from the image's (k if none); a child moving a
        // tile that is after it, and whose image tile is too, ranks below its image like its parent
        self.first = match packed ^ image {
            0 => k,
            x => k - 1 - (63 - x.leading_zeros() as usize) / Self::NIB as usize,
        };
        (self.r, self.used, self.free, self.region) = (r, used, free, region);
        (self.packed, self.image, self.image_used) = (packed, image, image_used);
        u64::from(B::extract(region, free))
    }

    /// The mirror image's entry is the same (module docs, "the mirror").
    #[inline(always)]
    fn twin(&mut self, _r: usize) -> Option<usize> {
        if !self.mirror {
            return None;
        }
        let (lead, k) = (self.lead, self.k);
        if self.lead_stale {
            (self.lead_rank, self.lead_used) =
                rank_nibbles_from(self.image, &self.w[..lead], &self.nib[..lead], Self::NIB_MASK, 0, 0);
            self.lead_stale = false;
        }
        let (r, _) = rank_nibbles_from(self.image, &self.w[lead..k], &self.nib[lead..k], Self::NIB_MASK,
                                       self.lead_rank, self.lead_used);
        debug_assert_eq!(r, rank_nibbles(self.image, &self.w, &self.nib[..k], Self::NIB_MASK), "the kept part");
        Some(r as usize)
    }

    /// With the mirror only canonical placements are written (module docs, "the mirror"): said of a range
    /// when its first or last placement is.  (A page of words keeps the first tiles' cells, which mostly
    /// decide; a range said unwritten that is written after all is only faulted in as it is.)
    #[inline(always)]
    fn writes(&self, lo: usize, hi: usize) -> bool {
        !self.mirror || self.canonical(lo) || self.canonical(hi - 1)
    }

    /// Tile i from p next to the region to q in it, the blank left on p; the rank changed incrementally, and
    /// with the mirror, pushed as the image when that ranks lower.  By direction: the tiles with the region's
    /// cell on their left, right, above and below, each set a mask of cells (the tiles whose moves are tested
    /// against the mirror in loops of their own).
    #[inline(always)]
    fn predecessors<T: Word>(&mut self, out: &mut Children<'_, T>) {
        let (used, region, packed, first) = (self.used, self.region, self.packed, self.first);
        // the cells of the tiles whose moves can change the first cell where the placement and its image
        // differ (module docs, "the mirror")
        let mut checked = 0u32;
        for &i in &self.by_before[..usize::from(self.upto[first.min(self.k)])] {
            checked |= 1 << ((packed >> self.nib[usize::from(i) & 31]) & Self::NIB_MASK);
        }
        let n = N as u32;
        let left = ((region & !Self::RIGHT) << 1) & used; // tiles with the region on their left
        let right = ((region & !Self::LEFT) >> 1) & used;
        let up = (region << n) & used;
        let down = (region >> n) & used;
        self.moves::<T, 0, false>(left & !checked, out);
        self.moves::<T, 1, false>(right & !checked, out);
        self.moves::<T, 2, false>(up & !checked, out);
        self.moves::<T, 3, false>(down & !checked, out);
        if checked != 0 {
            self.moves::<T, 0, true>(left & checked, out);
            self.moves::<T, 1, true>(right & checked, out);
            self.moves::<T, 2, true>(up & checked, out);
            self.moves::<T, 3, true>(down & checked, out);
        }
    }

    #[inline(always)]
    unsafe fn apply<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise
        unsafe { B::apply_all(word, nextbits, f, next, kids) }
    }

    #[inline(always)]
    fn run_share<T: Word>(share: Share<'_, T, Self>) -> Ran {
        B::run_share(share)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use searchkit_core::pdb::{crc32, encode, unrank, UNREACHED};

    #[inline(always)]
    fn prefetch<T>(x: &T) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: only a hint
        unsafe {
            std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
        }
    }

    /// The table with no limits.
    fn table(n: usize, tiles: &[u8]) -> Vec<u8> {
        build(n, tiles, &Limiter::new(), |_, _| {}).unwrap()
    }

    /// The cells next to the cells of `m` on the `n` x `n` board.
    #[inline]
    fn spread(m: u32, n: u32) -> u32 {
        let full = (1u32 << (n * n)) - 1;
        let mut left_col = 0u32; // cells in column 0
        for r in 0..n {
            left_col |= 1 << (r * n);
        }
        let right_col = left_col << (n - 1);
        ((m << n) | (m >> n) | ((m & !right_col) << 1) | ((m & !left_col) >> 1)) & full
    }

    /// Queue the blank cell `bit` of placement `r` for the next layer unless it was seen or is queued already.
    #[inline(always)]
    fn queue_child(mark: &mut [u32], next: &mut Vec<u32>, (r, bit): (usize, u32)) {
        let m = mark[r];
        if (m | (m >> 16)) & bit == 0 {
            if m >> 16 == 0 {
                next.push(r as u32);
            }
            mark[r] = m | (bit << 16);
        }
    }

    /// The builder before the chunked children (kept as the oracle of `build`): children applied one by one
        /// through a prefetch ring.  The table of the group `tiles` (tile numbers, goal `1 .. n*n-1` row-major then the blank) on the
    /// `n` x `n` board: `P(n*n, k)` entries, the Python builder's numbers (module docs).
    ///
    /// `progress(reached, total)` is called after each layer.
    fn build_before(n: usize, tiles: &[u8], mut progress: impl FnMut(u64, u64)) -> Vec<u8> {
        assert!((2..=4).contains(&n), "boards of side 2 to 4");
        let cells = n * n;
        let k = tiles.len();
        assert!(k >= 1 && k < cells && tiles.iter().all(|&t| t >= 1 && (t as usize) < cells));
        let w = weights(cells, k);
        let entries = count(cells, k) as usize;
        let mut value = vec![UNREACHED; entries];
        // per placement: the blank cells seen (low 16 bits) and those queued for the next layer (high 16 bits);
        // one word, so a child's test and mark touch one cache line
        let mut mark = vec![0u32; entries];
        let full: u32 = (1u32 << cells) - 1;
        let nn = n as u32;
        let neighbours: Vec<u32> = (0..cells as u32).map(|c| spread(1 << c, nn)).collect();
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        // a layer: (rank << 16) | seeded blank cells, each placement once
        let mut frontier: Vec<u64> = vec![(rank(&goal, &w) << 16) | (1u64 << (cells - 1))];
        let mut next: Vec<u32> = Vec::new();
        let mut d: u8 = 0;
        let mut reached = 0u64;
        let mut at = [0u8; 16];
        // Children are tested and marked RING steps after they are made, their word prefetched meanwhile: the
        // marks are far larger than the caches, and this keeps many of those loads in flight at once.
        const RING: usize = 32;
        const AHEAD: usize = 8;
        let mut ring = [(0usize, 0u32); RING];
        let mut ring_len = 0usize;
        let mut ring_head = 0usize;
        while !frontier.is_empty() {
            for (idx, &entry) in frontier.iter().enumerate() {
                if let Some(&ahead) = frontier.get(idx + AHEAD) {
                    let ra = (ahead >> 16) as usize;
                    prefetch(&mark[ra]);
                    prefetch(&value[ra]);
                }
                let r = (entry >> 16) as usize;
                let seeds = (entry & 0xFFFF) as u32 & !(mark[r] & 0xFFFF);
                if seeds == 0 {
                    continue;
                }
                let used = unrank(r as u64, &w, &mut at[..k]);
                let free = full & !used;
                let mut region = seeds;
                loop {
                    let grown = (region | spread(region, nn)) & free;
                    if grown == region {
                        break;
                    }
                    region = grown;
                }
                mark[r] |= region;
                if value[r] == UNREACHED {
                    value[r] = d;
                    reached += 1;
                }
                for i in 0..k {
                    let p = at[i];
                    let mut targets = neighbours[p as usize] & region;
                    while targets != 0 {
                        let q = targets.trailing_zeros() as u8;
                        targets &= targets - 1;
                        at[i] = q;
                        let r2 = rank(&at[..k], &w) as usize;
                        at[i] = p;
                        prefetch(&mark[r2]);
                        let child = (r2, 1u32 << p);
                        if ring_len == RING {
                            let old = std::mem::replace(&mut ring[ring_head], child);
                            ring_head = (ring_head + 1) % RING;
                            queue_child(&mut mark, &mut next, old);
                        } else {
                            ring[(ring_head + ring_len) % RING] = child;
                            ring_len += 1;
                        }
                    }
                }
            }
            for j in 0..ring_len {
                queue_child(&mut mark, &mut next, ring[(ring_head + j) % RING]);
            }
            ring_len = 0;
            ring_head = 0;
            progress(reached, entries as u64);
            frontier.clear();
            for &r in &next {
                let m = mark[r as usize];
                frontier.push((u64::from(r) << 16) | u64::from(m >> 16));
                mark[r as usize] = m & 0xFFFF;
            }
            next.clear();
            if !frontier.is_empty() {
                d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
            }
        }
        value
    }

    #[test]
    fn builder_equals_the_one_before() {
        // the 15-puzzle's 5-tile groups (5-5-5) and a 3-tile one (64-bit words), the 8-puzzle's 4-4 and 8 (32-bit
        // words); every child applied at once, every one gathered and sorted (in small chunks), and the default
        for (n, tiles) in [(4, &[1u8, 2, 3, 5, 6][..]), (4, &[4, 7, 8, 11, 12]), (4, &[13, 14, 15]), (3, &[1, 2, 3, 4]),
                           (3, &[5, 6, 7, 8]), (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            let before = build_before(n, tiles, |_, _| {});
            assert!(table(n, tiles) == before, "{n} {tiles:?}");
        }
    }

    /// The rank of the mirror image of the placement `at` (module docs, "the mirror"; `at.len() <= 16`).
    fn image_rank(m: &Mirror, at: &[u8], w: &[u64]) -> u64 {
        let mut image = [0u8; 16];
        for (i, &c) in at.iter().enumerate() {
            image[usize::from(m.tile[i])] = m.cell[usize::from(c)];
        }
        rank(&image[..at.len()], w)
    }

    /// Groups the left-right mirror maps onto themselves, with the blank's goal region: the 15-puzzle's top row, its
    /// second row (the goal region is then the bottom two rows), the top row's corners, and the 7-8 partition's
    /// 8-tile group (top two rows) less two mirrored tiles; on the 8-puzzle, the top row (tile 2 its own image).  In
    /// several tile orders, so that the first tiles the mirror maps onto themselves are 1, 2, 4 or all.
    const MIRRORED: [(usize, &[u8]); 8] =
        [(4, &[1, 2, 3, 4]), (4, &[5, 6, 7, 8]), (4, &[1, 4]), (4, &[1, 2, 3, 4, 5, 8]), (4, &[6, 2, 7, 3]),
         (4, &[2, 3, 1, 4]), (3, &[1, 2, 3]), (3, &[2, 1, 3])];

    #[test]
    fn mirror_is_found_only_where_it_holds() {
        for (n, tiles) in MIRRORED {
            assert!(Mirror::of(n, tiles).is_some(), "{n} {tiles:?}");
        }
        let m = Mirror::of(4, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        assert_eq!(m.tile[..8], [3, 2, 1, 0, 7, 6, 5, 4]);
        assert_eq!(Mirror::of(4, &[6, 2, 7, 3]).unwrap().tile[..4], [2, 3, 0, 1]);
        assert_eq!(Mirror::of(5, &[1, 5]).unwrap().tile[..2], [1, 0]);
        assert!(Mirror::of(5, &[1, 2, 6, 7, 11, 12]).is_none()); // 6-6-6-6's first group
        // not closed (tile 1's image is 4), or the goal region not (the blank's cell 15 alone, or with 11 only)
        for (n, tiles) in [(4, &[1u8, 2, 3][..]), (4, &[9, 10, 11, 12, 13, 14, 15]), (4, &[9, 10, 13, 14, 15]),
                           (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            assert!(Mirror::of(n, tiles).is_none(), "{n} {tiles:?}");
        }
    }

    #[test]
    fn mirrored_placements_have_equal_entries() {
        // the claim behind the symmetric build, checked on the plain builder's tables
        for (n, tiles) in MIRRORED {
            let m = Mirror::of(n, tiles).unwrap();
            let (cells, k) = (n * n, tiles.len());
            let w = weights(cells, k);
            let v = build_with(n, tiles, false, 1, &Limiter::new(), |_, _| {}).unwrap();
            let mut at = [0u8; 16];
            for r in 0..v.len() as u64 {
                unrank(r, &w, &mut at[..k]);
                assert_eq!(v[r as usize], v[image_rank(&m, &at[..k], &w) as usize], "{n} {tiles:?} {:?}", &at[..k]);
            }
        }
    }

    #[test]
    fn mirrored_build_equals_the_one_before() {
        // only half the placements expanded, children whose image ranks lower queued as the image; also with every
        // child gathered and sorted, and with every one applied at once
        for (n, tiles) in MIRRORED {
            let before = build_before(n, tiles, |_, _| {});
            assert!(table(n, tiles) == before, "{n} {tiles:?}");
        }
    }

    /// A group's abstraction watched by a test: with `canonical` (its mirror, weights and tile count) it checks
    /// that every entry it is asked to close is canonical, its rank at most its mirror image's (module docs,
    /// "the mirror"); with `writes` it says that of every range (the builder's hint for backing memory).
    #[derive(Clone)]
    struct Watched<A> {
        inner: A,
        canonical: Option<(Mirror, Vec<u64>, usize)>,
        writes: Option<bool>,
        closed: u64,
    }

    impl<A: Abstraction> Abstraction for Watched<A> {
        fn entries(&self) -> usize {
            self.inner.entries()
        }
        fn substates(&self) -> u32 {
            self.inner.substates()
        }
        fn goals(&self) -> Vec<(usize, u32)> {
            self.inner.goals()
        }
        fn close(&mut self, entry: usize, seeds: u64) -> u64 {
            if let Some((mirror, w, k)) = &self.canonical {
                let mut at = [0u8; 16];
                unrank(entry as u64, w, &mut at[..*k]);
                assert!(entry as u64 <= image_rank(mirror, &at[..*k], w),
                        "a placement ranked above its image expanded");
            }
            self.closed += 1;
            self.inner.close(entry, seeds)
        }
        fn twin(&mut self, entry: usize) -> Option<usize> {
            self.inner.twin(entry)
        }
        fn writes(&self, lo: usize, hi: usize) -> bool {
            self.writes.unwrap_or_else(|| self.inner.writes(lo, hi))
        }
        fn predecessors<T: Word>(&mut self, out: &mut Children<'_, T>) {
            self.inner.predecessors(out)
        }
    }

    #[test]
    fn only_canonical_placements_are_expanded() {
        // the mirror's test (`checked`) leaves out only the moves that cannot leave the canonical placements: a
        // missed one gives the same table (the image is searched as itself) at more cost, so only this catches it
        for (n, tiles) in MIRRORED {
            let mirror = Mirror::of(n, tiles).unwrap();
            let (w, k) = (weights(n * n, tiles.len()), tiles.len());
            let (v, closed) = match n {
                3 => {
                    let mut a = Watched { inner: TileAbstraction::<Soft, 3>::new(tiles, Some(mirror)),
                                          canonical: Some((mirror, w, k)), writes: None, closed: 0 };
                    (pdb::build_in::<u32, _>(&mut a, &Limiter::new(), |_, _| {}).unwrap(), a.closed)
                }
                _ => {
                    let mut a = Watched { inner: TileAbstraction::<Soft, 4>::new(tiles, Some(mirror)),
                                          canonical: Some((mirror, w, k)), writes: None, closed: 0 };
                    (pdb::build_in::<u32, _>(&mut a, &Limiter::new(), |_, _| {}).unwrap(), a.closed)
                }
            };
            assert!(v == table(n, tiles) && closed > 0, "{n} {tiles:?}");
        }
    }

    #[test]
    fn canonical_placements_rank_at_most_their_image() {
        // which pages of words the builder backs before the first layer (`writes`) rests on it
        for (n, tiles) in MIRRORED {
            let m = Mirror::of(n, tiles).unwrap();
            let (w, k) = (weights(n * n, tiles.len()), tiles.len());
            let canonical: Box<dyn Fn(usize) -> bool> = match n {
                3 => {
                    let a = TileAbstraction::<Soft, 3>::new(tiles, Some(m));
                    Box::new(move |r| a.canonical(r))
                }
                _ => {
                    let a = TileAbstraction::<Soft, 4>::new(tiles, Some(m));
                    Box::new(move |r| a.canonical(r))
                }
            };
            let mut at = [0u8; 16];
            for r in 0..count(n * n, k) {
                unrank(r, &w, &mut at[..k]);
                assert_eq!(canonical(r as usize), r <= image_rank(&m, &at[..k], &w), "{n} {tiles:?} {:?}", &at[..k]);
            }
        }
    }

    #[test]
    fn which_words_are_backed_first_changes_no_entry() {
        // `writes` is only a hint: a page said unwritten is faulted in when it is written
        for (tiles, mirror) in [(&[1u8, 2, 3, 4, 5, 8][..], true), (&[9, 10, 13, 14, 15][..], false)] {
            let m = if mirror { Mirror::of(4, tiles) } else { None };
            for writes in [false, true] {
                for threads in [1, 2] {
                    let mut a = Watched { inner: TileAbstraction::<Soft, 4>::new(tiles, m), canonical: None,
                                          writes: Some(writes), closed: 0 };
                    let v = pdb::build_threads::<u32, _>(&mut a, &Limiter::new(), threads, |_, _| {}).unwrap();
                    assert!(v == table(4, tiles), "{tiles:?} writes {writes} on {threads} threads");
                }
            }
        }
    }

    #[test]
    fn builder_without_bmi2_equals_the_one_before() {
        // the variant a CPU without BMI2 runs (loops for pdep and pext, its own children's loop), with 32- and
        // 16-bit words, with and without the mirror
        for (n, tiles) in [(4, &[1u8, 2, 3, 4, 5, 8][..]), (4, &[13, 14, 15]), (3, &[1, 2, 3]),
                           (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            let before = build_before(n, tiles, |_, _| {});
            let mirror = Mirror::of(n, tiles);
            let v = if 2 * (n * n - tiles.len()) <= 16 {
                side::<u16, Soft>(n, tiles, mirror, 1, &Limiter::new(), |_, _| {}).unwrap()
            } else {
                side::<u32, Soft>(n, tiles, mirror, 1, &Limiter::new(), |_, _| {}).unwrap()
            };
            assert!(v == before, "{n} {tiles:?}");
        }
        assert!(Mirror::of(4, &[1, 2, 3, 4, 5, 8]).is_some() && Mirror::of(3, &[1, 2, 3]).is_some());
    }

    #[test]
    fn a_table_built_on_n_threads_is_the_one_thread_table_byte_for_byte() {
        // with and without the mirror (and its twins), 16- and 32-bit words, the BMI2 and the plain variant;
        // 2, 3 and 8 threads (more threads than the layers' runs of entries too)
        // and on 5 x 5 (64-bit words: 22 and 23 free cells), with the mirror (tiles 1 and 5, the top row's
        // middle) and without
        let groups: [(usize, &[u8]); 10] = [(3, &[1, 2, 3]), (3, &[1, 2, 3, 4, 5, 6, 7, 8]), (3, &[2, 5, 7]),
                                            (4, &[1, 2, 3, 4, 5, 8]), (4, &[13, 14, 15]), (4, &[9, 10, 13, 14, 15]),
                                            (4, &[1, 2, 5, 6, 7]), (5, &[1, 5]), (5, &[2, 3, 4]), (5, &[19, 20, 24])];
        std::env::set_var("SEARCHKIT_MAX_THREADS", "64"); // more threads than this machine's CPUs
        for (n, tiles) in groups {
            let one = build(n, tiles, &Limiter::new(), |_, _| {}).unwrap();
            for threads in [2, 3, 8] {
                let many = build_threads(n, tiles, threads, &Limiter::new(), |_, _| {}).unwrap();
                assert!(many == one, "{n} {tiles:?} on {threads} threads");
                let mirror = Mirror::of(n, tiles);
                let plain = match 2 * (n * n - tiles.len()) {
                    0..=16 => side::<u16, Soft>(n, tiles, mirror, threads, &Limiter::new(), |_, _| {}).unwrap(),
                    17..=32 => side::<u32, Soft>(n, tiles, mirror, threads, &Limiter::new(), |_, _| {}).unwrap(),
                    _ => side::<u64, Soft>(n, tiles, mirror, threads, &Limiter::new(), |_, _| {}).unwrap(),
                };
                assert!(plain == one, "{n} {tiles:?} on {threads} threads without BMI2");
            }
            let unmirrored = build_with(n, tiles, false, 2, &Limiter::new(), |_, _| {}).unwrap();
            assert!(unmirrored == one, "{n} {tiles:?} on 2 threads without the mirror");
        }
    }

    #[test]
    fn the_last_progress_counts_every_reached_entry() {
        // `reached` counts each entry once (twins included) at every thread count: the last progress call's
        // count is the table's entries other than 255
        for (n, tiles) in [(4, &[1u8, 2, 3, 4, 5, 8][..]), (4, &[2, 3, 1, 4]), (3, &[2, 1, 3]), (4, &[13, 14, 15])] {
            for threads in [1, 2, 3, 8] {
                let mut last = (0, 0);
                let v = build_threads(n, tiles, threads, &Limiter::new(), |r, t| last = (r, t)).unwrap();
                let reached = v.iter().filter(|&&x| x != UNREACHED).count() as u64;
                assert_eq!(last, (reached, v.len() as u64), "{n} {tiles:?} on {threads} threads");
            }
        }
    }

    #[test]
    fn a_cancelled_build_on_threads_stops() {
        let mut limiter = Limiter::new();
        limiter.cancel = Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)));
        assert_eq!(build_threads(4, &[1, 2, 3, 4, 5, 8], 2, &limiter, |_, _| {}), Err(Status::Cancelled));
    }

    #[test]
    fn bmi2_masks_equal_the_loops() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut x = 0x1234_5678u32;
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let (a, m) = (x & 0xFFFF, x >> 16);
                assert_eq!(Soft::deposit(a, m), Bmi2::deposit(a, m));
                assert_eq!(Soft::extract(a, m), Bmi2::extract(a, m));
            }
        }
    }

    #[test]
    fn full_8_puzzle_pattern_is_the_bfs_distribution() {
        let v = table(3, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let mut hist = [0u32; 32];
        for &x in &v {
            if x != UNREACHED {
                hist[x as usize] += 1;
            }
        }
        assert_eq!(hist.iter().sum::<u32>(), 181_440);
        assert_eq!(hist[31], 2);
        assert_eq!(&hist[..6], &[1, 2, 4, 8, 16, 20]);
    }

    /// One group's file: board side, tiles, bits per entry, entries, the data's CRC-32, the largest value.
    type Written = (usize, &'static [u8], u32, usize, u32, u32);

    /// Each group's file as the builder before the core's builder wrote it (`sliding_tiles_native.tiles_build_pdb`
    /// at commit a87a97b): its bits per entry, entries, the data's CRC-32 and the largest value, read from the
    /// header of the files written then; `tests/pdb` holds their whole files' SHA-256 (test_native_files.py).
    const WRITTEN_BEFORE: [Written; 9] = [
        (2, &[1, 2, 3], 4, 24, 0x68e4_75a7, 6),
        (3, &[1, 2], 4, 72, 0x3b53_3baf, 7),
        (3, &[1, 2, 3, 4], 8, 3024, 0x8318_8196, 15),
        (3, &[5, 6, 7, 8], 8, 3024, 0x2674_247b, 15),
        (3, &[1, 2, 3, 4, 5, 6, 7, 8], 8, 362_880, 0xbd98_cbc1, 31),
        (4, &[1, 2, 3], 8, 3360, 0xe5dc_7af9, 15),
        (4, &[13, 14, 15], 8, 3360, 0x63c3_a20e, 15),
        (4, &[1, 2, 3, 4], 8, 43_680, 0x0ddb_619a, 20),
        (4, &[1, 2, 3, 5, 6], 8, 524_160, 0xd740_edbd, 22),
    ];

    #[test]
    fn files_are_the_bytes_written_before() {
        for (n, tiles, bits, entries, crc, top) in WRITTEN_BEFORE {
            let file = encode(&table(n, tiles), "k", &[0; 32]);
            let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
            let data = &file[77..];
            assert_eq!((u32_at(12), u32_at(16) as usize, u32_at(32), u32_at(36)), (bits, entries, crc, top),
                       "{n} {tiles:?}");
            assert_eq!(crc32(data), crc);
        }
    }

    #[test]
    fn a_cancelled_build_stops_before_allocating() {
        let mut limiter = Limiter::new();
        limiter.cancel = Some(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)));
        assert_eq!(build(4, &[1, 2, 3, 4, 5, 6, 7, 8], &limiter, |_, _| {}), Err(Status::Cancelled));
        let mut limiter = Limiter::new();
        limiter.memory_budget = Some(1 << 20);
        assert_eq!(build(4, &[1, 2, 3, 4, 5, 6, 7, 8], &limiter, |_, _| {}), Err(Status::MemoryLimit));
    }
}
