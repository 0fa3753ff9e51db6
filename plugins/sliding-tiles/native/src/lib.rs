//! The N x N sliding-tile puzzle (N = 2..4) as a native searchkit puzzle: the twin of the `sliding-tiles`
//! plugin (`plugins/sliding-tiles/sliding_tiles/`).
//!
//! * [`puzzle`]: the board, its moves (`U`, `D`, `L`, `R`: the direction the blank moves, in that order) with
//!   the plugin's `no-undo` rule fused in, and the heuristics `manhattan`, `linear-conflict` and `pdb`;
//! * [`pdb`]: the puzzle's abstraction for the core's pattern-database builder (`searchkit_core::pdb`, which
//!   also holds the file format of `searchkit/machinery/pdb/store.py` and permutation ranking);
//! * [`module`]: the Python module `sliding_tiles_native` (the kit's `native_module!`).

pub mod puzzle;
pub mod module;
pub mod pdb;
