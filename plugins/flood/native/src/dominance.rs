//! The `dominance` rule (`searchkit_flood.dominance.dominance_pruner`): skip a state whose region lies inside a
//! region expanded before at the same cost g. The soundness proof is in the Python module.
//!
//! The same index as Python's: per cost level g, for every area `a`, a bitvector over the states recorded at that
//! level (bit i set when the i-th recorded region contains `a`). The regions containing all of F are the AND of
//! the bitvectors of F's areas, taken from the highest area down. Here the bitvectors are cut in chunks of 64
//! regions, stored chunk-major (a chunk is `count` words, one per area), and the AND runs chunk by chunk, each
//! stopping at its first zero. Memory: `count` bits per recorded state, grown fallibly: when an allocation is
//! refused, recording stops (cutting less is always sound) and [`Dominance::full`] says so.

use searchkit_core::puzzle::Pruner;

use crate::bits::Bits;
use crate::puzzle::{Flood, RULE_DOMINANCE};

struct Level {
    /// Regions recorded at this level.
    n: usize,
    /// `n` at the last [`Dominance::freeze`].
    mark: usize,
    /// Chunk-major bitmaps: `data[c * count + a]` has bit j set when region `64 c + j` contains area `a`, so
    /// one region is recorded in one contiguous run of `count` words.
    data: Vec<u64>,
}

/// The dominance pruner: fresh per search.
pub struct Dominance {
    levels: Vec<Level>,
    /// Set when a level's table could not grow (allocation refused): from then on regions are checked but no
    /// longer recorded, which only cuts less (sound), never more.
    pub full: bool,
}

/// The regions of one chunk (bit j: region `64 c + j`) that contain every area of `region` (given by its
/// words), or 0. The areas are taken from the highest down (far areas first: few regions hold them, so the AND
/// empties soon), straight from the bitset's words: a list of the region's areas cost more to build than the
/// ANDs that read it (a PC19 region has about 100 areas, and the AND empties after a few).
#[inline(always)]
fn holding(chunk: &[u64], region: &[u64], of: u64) -> u64 {
    let mut acc = of;
    for (k, &w) in region.iter().enumerate().rev() {
        let mut w = w;
        while w != 0 {
            let top = 63 - w.leading_zeros() as usize;
            acc &= chunk[k * 64 + top];
            if acc == 0 {
                return 0;
            }
            w ^= 1u64 << top;
        }
    }
    acc
}

impl Dominance {
    pub fn new() -> Self {
        Dominance { levels: Vec::new(), full: false }
    }

    /// Bytes held by the index.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(|l| l.data.capacity() * 8).sum()
    }

    /// Python's `cut(state, g, remaining)`: `true` if the region lies inside one recorded at `g`; otherwise
    /// record it and return `false`.
    pub fn check<B: Bits>(&mut self, count: usize, flooded: &B, g: u32) -> bool {
        self.check_from(count, flooded, g, 0)
    }

    /// Mark how many regions each level holds now, for [`Dominance::test`] and [`Dominance::check_since`].
    pub fn freeze(&mut self) {
        for l in &mut self.levels {
            l.mark = l.n;
        }
    }

    /// Whether the region lies inside one recorded at `g` before the last [`Dominance::freeze`] (nothing
    /// recorded): [`Dominance::check`]'s test alone, which threads may run side by side while nothing is
    /// recorded.
    pub fn test<B: Bits>(&self, count: usize, flooded: &B, g: u32) -> bool {
        let Some(level) = self.levels.get(g as usize) else { return false };
        if flooded.is_zero() {
            return false;
        }
        let to = level.mark;
        level.data.chunks_exact(count).take(to.div_ceil(64)).enumerate().any(|(c, chunk)| {
            let of = if c == to / 64 { (1u64 << (to % 64)) - 1 } else { !0 };
            holding(chunk, flooded.words(), of) != 0
        })
    }

    /// [`Dominance::check`] against the regions recorded at `g` since the last [`Dominance::freeze`] only
    /// (the caller has [`Dominance::test`]ed the others).
    pub fn check_since<B: Bits>(&mut self, count: usize, flooded: &B, g: u32) -> bool {
        let from = self.levels.get(g as usize).map_or(0, |l| l.mark);
        self.check_from(count, flooded, g, from)
    }

    /// [`Dominance::check`] against the regions recorded at `g` from the `from`-th on.
    fn check_from<B: Bits>(&mut self, count: usize, flooded: &B, g: u32, from: usize) -> bool {
        let g = g as usize;
        while self.levels.len() <= g {
            self.levels.push(Level { n: 0, mark: 0, data: Vec::new() });
        }
        let level = &mut self.levels[g];
        if flooded.is_zero() {
            return false;
        }
        let region = flooded.words();
        for (c, chunk) in level.data.chunks_exact(count).enumerate().skip(from / 64) {
            let of = if c == from / 64 { !0u64 << (from % 64) } else { !0 };
            if holding(chunk, region, of) != 0 {
                return true;
            }
        }
        let i = level.n;
        if i.is_multiple_of(64) {
            if level.data.try_reserve(count).is_err() {
                self.full = true;
            }
            if self.full {
                return false;
            }
            level.data.resize(level.data.len() + count, 0);
        }
        level.n += 1;
        let base = (i / 64) * count;
        let bit = 1u64 << (i % 64);
        let row = &mut level.data[base..base + count];
        flooded.for_each(|a| row[a] |= bit);
        false
    }
}

impl Default for Dominance {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> Pruner<Flood<B>> for Dominance {
    fn name(&self) -> &'static str {
        RULE_DOMINANCE
    }

    fn cut(&mut self, d: &Flood<B>, state: &B, g: u32, _remaining: Option<u32>) -> bool {
        self.check(d.graph.count, state, g)
    }

    fn freeze(&mut self) -> bool {
        Dominance::freeze(self);
        true
    }

    fn test(&self, d: &Flood<B>, state: &B, g: u32) -> bool {
        Dominance::test(self, d.graph.count, state, g)
    }

    fn cut_since_frozen(&mut self, d: &Flood<B>, state: &B, g: u32, _remaining: Option<u32>) -> bool {
        self.check_since(d.graph.count, state, g)
    }

    fn bytes(&self) -> usize {
        Dominance::bytes(self) + self.levels.capacity() * std::mem::size_of::<Level>()
    }
}

#[cfg(test)]
mod tests {
    use super::Dominance;

    /// `test || check_since` after a `freeze` is `check`, on a twin that checks every region in turn (the
    /// parallel best-first search's split of the rule): the same verdicts and the same records.
    #[test]
    fn the_split_check_is_the_check() {
        let mut x = 11u64;
        let mut rnd = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let (mut whole, mut split) = (Dominance::new(), Dominance::new());
        let (mut since, mut recent) = (0, Vec::new());
        for round in 0..4000 {
            if rnd(90) == 0 {
                split.freeze();
            }
            // regions of 30 areas, about three quarters of them in each, on 3 cost levels; half of them a
            // part of one of the last few (so that inclusions in regions recorded since the freeze are common)
            let (region, g): ([u64; 1], u32) = match recent.len() {
                n if n > 0 && rnd(2) == 0 => {
                    let (r, g): ([u64; 1], u32) = recent[rnd(n as u64) as usize];
                    ([r[0] & (rnd(1 << 30) | rnd(1 << 30))], g)
                }
                _ => ([rnd(1 << 30) | rnd(1 << 30)], rnd(3) as u32),
            };
            recent.push((region, g));
            if recent.len() > 4 {
                recent.remove(0);
            }
            let tested = split.test(30, &region, g);
            let got = tested || split.check_since(30, &region, g);
            assert_eq!(got, whole.check(30, &region, g), "round {round}");
            since += usize::from(got && !tested);
        }
        assert!(whole.levels.iter().map(|l| l.n).sum::<usize>() > 3 * 64, "more than one chunk a level");
        assert!(since > 0, "some cuts by regions recorded since the freeze");
    }
}
