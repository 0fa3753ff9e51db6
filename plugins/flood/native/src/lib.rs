//! Flood-It as a native searchkit puzzle; the twin of the Python plugin `searchkit_flood`.
//!
//! * [`graph::AreaGraph`]: the areas, numbered exactly as `searchkit_flood.areas.AreaGraph` numbers them;
//! * [`Flood`]: the [`searchkit_core::puzzle::Puzzle`], states the flooded region as an area bitset
//!   ([`bits::Bits`]: `[u64; W]` for `W` = 1..=9 words, i.e. up to 576 areas, else a boxed slice), with the
//!   successor rules `frontier-colours`, `no-growth`, `completion` and `exposure` fused in as Python fuses them;
//! * the heuristics `colours`, `eccentricity`, `layered`, `puchert` ([`heuristics`]), `greedy` and `two-best`
//!   ([`greedy`]), and the `dominance` state pruner ([`Dominance`]).
//!
//! * [`module`]: the Python module `searchkit_flood_native` (the kit's `native_module!`).
//!
//! Use [`with_flood!`] to pick the bitset type for a board once and run generic code on it.

pub mod alloc;
pub mod bits;
pub mod puzzle;
pub mod dominance;
pub mod graph;
pub mod greedy;
pub mod heuristics;
pub mod module;

pub use bits::{Bits, MAX_FIXED_WORDS};
pub use puzzle::Flood;
pub use dominance::Dominance;
pub use graph::{AreaGraph, BoardError};

/// Build the [`Flood`] of `graph` with the bitset type its area count needs and evaluate `$body` with `$flood`
/// bound to it (a `Flood<[u64; W]>` for W = 1..=9, else a `Flood<Box<[u64]>>`). `$body` must have the same type
/// for every width; the macro's value is `Result<that type, BoardError>`.
#[macro_export]
macro_rules! with_flood {
    ($graph:expr, $disabled:expr, |$flood:ident| $body:expr) => {{
        let graph: $crate::AreaGraph = $graph;
        let disabled: &[&str] = $disabled;
        match graph.words() {
            1 => $crate::Flood::<[u64; 1]>::from_graph(graph, disabled).map(|$flood| $body),
            2 => $crate::Flood::<[u64; 2]>::from_graph(graph, disabled).map(|$flood| $body),
            3 => $crate::Flood::<[u64; 3]>::from_graph(graph, disabled).map(|$flood| $body),
            4 => $crate::Flood::<[u64; 4]>::from_graph(graph, disabled).map(|$flood| $body),
            5 => $crate::Flood::<[u64; 5]>::from_graph(graph, disabled).map(|$flood| $body),
            6 => $crate::Flood::<[u64; 6]>::from_graph(graph, disabled).map(|$flood| $body),
            7 => $crate::Flood::<[u64; 7]>::from_graph(graph, disabled).map(|$flood| $body),
            8 => $crate::Flood::<[u64; 8]>::from_graph(graph, disabled).map(|$flood| $body),
            9 => $crate::Flood::<[u64; 9]>::from_graph(graph, disabled).map(|$flood| $body),
            _ => $crate::Flood::<Box<[u64]>>::from_graph(graph, disabled).map(|$flood| $body),
        }
    }};
}

/// Evaluate `$body` with the type name `$bits` standing for the bitset type of `$words` words (`[u64; W]` for
/// W = 1..=9, else `Box<[u64]>`): for code that builds its [`Flood`] later (e.g. on another thread, a `Flood`
/// is not `Sync`).
#[macro_export]
macro_rules! with_bits {
    ($words:expr, $bits:ident, $body:expr) => {{
        match $words {
            1 => { type $bits = [u64; 1]; $body }
            2 => { type $bits = [u64; 2]; $body }
            3 => { type $bits = [u64; 3]; $body }
            4 => { type $bits = [u64; 4]; $body }
            5 => { type $bits = [u64; 5]; $body }
            6 => { type $bits = [u64; 6]; $body }
            7 => { type $bits = [u64; 7]; $body }
            8 => { type $bits = [u64; 8]; $body }
            9 => { type $bits = [u64; 9]; $body }
            _ => { type $bits = Box<[u64]>; $body }
        }
    }};
}
