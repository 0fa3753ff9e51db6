//! `searchkit_native._native`: the Python face of the native engine (module docs in `common.rs`).

use pyo3::prelude::*;

pub mod common;
mod flood;
mod tiles;
mod toy;

/// A panic inside a search is reported as the case's status `error` with its message: the default hook's
/// lines on stderr (and backtrace) are left out while a search runs ([`common::in_search`]), kept for every
/// other panic.
fn quiet_search_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !common::in_search() {
            default(info);
        }
    }));
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    quiet_search_panics();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Benchmarks time release builds only (debug Rust is 10-50 times slower).
    m.add("PROFILE", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    m.add("ALGORITHMS", ("astar", "peastar", "ida_star", "ida_star_tt", "wastar", "gbfs", "bfs", "beam", "anytime"))?;
    m.add_function(wrap_pyfunction!(toy::toy_solve, m)?)?;
    flood::register(m)?;
    m.add_function(wrap_pyfunction!(tiles::tiles_solve, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::tiles_build_pdb, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::tiles_load_pdb, m)?)?;
    Ok(())
}
