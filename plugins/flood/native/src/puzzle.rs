//! Flood-It as a [`Puzzle`]: the twin of `searchkit_flood.areas.FloodPuzzle`.
//!
//! A state is the flooded region alone (an area bitset); its frontier (the areas adjacent to the region, outside
//! it) is derived with [`Flood::frontier`]. Python carries the frontier in its packed state, but it is a function
//! of the region, so both engines see the same states, and a stored native state costs `8 W` bytes.

use std::cell::RefCell;

use searchkit_core::puzzle::{Puzzle, Successor};

use crate::bits::{Bits, MAX_FIXED_WORDS};
use crate::alloc;
use crate::graph::{AreaGraph, BoardError};

/// Rule names, as `searchkit_flood.areas` spells them.
pub const RULE_FRONTIER: &str = "frontier-colours";
pub const RULE_GROWTH: &str = "no-growth";
pub const RULE_COMPLETION: &str = "completion";
pub const RULE_EXPOSURE: &str = "exposure";
pub const RULE_DOMINANCE: &str = "dominance";

/// A Flood-It instance over area bitsets `B` (`[u64; W]` with `W = words_for(count)`, or `Box<[u64]>`).
pub struct Flood<B: Bits> {
    pub graph: AreaGraph,
    /// Words per bitset.
    pub words: usize,
    /// `neighbours[a]`: the areas adjacent to `a`.
    pub neighbours: Vec<B>,
    /// `colour_areas[c]`: the areas of colour `c`.
    pub colour_areas: Vec<B>,
    /// Every area.
    pub all: B,
    /// `tables[i * 256 + v]`: the union of `neighbours[8 i + j]` over the bits `j` of byte `v` (Python's
    /// `neighbour_byte_tables`); built for fixed widths only (at most 9 words: 72 x 256 entries of 72 bytes,
    /// 1.3 MB), empty in the fallback, which unions neighbour sets area by area.
    tables: Vec<B>,
    frontier_only: bool,
    growth_only: bool,
    completion: bool,
    exposure: bool,
    rule_names: Vec<&'static str>,
    slot_lost: Option<usize>,
    slot_completion: Option<usize>,
    slot_exposure: Option<usize>,
    /// The frontiers of the children of the last [`Flood::successors_with`] call, kept once
    /// [`Flood::frontier_cached`] has been asked (a heuristic evaluates the children right after they are
    /// generated; their frontiers cost a few operations there and about 15 table look-ups afresh).
    stash: RefCell<Stash<B>>,
}

struct Stash<B> {
    wanted: bool,
    children: Vec<(B, B)>,
}

impl<B: Bits> Flood<B> {
    /// The puzzle of a board, with the successor rules named in `disabled` switched off (unknown names are
    /// ignored, as the Python puzzle ignores them; `dominance` is a [`crate::Dominance`] pruner, not fused here).
    ///
    /// Errors: a bad board ([`AreaGraph::new`]), `B` too narrow for the board's areas, or an allocation that
    /// fails ([`BoardError::OutOfMemory`]).
    pub fn new(cells: &[u32], width: usize, height: usize, pivot: usize, disabled: &[&str])
               -> Result<Self, BoardError> {
        Self::from_graph(AreaGraph::new(cells, width, height, pivot)?, disabled)
    }

    /// [`Flood::new`] from a built graph.
    pub fn from_graph(graph: AreaGraph, disabled: &[&str]) -> Result<Self, BoardError> {
        let words = graph.words();
        let probe = alloc::zeros::<B>(words)?;
        if probe.words().len() != words {
            return Err(BoardError::Invalid(format!("{} areas need {words} words, the bitset has {}", graph.count,
                                                   probe.words().len())));
        }
        let count = graph.count;
        // Every table here grows with the board: allocated fallibly (crate::alloc), never aborting.
        let mut neighbours = alloc::with_capacity(count)?;
        for a in 0..count {
            let mut b = alloc::zeros::<B>(words)?;
            for &n in graph.neighbours(a) {
                b.set(n as usize);
            }
            neighbours.push(b);
        }
        let mut colour_areas = alloc::zeros_vec::<B>(graph.colours, words)?;
        for (a, &c) in graph.colour.iter().enumerate() {
            colour_areas[c as usize].set(a);
        }
        let mut all = alloc::zeros::<B>(words)?;
        for a in 0..count {
            all.set(a);
        }
        let mut tables = Vec::new();
        if words <= MAX_FIXED_WORDS {
            let nbytes = count.div_ceil(8);
            tables.try_reserve_exact(nbytes * 256).map_err(|_| BoardError::OutOfMemory)?;
            for i in 0..nbytes {
                let base = tables.len();
                tables.push(B::zeros(words));
                for v in 1..256usize {
                    let low = v.trailing_zeros() as usize;
                    let mut u = tables[base + (v & (v - 1))].clone();
                    if 8 * i + low < count {
                        u.or_with(&neighbours[8 * i + low]);
                    }
                    tables.push(u);
                }
            }
        }
        let on = |r: &str| !disabled.contains(&r);
        let (frontier_only, growth_only) = (on(RULE_FRONTIER), on(RULE_GROWTH));
        let (completion, exposure) = (on(RULE_COMPLETION), on(RULE_EXPOSURE));
        let mut rule_names = Vec::new();
        let mut slot = |name: &'static str| {
            rule_names.push(name);
            Some(rule_names.len() - 1)
        };
        let slot_lost = if frontier_only {
            slot(RULE_FRONTIER)
        } else if growth_only {
            slot(RULE_GROWTH)
        } else {
            None
        };
        let slot_completion = if completion { slot(RULE_COMPLETION) } else { None };
        let slot_exposure = if exposure { slot(RULE_EXPOSURE) } else { None };
        Ok(Flood {
            graph, words, neighbours, colour_areas, all, tables, frontier_only, growth_only, completion, exposure,
            rule_names, slot_lost, slot_completion, slot_exposure,
            stash: RefCell::new(Stash { wanted: false, children: Vec::new() }),
        })
    }

    /// The union of the neighbour sets of the areas in `x` (may include areas of `x`).
    #[inline]
    pub fn neighbour_union(&self, x: &B) -> B {
        let mut out = B::zeros(self.words);
        self.neighbour_union_into(x, &mut out);
        out
    }

    /// `out |= ` the union of the neighbour sets of the areas in `x`.
    #[inline(always)]
    pub fn neighbour_union_into(&self, x: &B, out: &mut B) {
        if self.tables.is_empty() {
            x.for_each(|a| {
                for &n in self.graph.neighbours(a) {
                    out.set(n as usize);
                }
            });
            return;
        }
        for (k, &w) in x.words().iter().enumerate() {
            let mut w = w;
            while w != 0 {
                // the lowest non-zero byte of the word (zero bytes are skipped)
                let shift = w.trailing_zeros() & !7;
                let byte = ((w >> shift) & 255) as usize;
                w &= !(255u64 << shift);
                out.or_with(&self.tables[(k * 8 + (shift >> 3) as usize) * 256 + byte]);
            }
        }
    }

    /// The frontier of region `flooded`: adjacent areas outside it.
    #[inline]
    pub fn frontier(&self, flooded: &B) -> B {
        let mut f = self.neighbour_union(flooded);
        f.andnot_with(flooded);
        f
    }

    /// [`Flood::frontier`], read from the frontiers of the last successors generated when `flooded` is one of
    /// them (the same value, cheaper; the first call switches the keeping on).
    #[inline]
    pub fn frontier_cached(&self, flooded: &B) -> B {
        let mut stash = self.stash.borrow_mut();
        if let Some((_, f)) = stash.children.iter().find(|(c, _)| c == flooded) {
            return f.clone();
        }
        stash.wanted = true;
        drop(stash);
        self.frontier(flooded)
    }

    /// The region after absorbing `new` (a subset of the frontier).
    #[inline]
    pub fn absorb(&self, flooded: &B, new: &B) -> B {
        flooded.or(new)
    }

    /// Successors of `flooded` given its frontier, in Python's order with Python's rules (see
    /// `FloodPuzzle.successors`); `cuts` as [`Puzzle::successors`].
    pub fn successors_with(&self, flooded: &B, frontier: &B, out: &mut Vec<Successor<u16, B>>, cuts: &mut [u64]) {
        let mut stash = self.stash.borrow_mut();
        let keep = stash.wanted;
        stash.children.clear();
        // the frontier of the child `flooded + new`, whose neighbour union is `reach`
        let child_frontier = |child: &B, reach: &B| {
            let mut f = frontier.or(reach);
            f.andnot_with(child);
            f
        };
        let mut beyond = self.all.andnot(flooded);
        beyond.andnot_with(frontier);
        if self.completion {
            for (c, areas) in self.colour_areas.iter().enumerate() {
                if areas.intersects(frontier) && !areas.intersects(&beyond) {
                    let on = self.colour_areas.iter().filter(|a| a.intersects(frontier)).count() as u64;
                    if let Some(s) = self.slot_completion {
                        cuts[s] += on - 1;
                    }
                    let new = areas.and(frontier);
                    let child = new.or(flooded);
                    if keep {
                        let f = child_frontier(&child, &self.neighbour_union(&new));
                        stash.children.push((child.clone(), f));
                    }
                    out.push(Successor { mv: c as u16, state: child, cost: 1 });
                    return;
                }
            }
        }
        let expose = self.exposure && !beyond.is_zero();
        for (c, areas) in self.colour_areas.iter().enumerate() {
            let new = areas.and(frontier);
            if new.is_zero() {
                if self.frontier_only || self.growth_only {
                    if let Some(s) = self.slot_lost {
                        cuts[s] += 1;
                    }
                    continue;
                }
                out.push(Successor { mv: c as u16, state: flooded.clone(), cost: 1 });
                continue;
            }
            let mut reach = None;
            if expose {
                let r = self.neighbour_union(&new);
                if !r.intersects(&beyond) {
                    if let Some(s) = self.slot_exposure {
                        cuts[s] += 1;
                    }
                    continue;
                }
                reach = Some(r);
            }
            let child = new.or(flooded);
            if keep {
                let reach = reach.unwrap_or_else(|| self.neighbour_union(&new));
                stash.children.push((child.clone(), child_frontier(&child, &reach)));
            }
            out.push(Successor { mv: c as u16, state: child, cost: 1 });
        }
    }

    /// The region after playing `moves` from the start (for tests and replay).
    pub fn play(&self, moves: &[u16]) -> B {
        let mut f = self.initial_state();
        for &c in moves {
            let new = self.colour_areas[c as usize].and(&self.frontier(&f));
            f.or_with(&new);
        }
        f
    }
}

impl<B: Bits> Puzzle for Flood<B> {
    type State = B;
    type Move = u16;

    fn initial_state(&self) -> B {
        let mut b = B::zeros(self.words);
        b.set(0);
        b
    }

    /// A boxed bitset's words (boards of more than 576 areas), charged per stored state to the memory budget:
    /// without them a 60 x 60 board's search ran past `--memory-limit 150` uncounted, and a small allocation
    /// then failed (Rust's abort of the worker) before the budget said `memory_limit`.
    fn state_heap_bytes(&self, state: &B) -> usize {
        state.heap_bytes()
    }

    fn is_goal(&self, state: &B) -> bool {
        *state == self.all
    }

    fn successors(&self, state: &B, out: &mut Vec<Successor<u16, B>>, cuts: &mut [u64]) {
        let frontier = self.frontier_cached(state);
        self.successors_with(state, &frontier, out, cuts);
    }

    fn rule_names(&self) -> &[&'static str] {
        &self.rule_names
    }

    /// More flooded areas first: `-count` (Python's `FloodPuzzle.tie_break`).
    fn tie_break(&self, state: &B) -> i64 {
        -(state.count() as i64)
    }
}
