//! Flood-It's Python module `searchkit_flood_native`, built with the kit (`searchkit-pyo3`): `solve(problem,
//! request)` and `manifest()` from [`searchkit_pyo3::native_module!`], and `flood_estimates` (heuristic values,
//! for the differential tests) and `flood_areas`.  The problem is the board as the Python `Board` holds it:
//! `(width, height, cells, pivot)` with the cells colour indices row-major; the bitset width is chosen once
//! from the board's area count ([`crate::with_flood!`]: `[u64; W]` for W = 1..=9, a boxed slice beyond).

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use searchkit_core::manifest::{Component, Kind};
use searchkit_core::{run_replicated, Limiter, Estimator, SearchResult, Seed, Pruner, Status};
use searchkit_pyo3::{error_dict, improvement_callback, result_dict, run_inline, NativeGame, SearchRequest};

use crate::greedy::{Greedy, TwoBest};
use crate::heuristics::{Colours, Eccentricity, Layered, PuchertMemo};
use crate::{with_bits, with_flood, AreaGraph, Bits, BoardError, Dominance, Flood};

/// Heuristic names with a native twin (`searchkit_flood.plugin`'s names).
pub const HEURISTICS: [&str; 6] = ["colours", "eccentricity", "layered", "puchert", "greedy", "two-best"];
/// Driver-level rules with a native twin.
pub const PRUNERS: [&str; 1] = ["dominance"];
/// Successor rules fused into the native puzzle (`searchkit_flood.areas`' names).
pub const RULES: [&str; 4] = ["frontier-colours", "no-growth", "completion", "exposure"];

/// Flood-It for the kit.
pub struct FloodGame;

impl NativeGame for FloodGame {
    const GAME: &'static str = "flood";

    fn components() -> Vec<Component> {
        let mut c: Vec<Component> = HEURISTICS.iter().map(|h| Component::plain(Kind::Heuristic, h)).collect();
        c.extend(PRUNERS.iter().map(|p| Component::plain(Kind::Pruner, p)));
        c.extend(RULES.iter().map(|r| Component::plain(Kind::Rule, r)));
        c
    }

    /// `problem` is `(width, height, cells, pivot)`. Raises ValueError for a bad board, MemoryError for one
    /// whose memory could not be had.
    fn solve<'py>(py: Python<'py>, problem: &Bound<'py, PyAny>, req: SearchRequest) -> PyResult<Bound<'py, PyDict>> {
        let (width, height, cells, pivot): (usize, usize, Bound<'py, PyAny>, usize) = problem.extract()?;
        let cells = cells_of(&cells)?;
        let g = graph(width, height, &cells, pivot)?;
        drop(cells);
        with_bits!(g.words(), B, solve_board::<B>(py, g, req))
    }
}

searchkit_pyo3::native_module!(searchkit_flood_native, FloodGame, [flood_estimates, flood_areas]);

fn heuristic<B: Bits>(name: &str, f: &Flood<B>) -> Result<Box<dyn Estimator<Flood<B>>>, BoardError> {
    Ok(match name {
        "colours" => Box::new(Colours),
        "eccentricity" => Box::<Eccentricity>::default(),
        "layered" => Box::<Layered>::default(),
        "puchert" => Box::new(PuchertMemo::try_new(f)?),
        "greedy" => Box::new(Greedy),
        "two-best" => Box::new(TwoBest::new(f)),
        other => return Err(BoardError::Invalid(format!("heuristic {other:?} has no native twin"))),
    })
}

/// A board the native engine cannot build, for Python: ValueError (a bad board) or MemoryError (its memory
/// could not be had: under `--memory-limit`, the case's `memory_limit`, as for a Python engine's MemoryError).
fn board_error(e: BoardError) -> PyErr {
    match e {
        BoardError::OutOfMemory => PyMemoryError::new_err("flood: not enough memory for the board"),
        BoardError::Invalid(reason) => PyValueError::new_err(format!("flood: {reason}")),
    }
}

fn graph(width: usize, height: usize, cells: &[u32], pivot: usize) -> PyResult<AreaGraph> {
    AreaGraph::new(cells, width, height, pivot).map_err(board_error)
}

/// The cells, a sequence of colour indices, copied into a vector allocated fallibly (MemoryError: the copy
/// of a large board under `--memory-limit` must not abort the worker, as pyo3's own conversion would).
fn cells_of(cells: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let n = cells.len()?;
    let mut out: Vec<u32> = Vec::new();
    out.try_reserve_exact(n).map_err(|_| board_error(BoardError::OutOfMemory))?;
    for item in cells.try_iter()? {
        out.push(item?.extract::<u32>()?);
    }
    Ok(out)
}

/// The outcome of a search whose set-up could not have its memory: status `memory_limit`.
fn out_of_memory<M>(limiter: &Limiter) -> SearchResult<M> {
    let mut o = SearchResult { status: Status::MemoryLimit, moves: Vec::new(), cost: None, lower_bound: None,
                          stats: Default::default(), message: None };
    o.stats.elapsed = limiter.elapsed();
    o
}

/// A search thread's own puzzle and heuristic.
type Replica<B> = (Flood<B>, Box<dyn Estimator<Flood<B>>>);

fn solve_board<'py, B: Bits + Send + Sync>(py: Python<'py>, graph: AreaGraph, mut req: SearchRequest)
                                          -> PyResult<Bound<'py, PyDict>> {
    // the kit checked every name against the manifest
    let hname = req.heuristic.clone().unwrap_or_else(|| "puchert".to_string());
    let dominance = req.pruners.iter().any(|p| p == "dominance");
    let disabled = std::mem::take(&mut req.disabled);
    let incumbent = match req.incumbent.take() {
        None => None,
        Some((moves, cost)) => {
            let colours = graph.colours as i64;
            if moves.iter().any(|&m| m < 0 || m >= colours) {
                return Err(PyValueError::new_err("flood: an incumbent move is not a colour index of the board"));
            }
            Some((moves.into_iter().map(|m| m as u16).collect(), cost))
        }
    };
    let mut on_improve = improvement_callback(req.on_improve.take());
    let (spec, max_cost) = (req.spec, req.max_cost);
    // The puzzle is built where the search runs (it keeps a cache of its last successors, so it is not Sync);
    // a search on more threads (A*, PEA*) builds each thread's own from a copy of the graph.
    let copy = (spec.threads > 1).then(|| graph.clone());
    let job = move |limiter: &Limiter| {
        let disabled: Vec<&str> = disabled.iter().map(String::as_str).collect();
        let replicate = || -> Option<Replica<B>> {
            let f = Flood::<B>::from_graph(copy.clone()?, &disabled).ok()?;
            let h = heuristic(&hname, &f).ok()?;
            Some((f, h))
        };
        // its tables grow with the board: an allocation that fails is the case's memory_limit, never an abort
        let f = match Flood::<B>::from_graph(graph, &disabled) {
            Ok(f) => f,
            Err(BoardError::OutOfMemory) => return out_of_memory(limiter),
            Err(e) => panic!("the bitset width is the graph's: {e}"),
        };
        let mut h = match heuristic(&hname, &f) {
            Ok(h) => h,
            Err(BoardError::OutOfMemory) => return out_of_memory(limiter),
            Err(e) => panic!("a known heuristic: {e}"),
        };
        let mut pruner = Dominance::new();
        let mut pruners: Vec<&mut (dyn Pruner<Flood<B>> + Send + Sync)> = Vec::new();
        if dominance {
            pruners.push(&mut pruner);
        }
        let seed = Seed { incumbent, on_improve: Some(&mut on_improve) };
        run_replicated(&spec, &f, &mut *h, &mut pruners, max_cost, limiter, seed, &replicate)
    };
    let outcome = run_inline(py, &mut req.limits, req.progress.take(), job);
    match outcome {
        Ok(o) => result_dict(py, &o, |&m| Ok(m.into_pyobject(py)?.into_any().unbind())),
        Err(message) => error_dict(py, &message, &req.limits),
    }
}

/// The value of heuristic `name` on the region reached by each colour sequence of `sequences` from the start
/// (moves that grow nothing are allowed). For the differential tests against the Python heuristics.
#[pyfunction]
pub fn flood_estimates(width: usize, height: usize, cells: &Bound<'_, PyAny>, pivot: usize, name: &str,
                       sequences: Vec<Vec<u16>>) -> PyResult<Vec<u32>> {
    let g = graph(width, height, &cells_of(cells)?, pivot)?;
    let colours = g.colours;
    if sequences.iter().flatten().any(|&m| m as usize >= colours) {
        return Err(PyValueError::new_err("flood: a move is not a colour index of the board"));
    }
    with_flood!(g, &[], |f| estimates(&f, name, &sequences)).map_err(board_error)?
}

fn estimates<B: Bits>(f: &Flood<B>, name: &str, sequences: &[Vec<u16>]) -> PyResult<Vec<u32>> {
    let mut h = heuristic(name, f).map_err(board_error)?;
    Ok(sequences.iter().map(|moves| h.estimate(f, &f.play(moves))).collect())
}

/// `(areas, words)`: the board's area count and the 64-bit words of its bitsets (above 9 the fallback).
#[pyfunction]
pub fn flood_areas(width: usize, height: usize, cells: &Bound<'_, PyAny>, pivot: usize) -> PyResult<(usize, usize)> {
    let g = graph(width, height, &cells_of(cells)?, pivot)?;
    Ok((g.count, g.words()))
}
