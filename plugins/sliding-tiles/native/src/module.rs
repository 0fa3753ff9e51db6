//! The sliding-tile puzzle's Python module `sliding_tiles_native`, built with the kit (`searchkit-pyo3`):
//! `solve(problem, request)` and `manifest()` from [`searchkit_pyo3::native_module!`], and `tiles_build_pdb`,
//! `tiles_build_bytes`,
//! `tiles_write_pdb`, `tiles_load_pdb` for the pattern databases.
//!
//! The plugin's hook (`sliding_tiles/native.py`) calls these; tables are the files of
//! `searchkit/machinery/pdb/store.py`, loaded once per process (kept by path) and verified when loaded.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict};
use searchkit_core::manifest::{Component, Kind, Param};
use searchkit_core::pdb::Table;
use searchkit_core::{run_parallel, AlgorithmSpec, Limiter, Pruner, SearchResult, Seed};
use searchkit_pyo3::{error_dict, improvement_callback, result_dict, run_build, run_inline, NativeGame, SearchRequest};

use crate::board25::{KeptH, KeptPdb, KeptTiles};
use crate::puzzle::{self, manhattan_table, mirror, Group, Tiles, TilesH};
use crate::pdb;

type Tables = Mutex<HashMap<String, Arc<Table>>>;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Mutex::new(HashMap::new()))
}

fn digest_of(d: &[u8]) -> PyResult<[u8; 32]> {
    d.try_into().map_err(|_| PyValueError::new_err("a key digest is 32 bytes (SHA-256)"))
}

/// The verified entries of the table at `path` (kept for the process: one it built or read before is not read
/// again), its data's CRC checked when `crc`; ValueError names why it is unusable.  With `mapped`, an 8-bit
/// table's file is mapped read-only, not copied (`searchkit_core::pdb::map_checked`: its pages are the page
/// cache's; a file replaced later leaves the mapped one as it was); else it is read into a buffer on 2 MB pages
/// (`read_checked`), for a long search.
fn load(py: Python<'_>, path: &str, digest: &[u8; 32], crc: bool, mapped: bool) -> PyResult<Arc<Table>> {
    if let Some(t) = tables().lock().unwrap().get(path) {
        return Ok(t.clone());
    }
    let values = py.detach(|| if mapped {
        searchkit_core::pdb::map_checked(Path::new(path), digest, crc)
    } else {
        searchkit_core::pdb::read_checked(Path::new(path), digest, crc).map(Table::from)
    }).map_err(PyValueError::new_err)?;
    let t = Arc::new(values);
    tables().lock().unwrap().insert(path.to_string(), t.clone());
    Ok(t)
}

/// Load and verify the table at `path` now (ValueError with the reason if it is unusable); its entries.  The
/// header, key digest and length are always checked, the CRC over all the data when `crc` (false: the caller
/// knows the file was verified whole since it was written: searchkit's verification stamp).  A table this
/// process built or loaded under `path` is not read again.  `mapped` (default true): an 8-bit table's file is
/// mapped read-only instead of read (for short searches: the 15-puzzle's; false for the 24-puzzle's long
/// ones, whose buffers on 2 MB pages make the search a few per cent faster: docs/pdb.md).
#[pyfunction]
#[pyo3(signature = (path, digest, crc = true, mapped = true))]
pub fn tiles_load_pdb(py: Python<'_>, path: &str, digest: &[u8], crc: bool, mapped: bool) -> PyResult<u64> {
    Ok(load(py, path, &digest_of(digest)?, crc, mapped)?.len() as u64)
}

/// Build the table of the group `tiles` on the `n` x `n` board in this process, on `threads` threads (the
/// same bytes at every count), and write it to `path`
/// (format 1, under `key` and its SHA-256 `digest`); returns the number of entries.  The table is built by
/// [`pdb::build_threads`] (over sets of cells for groups of 3 to 8 tiles, `crate::sets`; else the core's
/// layered builder) through the kit's [`run_build`]: the GIL released, the
/// running case's `remaining` seconds as its deadline (`None`: no time limit), Ctrl-C polled every 5 ms at
/// most; `progress(reached, total)`, if given, is called (with the GIL) after each layer.  The file is
/// written by the core's writer (a temporary name renamed into place, removed on an error), and the table,
/// just built, is kept for the process under `path` (`keep`, default true) so that the engine does not read
/// back and verify what it has in memory.  With `write` false (only with `keep`) no file is written yet: the
/// caller writes it with [`tiles_write_pdb`], e.g. on another thread while the next table builds.
///
/// Raises KeyboardInterrupt (Ctrl-C; or what another signal handler raised), `TimeoutError("time_limit")`,
/// MemoryError (its memory cannot be allocated, e.g. under `--memory-limit`'s address-space limit),
/// OSError (the file cannot be written), ValueError (tiles that are not distinct numbers `1 .. n*n-1`, a
/// digest that is not 32 bytes); nothing is written but on success.
/// The bytes [`tiles_build_pdb`] charges to the case's memory budget for a group of `k` tiles on the `n` x `n`
/// board (`crate::sets::bytes`), or `None` when it is not built over sets of cells (then the layered builder's
/// formula, `sliding_tiles.native.build_bytes`, holds).
#[pyfunction]
pub fn tiles_build_bytes(n: usize, k: usize) -> Option<usize> {
    ((2..=5).contains(&n) && crate::sets::takes(n, k)).then(|| crate::sets::bytes(n, k))
}

#[pyfunction]
#[pyo3(signature = (n, tiles, path, key, digest, progress = None, remaining = None, keep = true, threads = 1,
                    write = true))]
#[allow(clippy::too_many_arguments)]
pub fn tiles_build_pdb(py: Python<'_>, n: usize, tiles: Vec<u8>, path: &str, key: &str, digest: &[u8],
                       progress: Option<Py<PyAny>>, remaining: Option<f64>, keep: bool, threads: usize, write: bool)
                       -> PyResult<u64> {
    let digest = digest_of(digest)?;
    if threads == 0 {
        return Err(PyValueError::new_err("tiles_build_pdb: threads must be at least 1"));
    }
    if !write && !keep {
        return Err(PyValueError::new_err("tiles_build_pdb: a table neither written nor kept"));
    }
    if !(2..=5).contains(&n) || tiles.is_empty() || tiles.len() >= n * n
        || tiles.iter().any(|&t| t == 0 || t as usize >= n * n)
        || (1..tiles.len()).any(|i| tiles[..i].contains(&tiles[i])) {
        return Err(PyValueError::new_err("tiles_build_pdb: distinct tiles 1 .. n*n-1 on a board of side 2 to 5"));
    }
    let values = run_build(py, remaining, progress,
                           |limiter, layer| pdb::build_threads(n, &tiles, threads, limiter, layer))?;
    if write {
        py.detach(|| searchkit_core::pdb::write(Path::new(path), &values, key, &digest))
            .map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
    }
    let entries = values.len() as u64;
    if keep {
        tables().lock().unwrap().insert(path.to_string(), Arc::new(Table::from(values)));
    }
    Ok(entries)
}

/// Write the table this process keeps under `path` (built with `write` false: [`tiles_build_pdb`]) to `path`,
/// with the GIL released: format 1 under `key` and its SHA-256 `digest`, through a temporary name renamed into
/// place (removed on an error).
///
/// Raises OSError (the file cannot be written), ValueError (no table is kept under `path`, a digest that is
/// not 32 bytes).
#[pyfunction]
pub fn tiles_write_pdb(py: Python<'_>, path: &str, key: &str, digest: &[u8]) -> PyResult<()> {
    let digest = digest_of(digest)?;
    let table = tables().lock().unwrap().get(path).cloned()
        .ok_or_else(|| PyValueError::new_err(format!("tiles_write_pdb: no table kept under {path}")))?;
    py.detach(|| searchkit_core::pdb::write(Path::new(path), &table, key, &digest))
        .map_err(|e| PyOSError::new_err(format!("{path}: {e}")))
}

/// A problem's tables: per group its tiles, the file's path and its key's digest (`None` without `pdb`).
type GroupFiles = Option<Vec<(Vec<u8>, String, Vec<u8>)>>;

/// The sliding-tile puzzle for the kit.
pub struct TilesGame;

impl NativeGame for TilesGame {
    const GAME: &'static str = "sliding-tiles";

    /// The plugin's components with a native twin (`sliding_tiles/plugin.py`), their options as it declares
    /// them: `pdb`'s `blank=1` tables are Python-only (the native lookup folds the blank), so the plugin's
    /// claims send such a plan to Python and `solve` refuses it.
    fn components() -> Vec<Component> {
        vec![
            Component::plain(Kind::Heuristic, "manhattan"),
            Component::plain(Kind::Heuristic, "linear-conflict"),
            Component {
                kind: Kind::Heuristic,
                name: "pdb",
                params: vec![Param::str("partition", "auto"), Param::int("reflect", 1, Some(0.0), Some(1.0)),
                             Param::int("blank", 0, Some(0.0), Some(1.0))],
            },
            Component::plain(Kind::Rule, "no-undo"),
        ]
    }

    /// `problem` is `(width, tiles, tables)`: the board row-major (0 the blank), and for `pdb` its tables
    /// as a list of `(tiles, path, digest)` (the Python side resolves `partition` and makes them ready),
    /// else `None`.  Moves in the result are `U`, `D`, `L`, `R`; an incumbent's moves are their character
    /// codes.
    fn solve<'py>(py: Python<'py>, problem: &Bound<'py, PyAny>, req: SearchRequest) -> PyResult<Bound<'py, PyDict>> {
        let (width, tiles, tables): (usize, Vec<u8>, GroupFiles) = problem.extract()?;
        let no_undo = !req.disabled.iter().any(|d| d == "no-undo");
        if width == 5 {
            return solve_kept::<5, 25>(py, &tiles, tables, no_undo, req);
        }
        let sizes = tables.as_ref().map(|gs| gs.iter().map(|g| g.0.len()).collect::<Vec<_>>());
        if width == 4 && req.heuristic.as_deref() == Some("pdb")
            && sizes.is_some_and(|s| KeptPdb::<4, 16>::fits(s.into_iter())) {
            // the 15-puzzle's pattern databases on the board that keeps their entries (crate::board25)
            return solve_kept::<4, 16>(py, &tiles, tables, no_undo, req);
        }
        let puzzle = Tiles::new(width, &tiles, no_undo).map_err(PyValueError::new_err)?;
        let mut h = match req.heuristic.as_deref().unwrap_or("linear-conflict") {
            "manhattan" => TilesH::manhattan(width),
            "linear-conflict" => TilesH::LinearConflict(manhattan_table(width)),
            "pdb" => {
                let gs = load_groups(py, width, tables, &req)?;
                TilesH::Pdb { groups: gs, mirror: (req.heuristic_params.int("reflect") != 0).then(|| mirror(width)) }
            }
            other => unreachable!("the kit checked {other:?} against the manifest"),
        };
        // the 4x4 and smaller boards through puzzle::search, which runs IDA* + Manhattan on its own type
        search(py, req, |spec, max_cost, limiter, seed| {
            let mut pruners: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
            puzzle::search(spec, &puzzle, &mut h, &mut pruners, max_cost, limiter, seed)
        })
    }
}

/// `pdb`'s tables for a board of side `width`, each loaded (its stamp checked) into a lookup [`Group`].
fn load_groups(py: Python<'_>, width: usize, tables: GroupFiles, req: &SearchRequest) -> PyResult<Vec<Group>> {
    if req.heuristic_params.int("blank") != 0 {
        return Err(PyValueError::new_err("tiles: pdb(blank=1) tables are Python-only"));
    }
    let groups = tables.ok_or_else(|| PyValueError::new_err("tiles: pdb needs its tables"))?;
    let mut gs = Vec::new();
    for (tiles, path, digest) in groups {
        let table = load(py, &path, &digest_of(&digest)?, true, width < 5)?;
        gs.push(Group::new(width, tiles, table).map_err(PyValueError::new_err)?);
    }
    Ok(gs)
}

/// The search of `req` by `run` (given the algorithm, the cost bound, the limiter and the seed), its result
/// as the kit's dict.
fn search<'py, F>(py: Python<'py>, mut req: SearchRequest, run: F) -> PyResult<Bound<'py, PyDict>>
where
    F: FnOnce(&AlgorithmSpec, Option<u32>, &Limiter, Seed<'_, u8>) -> SearchResult<u8> + Send,
{
    let incumbent = req.incumbent.take().map(|(m, c)| (m.into_iter().map(|x| x as u8).collect(), c));
    let mut on_improve = improvement_callback(req.on_improve.take());
    let (spec, max_cost) = (req.spec, req.max_cost);
    let outcome = run_inline(py, &mut req.limits, req.progress.take(), |limiter| {
        let seed = Seed { incumbent, on_improve: Some(&mut on_improve) };
        run(&spec, max_cost, limiter, seed)
    });
    match outcome {
        Ok(o) => result_dict(py, &o, |&m| Ok((m as char).to_string().into_pyobject(py)?.into_any().unbind())),
        Err(message) => error_dict(py, &message, &req.limits),
    }
}

/// [`TilesGame::solve`] on the board of side `N` that keeps the pattern databases' entries ([`crate::board25`]:
/// every heuristic on 5 x 5, `pdb` on 4 x 4), so the tables go to the puzzle and the heuristic reads them there.
fn solve_kept<'py, const N: usize, const C: usize>(py: Python<'py>, tiles: &[u8], tables: GroupFiles, no_undo: bool,
                                                  req: SearchRequest) -> PyResult<Bound<'py, PyDict>> {
    let (mut h, pdb) = match req.heuristic.as_deref().unwrap_or("linear-conflict") {
        "manhattan" => (KeptH::<N, C>::manhattan(), None),
        "linear-conflict" => (KeptH::linear_conflict(), None),
        "pdb" => {
            let gs = load_groups(py, N, tables, &req)?;
            let pdb = KeptPdb::new(gs, req.heuristic_params.int("reflect") != 0).map_err(PyValueError::new_err)?;
            (KeptH::Pdb, Some(Arc::new(pdb)))
        }
        other => unreachable!("the kit checked {other:?} against the manifest"),
    };
    let puzzle = KeptTiles::<N, C>::new(tiles, no_undo, pdb).map_err(PyValueError::new_err)?;
    search(py, req, |spec, max_cost, limiter, seed| {
        let mut pruners: Vec<&mut dyn Pruner<KeptTiles<N, C>>> = Vec::new();
        run_parallel(spec, &puzzle, &mut h, &mut pruners, max_cost, limiter, seed)
    })
}

searchkit_pyo3::native_module!(sliding_tiles_native, TilesGame,
                               [tiles_build_pdb, tiles_build_bytes, tiles_load_pdb, tiles_write_pdb]);
