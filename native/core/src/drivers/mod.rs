//! The drivers, each the twin of a Python module in `searchkit/machinery/drivers/`.

pub(crate) mod anytime;
pub(crate) mod beam;
pub(crate) mod best_first;
pub(crate) mod bfs;
pub(crate) mod bounded_dfs;
pub(crate) mod ida_star;

use crate::limits::Checker;
use crate::result::Status;
use crate::puzzle::{Puzzle, Estimator, Pruner, Successor};
use crate::result::{SearchResult, SearchStats};

/// "No value" for f, bounds and least-f minima (Python's `math.inf`).
pub(crate) const INF: u64 = u64::MAX;

/// What every driver works with: the puzzle, the heuristic, the pruners and their cut counts, the limits.
///
/// The heuristic's type `H` is the caller's (a concrete type, or `dyn Estimator<D>`) for `ida_star`, whose
/// estimate per generated state is its cost per node (inlined then); a trait object for the other drivers.
pub(crate) struct Ctx<'r, 'p, D: Puzzle, H: Estimator<D> + ?Sized + 'r = dyn Estimator<D> + 'r> {
    pub puzzle: &'r D,
    pub h: &'r mut H,
    pub pruners: &'r mut [&'p mut dyn Pruner<D>],
    pub checks: Checker<'r>,
    pub pruner_cuts: Vec<u64>,
    pub domain_cuts: Vec<u64>,
    /// The cost cap (`max_cost`): only solutions of cost <= it are sought.
    pub max_cost: Option<u32>,
    /// The heuristic never overestimates (prune on g + h, derive lower bounds).
    pub admissible: bool,
}

impl<'r, 'p, D: Puzzle, H: Estimator<D> + ?Sized + 'r> Ctx<'r, 'p, D, H> {
    /// The pruners' `cut`, the first that cuts counted (Python's folded `cut`).
    #[inline]
    pub fn cut(&mut self, state: &D::State, g: u32, remaining: Option<u32>) -> bool {
        for (i, p) in self.pruners.iter_mut().enumerate() {
            if p.cut(self.puzzle, state, g, remaining) {
                self.pruner_cuts[i] += 1;
                return true;
            }
        }
        false
    }

    /// Stop with `memory_limit` when a pruner's tables could not grow ([`Pruner::out_of_memory`]).
    #[inline(never)]
    pub fn pruners_ok(&self) -> Result<(), Status> {
        if self.pruners.iter().any(|p| p.out_of_memory()) {
            return Err(Status::MemoryLimit);
        }
        Ok(())
    }

    /// Every pruner's `on_fail` (depth-first drivers).
    #[inline]
    pub fn on_fail(&mut self, state: &D::State, g: u32, remaining: Option<u32>) {
        for p in self.pruners.iter_mut() {
            p.on_fail(self.puzzle, state, g, remaining);
        }
    }

    #[inline]
    pub fn successors(&mut self, state: &D::State, out: &mut Vec<Successor<D::Move, D::State>>) {
        out.clear();
        self.puzzle.successors(state, out, &mut self.domain_cuts);
    }

    /// The puzzle's `successors_within` (see [`Puzzle::successors_within`]).
    #[inline]
    pub fn successors_within(&mut self, state: &D::State, remaining: u32,
                             out: &mut Vec<Successor<D::Move, D::State>>) {
        out.clear();
        self.puzzle.successors_within(state, remaining, out, &mut self.domain_cuts);
    }

    /// Bytes the pruners' tables hold now.
    #[inline]
    pub fn pruner_bytes(&self) -> usize {
        self.pruners.iter().map(|p| p.bytes()).sum()
    }

    /// At a limit check: `memory_limit` when the driver's `bytes` and the pruners' tables together pass the
    /// budget; otherwise the pruners' bytes (for their peak).
    #[inline(never)]
    pub fn check_bytes(&self, bytes: usize) -> Result<usize, Status> {
        let extra = self.pruner_bytes();
        if let Some(b) = self.checks.limiter.memory_budget {
            if bytes + extra > b {
                return Err(Status::MemoryLimit);
            }
        }
        Ok(extra)
    }

    #[inline]
    pub fn estimate(&mut self, state: &D::State) -> u32 {
        self.h.estimate(self.puzzle, state)
    }

    /// The cap as an f value (`INF` without one).
    pub fn cap(&self) -> u64 {
        self.max_cost.map_or(INF, u64::from)
    }

    /// Rule name -> cuts: the pruners' (as Python's driver dict), then the puzzle's fused rules (as the
    /// Solver merges `puzzle.rule_cuts` into it).
    pub fn rule_cuts(&self) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> =
            self.pruners.iter().zip(&self.pruner_cuts).map(|(p, &n)| (p.name().to_string(), n)).collect();
        for (name, &n) in self.puzzle.rule_names().iter().zip(&self.domain_cuts) {
            match out.iter_mut().find(|(k, _)| k == name) {
                Some(e) => e.1 = n,
                None => out.push((name.to_string(), n)),
            }
        }
        out
    }

    /// Statistics with the given counters; `elapsed` and `rule_cuts` filled in.
    pub fn stats(&self, expanded: u64, generated: u64, evaluated: u64, peak: u64) -> SearchStats {
        SearchStats {
            expanded,
            generated,
            evaluated,
            elapsed: self.checks.limiter.elapsed(),
            peak_stored: peak,
            rule_cuts: self.rule_cuts(),
            threads: 1,
            ..SearchStats::default()
        }
    }
}

/// Map a search's `Result` to its status (Python's `run_guarded`).
pub(crate) fn guarded(r: Result<Status, Status>) -> Status {
    r.unwrap_or_else(|stop| stop)
}

/// Python's `_common.conclude`: the result of a driver that may end holding a solution not proven optimal.
pub(crate) fn conclude<M>(status: Status, stats: SearchStats, solution: Option<(Vec<M>, u64)>, bound: Option<u64>,
                          max_cost: Option<u32>) -> SearchResult<M> {
    let bound = bound.filter(|&b| b != INF);
    match solution {
        Some((moves, cost)) => {
            let b = bound.map(|b| b.min(cost));
            let st = if b.is_some_and(|b| b >= cost) { Status::Solved } else { Status::Feasible };
            SearchResult { status: st, moves, cost: Some(cost), lower_bound: b, stats, message: None }
        }
        None if status == Status::Exhausted => {
            let mut o = SearchResult::new(Status::Exhausted, stats);
            o.lower_bound = max_cost.map(|m| u64::from(m) + 1);
            o
        }
        None => {
            let mut o = SearchResult::new(status, stats);
            o.lower_bound = bound;
            o
        }
    }
}
