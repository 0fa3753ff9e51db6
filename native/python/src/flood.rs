//! Flood-It on the native engine: `flood_solve` (a case searched as a request asks, `common.rs`) and
//! `flood_estimates` (heuristic values, for the differential tests). The board is given as the Python
//! `Board` holds it: colour indices row-major, width, height and the pivot cell; the bitset width is chosen
//! once from the board's area count (`searchkit_flood::with_flood!`: `[u64; W]` for W = 1..=9, a boxed slice
//! beyond).

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use searchkit_core::{run_seeded, Control, Heuristic, Outcome, Seed, StatePruner, Status};
use searchkit_flood::greedy::{Greedy, TwoBest};
use searchkit_flood::heuristics::{Colours, Eccentricity, Layered, PuchertMemo};
use searchkit_flood::{with_bits, with_flood, AreaGraph, Bits, BoardError, Dominance, Flood};

use crate::common::{error_dict, improvement_callback, outcome_dict, parse_request, run_inline, Request};

/// Heuristic names with a native twin (`searchkit_flood.plugin`'s names).
pub const HEURISTICS: [&str; 6] = ["colours", "eccentricity", "layered", "puchert", "greedy", "two-best"];
/// Driver-level rules with a native twin.
pub const PRUNERS: [&str; 1] = ["dominance"];
/// Successor rules fused into the native domain (`searchkit_flood.areas`' names).
pub const RULES: [&str; 4] = ["frontier-colours", "no-growth", "completion", "exposure"];

fn heuristic<B: Bits>(name: &str, f: &Flood<B>) -> Result<Box<dyn Heuristic<Flood<B>>>, BoardError> {
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
fn out_of_memory<M>(control: &Control) -> Outcome<M> {
    let mut o = Outcome { status: Status::MemoryLimit, moves: Vec::new(), cost: None, lower_bound: None,
                          stats: Default::default(), message: None };
    o.stats.elapsed = control.elapsed();
    o
}

fn solve<'py, B: Bits>(py: Python<'py>, graph: AreaGraph, disabled: Vec<String>, mut req: Request)
                      -> PyResult<Bound<'py, PyDict>> {
    let hname = req.heuristic.clone().unwrap_or_else(|| "puchert".to_string());
    if !HEURISTICS.contains(&hname.as_str()) {
        return Err(PyValueError::new_err(format!("flood: heuristic {hname:?} has no native twin")));
    }
    let mut dominance = false;
    for p in &req.pruners {
        match p.as_str() {
            "dominance" => dominance = true,
            other => return Err(PyValueError::new_err(format!("flood: rule {other:?} has no native twin"))),
        }
    }
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
    // The domain is built where the search runs (it keeps a cache of its last successors, so it is not Sync).
    let job = move |control: &Control| {
        let disabled: Vec<&str> = disabled.iter().map(String::as_str).collect();
        // its tables grow with the board: an allocation that fails is the case's memory_limit, never an abort
        let f = match Flood::<B>::from_graph(graph, &disabled) {
            Ok(f) => f,
            Err(BoardError::OutOfMemory) => return out_of_memory(control),
            Err(e) => panic!("the bitset width is the graph's: {e}"),
        };
        let mut h = match heuristic(&hname, &f) {
            Ok(h) => h,
            Err(BoardError::OutOfMemory) => return out_of_memory(control),
            Err(e) => panic!("a known heuristic: {e}"),
        };
        let mut pruner = Dominance::new();
        let mut pruners: Vec<&mut dyn StatePruner<Flood<B>>> = Vec::new();
        if dominance {
            pruners.push(&mut pruner);
        }
        let seed = Seed { incumbent, on_improve: Some(&mut on_improve) };
        run_seeded(&spec, &f, &mut *h, &mut pruners, max_cost, control, seed)
    };
    let outcome = run_inline(py, &mut req.control, req.progress.take(), job);
    match outcome {
        Ok(o) => outcome_dict(py, &o, |&m| Ok(m.into_pyobject(py)?.into_any().unbind())),
        Err(message) => error_dict(py, &message, &req.control),
    }
}

/// Solve one Flood-It board as `request` asks (`common.rs`): `cells` are colour indices (row-major), `pivot`
/// the pivot cell, `disabled` the names of the successor rules switched off; `heuristic` defaults to
/// `puchert`, `pruners` may name `dominance`. Moves in the result are colour indices.
///
/// Raises ValueError for a bad board, an unknown heuristic or rule, or a bad request.
#[pyfunction]
#[pyo3(signature = (width, height, cells, pivot, disabled, request))]
pub fn flood_solve<'py>(py: Python<'py>, width: usize, height: usize, cells: &Bound<'py, PyAny>, pivot: usize,
                        disabled: Vec<String>, request: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyDict>> {
    let req = parse_request(request)?;
    let cells = cells_of(cells)?;
    let g = graph(width, height, &cells, pivot)?;
    drop(cells);
    with_bits!(g.words(), B, solve::<B>(py, g, disabled, req))
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flood_solve, m)?)?;
    m.add_function(wrap_pyfunction!(flood_estimates, m)?)?;
    m.add_function(wrap_pyfunction!(flood_areas, m)?)?;
    m.add("FLOOD_HEURISTICS", HEURISTICS)?;
    m.add("FLOOD_PRUNERS", PRUNERS)?;
    m.add("FLOOD_RULES", RULES)?;
    Ok(())
}
