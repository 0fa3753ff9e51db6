//! `tiles_solve`, `tiles_build_pdb`, `tiles_load_pdb`: the sliding-tile domain (`native/tiles`) for Python.
//!
//! The plugin's hook (`sliding_tiles/native.py`) calls these; tables are the files of
//! `searchkit/pdb/store.py`, loaded once per process (kept by path) and verified when loaded.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use searchkit_core::{run_seeded, Seed, StatePruner};
use searchkit_tiles::domain::{manhattan_table, mirror, Group, Tiles, TilesH};
use searchkit_tiles::pdb;

use crate::common::{error_dict, improvement_callback, outcome_dict, parse_request, run_inline};

type Tables = Mutex<HashMap<String, Arc<Vec<u8>>>>;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Mutex::new(HashMap::new()))
}

fn digest_of(d: &[u8]) -> PyResult<[u8; 32]> {
    d.try_into().map_err(|_| PyValueError::new_err("a key digest is 32 bytes (SHA-256)"))
}

/// The verified entries of the table at `path` (kept for the process); ValueError names why it is unusable.
fn load(py: Python<'_>, path: &str, digest: &[u8; 32]) -> PyResult<Arc<Vec<u8>>> {
    if let Some(t) = tables().lock().unwrap().get(path) {
        return Ok(t.clone());
    }
    let values = py.detach(|| pdb::read(path, digest)).map_err(PyValueError::new_err)?;
    let t = Arc::new(values);
    tables().lock().unwrap().insert(path.to_string(), t.clone());
    Ok(t)
}

/// Load and verify the table at `path` now (ValueError with the reason if it is unusable); its entries.
#[pyfunction]
pub fn tiles_load_pdb(py: Python<'_>, path: &str, digest: &[u8]) -> PyResult<u64> {
    Ok(load(py, path, &digest_of(digest)?)?.len() as u64)
}

/// Build the table of the group `tiles` on the `n` x `n` board and write it to `path` (format 1, under `key`
/// and its SHA-256 `digest`); returns the number of entries.  The GIL is released while it builds;
/// `progress(reached, total)`, if given, is called (with the GIL) after each layer; an exception it
/// raises is reported as unraisable and the build goes on.
#[pyfunction]
#[pyo3(signature = (n, tiles, path, key, digest, progress = None))]
pub fn tiles_build_pdb(py: Python<'_>, n: usize, tiles: Vec<u8>, path: &str, key: &str, digest: &[u8],
                       progress: Option<Py<PyAny>>) -> PyResult<u64> {
    let digest = digest_of(digest)?;
    if !(2..=4).contains(&n) || tiles.is_empty() || tiles.len() >= n * n
        || tiles.iter().any(|&t| t == 0 || t as usize >= n * n) {
        return Err(PyValueError::new_err("tiles_build_pdb: tiles 1 .. n*n-1 on a board of side 2 to 4"));
    }
    let values = py.detach(|| {
        pdb::build(n, &tiles, |reached, total| {
            if let Some(cb) = &progress {
                Python::attach(|py| {
                    if let Err(e) = cb.call1(py, (reached, total)) {
                        e.write_unraisable(py, None);
                    }
                });
            }
        })
    });
    py.detach(|| pdb::write(path, &values, key, &digest)).map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
    let entries = values.len() as u64;
    tables().lock().unwrap().insert(path.to_string(), Arc::new(values));
    Ok(entries)
}

/// Solve the board `tiles` (row-major, 0 the blank, side `width`) as `request` asks (`common.rs`).
///
/// `request["heuristic"]`: `manhattan`, `linear-conflict` or `pdb`; for `pdb`, `pdb` is
/// `(groups, reflect)` with `groups` a list of `(tiles, path, digest)`.  `disabled`: the plugin's rules
/// switched off (`no-undo`).
#[pyfunction]
#[pyo3(signature = (width, tiles, request, disabled = Vec::new(), pdb = None))]
pub fn tiles_solve<'py>(py: Python<'py>, width: usize, tiles: Vec<u8>, request: &Bound<'py, PyDict>,
                        disabled: Vec<String>, pdb: Option<(Vec<(Vec<u8>, String, Vec<u8>)>, bool)>)
                        -> PyResult<Bound<'py, PyDict>> {
    let no_undo = !disabled.iter().any(|d| d == "no-undo");
    let domain = Tiles::new(width, &tiles, no_undo).map_err(PyValueError::new_err)?;
    let mut req = parse_request(request)?;
    let mut h = match req.heuristic.as_deref().unwrap_or("linear-conflict") {
        "manhattan" => TilesH::Manhattan(manhattan_table(width)),
        "linear-conflict" => TilesH::LinearConflict(manhattan_table(width)),
        "pdb" => {
            let (groups, reflect) = pdb.ok_or_else(|| PyValueError::new_err("tiles: pdb needs its tables"))?;
            let mut gs = Vec::new();
            for (tiles, path, digest) in groups {
                let table = load(py, &path, &digest_of(&digest)?)?;
                gs.push(Group::new(width, tiles, table).map_err(PyValueError::new_err)?);
            }
            TilesH::Pdb { groups: gs, mirror: reflect.then(|| mirror(width)) }
        }
        other => return Err(PyValueError::new_err(format!("tiles: no native heuristic {other:?}"))),
    };
    if !req.pruners.is_empty() {
        return Err(PyValueError::new_err("tiles: no driver-level rules"));
    }
    let incumbent = req.incumbent.take().map(|(m, c)| (m.into_iter().map(|x| x as u8).collect(), c));
    let mut on_improve = improvement_callback(req.on_improve.take());
    let (spec, max_cost) = (req.spec, req.max_cost);
    let outcome = run_inline(py, &mut req.control, req.progress.take(), |control| {
        let mut pruners: Vec<&mut dyn StatePruner<Tiles>> = Vec::new();
        let seed = Seed { incumbent, on_improve: Some(&mut on_improve) };
        run_seeded(&spec, &domain, &mut h, &mut pruners, max_cost, control, seed)
    });
    match outcome {
        Ok(o) => outcome_dict(py, &o, |&m| Ok((m as char).to_string().into_pyobject(py)?.into_any().unbind())),
        Err(message) => error_dict(py, &message, &req.control),
    }
}
