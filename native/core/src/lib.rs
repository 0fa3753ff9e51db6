//! searchkit's native engine core: the `Domain` vocabulary, the drivers generic over it, the control value
//! (limits, cancel flag, memory budget) and statistics with exactly Python's `SearchStats` fields.
//!
//! The Python engine (`searchkit/drivers/`) is the specification: every driver here reproduces its Python
//! twin's order of expansion, counts, statuses and bounds, and is tested against it from Python.

pub mod domain;
