//! Statistics and results with exactly the fields of Python's `SearchStats`, `IterationRecord` and
//! `SearchResult` (`searchkit/result.py`).

use crate::protocol;

/// How a search ended: the Python engine's status strings (`searchkit.result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Solved,
    Exhausted,
    NodeLimit,
    TimeLimit,
    Cancelled,
    Feasible,
    Incomplete,
    MemoryLimit,
    Error,
}

impl Status {
    /// The status as `searchkit.result` spells it (`"solved"`, `"node_limit"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => protocol::SOLVED,
            Status::Exhausted => protocol::EXHAUSTED,
            Status::NodeLimit => protocol::NODE_LIMIT,
            Status::TimeLimit => protocol::TIME_LIMIT,
            Status::Cancelled => protocol::CANCELLED,
            Status::Feasible => protocol::FEASIBLE,
            Status::Incomplete => protocol::INCOMPLETE,
            Status::MemoryLimit => protocol::MEMORY_LIMIT,
            Status::Error => protocol::ERROR,
        }
    }
}

/// One iteration of an iterative driver (IDA*'s f-bound, A*'s f-layer): Python's `IterationRecord`.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRecord {
    pub bound: u64,
    pub expanded: u64,
    pub generated: u64,
    pub elapsed: f64,
    pub evaluated: u64,
    /// What `bound` is: `"f-layer"` (A*, PEA*: the f of the states popped) or `"f-bound"` (IDA*), as
    /// Python's `IterationRecord.kind`.
    pub kind: &'static str,
}

/// Counters of one search: Python's `SearchStats`, field for field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub expanded: u64,
    pub generated: u64,
    pub evaluated: u64,
    /// Seconds since the case started ([`crate::Limiter::start`]).
    pub elapsed: f64,
    pub iterations: Vec<IterationRecord>,
    pub per_depth: Vec<u64>,
    pub per_depth_seconds: Vec<f64>,
    pub peak_stored: u64,
    /// Rule name -> cuts: the driver-level pruners' first (in their order), then the rules fused into the
    /// puzzle's successors ([`crate::Puzzle::rule_names`]).
    pub rule_cuts: Vec<(String, u64)>,
    /// Bytes the driver's big tables (closed set, open list) held at most (not a Python field: for
    /// measurements; bytes per stored state = peak_bytes / states_stored).
    pub peak_bytes: u64,
    /// Bytes the driver-level rules' tables held at most (e.g. a dominance index), charged to the
    /// memory budget with the driver's (not a Python field).
    pub pruner_bytes: u64,
    /// Distinct states in the closed set at the end (not a Python field: bytes per state = peak_bytes / it).
    pub states_stored: u64,
    /// The threads the search ran on (1 but for a parallel search; a default value's 0 is read as 1).
    pub threads: u32,
}

/// What a driver returns: Python's `SearchResult`.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub status: Status,
    /// The solution's moves (empty unless `solved` or `feasible`).
    pub moves: Vec<M>,
    pub cost: Option<u64>,
    pub lower_bound: Option<u64>,
    pub stats: SearchStats,
    /// A message for status `error`.
    pub message: Option<String>,
}

impl<M> SearchResult<M> {
    pub(crate) fn new(status: Status, stats: SearchStats) -> Self {
        SearchResult { status, moves: Vec::new(), cost: None, lower_bound: None, stats, message: None }
    }

    /// `cost - lower_bound` for a result with a solution and a bound.
    pub fn gap(&self) -> Option<u64> {
        match (self.cost, self.lower_bound, self.status) {
            (Some(c), Some(b), Status::Solved | Status::Feasible) => Some(c.saturating_sub(b)),
            _ => None,
        }
    }
}
