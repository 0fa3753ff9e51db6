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

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use searchkit_core::{run_parallel, Algorithm, AlgorithmSpec, Limiter, Poll, Pruner, SearchResult, Seed};
use searchkit_tiles::board25::{Pdb16, Tiles16, TilesH16};
use searchkit_tiles::puzzle::{mirror, Group, Tiles, TilesH};

/// The 7-8 partition as the plugin names it (docs/pdb.md).
const GROUPS: [&[u8]; 2] = [&[1, 2, 3, 4, 5, 6, 7, 8], &[9, 10, 11, 12, 13, 14, 15]];

/// The process's CPU time (user + system) in seconds.
fn cpu() -> f64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given
    unsafe { clock_gettime(2, &mut ts) }; // CLOCK_PROCESS_CPUTIME_ID
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// The table of `tiles` from the cache folder (the file whose name starts with the tiles), mapped.
fn table(dir: &PathBuf, tiles: &[u8]) -> Arc<searchkit_core::pdb::Table> {
    let stem = format!("sliding-tiles-{}-", tiles.iter().map(u8::to_string).collect::<Vec<_>>().join("-"));
    let path = std::fs::read_dir(dir).expect("the pattern-database folder").flatten().map(|e| e.path())
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.starts_with(&stem) && n.ends_with(".pdb") && n[stem.len()..].len() == 20
        }))
        .unwrap_or_else(|| panic!("no table {stem}*.pdb in {}", dir.display()));
    let mut head = [0u8; 72];
    std::io::Read::read_exact(&mut std::fs::File::open(&path).expect("the table"), &mut head).expect("a header");
    let digest: [u8; 32] = head[40..72].try_into().expect("a header");
    Arc::new(searchkit_core::pdb::map_checked(&path, &digest, false).expect("a table"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let boards = common::read_boards(&args[1]);
    let dir = std::env::var_os("SEARCHKIT_CACHE_DIR").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/searchkit/pdb"),
        PathBuf::from); // as searchkit/machinery/pdb/store.py's `cache_dir`
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
    let t0 = cpu();
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
    let secs = cpu() - t0;
    println!("expanded {expanded} generated {generated} cpu {secs:.3} s, {:.3} M expanded/CPU-s",
             expanded as f64 / secs / 1e6);
}
