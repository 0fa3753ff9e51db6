//! The 24-puzzle (5 x 5) for the native engine: its own board, beside the 4 x 4 one of [`crate::puzzle`]
//! (whose 16 cells are 16 bytes, a move writing two of them, read as two 64-bit halves by the goal test).
//! The same board of side 4 ([`Tiles16`]) runs the 15-puzzle's pattern databases: generic over the side `N` and
//! the cells `C = N * N` ([`KeptBoard`], [`KeptTiles`], [`KeptPdb`], [`KeptH`]; `KeptBoard<N, C>` ... `TilesH25` and
//! `Board16` ... `TilesH16` name them), so the two boards share one code.
//!
//! A state ([`KeptBoard<N, C>`]) is the board (`t[cell]` = tile, 0 the blank; goal `1 .. 24` row-major, then the
//! blank), where each tile is (`at[tile]`), the blank's cell and the cell it came from (`NO_PREV` when none,
//! or when `no-undo` is off), as Python's flat tuple says it; with pattern databases, also each group's entry
//! for the board and for its main-diagonal mirror, and their sums.  Moves are the blank's `U`, `D`, `L`, `R`,
//! in that order, cost 1, made in place ([`Puzzle::apply`], [`Puzzle::undo`]).
//!
//! **Heuristics per move.**  A move moves one tile `x`, so
//! * the Manhattan distance changes by the step of `x` (a table per cell, slot and tile, as on 4 x 4);
//! * the pattern databases change in two entries: that of `x`'s group, and in the mirrored sum that of the
//!   group holding `x`'s mirror tile (the mirror's lookup of group `g` reads the cells of the tiles `tmap[t]`,
//!   `t` in `g`).  The board keeps each group's rank too (and its mirror's), and a move changes a rank by a
//!   few terms ([`shift_rank`]), never ranking a placement again: [`Estimator::estimate_move`] gives the new
//!   maximum without making the move, and leaves the two ranks and entries in the board ([`Ahead`]);
//!   [`Puzzle::apply`] of that slot takes them from there (it shifts the ranks itself only when no estimate
//!   of that slot of that board came before), and [`Puzzle::undo`] restores the entries from the undo word
//!   and shifts the ranks back;
//! * linear conflict is counted whole on the child (as on 4 x 4).
//!
//! The tables are the 4 x 4 board's ([`Group`]): the core's ranking, one byte an entry, shared by the threads.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use searchkit_core::{Estimator, Puzzle, Successor};

use crate::puzzle::{linear_extra, Group, NO_PREV};

/// Cells of the 5 x 5 board.
pub const CELLS: usize = 25;
/// The most groups a partition has on this board (a byte each in the board).
pub const MAX_GROUPS: usize = 8;
/// No group (a tile in none of the partition's groups).
const NONE: u8 = u8::MAX;
/// The move letters of the four move slots, in the game's order.
const SLOT_MOVES: [u8; 4] = *b"UDLR";

/// The two entries [`Estimator::estimate_move`] worked out for one move slot of a board, kept in the board
/// for [`Puzzle::apply`] of the same slot, which then need not rank the two placements again (ranking was a
/// fifth of a 24-puzzle search's time: docs/pdb.md).
///
/// One word, `(slot + 1) << 16 | mirrored entry << 8 | entry`, or 0 for none.  The estimate has only `&` of
/// the board, hence a cell; an atomic one (relaxed: a plain load and store on x86-64) because the parallel
/// search needs its states `Sync`.  What makes it sound: a word is only ever written from the board's own
/// tiles (by the estimate), every change of the tiles ([`Tiles25::step`], [`Puzzle::undo`]) clears it, and a
/// copy of the board copies it with the tiles it was worked out from.  So when `apply(k)` finds slot `k`'s word
/// it holds exactly what ranking would give; any other word (another slot's, an estimate that no move
/// followed, none) and it ranks.  It is not part of the state: equality and the hash leave it out.
///
/// Beside the word, the two new ranks, `group's << 32 | mirrored's`, valid with the word.
#[derive(Default)]
pub struct Ahead(AtomicU32, AtomicU64);

impl Ahead {
    #[inline(always)]
    fn set(&self, word: u32) {
        self.0.store(word, Ordering::Relaxed);
    }

    #[inline(always)]
    fn get(&self) -> u32 {
        self.0.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn set_ranks(&self, ranks: u64) {
        self.1.store(ranks, Ordering::Relaxed);
    }

    #[inline(always)]
    fn ranks(&self) -> u64 {
        self.1.load(Ordering::Relaxed)
    }
}

impl Clone for Ahead {
    #[inline(always)]
    fn clone(&self) -> Ahead {
        Ahead(AtomicU32::new(self.get()), AtomicU64::new(self.ranks()))
    }
}

impl PartialEq for Ahead {
    fn eq(&self, _: &Ahead) -> bool {
        true
    }
}

impl Eq for Ahead {}

impl std::hash::Hash for Ahead {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for Ahead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Ahead({:#x}, {:#x})", self.get(), self.ranks())
    }
}

/// A board of side `N` and `C = N * N` cells (module docs).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct KeptBoard<const N: usize, const C: usize> {
    pub t: [u8; C],
    /// `at[tile]`: the tile's cell (`at[0]` the blank's)
    pub at: [u8; C],
    pub prev: u8,
    /// with pattern databases: each group's entry for the board, and for the board mirrored
    hv: [u8; MAX_GROUPS],
    hm: [u8; MAX_GROUPS],
    /// and the ranks of those placements (the entries' indices in the tables)
    rv: [u32; MAX_GROUPS],
    rm: [u32; MAX_GROUPS],
    /// their sums
    sv: u16,
    sm: u16,
    /// the entries of the last estimated move, for that move's `apply`
    ahead: Ahead,
}

/// The 5 x 5 board.
pub type Board25 = KeptBoard<5, 25>;
/// The 4 x 4 board with pattern databases' entries.
pub type Board16 = KeptBoard<4, 16>;
/// The 24-puzzle.
pub type Tiles25 = KeptTiles<5, 25>;
/// The 15-puzzle with its pattern databases' entries kept in the board (`pdb` only; the other heuristics run
/// on [`crate::puzzle::Tiles`]).
pub type Tiles16 = KeptTiles<4, 16>;
/// The 24-puzzle's pattern databases.
pub type Pdb25 = KeptPdb<5, 25>;
/// The 15-puzzle's pattern databases on [`Board16`].
pub type Pdb16 = KeptPdb<4, 16>;
/// The 24-puzzle's heuristics.
pub type TilesH25 = KeptH<5, 25>;
/// The 15-puzzle's heuristics on [`Board16`] (`Pdb`).
pub type TilesH16 = KeptH<4, 16>;

impl<const N: usize, const C: usize> KeptBoard<N, C> {
    /// The blank's cell.
    #[inline(always)]
    pub fn blank(&self) -> u8 {
        self.at[0]
    }
}

/// The pattern databases of a partition on the board of side `N`, and what a move needs to update them.
pub struct KeptPdb<const N: usize, const C: usize> {
    groups: Vec<Group>,
    /// per tile: its group (`NONE` if in none), and its index in the group
    of_tile: [u8; C],
    index: [u8; C],
    /// per tile `x`: the group whose mirrored lookup reads `x`'s cell (`NONE` if none, or without the mirror)
    mirror_of_tile: [u8; C],
    /// per group: the tiles its mirrored lookup reads (`tmap[t]`, `t` in the group, in the group's order)
    mirror_tiles: Vec<Vec<u8>>,
    /// per tile `x` that a mirrored lookup reads: its index among that group's `mirror_tiles`
    mirror_index: [u8; C],
    /// each cell mirrored in the main diagonal
    cmap: [u8; C],
    reflect: bool,
    /// the groups cover every tile: the sum is 0 exactly at the goal
    covers: bool,
}

impl<const N: usize, const C: usize> KeptPdb<N, C> {
    /// Whether `KeptPdb::new` takes groups of these sizes: at most [`MAX_GROUPS`] of at most 8 tiles each.
    pub fn fits(sizes: impl ExactSizeIterator<Item = usize>) -> bool {
        sizes.len() <= MAX_GROUPS && sizes.into_iter().all(|k| k <= 8)
    }

    /// The tables of `groups` (each [`Group::new`] of side `N`), with the main-diagonal mirror when `reflect`.
    pub fn new(groups: Vec<Group>, reflect: bool) -> Result<KeptPdb<N, C>, String> {
        assert!(N * N == C && C <= 25, "a board of side N has N * N cells, at most 25");
        if groups.len() > MAX_GROUPS {
            return Err(format!("tiles: at most {MAX_GROUPS} pattern databases on {N}x{N}, got {}", groups.len()));
        }
        let (cell, tile) = mirror_cells::<N, C>();
        let (mut of_tile, mut index) = ([NONE; C], [0u8; C]);
        for (g, group) in groups.iter().enumerate() {
            if group.tiles.len() > 8 || group.table.len() > u32::MAX as usize {
                return Err(format!("tiles: at most 8 tiles and 2**32 entries in a {N}x{N} pattern database"));
            }
            for &x in &group.tiles {
                if x == 0 || usize::from(x) >= C || of_tile[usize::from(x)] != NONE {
                    return Err(format!("tiles: a partition's groups are distinct tiles 1 .. {}", C - 1));
                }
                of_tile[usize::from(x)] = g as u8;
            }
            for (i, &x) in group.tiles.iter().enumerate() {
                index[usize::from(x)] = i as u8;
            }
        }
        let (mut mirror_of_tile, mut mirror_index) = ([NONE; C], [0u8; C]);
        let mirror_tiles: Vec<Vec<u8>> =
            groups.iter().map(|g| g.tiles.iter().map(|&x| tile[usize::from(x)]).collect()).collect();
        if reflect {
            for (g, ts) in mirror_tiles.iter().enumerate() {
                for (i, &x) in ts.iter().enumerate() {
                    mirror_of_tile[usize::from(x)] = g as u8;
                    mirror_index[usize::from(x)] = i as u8;
                }
            }
        }
        let covers = (1..C).all(|x| of_tile[x] != NONE);
        Ok(KeptPdb { groups, of_tile, index, mirror_of_tile, mirror_tiles, mirror_index, cmap: cell, reflect, covers })
    }

    /// Group `g`'s rank with the tiles on `at`: the tiles' cells ranked as they are read ([`rank_cells`] in one
    /// pass, no array between).
    fn rank(&self, g: usize, at: &[u8; C]) -> u32 {
        let group = &self.groups[g];
        let (mut used, mut r) = (0u32, 0u64);
        for (&t, &wi) in group.tiles.iter().zip(&group.w) {
            rank_step::<C>(at[usize::from(t) % C], wi, &mut used, &mut r);
        }
        r as u32
    }

    /// Group `g`'s rank for the board mirrored.
    fn rank_mirrored(&self, g: usize, at: &[u8; C]) -> u32 {
        let group = &self.groups[g];
        let (mut used, mut r) = (0u32, 0u64);
        for (&t, &wi) in self.mirror_tiles[g].iter().zip(&group.w) {
            rank_step::<C>(self.cmap[usize::from(at[usize::from(t) % C]) % C], wi, &mut used, &mut r);
        }
        r as u32
    }

    /// Group `g`'s rank `r` on the board `t` after its tile `x` moves from cell `c` to the blank's cell `to`
    /// ([`shift_rank`]).
    #[inline(always)]
    fn moved(&self, g: usize, r: u32, t: &[u8; C], x: u8, c: u8, to: u8) -> u32 {
        let i = usize::from(self.index[usize::from(x) % C]);
        shift_rank::<N, C>(r, &self.groups[g].w, i, c, to, |p| {
            let y = usize::from(t[p % C]) % C;
            (usize::from(self.of_tile[y]) == g).then_some(usize::from(self.index[y]))
        })
    }

    /// The same for group `m`'s mirrored rank: the mirror's cells are `cmap`'s, a sideways move is a vertical
    /// one there.
    #[inline(always)]
    fn moved_mirrored(&self, m: usize, r: u32, t: &[u8; C], x: u8, c: u8, to: u8) -> u32 {
        let i = usize::from(self.mirror_index[usize::from(x) % C]);
        let (mc, mto) = (self.cmap[usize::from(c) % C], self.cmap[usize::from(to) % C]);
        shift_rank::<N, C>(r, &self.groups[m].w, i, mc, mto, |q| {
            let y = usize::from(t[usize::from(self.cmap[q % C]) % C]) % C;
            (usize::from(self.mirror_of_tile[y]) == m).then_some(usize::from(self.mirror_index[y]))
        })
    }

    /// The entries and ranks of `b` from scratch.
    fn fill(&self, b: &mut KeptBoard<N, C>) {
        (b.hv, b.hm, b.sv, b.sm) = ([0; MAX_GROUPS], [0; MAX_GROUPS], 0, 0);
        (b.rv, b.rm) = ([0; MAX_GROUPS], [0; MAX_GROUPS]);
        for g in 0..self.groups.len() {
            b.rv[g] = self.rank(g, &b.at);
            b.hv[g] = self.groups[g].table[b.rv[g] as usize];
            b.sv += u16::from(b.hv[g]);
            if self.reflect {
                b.rm[g] = self.rank_mirrored(g, &b.at);
                b.hm[g] = self.groups[g].table[b.rm[g] as usize];
                b.sm += u16::from(b.hm[g]);
            }
        }
    }

    #[inline(always)]
    fn h(&self, sv: u16, sm: u16) -> u32 {
        u32::from(sv.max(sm))
    }
}

/// The set bits of each byte.
const POP8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The set bits of each 16-bit number.
static POP16: [u8; 1 << 16] = {
    let mut t = [0u8; 1 << 16];
    let mut i = 0;
    while i < 1 << 16 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The set bits of `m`, a mask of the cells of a board of `C` cells, by byte table: the default x86-64 target
/// has no `popcnt` instruction, and `count_ones` there takes a dozen (a third of the 15-puzzle's estimate was
/// the core's [`searchkit_core::pdb::rank`]'s, callgrind).
#[inline(always)]
fn ones<const C: usize>(m: u32) -> u32 {
    if C <= 16 {
        return u32::from(POP16[(m & 0xffff) as usize]);
    }
    let mut n = u32::from(POP8[(m & 255) as usize]) + u32::from(POP8[(m >> 8 & 255) as usize]);
    if C > 16 {
        n += u32::from(POP8[(m >> 16 & 255) as usize]) + u32::from(POP8[(m >> 24) as usize]);
    }
    n
}

/// The core's [`searchkit_core::pdb::rank`] of `places` (distinct cells of a board of `C` cells) under the
/// weights `w`, the cells below each counted by [`ones`]: the same number.
#[cfg_attr(not(test), allow(dead_code))]
fn rank_cells<const C: usize>(places: &[u8], w: &[u64]) -> u64 {
    let (mut used, mut r) = (0u32, 0u64);
    for (&c, &wi) in places.iter().zip(w) {
        rank_step::<C>(c, wi, &mut used, &mut r);
    }
    r
}

/// One cell `c` of [`rank_cells`], of weight `wi`: `used` the cells before it, `r` the rank so far.
#[inline(always)]
fn rank_step<const C: usize>(c: u8, wi: u64, used: &mut u32, r: &mut u64) {
    let bit = 1u32 << (c & 31);
    *r += u64::from(u32::from(c) - ones::<C>(*used & (bit - 1))) * wi;
    *used |= bit;
}

/// The rank `r` of a group's placement (the core's ranking, weights `w`: [`rank_cells`]) after its `i`-th tile
/// moves from cell `c` to the neighbouring cell `to` (the blank's), on a board of side `N`; `inside(p)` is the
/// index in the group of the tile on cell `p`, `None` for a tile of no group or another's.
///
/// Why: digit `j` of the rank is tile `j`'s cell less the number of tiles before it on lower cells.  The moved
/// tile passes the cells strictly between `c` and `to` (none sideways, `N - 1` up or down) and no other tile
/// moves, so only these digits change.  Moving to a higher cell: the moved tile's digit grows by `to - c` less
/// the tiles before it on the passed cells (each is now below it: `before`), and the digit of each later tile
/// on a passed cell grows by one (tile `i`, below it before, is above it now).  So `r` grows by
/// `(|to - c| - before) * w[i] + sum of w[j]` over the later tiles passed; moving to a lower cell, every one of
/// these changes is reversed, and `r` falls by the same.
#[inline(always)]
fn shift_rank<const N: usize, const C: usize>(r: u32, w: &[u64], i: usize, c: u8, to: u8,
                                              inside: impl Fn(usize) -> Option<usize>) -> u32 {
    let (lo, hi) = (usize::from(c.min(to)), usize::from(c.max(to)));
    let (mut before, mut later) = (0u64, 0u64);
    for p in lo + 1..hi {
        if let Some(j) = inside(p) {
            if j < i {
                before += 1;
            } else {
                later += w[j % w.len()];
            }
        }
    }
    let d = ((hi - lo) as u64 - before) * w[i % w.len()] + later;
    if to > c { r.wrapping_add(d as u32) } else { r.wrapping_sub(d as u32) }
}

/// Start loading entry `r` of `table` into the cache (a hint: nothing if `r` is outside it).
#[inline(always)]
fn prefetch(table: &[u8], r: u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = table.get(r as usize) {
        // SAFETY: only a hint, on an address inside the table
        unsafe { std::arch::x86_64::_mm_prefetch(x as *const u8 as *const i8, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, r);
}

/// `(cell_map, tile_map)` of the main-diagonal mirror (sliding_tiles.pdb.mirror) on the board of side `N`.
fn mirror_cells<const N: usize, const C: usize>() -> ([u8; C], [u8; C]) {
    let mut cell = [0u8; C];
    let mut tile = [0u8; C];
    for (p, c) in cell.iter_mut().enumerate() {
        *c = ((p % N) * N + p / N) as u8;
    }
    for t in 1..C {
        tile[t] = cell[t - 1] + 1;
    }
    (cell, tile)
}

/// The puzzle of side `N` from one start (module docs).
pub struct KeptTiles<const N: usize, const C: usize> {
    pub start: KeptBoard<N, C>,
    pub no_undo: bool,
    /// `slots[cell][k]`: the blank's new cell after move `SLOT_MOVES[k]` from `cell` (`NO_PREV`: off the board)
    slots: [[u8; 4]; C],
    goal: [u8; C],
    pdb: Option<Arc<KeptPdb<N, C>>>,
}

impl<const N: usize, const C: usize> KeptTiles<N, C> {
    /// The puzzle starting from `tiles` (row-major, 0 the blank); `no_undo` fuses the rule; `pdb` the tables
    /// the board keeps entries of (for the `pdb` heuristic).
    pub fn new(tiles: &[u8], no_undo: bool, pdb: Option<Arc<KeptPdb<N, C>>>) -> Result<KeptTiles<N, C>, String> {
        assert!(N * N == C && C <= 25, "a board of side N has N * N cells, at most 25");
        if tiles.len() != C {
            return Err(format!("tiles: a {N}x{N} board has {C} tiles, got {}", tiles.len()));
        }
        let mut at = [NONE; C];
        let mut t = [0u8; C];
        for (p, &x) in tiles.iter().enumerate() {
            if x as usize >= C || at[x as usize] != NONE {
                return Err("tiles: not a permutation of 0 .. side**2-1".into());
            }
            at[x as usize] = p as u8;
            t[p] = x;
        }
        let mut slots = [[NO_PREV; 4]; C];
        for (cell, s) in slots.iter_mut().enumerate() {
            let (r, c) = (cell / N, cell % N);
            let to = [(r > 0).then(|| cell - N), (r + 1 < N).then(|| cell + N), (c > 0).then(|| cell - 1),
                      (c + 1 < N).then(|| cell + 1)];
            for (k, to) in to.into_iter().enumerate() {
                if let Some(to) = to {
                    s[k] = to as u8;
                }
            }
        }
        let mut goal = [0u8; C];
        for (i, g) in goal[..C - 1].iter_mut().enumerate() {
            *g = i as u8 + 1;
        }
        let mut start = KeptBoard { t, at, prev: NO_PREV, hv: [0; MAX_GROUPS], hm: [0; MAX_GROUPS],
                                    rv: [0; MAX_GROUPS], rm: [0; MAX_GROUPS], sv: 0, sm: 0, ahead: Ahead::default() };
        if let Some(p) = &pdb {
            p.fill(&mut start);
        }
        Ok(KeptTiles { start, no_undo, slots, goal, pdb })
    }

    /// The board after the blank's move to `to` (a neighbour of its cell) by slot `k`, made in place; returns
    /// the undo word: the blank's old cell (bits 8..16), its previous cell (0..8), and with tables the two
    /// entries the move changed (16..24 the group's, 24..32 the mirrored one's).  The new entries come from
    /// the estimate of slot `k` when the board holds it ([`Ahead`]), else they are ranked here.
    #[inline(always)]
    fn step(&self, s: &mut KeptBoard<N, C>, to: u8, k: usize) -> u64 {
        let b = s.at[0];
        let x = s.t[usize::from(to) % C];
        let mut undo = u64::from(b) << 8 | u64::from(s.prev);
        if let Some(p) = &self.pdb {
            let (ahead, ranks) = (s.ahead.get(), s.ahead.ranks());
            s.ahead.set(0);
            let known = ahead >> 16 == k as u32 + 1;
            let g = p.of_tile[usize::from(x) % C];
            if g != NONE {
                let g = usize::from(g) % MAX_GROUPS;
                let r = if known { (ranks >> 32) as u32 } else { p.moved(g, s.rv[g], &s.t, x, to, b) };
                let v = if known { ahead as u8 } else { p.groups[g].table[r as usize] };
                undo |= u64::from(s.hv[g]) << 16;
                s.sv = s.sv - u16::from(s.hv[g]) + u16::from(v);
                (s.hv[g], s.rv[g]) = (v, r);
            }
            let m = p.mirror_of_tile[usize::from(x) % C];
            if m != NONE {
                let m = usize::from(m) % MAX_GROUPS;
                let r = if known { ranks as u32 } else { p.moved_mirrored(m, s.rm[m], &s.t, x, to, b) };
                let v = if known { (ahead >> 8) as u8 } else { p.groups[m].table[r as usize] };
                undo |= u64::from(s.hm[m]) << 24;
                s.sm = s.sm - u16::from(s.hm[m]) + u16::from(v);
                (s.hm[m], s.rm[m]) = (v, r);
            }
        }
        s.t[usize::from(b) % C] = x;
        s.t[usize::from(to) % C] = 0;
        s.at[usize::from(x) % C] = b;
        s.at[0] = to;
        s.prev = if self.no_undo { b } else { NO_PREV };
        undo
    }
}

impl<const N: usize, const C: usize> Puzzle for KeptTiles<N, C> {
    type State = KeptBoard<N, C>;
    type Move = u8;

    fn initial_state(&self) -> KeptBoard<N, C> {
        self.start.clone()
    }

    #[inline]
    fn is_goal(&self, s: &KeptBoard<N, C>) -> bool {
        s.t == self.goal
    }

    fn successors(&self, s: &KeptBoard<N, C>, out: &mut Vec<Successor<u8, KeptBoard<N, C>>>, cuts: &mut [u64]) {
        for k in 0..4 {
            let mut child = s.clone();
            if let Some((mv, cost)) = self.successor_at(s, k, &mut child, cuts) {
                out.push(Successor { mv, state: child, cost });
            }
        }
    }

    fn successor_slots(&self) -> usize {
        4
    }

    #[inline]
    fn successor_at(&self, s: &KeptBoard<N, C>, k: usize, child: &mut KeptBoard<N, C>, cuts: &mut [u64])
                    -> Option<(u8, u32)> {
        let r = self.move_at(s, k, cuts)?;
        child.clone_from(s);
        self.apply(child, k);
        Some(r)
    }

    fn in_place(&self) -> bool {
        true
    }

    #[inline]
    fn move_at(&self, s: &KeptBoard<N, C>, k: usize, cuts: &mut [u64]) -> Option<(u8, u32)> {
        let to = self.slots[usize::from(s.at[0]) % C][k & 3];
        if to == NO_PREV {
            return None;
        }
        if to == s.prev {
            cuts[0] += 1;
            return None;
        }
        Some((SLOT_MOVES[k & 3], 1))
    }

    #[inline]
    fn apply(&self, s: &mut KeptBoard<N, C>, k: usize) -> u64 {
        let to = self.slots[usize::from(s.at[0]) % C][k & 3];
        self.step(s, to, k & 3)
    }

    /// [`Tiles25::step`] undone: the tile moves back, the entries it changed come back from the undo word.
    #[inline]
    fn undo(&self, s: &mut KeptBoard<N, C>, _k: usize, undo: u64) {
        let b = (undo >> 8) as u8;
        let to = s.at[0];
        let x = s.t[usize::from(b) % C];
        if let Some(p) = &self.pdb {
            s.ahead.set(0);
            // the ranks shifted back: tile x moves from b back to the blank's cell
            let g = p.of_tile[usize::from(x) % C];
            if g != NONE {
                let g = usize::from(g) % MAX_GROUPS;
                let v = (undo >> 16) as u8;
                s.sv = s.sv - u16::from(s.hv[g]) + u16::from(v);
                s.hv[g] = v;
                s.rv[g] = p.moved(g, s.rv[g], &s.t, x, b, to);
            }
            let m = p.mirror_of_tile[usize::from(x) % C];
            if m != NONE {
                let m = usize::from(m) % MAX_GROUPS;
                let v = (undo >> 24) as u8;
                s.sm = s.sm - u16::from(s.hm[m]) + u16::from(v);
                s.hm[m] = v;
                s.rm[m] = p.moved_mirrored(m, s.rm[m], &s.t, x, b, to);
            }
        }
        s.t[usize::from(to) % C] = x;
        s.t[usize::from(b) % C] = 0;
        s.at[usize::from(x) % C] = to;
        s.at[0] = b;
        s.prev = undo as u8;
    }

    fn rule_names(&self) -> &[&'static str] {
        if self.no_undo {
            &["no-undo"]
        } else {
            &[]
        }
    }
}

/// `table[cell][tile]`: grid distance from `cell` to `tile`'s goal cell (0 for the blank) on the board of side
/// `n`, 32 x 32 so that a masked index needs no bounds check.
fn manhattan_table32(n: usize) -> Box<[[u8; 32]; 32]> {
    let mut table = Box::new([[0u8; 32]; 32]);
    for (p, row) in table.iter_mut().enumerate().take(n * n) {
        for (t, d) in row.iter_mut().enumerate().take(n * n).skip(1) {
            let g = t - 1;
            *d = ((p / n).abs_diff(g / n) + (p % n).abs_diff(g % n)) as u8;
        }
    }
    table
}

/// The heuristics with a native twin on the board of side `N` (cloned for each thread; the tables live in the
/// puzzle).
#[derive(Clone)]
pub enum KeptH<const N: usize, const C: usize> {
    /// The Manhattan distance: `table[cell][tile]`, and `step[cell][k][tile]`, its change when `tile` moves
    /// into the blank's `cell` by the blank's slot `k` (+1 or -1 as a wrapping `u8`).
    Manhattan { table: Box<[[u8; 32]; 32]>, step: Box<[[[u8; 32]; 4]; 32]> },
    LinearConflict(Box<[[u8; 32]; 32]>),
    /// The puzzle's pattern databases (its entries kept in the board).
    Pdb,
}

impl<const N: usize, const C: usize> KeptH<N, C> {
    pub fn manhattan() -> KeptH<N, C> {
        let table = manhattan_table32(N);
        let mut step = Box::new([[[0u8; 32]; 4]; 32]);
        for (cell, row) in step.iter_mut().enumerate().take(C) {
            let (r, c) = (cell / N, cell % N);
            let to = [(r > 0).then(|| cell - N), (r + 1 < N).then(|| cell + N), (c > 0).then(|| cell - 1),
                      (c + 1 < N).then(|| cell + 1)];
            for (k, to) in to.into_iter().enumerate() {
                let Some(to) = to else { continue };
                for tile in 1..C {
                    row[k][tile] = table[cell][tile].wrapping_sub(table[to][tile]);
                }
            }
        }
        KeptH::Manhattan { table, step }
    }

    pub fn linear_conflict() -> KeptH<N, C> {
        KeptH::LinearConflict(manhattan_table32(N))
    }
}

impl<const N: usize, const C: usize> Estimator<KeptTiles<N, C>> for KeptH<N, C> {
    fn estimate(&mut self, d: &KeptTiles<N, C>, s: &KeptBoard<N, C>) -> u32 {
        match self {
            KeptH::Manhattan { table, .. } => (0..C).map(|p| u32::from(table[p][usize::from(s.t[p]) & 31])).sum(),
            KeptH::LinearConflict(table) => {
                (0..C).map(|p| u32::from(table[p][usize::from(s.t[p]) & 31])).sum::<u32>() + linear_extra(N, &s.t)
            }
            KeptH::Pdb => {
                let p = d.pdb.as_ref().expect("the pdb heuristic's puzzle holds its tables");
                p.h(s.sv, s.sm)
            }
        }
    }

    /// Before the move: the Manhattan distance by its step, the pattern databases by the two entries the
    /// moving tile changes (module docs); linear conflict needs the board.
    #[inline]
    fn estimate_move(&mut self, d: &KeptTiles<N, C>, s: &KeptBoard<N, C>, parent_h: u32, k: usize, mv: u8)
                     -> Option<u32> {
        self.estimate_move_below(d, s, parent_h, k, mv, u32::MAX)
    }

    /// As [`Estimator::estimate_move`]; with the mirror, when the board's own sum alone reaches `cap`, that sum
    /// (at most the estimate, the maximum of the two sums, and at least `cap`: all the caller needs) without
    /// the mirrored look-up, and nothing left for `apply` (such a child is not entered).
    #[inline]
    fn estimate_move_below(&mut self, d: &KeptTiles<N, C>, s: &KeptBoard<N, C>, parent_h: u32, k: usize, _mv: u8,
                           cap: u32) -> Option<u32> {
        let b = usize::from(s.at[0]) % C;
        let to = d.slots[b][k & 3];
        let x = s.t[usize::from(to) % C];
        match self {
            KeptH::Manhattan { step, .. } => {
                Some(parent_h.wrapping_add(i32::from(step[b][k & 3][usize::from(x) & 31] as i8) as u32))
            }
            KeptH::LinearConflict(_) => None,
            KeptH::Pdb => {
                let p = d.pdb.as_ref().expect("the pdb heuristic's puzzle holds its tables");
                let (mut sv, mut sm) = (s.sv, s.sm);
                let (mut v, mut vm, mut r, mut rm) = (0u8, 0u8, 0u32, 0u32);
                let g = p.of_tile[usize::from(x) % C];
                if g != NONE {
                    let g = usize::from(g) % MAX_GROUPS;
                    r = p.moved(g, s.rv[g], &s.t, x, to, b as u8);
                    v = p.groups[g].table[r as usize];
                    sv = sv - u16::from(s.hv[g]) + u16::from(v);
                }
                if u32::from(sv) >= cap {
                    s.ahead.set(0);
                    return Some(u32::from(sv));
                }
                let m = p.mirror_of_tile[usize::from(x) % C];
                if m != NONE {
                    let m = usize::from(m) % MAX_GROUPS;
                    rm = p.moved_mirrored(m, s.rm[m], &s.t, x, to, b as u8);
                    vm = p.groups[m].table[rm as usize];
                    sm = sm - u16::from(s.hm[m]) + u16::from(vm);
                }
                // for this slot's apply ([`Ahead`])
                s.ahead.set_ranks(u64::from(r) << 32 | u64::from(rm));
                s.ahead.set(((k & 3) as u32 + 1) << 16 | u32::from(vm) << 8 | u32::from(v));
                Some(p.h(sv, sm))
            }
        }
    }

    /// With pattern databases: the entries of the board's moves ranked and prefetched, so that the misses of
    /// the big tables (the 15-puzzle's 8-tile one is 519 MB) overlap instead of coming one after another in
    /// [`Estimator::estimate_move`].
    #[inline]
    fn expanding(&mut self, d: &KeptTiles<N, C>, s: &KeptBoard<N, C>) {
        let (KeptH::Pdb, Some(p)) = (&*self, &d.pdb) else { return };
        let b = usize::from(s.at[0]) % C;
        for &to in &d.slots[b] {
            if to == NO_PREV || to == s.prev {
                continue;
            }
            let x = s.t[usize::from(to) % C];
            let g = p.of_tile[usize::from(x) % C];
            if g != NONE {
                let g = usize::from(g) % MAX_GROUPS;
                prefetch(&p.groups[g].table, p.moved(g, s.rv[g], &s.t, x, to, b as u8));
            }
            let m = p.mirror_of_tile[usize::from(x) % C];
            if m != NONE {
                let m = usize::from(m) % MAX_GROUPS;
                prefetch(&p.groups[m].table, p.moved_mirrored(m, s.rm[m], &s.t, x, to, b as u8));
            }
        }
    }

    /// Sums of table entries (a pattern database's unreachable entry adds 255): never [`searchkit_core::DEAD`].
    #[inline]
    fn never_dead(&self, _d: &KeptTiles<N, C>) -> bool {
        true
    }

    /// The Manhattan distance and linear conflict are 0 at the goal and only there; so are pattern databases
    /// whose groups cover every tile (each entry is 0 only with its group home).
    #[inline]
    fn zero_only_at_goal(&self, d: &KeptTiles<N, C>) -> bool {
        match self {
            KeptH::Pdb => d.pdb.as_ref().is_some_and(|p| p.covers),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Tiles, TilesH};

    /// A walk of `steps` moves from the goal of the N x N board (C = N * N cells), by a small generator.
    fn scrambled_on<const N: usize, const C: usize>(steps: usize, seed: u64) -> Vec<u8> {
        let d = KeptTiles::<N, C>::new(&(1..C as u8).chain([0]).collect::<Vec<_>>(), false, None).unwrap();
        let mut s = d.initial_state();
        let mut x = seed | 1;
        for _ in 0..steps {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let k = (x % 4) as usize;
            if d.move_at(&s, k, &mut [0]).is_some() {
                d.apply(&mut s, k);
            }
        }
        s.t.to_vec()
    }

    fn goal() -> Vec<u8> {
        (1..25u8).chain([0]).collect()
    }

    /// A table of `tiles` on 5 x 5 built by the plugin's builder.
    fn group(tiles: &[u8]) -> Group {
        let v = crate::pdb::build(5, tiles, &searchkit_core::Limiter::new(), |_, _| {}).unwrap();
        Group::new(5, tiles.to_vec(), Arc::new(v.into())).unwrap()
    }

    fn threes() -> Arc<Pdb25> {
        let groups = (0..8u8).map(|i| group(&[3 * i + 1, 3 * i + 2, 3 * i + 3])).collect();
        Arc::new(Pdb25::new(groups, true).unwrap())
    }

    #[test]
    fn moves_made_and_undone_keep_every_field_and_the_estimates_equal_the_whole() {
        let pdb = threes();
        for seed in 1..6u64 {
            let tiles = scrambled(200, seed);
            let d = Tiles25::new(&tiles, true, Some(pdb.clone())).unwrap();
            let mut hs = [TilesH25::manhattan(), TilesH25::Pdb];
            let mut s = d.initial_state();
            let mut x = seed;
            for _ in 0..300 {
                for h in hs.iter_mut() {
                    let ph = h.estimate(&d, &s);
                    for k in 0..4 {
                        if d.move_at(&s, k, &mut [0]).is_some() {
                            let e = h.estimate_move(&d, &s, ph, k, 0).unwrap();
                            let before = s.clone();
                            let u = d.apply(&mut s, k);
                            // the entries kept in the board are those from scratch
                            let mut fresh = s.clone();
                            pdb.fill(&mut fresh);
                            assert_eq!(fresh, s);
                            assert_eq!(e, h.estimate(&d, &s));
                            d.undo(&mut s, k, u);
                            assert_eq!(s, before);
                        }
                    }
                }
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let k = (x >> 33) as usize % 4;
                if d.move_at(&s, k, &mut [0]).is_some() {
                    d.apply(&mut s, k);
                }
            }
        }
    }

    /// A move's entries are those from scratch whatever estimates came before it on the board: its own slot's
    /// (taken from the board), another slot's, none, one made before an undo, or one made on a copy.
    #[test]
    fn a_move_takes_only_its_own_estimate() {
        let pdb = threes();
        let tiles = scrambled(200, 7);
        let d = Tiles25::new(&tiles, true, Some(pdb.clone())).unwrap();
        let mut h = TilesH25::Pdb;
        let mut s = d.initial_state();
        let mut x = 7u64;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let valid = |s: &Board25| (0..4).filter(|&k| d.move_at(s, k, &mut [0]).is_some()).collect::<Vec<_>>();
        let check = |s: &Board25| {
            let mut fresh = s.clone();
            pdb.fill(&mut fresh);
            assert_eq!(&fresh, s);
            assert_eq!((fresh.hv, fresh.hm, fresh.sv, fresh.sm), (s.hv, s.hm, s.sv, s.sm));
        };
        for _ in 0..3000 {
            let ks = valid(&s);
            // estimates of some slots (maybe none), in any order
            let ph = h.estimate(&d, &s);
            for _ in 0..next(4) {
                let k = ks[next(ks.len() as u64) as usize];
                h.estimate_move(&d, &s, ph, k, 0).unwrap();
            }
            let k = ks[next(ks.len() as u64) as usize];
            match next(3) {
                // a move made and undone, then another (or the same) made
                0 => {
                    let before = s.clone();
                    let u = d.apply(&mut s, k);
                    check(&s);
                    d.undo(&mut s, k, u);
                    assert_eq!(s, before);
                    check(&s);
                    let k2 = ks[next(ks.len() as u64) as usize];
                    d.apply(&mut s, k2);
                }
                // on a copy (successor_at)
                1 => {
                    let mut c = s.clone();
                    assert!(d.successor_at(&s, k, &mut c, &mut [0]).is_some());
                    s = c;
                }
                _ => {
                    d.apply(&mut s, k);
                }
            }
            check(&s);
        }
    }

    /// The 24-puzzle's board: a walk of `steps` moves from the goal.
    fn scrambled(steps: usize, seed: u64) -> Vec<u8> {
        scrambled_on::<5, 25>(steps, seed)
    }

    /// The 15-puzzle's board: a walk of `steps` moves from the goal.
    fn scrambled16(steps: usize, seed: u64) -> Vec<u8> {
        scrambled_on::<4, 16>(steps, seed)
    }

    /// 4 x 4 tables of `groups` by the plugin's builder.
    fn groups16(groups: &[&[u8]]) -> Vec<Group> {
        groups.iter().map(|g| {
            let v = crate::pdb::build(4, g, &searchkit_core::Limiter::new(), |_, _| {}).unwrap();
            Group::new(4, g.to_vec(), Arc::new(v.into())).unwrap()
        }).collect()
    }

    /// On the 15-puzzle's board, random boards and moves (estimates of any slots first, then a move made, made
    /// and undone, or made on a copy): the entries kept in the board always equal a fresh ranking, and every
    /// estimate equals that of the board of `crate::puzzle` (each group ranked whole, the mirror too).
    #[test]
    fn the_15_puzzle_board_keeps_the_entries_of_a_fresh_ranking() {
        let partitions: [&[&[u8]]; 3] = [&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 9], &[10, 11, 12], &[13, 14, 15]],
                                          &[&[1, 5, 9, 13], &[2, 3, 4, 6], &[7, 8, 10, 11, 12, 14, 15]],
                                          &[&[3, 7, 2, 12], &[15, 1]]];
        for (i, partition) in partitions.iter().enumerate() {
            let gs = groups16(partition);
            for reflect in [true, false] {
                let pdb = Arc::new(Pdb16::new(gs.clone(), reflect).unwrap());
                let mut plain = TilesH::Pdb { groups: gs.clone(), mirror: reflect.then(|| crate::puzzle::mirror(4)) };
                let mut h = TilesH16::Pdb;
                for seed in 1..4u64 {
                    let tiles = scrambled16(100 + 37 * seed as usize, seed * 11 + i as u64);
                    let d = Tiles16::new(&tiles, true, Some(pdb.clone())).unwrap();
                    let mut s = d.initial_state();
                    let mut x = seed;
                    let mut next = |m: u64| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (x >> 33) % m
                    };
                    let mut same = |s: &Board16| {
                        let mut fresh = s.clone();
                        pdb.fill(&mut fresh);
                        assert_eq!((fresh.hv, fresh.hm, fresh.sv, fresh.sm), (s.hv, s.hm, s.sv, s.sm));
                        let p = Tiles::new(4, &s.t, true).unwrap();
                        assert_eq!(TilesH16::Pdb.estimate(&d, s), plain.estimate(&p, &p.initial_state()));
                        assert!(s.t.iter().enumerate().all(|(c, &t)| usize::from(s.at[usize::from(t)]) == c));
                    };
                    same(&s);
                    for _ in 0..400 {
                        let ks: Vec<usize> = (0..4).filter(|&k| d.move_at(&s, k, &mut [0]).is_some()).collect();
                        let ph = h.estimate(&d, &s);
                        let mut said = [None; 4];
                        for _ in 0..next(5) {
                            let k = ks[next(ks.len() as u64) as usize];
                            said[k] = h.estimate_move(&d, &s, ph, k, 0);
                        }
                        let k = ks[next(ks.len() as u64) as usize];
                        match next(3) {
                            0 => {
                                let before = s.clone();
                                let u = d.apply(&mut s, k);
                                same(&s);
                                assert!(said[k].is_none_or(|e| e == h.estimate(&d, &s)));
                                d.undo(&mut s, k, u);
                                assert_eq!(s, before);
                                same(&s);
                                d.apply(&mut s, ks[next(ks.len() as u64) as usize]);
                            }
                            1 => {
                                let mut c = s.clone();
                                assert!(d.successor_at(&s, k, &mut c, &mut [0]).is_some());
                                s = c;
                            }
                            _ => {
                                d.apply(&mut s, k);
                                assert!(said[k].is_none_or(|e| e == h.estimate(&d, &s)));
                            }
                        }
                        same(&s);
                    }
                }
            }
        }
    }

    /// IDA* on the 15-puzzle's board that keeps the entries counts exactly as on the board of `crate::puzzle`:
    /// the same cost, moves, expanded and generated counts, rule cuts and every iteration's bound and counts,
    /// on one thread and on two.
    #[test]
    fn the_15_puzzle_searches_as_the_plain_board() {
        use searchkit_core::{run_parallel, Algorithm, AlgorithmSpec, Limiter, Pruner, Seed};
        let gs = groups16(&[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]]);
        let pdb = Arc::new(Pdb16::new(gs.clone(), true).unwrap());
        for seed in 1..9u64 {
            let tiles = scrambled16(60 + 10 * seed as usize, seed * 7919);
            let mut spec = AlgorithmSpec::new(Algorithm::IdaStar);
            let p = Tiles::new(4, &tiles, true).unwrap();
            let mut plain = TilesH::Pdb { groups: gs.clone(), mirror: Some(crate::puzzle::mirror(4)) };
            let mut none: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
            let a = crate::puzzle::search(&spec, &p, &mut plain, &mut none, None, &Limiter::new(), Seed::default());
            for threads in [1, 2] {
                spec.threads = threads;
                let d = Tiles16::new(&tiles, true, Some(pdb.clone())).unwrap();
                let mut none: Vec<&mut dyn Pruner<Tiles16>> = Vec::new();
                let b = run_parallel(&spec, &d, &mut TilesH16::Pdb, &mut none, None, &Limiter::new(), Seed::default());
                assert_eq!((&a.cost, &a.moves, a.stats.expanded, a.stats.generated, &a.stats.rule_cuts),
                           (&b.cost, &b.moves, b.stats.expanded, b.stats.generated, &b.stats.rule_cuts), "{tiles:?}");
                let its = |r: &searchkit_core::SearchResult<u8>| {
                    let it = r.stats.iterations.iter();
                    it.map(|i| (i.bound, i.expanded, i.generated, i.evaluated)).collect::<Vec<_>>()
                };
                assert_eq!(its(&a), its(&b), "{tiles:?}");
            }
        }
    }

    #[test]
    fn an_estimate_below_a_cap_is_exact_and_above_it_reaches_the_cap() {
        // Estimator::estimate_move_below's contract, on every slot of boards along random walks and every cap
        let gs = groups16(&[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]]);
        let pdb = Arc::new(Pdb16::new(gs, true).unwrap());
        let (mut lazy, mut total) = (0, 0);
        for seed in 1..6u64 {
            let d = Tiles16::new(&scrambled16(80, seed * 131), true, Some(pdb.clone())).unwrap();
            let mut s = d.initial_state();
            let mut h = TilesH16::Pdb;
            for step in 0..200 {
                let ph = h.estimate(&d, &s);
                for k in 0..4 {
                    if d.move_at(&s, k, &mut [0]).is_none() {
                        continue;
                    }
                    let exact = h.estimate_move(&d, &s, ph, k, 0).unwrap();
                    for cap in 0..=exact + 2 {
                        let got = h.estimate_move_below(&d, &s, ph, k, 0, cap).unwrap();
                        total += 1;
                        if exact < cap {
                            assert_eq!(got, exact);
                        } else {
                            assert!(got >= cap, "{got} below the cap {cap} (exact {exact})");
                            lazy += usize::from(got != exact);
                        }
                    }
                }
                let k = (seed as usize + step) % 4;
                if d.move_at(&s, k, &mut [0]).is_some() {
                    d.apply(&mut s, k);
                }
            }
        }
        assert!(lazy > total / 50, "the mirror's look-up was left out {lazy} times of {total}");
    }

    #[test]
    fn ranking_by_byte_table_is_the_cores() {
        // every placement of 3 cells on 4 x 4, and random placements of up to 8 cells on 4 x 4 and 5 x 5
        let w = searchkit_core::pdb::weights(16, 3);
        for r in 0..searchkit_core::pdb::count(16, 3) {
            let mut p = [0u8; 3];
            searchkit_core::pdb::unrank(r, &w, &mut p);
            assert_eq!(rank_cells::<16>(&p, &w), r);
        }
        let mut x = 12345u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (cells, k) = (if x >> 63 == 0 { 16 } else { 25 }, 1 + (x >> 40) as usize % 8);
            let mut order: Vec<u8> = (0..cells as u8).collect();
            for i in 0..k {
                let j = i + (x >> (i * 4)) as usize % (cells - i);
                order.swap(i, j);
            }
            let w = searchkit_core::pdb::weights(cells, k);
            let want = searchkit_core::pdb::rank(&order[..k], &w);
            let got = if cells == 16 { rank_cells::<16>(&order[..k], &w) } else { rank_cells::<25>(&order[..k], &w) };
            assert_eq!(got, want, "{:?}", &order[..k]);
        }
    }

    #[test]
    fn hand_made_boards() {
        // the goal; one move away (the blank up); the 4 x 4 board's rule that a goal row reversed costs more
        let d = Tiles25::new(&goal(), true, None).unwrap();
        assert!(d.is_goal(&d.initial_state()));
        assert_eq!(TilesH25::manhattan().estimate(&d, &d.initial_state()), 0);
        let mut t = goal();
        t.swap(24, 19);
        let d = Tiles25::new(&t, true, None).unwrap();
        assert_eq!(TilesH25::manhattan().estimate(&d, &d.initial_state()), 1);
        let mut t = goal();
        t[..5].copy_from_slice(&[5, 4, 3, 2, 1]);
        let d = Tiles25::new(&t, true, None).unwrap();
        // Manhattan 4 + 2 + 0 + 2 + 4; four of five tiles leave the row: 8 more
        assert_eq!(TilesH25::manhattan().estimate(&d, &d.initial_state()), 12);
        assert_eq!(TilesH25::linear_conflict().estimate(&d, &d.initial_state()), 20);
        assert!(Tiles25::new(&[0; 25], true, None).is_err() && Tiles25::new(&goal()[..16], true, None).is_err());
    }

    #[test]
    fn linear_conflict_agrees_with_the_4x4_rule_on_a_board_4x4_embeds() {
        // the 4 x 4 board's counting (one code for lines of 4) on a row of 4 reversed, against 5 x 5's on a
        // row with the same tiles in conflict
        let mut t4: Vec<u8> = (1..16u8).chain([0]).collect();
        t4[..4].copy_from_slice(&[4, 3, 2, 1]);
        let d4 = Tiles::new(4, &t4, true).unwrap();
        let lc4 = TilesH::LinearConflict(crate::puzzle::manhattan_table(4)).estimate(&d4, &d4.initial_state());
        let mut t5 = goal();
        t5[..4].copy_from_slice(&[4, 3, 2, 1]);
        let d5 = Tiles25::new(&t5, true, None).unwrap();
        assert_eq!(TilesH25::linear_conflict().estimate(&d5, &d5.initial_state()), lc4);
    }
}
