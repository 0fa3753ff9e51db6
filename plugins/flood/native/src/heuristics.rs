//! The admissible heuristics of `searchkit_flood.heuristics` (`colours`, `eccentricity`, `layered`,
//! `puchert`), giving the same value on every state. Their claims and proofs are in the Python docstrings;
//! here only what differs in the computation is said.

use searchkit_core::puzzle::Estimator;

use crate::alloc;
use crate::bits::Bits;
use crate::puzzle::Flood;
use crate::graph::BoardError;

/// Number of colours with areas outside the region.
pub struct Colours;

impl<B: Bits> Estimator<Flood<B>> for Colours {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        let outside = d.all.andnot(state);
        d.colour_areas.iter().filter(|a| a.intersects(&outside)).count() as u32
    }
}

/// The breadth-first layers around the region, as [`Layers::walk`] leaves them: the eccentricity (number of
/// layers) and, per colour, the last layer (1-based distance) holding an area of that colour, 0 for none.
#[derive(Default)]
pub struct Layers {
    /// `last[c]`: the largest distance of an area of colour `c` (0: all of its areas are flooded).
    pub last: Vec<u32>,
    /// Number of layers (the eccentricity).
    pub depth: u32,
}

impl Layers {
    /// Walk the layers of `state` (Python's `_layer_walker`: layer 1 is the frontier, each next layer the new
    /// neighbours of the last).
    pub fn walk<B: Bits>(&mut self, d: &Flood<B>, state: &B) {
        self.last.clear();
        self.last.resize(d.graph.colours, 0);
        let mut layer = d.frontier_cached(state);
        let mut seen = state.or(&layer);
        let mut depth = 0;
        while !layer.is_zero() {
            depth += 1;
            let colour = &d.graph.colour;
            let last = &mut self.last;
            layer.for_each(|a| last[colour[a] as usize] = depth);
            let mut next = d.neighbour_union(&layer);
            next.andnot_with(&seen);
            seen.or_with(&next);
            layer = next;
        }
        self.depth = depth;
    }
}

/// The region's eccentricity in the area graph.
#[derive(Default)]
pub struct Eccentricity(Layers);

impl<B: Bits> Estimator<Flood<B>> for Eccentricity {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        self.0.walk(d, state);
        self.0.depth
    }
}

/// max over t of (t + number of colours among the areas at distance > t), at least the eccentricity.
///
/// Python ORs a colour mask per layer and takes suffix unions; here the colours at distance > t are those whose
/// last layer is > t, counted from a histogram of last layers (the same numbers, any number of colours).
#[derive(Default)]
pub struct Layered {
    layers: Layers,
    hist: Vec<u32>,
}

impl<B: Bits> Estimator<Flood<B>> for Layered {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        self.layers.walk(d, state);
        let e = self.layers.depth as usize;
        self.hist.clear();
        self.hist.resize(e + 1, 0);
        for &l in &self.layers.last {
            if l > 0 {
                self.hist[l as usize] += 1;
            }
        }
        let mut best = e as u32;
        let mut suffix = 0;
        for t in (0..e).rev() {
            suffix += self.hist[t + 1]; // colours whose last layer is > t
            best = best.max(t as u32 + suffix);
        }
        best
    }
}

/// Aaron and Simon Puchert's relaxed play-out: completing colours first, else the whole frontier at once.
///
/// Python memoises play-outs per region; the count depends on the region alone, so the native version computes
/// it afresh (no memo) and gives the same value.
#[derive(Default)]
pub struct Puchert;

/// One step of the play-out from `rest` (the areas still outside) with `frontier` (those of them next to the
/// flooded region).
enum Step<B> {
    /// The frontier is all that is left: the play-out ends after these moves (one per colour on it).
    Last(u32),
    /// These moves take the areas `new`: the colours found only on the frontier (completing them), or, if
    /// there are none, the whole frontier at once (one move).
    Take(u32, B),
}

impl Puchert {
    /// The next step of the play-out (Python's loop body in `puchert`).
    #[inline(always)]
    fn step<B: Bits>(d: &Flood<B>, rest: &B, frontier: &B) -> Step<B> {
        let mut beyond = rest.clone();
        beyond.xor_with(frontier);
        if beyond.is_zero() {
            return Step::Last(d.colour_areas.iter().filter(|a| a.intersects(frontier)).count() as u32);
        }
        let mut new = B::zeros(d.words);
        let mut moves = 0u32;
        for areas in &d.colour_areas {
            if !areas.intersects(&beyond) && areas.intersects(frontier) {
                new.or_with(areas);
                moves += 1;
            }
        }
        if moves > 0 {
            new.and_with(frontier);
            Step::Take(moves, new)
        } else {
            Step::Take(1, frontier.clone())
        }
    }

    /// The play-out count from region `flooded` with frontier `frontier` (Python's `estimate` body).
    #[inline]
    pub fn count<B: Bits>(d: &Flood<B>, flooded: &B, frontier: &B) -> u32 {
        if *flooded == d.all {
            return 0;
        }
        let mut rest = d.all.andnot(flooded);
        let mut frontier = frontier.clone();
        let mut n = 0u32;
        loop {
            match Self::step(d, &rest, &frontier) {
                Step::Last(moves) => return n + moves,
                Step::Take(moves, new) => {
                    n += moves;
                    rest.xor_with(&new);
                    d.neighbour_union_into(&new, &mut frontier);
                    frontier.and_with(&rest);
                }
            }
        }
    }
}

impl<B: Bits> Estimator<Flood<B>> for Puchert {
    #[inline]
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        if *state == d.all {
            return 0;
        }
        let frontier = d.frontier_cached(state);
        Puchert::count(d, state, &frontier)
    }
}

/// [`Puchert`] with a small memo of play-outs, as Python's `puchert` memoises them (same values).
///
/// The play-out from a step on depends only on `rest`, the areas still outside (the frontier is the part of
/// `rest` adjacent to the rest of the board), so the moves it counts from each `rest` it passes are stored, and
/// a later play-out that reaches a stored `rest` adds that count and stops. Python keeps every entry (up to a
/// million); here a direct-mapped table of [`PuchertMemo::SLOTS`] entries (256 KB at W = 3, in the L2 cache)
/// keeps the recent ones, overwritten on collision: siblings' and cousins' play-outs meet within a few steps.
///
/// An entry holds its key and its count side by side (one cache line read a look-up), and an empty slot has
/// the empty key: a stored `rest` is never empty (a step that leaves nothing outside ends the play-out
/// before any look-up), so the empty key matches no look-up.
pub struct PuchertMemo<B> {
    /// `(rest, moves counted from rest on)`; `(empty, 0)` for an empty slot.
    slots: Vec<(B, u32)>,
    seen: Vec<(usize, B, u32)>,
}

impl<B: Bits> PuchertMemo<B> {
    /// Slots of the table (a power of two). On PC19 (callgrind, first 200 boards' searches): 4096 slots
    /// 2.456 G instructions, 8192 about 2.44 G, 16384 2.429 G; CPU in turns over the 1000 boards, 8192 the
    /// least (1.47 s against 1.53 s for 4096 and 1.50 s for 16384, whose 512 KB are cleared for each search).
    pub const SLOTS: usize = 8192;

    pub fn new(d: &Flood<B>) -> Self {
        Self::try_new(d).expect("memory for the Puchert memo")
    }

    /// [`PuchertMemo::new`], or [`BoardError::OutOfMemory`] when its table (`SLOTS` bitsets of the board's
    /// width) cannot be allocated.
    pub fn try_new(d: &Flood<B>) -> Result<Self, BoardError> {
        let mut slots = alloc::with_capacity(Self::SLOTS)?;
        for _ in 0..Self::SLOTS {
            slots.push((alloc::zeros::<B>(d.words)?, 0));
        }
        Ok(PuchertMemo { slots, seen: Vec::new() })
    }

    #[inline(always)]
    fn slot(rest: &B) -> usize {
        let mut h = 0u64;
        for &w in rest.words() {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> (64 - Self::SLOTS.trailing_zeros())) as usize
    }
}

impl<B: Bits> Estimator<Flood<B>> for PuchertMemo<B> {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        if *state == d.all {
            return 0;
        }
        let mut frontier = d.frontier_cached(state);
        let mut rest = d.all.andnot(state);
        let mut n = 0u32;
        self.seen.clear();
        loop {
            let new = match Puchert::step(d, &rest, &frontier) {
                Step::Last(moves) => {
                    n += moves;
                    break;
                }
                Step::Take(moves, new) => {
                    n += moves;
                    new
                }
            };
            rest.xor_with(&new);
            let slot = Self::slot(&rest);
            let entry = &self.slots[slot];
            if entry.0 == rest {
                n += entry.1;
                break;
            }
            self.seen.push((slot, rest.clone(), n));
            d.neighbour_union_into(&new, &mut frontier);
            frontier.and_with(&rest);
        }
        for (slot, key, at) in self.seen.drain(..) {
            self.slots[slot] = (key, n - at);
        }
        n
    }
}
