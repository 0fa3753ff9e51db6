//! The N x N sliding-tile puzzle (N = 2..5) as a native searchkit puzzle: the twin of the `sliding-tiles`
//! plugin (`plugins/sliding-tiles/sliding_tiles/`).
//!
//! * [`puzzle`]: the board, its moves (`U`, `D`, `L`, `R`: the direction the blank moves, in that order) with
//!   the plugin's `no-undo` rule fused in, and the heuristics `manhattan`, `linear-conflict` and `pdb`, for
//!   sides 1 to 4;
//! * [`board25`]: the same for the 24-puzzle (5 x 5), with the heuristics updated per move;
//! * [`pdb`]: the puzzle's abstraction for the core's pattern-database builder (`searchkit_core::pdb`, which
//!   also holds the file format of `searchkit/machinery/pdb/store.py` and permutation ranking);
//! * [`sets`]: the same tables built faster over sets of cells, for groups of 3 to 8 tiles;
//! * [`module`]: the Python module `sliding_tiles_native` (the kit's `native_module!`).

pub mod board25;
pub mod puzzle;
pub mod module;
pub mod pdb;
pub mod sets;
