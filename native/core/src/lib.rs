//! searchkit's native engine core: the `Domain` vocabulary, the drivers generic over it, the control value
//! (limits, cancel flag, memory budget) and statistics with exactly Python's `SearchStats` fields.
//!
//! The Python engine (`searchkit/machinery/drivers/`) is the specification: every driver here reproduces its Python
//! twin's order of expansion (ties: f ascending, then larger g, then the domain's `tie_break` smaller, then
//! first in, first out), its expanded/generated/evaluated counts, iterations, `peak_stored`, statuses and
//! lower bounds, and is tested against it from Python (`tests/native/`).
//!
//! # Entry point
//!
//! ```ignore
//! pub fn run<D: Domain, H: Heuristic<D> + ?Sized>(spec: &AlgorithmSpec, domain: &D, h: &mut H,
//!                       pruners: &mut [&mut dyn StatePruner<D>], max_cost: Option<u32>,
//!                       control: &Control) -> Outcome<D::Move>
//! pub fn run_seeded<D: Domain>(..., seed: Seed<'_, D::Move>) -> Outcome<D::Move>   // anytime's incumbent
//! ```
//!
//! * `spec`: the algorithm with its options ([`Algorithm`]; weights as exact integer ratios [`Ratio`]) and
//!   whether the heuristic is admissible (Python's `SearchRequest.admissible`).
//! * `domain`: built with the enabled successor rules fused in (the Python puzzle built with the same
//!   disabled set generates the same successors in the same order).
//! * `h`: the heuristic (ignored by `bfs`), of any type (a trait object too; `ida_star` is compiled for the
//!   caller's type, so a concrete type's estimates are inlined into it); `pruners`: the driver-level rules,
//!   Python's `Pruner.cut`, in registration order.
//! * `max_cost`: Python's `max_cost` (the plan's depth, or an upper bound minus one).
//! * `control`: [`Control`] (node limit, deadline, cancel flag, memory budget; `start` is the case's start).
//!
//! The result is an [`Outcome`]: status, moves, cost, lower bound and [`Stats`] (Python's `SearchStats`).
//! `run` never panics on a limit; a panic inside a domain or heuristic unwinds through it (the binding
//! catches it and reports status `error`).

pub mod control;
pub mod domain;
mod drivers;
pub mod hash;
pub mod manifest;
pub mod pdb;
pub mod protocol;
mod queue;
pub mod stats;
mod store;

pub use control::{Control, Poll, Progress, Status};
pub use domain::{Domain, Heuristic, StatePruner, Successor, DEAD};
pub use stats::{IterationRecord, Outcome, Stats};

use control::Limiter;
use drivers::Ctx;

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

/// A driver and its options: the names of `searchkit.machinery.drivers.builtin.ALGORITHMS`.
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

impl Algorithm {
    /// The algorithm of a registered name with its default options (`None`: no native twin).
    pub fn named(name: &str) -> Option<Algorithm> {
        Some(match name {
            "astar" => Algorithm::Astar,
            "peastar" => Algorithm::Peastar,
            "ida_star" => Algorithm::IdaStar,
            "ida_star_tt" => Algorithm::IdaStarTt,
            "wastar" => Algorithm::Wastar { weight: Ratio::new(2, 1) },
            "gbfs" => Algorithm::Gbfs,
            "bfs" => Algorithm::Bfs,
            "beam" => Algorithm::Beam { width: 64 },
            "anytime" => Algorithm::Anytime { weight: Ratio::new(2, 1), step: Ratio::new(1, 2), ara: false },
            "bounded_dfs" => Algorithm::BoundedDfs { mode: DfsMode::Exact, heuristic: true },
            _ => return None,
        })
    }
}

/// What to run: the driver and whether the heuristic is admissible.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmSpec {
    pub algorithm: Algorithm,
    pub admissible: bool,
}

impl AlgorithmSpec {
    pub fn new(algorithm: Algorithm) -> Self {
        AlgorithmSpec { algorithm, admissible: true }
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

/// Run `spec` on `domain` (module docs).
pub fn run<D: Domain, H: Heuristic<D> + ?Sized>(spec: &AlgorithmSpec, domain: &D, h: &mut H,
                                                pruners: &mut [&mut dyn StatePruner<D>], max_cost: Option<u32>,
                                                control: &Control) -> Outcome<D::Move> {
    run_seeded(spec, domain, h, pruners, max_cost, control, Seed::default())
}

/// [`run`] with anytime's incumbent and improvement callback (ignored by the other drivers).
pub fn run_seeded<D: Domain, H: Heuristic<D> + ?Sized>(spec: &AlgorithmSpec, domain: &D, h: &mut H,
                                                       pruners: &mut [&mut dyn StatePruner<D>],
                                                       max_cost: Option<u32>, control: &Control,
                                                       seed: Seed<'_, D::Move>) -> Outcome<D::Move> {
    let n_rules = domain.rule_names().len();
    let n_pruners = pruners.len();
    if let Algorithm::IdaStar | Algorithm::IdaStarTt = spec.algorithm {
        // IDA* with the caller's heuristic type: its estimates inlined into the search
        let mut ctx = Ctx {
            domain,
            h,
            pruners,
            limiter: Limiter::new(control),
            pruner_cuts: vec![0; n_pruners],
            domain_cuts: vec![0; n_rules],
            max_cost,
            admissible: spec.admissible,
        };
        return drivers::ida_star::ida_star(&mut ctx, spec.algorithm == Algorithm::IdaStarTt);
    }
    let mut h = h;
    let mut ctx: Ctx<D> = Ctx {
        domain,
        h: &mut h,
        pruners,
        limiter: Limiter::new(control),
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
