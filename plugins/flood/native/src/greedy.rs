//! The inadmissible heuristics of `searchkit_flood.greedy`: `greedy` (a real greedy play-out) and `two-best`
//! (Puchert's play-out whose colour-blind step floods only the two colours reaching the most new cells). Same
//! values as Python on every state; their descriptions are in the Python docstrings. Python memoises both
//! play-outs; the count depends on the state alone, so the native versions compute it afresh.

use searchkit_core::puzzle::Estimator;

use crate::bits::Bits;
use crate::puzzle::Flood;
use crate::heuristics::Puchert;

/// Moves of the no-look-ahead greedy play-out: completing colours, else the colour absorbing the most areas
/// (ties to the lowest colour index). An upper bound, not admissible.
#[derive(Default)]
pub struct Greedy;

impl<B: Bits> Estimator<Flood<B>> for Greedy {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        let mut flooded = state.clone();
        let mut frontier = d.frontier_cached(state);
        let mut n = 0;
        while flooded != d.all {
            let mut outside = d.all.andnot(&flooded);
            outside.andnot_with(&frontier);
            let mut new = B::zeros(d.words);
            let mut any = false;
            for areas in &d.colour_areas {
                if areas.intersects(&frontier) && !areas.intersects(&outside) {
                    new.or_with(&areas.and(&frontier));
                    n += 1;
                    any = true;
                }
            }
            if !any {
                let mut most = -1i64;
                for areas in &d.colour_areas {
                    let on = areas.and(&frontier);
                    let k = on.count() as i64;
                    if k > most {
                        most = k;
                        new = on;
                    }
                }
                n += 1;
            }
            flooded.or_with(&new);
            d.neighbour_union_into(&new, &mut frontier);
            frontier.andnot_with(&flooded);
        }
        n
    }
}

/// Puchert's play-out with a two-colour colour-blind step (after terminal-flood's idea); `puchert` once more than
/// a third of the areas are flooded. Not admissible.
pub struct TwoBest {
    /// Colours still with areas outside the visited set (scratch).
    left: Vec<usize>,
    limit: u32,
}

impl TwoBest {
    pub fn new<B: Bits>(d: &Flood<B>) -> Self {
        TwoBest { left: Vec::new(), limit: (d.graph.count / 3) as u32 }
    }

    /// `N(areas) - visited`.
    #[inline]
    fn reach<B: Bits>(d: &Flood<B>, areas: &B, visited: &B) -> B {
        let mut r = d.neighbour_union(areas);
        r.andnot_with(visited);
        r
    }

    fn cells_of<B: Bits>(d: &Flood<B>, areas: &B) -> u64 {
        let mut n = 0u64;
        areas.for_each(|a| n += d.graph.sizes[a] as u64);
        n
    }
}

impl<B: Bits> Estimator<Flood<B>> for TwoBest {
    fn estimate(&mut self, d: &Flood<B>, state: &B) -> u32 {
        if *state == d.all {
            return 0;
        }
        let frontier = d.frontier_cached(state);
        if state.count() > self.limit {
            return Puchert::count(d, state, &frontier);
        }
        let mut visited = state.clone();
        let mut current = frontier;
        let left = &mut self.left;
        left.clear();
        left.extend((0..d.colour_areas.len()).filter(|&c| !d.colour_areas[c].subset_of(state)));
        let mut n = 0u32;
        loop {
            visited.or_with(&current);
            let mut gone = B::zeros(d.words);
            let mut done = 0u32;
            for &c in left.iter() {
                if d.colour_areas[c].subset_of(&visited) {
                    gone.or_with(&d.colour_areas[c]);
                    done += 1;
                }
            }
            if done > 0 {
                n += done;
                left.retain(|&c| !d.colour_areas[c].subset_of(&visited));
                if left.len() <= 1 {
                    n += left.len() as u32;
                    break;
                }
                let through = current.and(&gone);
                let reached = if through.is_zero() { B::zeros(d.words) } else { Self::reach(d, &through, &visited) };
                current.andnot_with(&gone);
                current.or_with(&reached);
                continue;
            }
            n += 1;
            // (new cells, colour, new areas) of the best and second-best colours
            let mut best: (u64, Option<usize>, Option<B>) = (0, None, None);
            let mut second: (u64, Option<usize>, Option<B>) = (0, None, None);
            for &c in left.iter() {
                let through = current.and(&d.colour_areas[c]);
                if through.is_zero() {
                    continue;
                }
                let new = Self::reach(d, &through, &visited);
                let size = Self::cells_of(d, &new);
                if size > best.0 {
                    second = std::mem::replace(&mut best, (size, Some(c), Some(new)));
                } else if size > second.0 {
                    second = (size, Some(c), Some(new));
                }
            }
            if best.0 == 0 {
                n += left.len() as u32;
                break;
            }
            // (current - (best colour | second colour)) | best new | second new: remove both colours first
            for c in [best.1, second.1].into_iter().flatten() {
                current.andnot_with(&d.colour_areas[c]);
            }
            for new in [best.2, second.2].into_iter().flatten() {
                current.or_with(&new);
            }
        }
        n
    }
}
