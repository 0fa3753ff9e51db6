//! Profiling harness for the 15-puzzle's pattern databases: the core's IDA* on the 4 x 4 board with the cached
//! 7-8 tables and reflection (`pdb(partition=7-8)`, as `searchkit solve sliding-tiles` runs it), without
//! Python, so `perf` and `valgrind --tool=callgrind` see the search with its symbols.
//!
//! `cargo run --release -p searchkit-tiles --example bench16 -- FILE N...` (FILE: boards in the plugin's
//! format, N: 1-based board numbers, or `all`) prints each board's cost, expanded, generated and every
//! iteration's bound and expanded count, then the search's CPU time (the tables' loading apart) and expanded
//! per CPU-second. The tables are mapped from `$SEARCHKIT_CACHE_DIR`, else `~/.cache/searchkit/pdb` (built
//! there by `searchkit pdb build sliding-tiles 'pdb(partition=7-8)'`). `OLD=1` searches the board of
//! [`searchkit_tiles::puzzle`] (every group ranked for each child) instead of [`searchkit_tiles::board25`]'s
//! (the entries kept in the board): the two must print the same counts.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use searchkit_core::{run_parallel, Algorithm, AlgorithmSpec, Limiter, Poll, Pruner, SearchResult, Seed};
use searchkit_tiles::board25::{Pdb16, Tiles16, TilesH16};
use searchkit_tiles::puzzle::{mirror, Group, Tiles, TilesH};

/// The 7-8 partition as the plugin names it (docs/pdb.md).
const GROUPS: [&[u8]; 2] = [&[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12, 13, 14, 15]];

/// The table of `tiles` from the cache folder, mapped (as the plugin reads a 4 x 4 table).
fn table(dir: &std::path::Path, tiles: &[u8]) -> Arc<searchkit_core::pdb::Table> {
    let (path, digest) = common::table_file(dir, tiles);
    Arc::new(searchkit_core::pdb::map_checked(&path, &digest, false).expect("a table"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let boards = common::read_boards(&args[1]);
    let dir = common::cache_dir();
    let groups: Vec<Group> =
        GROUPS.iter().map(|g| Group::new(4, g.to_vec(), table(&dir, g)).expect("a group")).collect();
    let pdb = Arc::new(Pdb16::new(groups.clone(), true).expect("the partition"));
    let old = std::env::var_os("OLD").is_some();
    let spec = AlgorithmSpec::new(Algorithm::IdaStar);
    let picked: Vec<usize> = if args[2..] == ["all"] {
        (1..=boards.len()).collect()
    } else {
        args[2..].iter().map(|a| a.parse().expect("a board number")).collect()
    };
    let (mut expanded, mut generated) = (0u64, 0u64);
    let t0 = common::cpu();
    for a in picked {
        let tiles = &boards[a - 1];
        let mut limiter = Limiter::started(0.0, None);
        // armed as under the CLI (Ctrl-C polling), so the limit checks run as there
        limiter.cancel = Some(Arc::new(AtomicBool::new(false)));
        limiter.poll = Some(Poll(Arc::new(|| {})));
        let o: SearchResult<u8> = if old {
            let puzzle = Tiles::new(4, tiles, true).expect("a board");
            let mut h = TilesH::Pdb { groups: groups.clone(), mirror: Some(mirror(4)) };
            let mut pruners: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
            searchkit_tiles::puzzle::search(&spec, &puzzle, &mut h, &mut pruners, None, &limiter, Seed::default())
        } else {
            let puzzle = Tiles16::new(tiles, true, Some(pdb.clone())).expect("a board");
            let mut h = TilesH16::Pdb;
            let mut pruners: Vec<&mut dyn Pruner<Tiles16>> = Vec::new();
            run_parallel(&spec, &puzzle, &mut h, &mut pruners, None, &limiter, Seed::default())
        };
        let its: Vec<String> = o.stats.iterations.iter()
            .map(|i| format!("{}:{}:{}:{}", i.bound, i.expanded, i.generated, i.evaluated)).collect();
        println!("board={a} cost={:?} moves={} expanded={} generated={} evaluated={} cuts={:?} iterations={}",
                 o.cost, o.moves.iter().map(|&m| m as char).collect::<String>(), o.stats.expanded,
                 o.stats.generated, o.stats.evaluated, o.stats.rule_cuts, its.join(","));
        expanded += o.stats.expanded;
        generated += o.stats.generated;
    }
    let secs = common::cpu() - t0;
    println!("expanded {expanded} generated {generated} cpu {secs:.3} s, {:.3} M expanded/CPU-s",
             expanded as f64 / secs / 1e6);
}
