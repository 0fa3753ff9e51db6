//! searchkit's native engine core: the `Puzzle` vocabulary, the drivers generic over it, the limiter
//! (limits, cancel flag, memory budget) and statistics with exactly Python's `SearchStats` fields.
//!
//! The Python engine (`searchkit/machinery/drivers/`) is the specification: every driver here reproduces its Python
//! twin's order of expansion (ties: f ascending, then larger g, then the puzzle's `tie_break` smaller, then
//! first in, first out), its expanded/generated/evaluated counts, iterations, `peak_stored`, statuses and
//! lower bounds, and is tested against it from Python (`tests/native/`).
//!
//! # Entry point
//!
//! ```ignore
//! pub fn run<D: Puzzle, H: Estimator<D> + ?Sized>(spec: &AlgorithmSpec, puzzle: &D, h: &mut H,
//!                       pruners: &mut [&mut dyn Pruner<D>], max_cost: Option<u32>,
//!                       limiter: &Limiter) -> SearchResult<D::Move>
//! pub fn run_seeded<D: Puzzle>(..., seed: Seed<'_, D::Move>) -> SearchResult<D::Move>   // anytime's incumbent
//! ```
//!
//! * `spec`: the algorithm with its options ([`Algorithm`]; weights as exact integer ratios [`Ratio`]) and
//!   whether the heuristic is admissible (Python's `SearchRequest.admissible`).
//! * `puzzle`: built with the enabled successor rules fused in (the Python puzzle built with the same
//!   disabled set generates the same successors in the same order).
//! * `h`: the heuristic (ignored by `bfs`), of any type (a trait object too; `ida_star` is compiled for the
//!   caller's type, so a concrete type's estimates are inlined into it); `pruners`: the driver-level rules,
//!   Python's `Pruner.cut`, in registration order.
//! * `max_cost`: Python's `max_cost` (the plan's depth, or an upper bound minus one).
//! * `limiter`: [`Limiter`] (node limit, deadline, cancel flag, memory budget; `start` is the case's start).
//!
//! The result is a [`SearchResult`]: status, moves, cost, lower bound and [`SearchStats`].
//! `run` never panics on a limit; a panic inside a puzzle or heuristic unwinds through it (the binding
//! catches it and reports status `error`).

pub mod limits;
pub mod puzzle;
mod drivers;
pub mod hash;
pub mod manifest;
pub mod pdb;
pub mod protocol;
mod queue;
pub mod result;
mod store;

pub use limits::{Limiter, Poll, Progress};
pub use puzzle::{Puzzle, Estimator, Pruner, Successor, DEAD};
pub use result::{IterationRecord, SearchResult, SearchStats, Status};

use limits::Checker;
use drivers::Ctx;

#[doc(hidden)]
pub use drivers::ida_star::parallel::{unit_sizes, UNITS_PER_THREAD};
pub use drivers::best_first::parallel::BATCH;

/// An exact weight `num / den` (> 0): Python's weight option read as a fraction of its decimal spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u64,
    pub den: u64,
}

impl Ratio {
    /// `num / den` in lowest terms.
    pub fn new(num: u64, den: u64) -> Ratio {
        assert!(den > 0, "a ratio needs a positive denominator");
        let g = gcd(num, den).max(1);
        Ratio { num: num / g, den: den / g }
    }

    pub const ONE: Ratio = Ratio { num: 1, den: 1 };
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A driver and its options: the algorithms of `searchkit/machinery/drivers/*.py` (each module's `ALGORITHMS`) that have a
/// native twin, as [`manifest::algorithms`] lists them with their options' defaults (the kit reads a request's
/// name and options into this value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    Astar,
    Peastar,
    IdaStar,
    IdaStarTt,
    Wastar { weight: Ratio },
    Gbfs,
    Bfs,
    Beam { width: usize },
    Anytime { weight: Ratio, step: Ratio, ara: bool },
    /// Depth-bounded depth-first search to `max_cost` (needed), the first solution in move order; the
    /// heuristic prunes only when `heuristic` is true (Python's `HEURISTIC_OPTIONAL`).
    BoundedDfs { mode: DfsMode, heuristic: bool },
}

/// `bounded_dfs`'s modes (Python's `bounded_dfs.MODES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfsMode {
    /// A goal counts only at cost exactly the depth.
    Exact,
    /// The first goal met at cost at most the depth, in depth-first order.
    AtMost,
    /// Exact search at depth 0, 1, ..., the depth in turn (iterative deepening).
    Shortest,
}

impl DfsMode {
    /// The mode of Python's name (`"exact"`, `"at_most"`, `"shortest"`).
    pub fn named(name: &str) -> Option<DfsMode> {
        Some(match name {
            "exact" => DfsMode::Exact,
            "at_most" => DfsMode::AtMost,
            "shortest" => DfsMode::Shortest,
            _ => return None,
        })
    }
}

/// What to run: the driver, whether the heuristic is admissible, and on how many threads.
///
/// `threads` (at least 1; 0 is read as 1): the threads one search may use.  Only a search with a parallel
/// twin uses more than one ([`run_parallel`]: IDA* without a transposition table or driver-level rules on a
/// game that moves in place; [`run_replicated`]: A* and PEA*); every other search runs on one, and its
/// statistics say so ([`SearchStats::threads`]).
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmSpec {
    pub algorithm: Algorithm,
    pub admissible: bool,
    pub threads: usize,
}

impl AlgorithmSpec {
    pub fn new(algorithm: Algorithm) -> Self {
        AlgorithmSpec { algorithm, admissible: true, threads: 1 }
    }
}

/// Anytime's extras: a known solution to improve on, and a callback for each improvement
/// (`on_improve(cost, lower_bound)`, Python's `SearchRequest.on_improve`).
pub struct Seed<'a, M> {
    pub incumbent: Option<(Vec<M>, u64)>,
    pub on_improve: Option<&'a mut dyn FnMut(u64, Option<u64>)>,
}

impl<M> Default for Seed<'_, M> {
    fn default() -> Self {
        Seed { incumbent: None, on_improve: None }
    }
}

/// Run `spec` on `puzzle` (module docs).
pub fn run<D: Puzzle, H: Estimator<D> + ?Sized>(spec: &AlgorithmSpec, puzzle: &D, h: &mut H,
                                                pruners: &mut [&mut dyn Pruner<D>], max_cost: Option<u32>,
                                                limiter: &Limiter) -> SearchResult<D::Move> {
    run_seeded(spec, puzzle, h, pruners, max_cost, limiter, Seed::default())
}

/// [`run_seeded`] on `spec.threads` threads where the search has a parallel twin: IDA* (not `ida_star_tt`)
/// without driver-level `pruners` on a puzzle that moves in place ([`Puzzle::in_place`]) runs on that many
/// threads (`drivers::ida_star::parallel`: the same answer, lower bound and counts for every completed
/// iteration as on one); every other search runs on the calling thread alone, as [`run_seeded`] runs it.
///
/// The bounds are what the threads share: the puzzle is read by every thread (`Sync`), the heuristic is
/// cloned for each, states and moves cross between them.
pub fn run_parallel<D, H>(spec: &AlgorithmSpec, puzzle: &D, h: &mut H, pruners: &mut [&mut dyn Pruner<D>],
                          max_cost: Option<u32>, limiter: &Limiter, seed: Seed<'_, D::Move>)
                          -> SearchResult<D::Move>
where
    D: Puzzle + Sync,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    H: Estimator<D> + Clone + Send,
{
    let within = puzzle.has_successors_within() && max_cost.is_some();
    if spec.threads > 1 && spec.algorithm == Algorithm::IdaStar && pruners.is_empty() && puzzle.in_place()
        && puzzle.successor_slots() > 0 && !within {
        return drivers::ida_star::parallel::ida_star(puzzle, h, max_cost, limiter, spec.threads, spec.admissible);
    }
    run_seeded(spec, puzzle, h, pruners, max_cost, limiter, seed)
}

/// [`run_seeded`] on `spec.threads` threads for A* and PEA* (`drivers::best_first::parallel`: K-parallel
/// best-first search, the same optimal cost and lower-bound rules as on one thread, its own counts, the same
/// at every thread count above one) when `spec.threads > 1`; every other search, and A*/PEA* on one thread,
/// runs on the calling thread as [`run_seeded`] runs it.
///
/// `replicate` makes one more thread's own puzzle and heuristic, equal to `puzzle` and `h` (the same
/// successors in the same order, the same estimates): the puzzle need not be `Sync` nor the heuristic
/// `Clone` (a game's puzzle may keep a cache of its last successors). `None`: it could not (its memory);
/// the search then goes on without that thread. It is called on the thread that will use the copy.
#[allow(clippy::too_many_arguments)]
pub fn run_replicated<D, H, F>(spec: &AlgorithmSpec, puzzle: &D, h: &mut H,
                               pruners: &mut [&mut (dyn Pruner<D> + Send + Sync)], max_cost: Option<u32>,
                               limiter: &Limiter, seed: Seed<'_, D::Move>, replicate: &F) -> SearchResult<D::Move>
where
    D: Puzzle,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    H: Estimator<D> + ?Sized,
    F: Fn() -> Option<(D, Box<dyn Estimator<D>>)> + Sync,
{
    let cfg = match spec.algorithm {
        Algorithm::Astar => Some(drivers::best_first::ASTAR),
        Algorithm::Peastar => Some(drivers::best_first::PEASTAR),
        _ => None,
    };
    let Some(cfg) = cfg.filter(|_| spec.threads > 1) else {
        let mut plain: Vec<&mut dyn Pruner<D>> = pruners.iter_mut().map(|p| &mut **p as &mut dyn Pruner<D>).collect();
        return run_seeded(spec, puzzle, h, &mut plain, max_cost, limiter, seed);
    };
    let mut h = h;
    let mut ctx: Ctx<D> = Ctx {
        puzzle,
        h: &mut h,
        pruners: &mut [],
        checks: Checker::new(limiter),
        pruner_cuts: Vec::new(),
        domain_cuts: vec![0; puzzle.rule_names().len()],
        max_cost,
        admissible: spec.admissible,
    };
    drivers::best_first::parallel::search(&mut ctx, pruners, cfg, spec.threads, replicate)
}

/// [`run`] with anytime's incumbent and improvement callback (ignored by the other drivers).
pub fn run_seeded<D: Puzzle, H: Estimator<D> + ?Sized>(spec: &AlgorithmSpec, puzzle: &D, h: &mut H,
                                                       pruners: &mut [&mut dyn Pruner<D>],
                                                       max_cost: Option<u32>, limiter: &Limiter,
                                                       seed: Seed<'_, D::Move>) -> SearchResult<D::Move> {
    let n_rules = puzzle.rule_names().len();
    let n_pruners = pruners.len();
    if let Algorithm::IdaStar | Algorithm::IdaStarTt = spec.algorithm {
        // IDA* with the caller's heuristic type: its estimates inlined into the search
        let mut ctx = Ctx {
            puzzle,
            h,
            pruners,
            checks: Checker::new(limiter),
            pruner_cuts: vec![0; n_pruners],
            domain_cuts: vec![0; n_rules],
            max_cost,
            admissible: spec.admissible,
        };
        return drivers::ida_star::ida_star(&mut ctx, spec.algorithm == Algorithm::IdaStarTt);
    }
    let mut h = h;
    let mut ctx: Ctx<D> = Ctx {
        puzzle,
        h: &mut h,
        pruners,
        checks: Checker::new(limiter),
        pruner_cuts: vec![0; n_pruners],
        domain_cuts: vec![0; n_rules],
        max_cost,
        admissible: spec.admissible,
    };
    match spec.algorithm {
        Algorithm::Astar => drivers::best_first::search(&mut ctx, drivers::best_first::ASTAR),
        Algorithm::Peastar => drivers::best_first::search(&mut ctx, drivers::best_first::PEASTAR),
        Algorithm::IdaStar | Algorithm::IdaStarTt => unreachable!("IDA* is run above"),
        Algorithm::Wastar { weight } => {
            let admissible = ctx.admissible;
            drivers::best_first::search(&mut ctx, drivers::best_first::BestFirst::weighted(weight, admissible))
        }
        Algorithm::Gbfs => {
            let admissible = ctx.admissible;
            drivers::best_first::search(&mut ctx, drivers::best_first::BestFirst::greedy(admissible))
        }
        Algorithm::Bfs => drivers::bfs::bfs(&mut ctx),
        Algorithm::Beam { width } => drivers::beam::beam(&mut ctx, width),
        Algorithm::Anytime { weight, step, ara } => drivers::anytime::anytime(&mut ctx, weight, step, ara, seed),
        Algorithm::BoundedDfs { mode, heuristic } => drivers::bounded_dfs::bounded_dfs(&mut ctx, mode, heuristic),
    }
}
