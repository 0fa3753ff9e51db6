//! Parallel IDA* on the 24-puzzle's board (`searchkit_tiles::board25`) against the serial search, as
//! `threads.rs` does for sides 3 and 4: on 2 and 3 threads the same status, cost, moves and lower bound, and
//! the same expanded and generated counts iteration by iteration, with Manhattan distance, linear conflict
//! and pattern databases of 3-tile groups (whose entries the board keeps per move). Every iteration is split
//! (`SEARCHKIT_PARALLEL_SMALL=0`), so short walks exercise the threads.

mod common;

use std::sync::Arc;

use common::walk;

use searchkit_core::{Limiter, SearchResult};
use searchkit_tiles::board25::{Pdb25, Tiles25, TilesH25};
use searchkit_tiles::puzzle::Group;

/// The 3-3-3-3-3-3-3-3 partition's tables (`sliding_tiles.pdb.PARTITIONS`), built here.
fn threes(reflect: bool) -> Arc<Pdb25> {
    let groups = (0..8u8).map(|i| {
        let tiles = vec![3 * i + 1, 3 * i + 2, 3 * i + 3];
        let v = searchkit_tiles::pdb::build(5, &tiles, &Limiter::new(), |_, _| {}).unwrap();
        Group::new(5, tiles, Arc::new(v.into())).unwrap()
    }).collect();
    Arc::new(Pdb25::new(groups, reflect).unwrap())
}

fn solve(tiles: &[u8], h: usize, pdb: &Arc<Pdb25>, threads: usize) -> SearchResult<u8> {
    let (mut heuristic, tables) = match h {
        0 => (TilesH25::manhattan(), None),
        1 => (TilesH25::linear_conflict(), None),
        _ => (TilesH25::Pdb, Some(pdb.clone())),
    };
    let puzzle = Tiles25::new(tiles, true, tables).expect("a board");
    common::ida(&puzzle, &mut heuristic, threads, &Limiter::new())
}

#[test]
fn n_threads_find_what_one_finds_with_the_same_counts_on_5x5() {
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_MAX_THREADS", "64");
    let tables = [threes(true), threes(false)];
    for seed in 0..24u64 {
        let tiles = walk(5, 10 + (seed as usize % 30), seed);
        for h in 0..4usize {
            let pdb = &tables[h.saturating_sub(2)];
            let one = solve(&tiles, h, pdb, 1);
            assert_eq!(one.status, searchkit_core::Status::Solved);
            for threads in [2, 3] {
                let many = solve(&tiles, h, pdb, threads);
                let what = format!("{tiles:?} h={h} threads={threads}");
                assert_eq!((many.status, many.cost, &many.moves, many.lower_bound),
                           (one.status, one.cost, &one.moves, one.lower_bound), "{what}");
                let (a, b) = (&one.stats.iterations, &many.stats.iterations);
                assert_eq!(a.len(), b.len(), "{what}");
                for (x, y) in a.iter().zip(b) {
                    assert_eq!((x.bound, x.expanded, x.generated), (y.bound, y.expanded, y.generated), "{what}");
                }
            }
        }
    }
}
