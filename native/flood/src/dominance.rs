//! The `dominance` rule (`searchkit_flood.dominance.dominance_pruner`): skip a state whose region lies inside a
//! region expanded before at the same cost g. The soundness proof is in the Python module.
//!
//! The same index as Python's: per cost level g, for every area `a`, a bitvector over the states recorded at that
//! level (bit i set when the i-th recorded region contains `a`). The regions containing all of F are the AND of
//! the bitvectors of F's areas, taken from the highest area down. Here the running AND is kept sparse (the words
//! still non-zero and their indices), so after the first few areas a step costs what is left, not the level's
//! size. Memory: `count` bits per recorded state.

use searchkit_core::domain::StatePruner;

use crate::bits::Bits;
use crate::domain::{Flood, RULE_DOMINANCE};

struct Level {
    /// Regions recorded at this level.
    n: usize,
    /// `maps[a]`: bit i set when the i-th region contains area `a` (shorter vectors: missing words are 0).
    maps: Vec<Vec<u64>>,
}

/// The dominance pruner: fresh per search.
pub struct Dominance {
    levels: Vec<Option<Level>>,
    /// Scratch: the running AND as (word index, word) pairs, all non-zero.
    acc: Vec<(u32, u64)>,
    areas: Vec<usize>,
}

impl Dominance {
    pub fn new() -> Self {
        Dominance { levels: Vec::new(), acc: Vec::new(), areas: Vec::new() }
    }

    /// Python's `cut(state, g, remaining)`: `true` if the region lies inside one recorded at `g`; otherwise
    /// record it and return `false`.
    pub fn check<B: Bits>(&mut self, count: usize, flooded: &B, g: u32) -> bool {
        let g = g as usize;
        if self.levels.len() <= g {
            self.levels.resize_with(g + 1, || None);
        }
        let level = self.levels[g].get_or_insert_with(|| Level { n: 0, maps: vec![Vec::new(); count] });
        self.areas.clear();
        flooded.for_each(|a| self.areas.push(a));
        if level.n > 0 && !self.areas.is_empty() {
            let mut areas = self.areas.iter().rev();
            let first = *areas.next().unwrap();
            self.acc.clear();
            for (k, &w) in level.maps[first].iter().enumerate() {
                if w != 0 {
                    self.acc.push((k as u32, w));
                }
            }
            for &a in areas {
                if self.acc.is_empty() {
                    break;
                }
                let map = &level.maps[a];
                self.acc.retain_mut(|(k, w)| {
                    *w &= map.get(*k as usize).copied().unwrap_or(0);
                    *w != 0
                });
            }
            if !self.acc.is_empty() {
                return true;
            }
        }
        let i = level.n;
        level.n += 1;
        let (word, bit) = (i >> 6, 1u64 << (i & 63));
        for &a in &self.areas {
            let map = &mut level.maps[a];
            if map.len() <= word {
                map.resize(word + 1, 0);
            }
            map[word] |= bit;
        }
        false
    }
}

impl Default for Dominance {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> StatePruner<Flood<B>> for Dominance {
    fn name(&self) -> &'static str {
        RULE_DOMINANCE
    }

    fn cut(&mut self, d: &Flood<B>, state: &B, g: u32, _remaining: Option<u32>) -> bool {
        self.check(d.graph.count, state, g)
    }
}
