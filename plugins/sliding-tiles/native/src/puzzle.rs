//! The board, its moves and heuristics: the twin of `sliding_tiles/puzzle.py` and `heuristics.py`/`pdb.py`.
//!
//! A state is the board (`t[cell]` = tile, 0 the blank; goal `1 .. n*n-1` row-major, then the blank), the
//! blank's cell and the cell the blank came from (`NO_PREV` when none, or when `no-undo` is off), exactly
//! Python's flat tuple.  Successors: the blank moves `U`, `D`, `L`, `R` in that order, cost 1; with
//! `no-undo` on, the move straight back is cut and counted.

use std::sync::Arc;

use searchkit_core::{run_parallel, AlgorithmSpec, Estimator, Limiter, Pruner, Puzzle, SearchResult, Seed, Successor};

use searchkit_core::pdb::{count, rank, weights, Table};

pub const NO_PREV: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub t: [u8; 16],
    pub blank: u8,
    pub prev: u8,
}

pub struct Tiles {
    pub n: usize,
    pub start: Board,
    pub no_undo: bool,
    /// OR-ed into the blank's old cell to give a child's previous cell: 0 with `no_undo` (the old cell),
    /// `NO_PREV` without (none).
    prev_fill: u8,
    moves: Vec<Vec<(u8, u8)>>, // per blank cell: (move letter, new blank cell), in U D L R order
    /// `slots[cell][k]`: the blank's new cell after move `SLOT_MOVES[k]` from `cell` (`NO_PREV`: off the board).
    slots: [[u8; 4]; 16],
    /// `delta[cell][k]`: `2^(8 cell) - 2^(8 to)` (wrapping), `to` the blank's new cell: the board read as one
    /// little-endian 128-bit number gains `tile * delta` when `tile` moves from `to` into the blank's `cell`.
    delta: [[u128; 4]; 16],
    /// The goal board's two 64-bit halves.
    goal_halves: [u64; 2],
    /// The blank's cell on the goal board.
    goal_blank: u8,
}

/// The board's 16 cells as two little-endian 64-bit numbers (cells 0..8, 8..16), as the goal test reads
/// them. A read of bytes written just before by single stores waits for them (a stalled store forwarding:
/// once a fifth of an in-place search's time), so [`Tiles::is_goal`] reads them only when the blank is home.
#[inline]
fn halves(t: &[u8; 16]) -> [u64; 2] {
    let (lo, hi) = t.split_at(8);
    [u64::from_le_bytes(lo.try_into().expect("8 bytes")), u64::from_le_bytes(hi.try_into().expect("8 bytes"))]
}

/// The move letters of the four move slots, in the game's order.
const SLOT_MOVES: [u8; 4] = *b"UDLR";

impl Tiles {
    /// The puzzle of side `n` (1..4) starting from `tiles` (row-major, 0 the blank); `no_undo` fuses the rule.
    /// Side 1 is the lone blank, already the goal, with no moves (the Python puzzle takes it too).
    pub fn new(n: usize, tiles: &[u8], no_undo: bool) -> Result<Tiles, String> {
        let cells = n * n;
        if !(1..=4).contains(&n) || tiles.len() != cells {
            return Err(format!("tiles: a board of side 1 to 4 and side**2 tiles, got side {n}"));
        }
        let mut seen = [false; 16];
        for &x in tiles {
            if x as usize >= cells || std::mem::replace(&mut seen[x as usize], true) {
                return Err("tiles: not a permutation of 0 .. side**2-1".into());
            }
        }
        let mut t = [0u8; 16];
        t[..cells].copy_from_slice(tiles);
        let blank = tiles.iter().position(|&x| x == 0).unwrap() as u8;
        let mut goal = [0u8; 16];
        for (i, g) in goal[..cells - 1].iter_mut().enumerate() {
            *g = i as u8 + 1;
        }
        let moves = (0..cells)
            .map(|b| {
                let (r, c) = (b / n, b % n);
                let mut m = Vec::new();
                if r > 0 {
                    m.push((b'U', (b - n) as u8));
                }
                if r + 1 < n {
                    m.push((b'D', (b + n) as u8));
                }
                if c > 0 {
                    m.push((b'L', (b - 1) as u8));
                }
                if c + 1 < n {
                    m.push((b'R', (b + 1) as u8));
                }
                m
            })
            .collect::<Vec<Vec<(u8, u8)>>>();
        let mut slots = [[NO_PREV; 4]; 16];
        let mut delta = [[0u128; 4]; 16];
        for (cell, ms) in moves.iter().enumerate() {
            for &(mv, to) in ms {
                let k = SLOT_MOVES.iter().position(|&m| m == mv).expect("a move letter");
                slots[cell][k] = to;
                delta[cell][k] = (1u128 << (8 * cell)).wrapping_sub(1u128 << (8 * u32::from(to)));
            }
        }
        let goal_halves = halves(&goal);
        let prev_fill = if no_undo { 0 } else { NO_PREV };
        Ok(Tiles { n, start: Board { t, blank, prev: NO_PREV }, no_undo, prev_fill, moves, slots, delta,
                   goal_halves, goal_blank: (cells - 1) as u8 })
    }
}

impl Puzzle for Tiles {
    type State = Board;
    type Move = u8;

    fn initial_state(&self) -> Board {
        self.start
    }

    /// `t == goal`, read as the board's two halves (see [`halves`]), when the blank is home: a board that
    /// [`Tiles::apply`] has just changed by single bytes is read whole only then (such a read waits for the
    /// byte writes to reach the cache, a stalled store forwarding).
    #[inline]
    fn is_goal(&self, s: &Board) -> bool {
        if s.blank != self.goal_blank {
            return false;
        }
        let [lo, hi] = halves(&s.t);
        (lo ^ self.goal_halves[0]) | (hi ^ self.goal_halves[1]) == 0
    }

    fn successors(&self, s: &Board, out: &mut Vec<Successor<u8, Board>>, cuts: &mut [u64]) {
        let b = s.blank;
        for &(mv, to) in &self.moves[b as usize] {
            if to == s.prev {
                cuts[0] += 1;
                continue;
            }
            let mut t = s.t;
            t[b as usize] = t[to as usize];
            t[to as usize] = 0;
            let prev = if self.no_undo { b } else { NO_PREV };
            out.push(Successor { mv, state: Board { t, blank: to, prev }, cost: 1 });
        }
    }

    fn successor_slots(&self) -> usize {
        4
    }

    /// Slot `k` is the blank's move `U`, `D`, `L`, `R` (`k` = 0..3), as `successors` lists them.
    #[inline]
    fn successor_at(&self, s: &Board, k: usize, child: &mut Board, cuts: &mut [u64]) -> Option<(u8, u32)> {
        let b = s.blank;
        let to = self.slots[b as usize & 15][k & 3];
        if to == NO_PREV {
            return None;
        }
        if to == s.prev {
            cuts[0] += 1;
            return None;
        }
        // the board as one 128-bit number: the tile at `to` moves into the blank's byte `b`, in registers, and
        // is written whole (two byte stores into a copy, read back whole, stalled the store forwarding)
        let tile = u128::from(s.t[to as usize & 15]);
        child.t = u128::from_le_bytes(s.t).wrapping_add(tile.wrapping_mul(self.delta[b as usize & 15][k & 3]))
            .to_le_bytes();
        child.blank = to;
        child.prev = if self.no_undo { b } else { NO_PREV };
        Some((SLOT_MOVES[k & 3], 1))
    }

    fn in_place(&self) -> bool {
        true
    }

    /// Slot `k`'s move as `successor_at` gives it (and its `no-undo` cut), without making it.
    #[inline]
    fn move_at(&self, s: &Board, k: usize, cuts: &mut [u64]) -> Option<(u8, u32)> {
        let to = self.slots[s.blank as usize & 15][k & 3];
        if to == NO_PREV {
            return None;
        }
        if to == s.prev {
            cuts[0] += 1;
            return None;
        }
        Some((SLOT_MOVES[k & 3], 1))
    }

    /// The blank's move of slot `k` made on the board itself, two bytes of it written (the search reads the
    /// board a byte at a time: a goal by the estimate, or [`Tiles::is_goal`] with the blank first); the undo
    /// word holds the blank's cell before it (bits 8..16) and the cell it had come from (bits 0..8).
    #[inline]
    fn apply(&self, s: &mut Board, k: usize) -> u64 {
        let b = s.blank & 15;
        let to = self.slots[b as usize][k & 3] & 15;
        s.t[b as usize] = s.t[to as usize];
        s.t[to as usize] = 0;
        let undo = u64::from(b) << 8 | u64::from(s.prev);
        s.blank = to;
        s.prev = b | self.prev_fill;
        undo
    }

    /// [`Tiles::apply`] undone: the tile now in the old blank's cell moves back into the blank's, blank and
    /// previous cell as they were.
    #[inline]
    fn undo(&self, s: &mut Board, _k: usize, undo: u64) {
        let b = (undo >> 8) as u8 & 15;
        let to = s.blank & 15;
        s.t[to as usize] = s.t[b as usize];
        s.t[b as usize] = 0;
        s.blank = b;
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

/// One pattern database of a partition: its tiles (in rank order) and its entries (a buffer, or a verified
/// file's pages mapped read-only: [`Table`]; shared by the threads of a search and by the searches of a process).
#[derive(Clone)]
pub struct Group {
    pub tiles: Vec<u8>,
    pub table: Arc<Table>,
    pub(crate) w: Vec<u64>,
}

impl Group {
    pub fn new(n: usize, tiles: Vec<u8>, table: Arc<Table>) -> Result<Group, String> {
        let w = weights(n * n, tiles.len());
        let expected = count(n * n, tiles.len()) as usize;
        if table.len() != expected {
            return Err(format!("a table of {} entries for {} tiles on {n}x{n}: expected {expected}",
                               table.len(), tiles.len()));
        }
        Ok(Group { tiles, table, w })
    }
}

/// The heuristics of the plugin with a native twin (cloned for each thread of a parallel search: the tables
/// are shared).
#[derive(Clone)]
pub enum TilesH {
    /// The Manhattan distance ([`Manhattan`]).
    Manhattan(Box<Manhattan>),
    LinearConflict(Box<[[u8; 16]; 16]>),
    /// Additive pattern databases; with `mirror`, the max with the main-diagonal mirror's sum.
    Pdb { groups: Vec<Group>, mirror: Option<([u8; 16], [u8; 16])> },
}

/// `table[cell][tile]`: grid distance from `cell` to `tile`'s goal cell (0 for the blank).
pub fn manhattan_table(n: usize) -> Box<[[u8; 16]; 16]> {
    // a fixed 16 x 16 array: indexing it by a cell and a tile (each masked to 0..15) needs no bounds check
    let mut table = Box::new([[0u8; 16]; 16]);
    for (p, row) in table.iter_mut().enumerate().take(n * n) {
        for (t, d) in row.iter_mut().enumerate().take(n * n).skip(1) {
            let g = t - 1;
            *d = ((p / n).abs_diff(g / n) + (p % n).abs_diff(g % n)) as u8;
        }
    }
    table
}

/// `step[cell][k][tile]`: the change of the Manhattan distance when `tile` moves into the blank's `cell` by
/// the blank's move slot `k` (`U`, `D`, `L`, `R`), from the blank's new cell: +1 or -1 as a wrapping `u8`
/// (0 where the move is off the board). One look-up for a child's estimate in place of two and a subtraction.
pub fn manhattan_steps(n: usize) -> Box<[[[u8; 16]; 4]; 16]> {
    let table = manhattan_table(n);
    let mut step = Box::new([[[0u8; 16]; 4]; 16]);
    for (cell, row) in step.iter_mut().enumerate().take(n * n) {
        let (r, c) = (cell / n, cell % n);
        let to = [(r > 0).then(|| cell - n), (r + 1 < n).then(|| cell + n), (c > 0).then(|| cell - 1),
                  (c + 1 < n).then(|| cell + 1)];
        for (k, to) in to.into_iter().enumerate() {
            let Some(to) = to else { continue };
            for tile in 1..n * n {
                row[k][tile] = table[cell][tile].wrapping_sub(table[to][tile]);
            }
        }
    }
    step
}

/// The Manhattan distance: `table` (see [`manhattan_table`]) and `step` (see [`manhattan_steps`]). A type of
/// its own, so that IDA* is compiled for it ([`search`]): no test of the heuristic's kind for each child.
#[derive(Clone)]
pub struct Manhattan {
    table: [[u8; 16]; 16],
    step: [[[u8; 16]; 4]; 16],
}

impl Manhattan {
    /// The Manhattan distance on boards of side `n`.
    pub fn new(n: usize) -> Manhattan {
        Manhattan { table: *manhattan_table(n), step: *manhattan_steps(n) }
    }
}

impl TilesH {
    /// The Manhattan distance on boards of side `n`.
    pub fn manhattan(n: usize) -> TilesH {
        TilesH::Manhattan(Box::new(Manhattan::new(n)))
    }
}

/// Search `puzzle` with `h` as `searchkit_core::run_parallel` does (the binding's and `bench_ida`'s one way
/// in): IDA* with the Manhattan distance runs on [`Manhattan`] itself, compiled for it; the rest on `TilesH`.
#[allow(clippy::too_many_arguments)]
pub fn search(spec: &AlgorithmSpec, puzzle: &Tiles, h: &mut TilesH, pruners: &mut [&mut dyn Pruner<Tiles>],
              max_cost: Option<u32>, limiter: &Limiter, seed: Seed<'_, u8>) -> SearchResult<u8> {
    use searchkit_core::Algorithm::{IdaStar, IdaStarTt};
    match h {
        TilesH::Manhattan(m) if matches!(spec.algorithm, IdaStar | IdaStarTt) => {
            run_parallel(spec, puzzle, &mut **m, pruners, max_cost, limiter, seed)
        }
        _ => run_parallel(spec, puzzle, h, pruners, max_cost, limiter, seed),
    }
}

impl Estimator<Tiles> for Manhattan {
    #[inline]
    fn estimate(&mut self, d: &Tiles, s: &Board) -> u32 {
        (0..d.n * d.n).map(|p| u32::from(self.table[p][s.t[p] as usize & 15])).sum()
    }

    /// Incrementally: the parent's value with the one tile that moved (from the child's blank cell to the
    /// parent's) counted at its new cell.
    #[inline]
    fn estimate_child(&mut self, _d: &Tiles, parent: &Board, parent_h: u32, _mv: u8, child: &Board) -> u32 {
        let (from, to) = (child.blank as usize & 15, parent.blank as usize & 15);
        let tile = parent.t[from] as usize & 15;
        parent_h + u32::from(self.table[to][tile]) - u32::from(self.table[from][tile])
    }

    /// 0 at the goal and only there (every tile home).
    #[inline]
    fn zero_only_at_goal(&self, _d: &Tiles) -> bool {
        true
    }

    /// A sum of 16 table entries: never [`searchkit_core::DEAD`].
    #[inline]
    fn never_dead(&self, _d: &Tiles) -> bool {
        true
    }

    /// The successor by slot `k` before the move: the parent's value with the tile that will move (from the
    /// blank's new cell into its old one) counted at its new cell, in one look-up of `step` (+1 or -1).
    #[inline]
    fn estimate_move(&mut self, d: &Tiles, parent: &Board, parent_h: u32, k: usize, _mv: u8) -> Option<u32> {
        let b = parent.blank as usize & 15;
        let to = d.slots[b][k & 3] as usize & 15;
        let tile = parent.t[to] as usize & 15;
        Some(parent_h.wrapping_add(i32::from(self.step[b][k & 3][tile] as i8) as u32))
    }
}

/// `(cell_map, tile_map)` of the main-diagonal mirror (sliding_tiles.pdb.mirror).
pub fn mirror(n: usize) -> ([u8; 16], [u8; 16]) {
    let mut cell = [0u8; 16];
    let mut tile = [0u8; 16];
    for (p, c) in cell.iter_mut().enumerate().take(n * n) {
        *c = ((p % n) * n + p / n) as u8;
    }
    for t in 1..n * n {
        tile[t] = cell[t - 1] + 1;
    }
    (cell, tile)
}

/// `2 * (k - LIS)` of the goal offsets in one line of up to 8 (heuristics._line_extra).
pub(crate) fn line_extra(slots: &[u8]) -> u32 {
    let mut tails = [0u8; 8];
    let mut len = 0;
    for &x in slots {
        let i = tails[..len].partition_point(|&t| t < x);
        tails[i] = x;
        if i == len {
            len += 1;
        }
    }
    2 * (slots.len() - len) as u32
}

/// The linear conflicts' extra moves of an `n` x `n` board (`n` <= 5; `heuristics._line_extra` over every row
/// and column), `t` its tiles row-major (at least `n * n` of them).
pub(crate) fn linear_extra(n: usize, t: &[u8]) -> u32 {
    let mut h = 0;
    let mut slots = [0u8; 5];
    for line in 0..n {
        let mut k = 0;
        for c in 0..n {
            let x = t[line * n + c];
            if x != 0 && (x as usize - 1) / n == line {
                slots[k] = ((x as usize - 1) % n) as u8;
                k += 1;
            }
        }
        h += line_extra(&slots[..k]);
        k = 0;
        for r in 0..n {
            let x = t[r * n + line];
            if x != 0 && (x as usize - 1) % n == line {
                slots[k] = ((x as usize - 1) / n) as u8;
                k += 1;
            }
        }
        h += line_extra(&slots[..k]);
    }
    h
}

impl TilesH {
    /// The sum of the groups' entries for the tiles' cells `at` (optionally mirrored by `map`).
    ///
    /// An unreachable entry (`pdb::UNREACHED`, 255) adds 255, as the Python twin's lookup
    /// (`sliding_tiles.pdb._lookup`) does: it is not [`searchkit_core::DEAD`].  Only a table of every tile
    /// has such entries (the placements of the wrong parity), so only a board of the wrong parity meets one,
    /// where any value is a lower bound; the game decides those without search.
    fn pdb_sum(groups: &[Group], at: &[u8; 16], map: Option<&([u8; 16], [u8; 16])>) -> u32 {
        let mut sum = 0u32;
        let mut cells = [0u8; 16];
        for g in groups {
            for (i, &tile) in g.tiles.iter().enumerate() {
                cells[i] = match map {
                    None => at[tile as usize],
                    Some((cell, tmap)) => cell[at[tmap[tile as usize] as usize] as usize],
                };
            }
            sum += u32::from(g.table[rank(&cells[..g.tiles.len()], &g.w) as usize]);
        }
        sum
    }
}

impl Estimator<Tiles> for TilesH {
    fn estimate(&mut self, d: &Tiles, s: &Board) -> u32 {
        let cells = d.n * d.n;
        match self {
            TilesH::Manhattan(m) => m.estimate(d, s),
            TilesH::LinearConflict(table) => {
                (0..cells).map(|p| u32::from(table[p][s.t[p] as usize])).sum::<u32>() + linear_extra(d.n, &s.t)
            }
            TilesH::Pdb { groups, mirror } => {
                let mut at = [0u8; 16];
                for p in 0..cells {
                    at[s.t[p] as usize] = p as u8;
                }
                let a = Self::pdb_sum(groups, &at, None);
                match mirror {
                    None => a,
                    Some(m) => a.max(Self::pdb_sum(groups, &at, Some(m))),
                }
            }
        }
    }

    /// The Manhattan distance incrementally: the parent's value with the one tile that moved (from the
    /// child's blank cell to the parent's) counted at its new cell; the others as `estimate`.
    #[inline]
    fn estimate_child(&mut self, d: &Tiles, parent: &Board, parent_h: u32, mv: u8, child: &Board) -> u32 {
        match self {
            TilesH::Manhattan(m) => m.estimate_child(d, parent, parent_h, mv, child),
            _ => self.estimate(d, child),
        }
    }

    /// The Manhattan distance and linear conflict are 0 at the goal and only there (every tile home; the
    /// conflicts add to the Manhattan distance). Not the pattern databases: their groups need not cover
    /// every tile.
    #[inline]
    fn zero_only_at_goal(&self, _d: &Tiles) -> bool {
        matches!(self, TilesH::Manhattan { .. } | TilesH::LinearConflict(_))
    }

    /// Sums of table entries, every one (a pattern database's unreachable entry adds 255): never
    /// [`searchkit_core::DEAD`].
    #[inline]
    fn never_dead(&self, _d: &Tiles) -> bool {
        true
    }

    /// The Manhattan distance of the successor by slot `k` before the move: the parent's value with the
    /// tile that will move (from the blank's new cell into its old one) counted at its new cell. The other
    /// heuristics need the board: `None`.
    #[inline]
    fn estimate_move(&mut self, d: &Tiles, parent: &Board, parent_h: u32, k: usize, mv: u8) -> Option<u32> {
        match self {
            TilesH::Manhattan(m) => m.estimate_move(d, parent, parent_h, k, mv),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_conflict_counts_tiles_leaving_not_pairs() {
        // a goal row holding 3 2 1: two tiles leave (4 extra moves), not 3 reversed pairs
        let mut t = [0u8; 16];
        t[..9].copy_from_slice(&[3, 2, 1, 4, 5, 6, 7, 8, 0]);
        assert_eq!(linear_extra(3, &t), 4);
    }

    #[test]
    fn estimate_move_is_the_estimate_of_every_child() {
        // each slot's estimate before the move (the step table) equals the whole distance after it, on a walk
        // from the goal (whose children reach the goal again)
        for n in 2..=4 {
            let tiles: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
            let d = Tiles::new(n, &tiles, false).unwrap();
            let mut h = TilesH::manhattan(n);
            assert!(h.zero_only_at_goal(&d) && TilesH::LinearConflict(manhattan_table(n)).zero_only_at_goal(&d));
            let mut s = d.initial_state();
            let mut goals = 0;
            for walk in 0..200usize {
                let ph = h.estimate(&d, &s);
                for k in 0..4 {
                    if d.move_at(&s, k, &mut [0]).is_some() {
                        let e = h.estimate_move(&d, &s, ph, k, 0).unwrap();
                        let mut c = s;
                        d.apply(&mut c, k);
                        assert_eq!(e, h.estimate(&d, &c), "n={n} k={k}");
                        // zero_only_at_goal: the estimate is 0 exactly at the goal
                        let lc = TilesH::LinearConflict(manhattan_table(n)).estimate(&d, &c);
                        assert_eq!(e == 0, d.is_goal(&c));
                        assert_eq!(lc == 0, d.is_goal(&c));
                        goals += usize::from(d.is_goal(&c));
                    }
                }
                let k = (walk * 7 + 3) % 4;
                if d.move_at(&s, k, &mut [0]).is_some() {
                    d.apply(&mut s, k);
                }
            }
            assert!(goals > 0, "n={n}: the walk met the goal");
        }
    }

    #[test]
    fn side_one_is_the_goal_with_no_moves() {
        let d = Tiles::new(1, &[0], true).unwrap();
        let s = d.initial_state();
        assert!(d.is_goal(&s));
        let (mut out, mut cuts) = (Vec::new(), [0u64]);
        d.successors(&s, &mut out, &mut cuts);
        assert!(out.is_empty() && cuts == [0]);
        assert_eq!(TilesH::LinearConflict(manhattan_table(1)).estimate(&d, &s), 0);
        assert!(Tiles::new(5, &[0; 25], true).is_err() && Tiles::new(0, &[], true).is_err());
    }
}
