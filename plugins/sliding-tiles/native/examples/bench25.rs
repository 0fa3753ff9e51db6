//! Profiling harness for the 24-puzzle: the core's IDA* on the 5 x 5 board with the cached 6-6-6-6 pattern
//! databases and reflection (`pdb(partition=6-6-6-6)`, as `searchkit solve sliding-tiles` runs it), without
//! Python, so `perf` and `valgrind --tool=callgrind` see the search with its symbols.
//!
//! `cargo run --release -p searchkit-tiles --example bench25 -- FILE N...` (FILE: boards in the plugin's
//! format, N: 1-based board numbers) prints each board's cost, expanded and generated, then the search's CPU
//! time (the tables' loading left out) and expanded per CPU-second. The tables are read from
//! `$SEARCHKIT_CACHE_DIR`, else `~/.cache/searchkit/pdb` (built there by `searchkit pdb build sliding-tiles
//! 'pdb(partition=6-6-6-6)'`). `THREADS=N` runs the parallel search; `NODES=N` stops each board after about N
//! expansions (a fixed amount of work for `callgrind`).

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use searchkit_core::{run_parallel, Algorithm, AlgorithmSpec, Limiter, Poll, Pruner, Seed};
use searchkit_tiles::board25::{Pdb25, Tiles25, TilesH25};
use searchkit_tiles::puzzle::Group;

/// Korf and Felner's partition as the plugin names it (docs/pdb.md).
const GROUPS: [[u8; 6]; 4] = [[1, 2, 6, 7, 11, 12], [3, 4, 5, 8, 9, 10], [16, 17, 18, 21, 22, 23],
                              [13, 14, 15, 19, 20, 24]];

/// The table of `tiles` from the cache folder, read onto 2 MB pages (as the plugin reads a 5 x 5 table: its
/// long searches run a few per cent faster there than on a map, docs/performance.md).
fn table(dir: &std::path::Path, tiles: &[u8]) -> Arc<searchkit_core::pdb::Table> {
    let (path, digest) = common::table_file(dir, tiles);
    Arc::new(searchkit_core::pdb::read_checked(&path, &digest, false).expect("a table").into())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let boards = common::read_boards(&args[1]);
    let dir = common::cache_dir();
    let groups = GROUPS.iter().map(|g| Group::new(5, g.to_vec(), table(&dir, g)).expect("a group")).collect();
    let pdb = Arc::new(Pdb25::new(groups, true).expect("the partition"));
    let mut spec = AlgorithmSpec::new(Algorithm::IdaStar);
    spec.threads = std::env::var("THREADS").ok().map_or(1, |t| t.parse().expect("THREADS: a number"));
    let nodes: Option<u64> = std::env::var("NODES").ok().map(|t| t.parse().expect("NODES: a number"));
    let (mut expanded, mut generated) = (0u64, 0u64);
    let t0 = common::cpu();
    for a in &args[2..] {
        let tiles = &boards[a.parse::<usize>().expect("a board number") - 1];
        let puzzle = Tiles25::new(tiles, true, Some(pdb.clone())).expect("a board");
        let mut h = TilesH25::Pdb;
        let mut limiter = Limiter::started(0.0, None);
        limiter.max_nodes = nodes;
        // armed as under the CLI (Ctrl-C polling), so the limit checks run as there
        limiter.cancel = Some(Arc::new(AtomicBool::new(false)));
        limiter.poll = Some(Poll(Arc::new(|| {})));
        let mut pruners: Vec<&mut dyn Pruner<Tiles25>> = Vec::new();
        let o = run_parallel(&spec, &puzzle, &mut h, &mut pruners, None, &limiter, Seed::default());
        println!("board={a} cost={:?} expanded={} generated={} iterations={}", o.cost, o.stats.expanded,
                 o.stats.generated, o.stats.iterations.len());
        expanded += o.stats.expanded;
        generated += o.stats.generated;
    }
    let secs = common::cpu() - t0;
    println!("expanded {expanded} generated {generated} cpu {secs:.3} s, {:.3} M expanded/CPU-s",
             expanded as f64 / secs / 1e6);
}
