//! Parallel IDA* (`searchkit_core::run_parallel`) against the serial search on the game's own boards: on
//! 2, 3 and 4 threads, the same status, cost, moves and lower bound, the same f-bounds, and the same
//! expanded, generated and evaluated counts and `no-undo` cuts, iteration by iteration, the last (the
//! solution's) too; under a node limit, never more than the limit, the completed iterations the serial
//! search's, and the lower bound of the iteration it stopped in. Every iteration is split
//! (`SEARCHKIT_PARALLEL_SMALL=0`), so small boards exercise the threads.

mod common;

use common::walk;
use searchkit_core::{Limiter, SearchResult, Status};
use searchkit_tiles::puzzle::{manhattan_table, Tiles, TilesH};

fn solve(tiles: &[u8], linear: bool, threads: usize, max_nodes: Option<u64>) -> SearchResult<u8> {
    let n = (tiles.len() as f64).sqrt() as usize;
    let puzzle = Tiles::new(n, tiles, true).expect("a board");
    let mut h = if linear { TilesH::LinearConflict(manhattan_table(n)) } else { TilesH::manhattan(n) };
    let mut limiter = Limiter::new();
    limiter.max_nodes = max_nodes;
    common::ida(&puzzle, &mut h, threads, &limiter)
}

fn boards() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for seed in 0..150 {
        out.push(walk(3, 5 + (seed as usize % 40), seed));
    }
    for seed in 0..60 {
        out.push(walk(4, 10 + (seed as usize % 50), 1000 + seed));
    }
    out
}

#[test]
fn n_threads_find_what_one_finds_with_the_same_counts() {
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_MAX_THREADS", "64");
    let mut split = 0;
    for tiles in boards() {
        for linear in [false, true] {
            let one = solve(&tiles, linear, 1, None);
            for threads in [2, 3, 4] {
                let many = solve(&tiles, linear, threads, None);
                let what = format!("{tiles:?} linear={linear} threads={threads}");
                assert_eq!(many.status, one.status, "{what}");
                assert_eq!(many.cost, one.cost, "{what}");
                assert_eq!(many.moves, one.moves, "{what}");
                assert_eq!(many.lower_bound, one.lower_bound, "{what}");
                assert_eq!(many.stats.threads, threads as u32, "{what}");
                let (a, b) = (&one.stats.iterations, &many.stats.iterations);
                assert_eq!(a.len(), b.len(), "{what}");
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    assert_eq!(x.bound, y.bound, "{what}");
                    assert_eq!((x.expanded, x.generated), (y.expanded, y.generated), "{what} iteration {i}");
                }
                assert_eq!((one.stats.expanded, one.stats.generated, one.stats.evaluated),
                           (many.stats.expanded, many.stats.generated, many.stats.evaluated), "{what}");
                assert_eq!(one.stats.rule_cuts, many.stats.rule_cuts, "{what}");
                split += usize::from(a.len() > 1);
            }
        }
    }
    assert!(split > 500, "only {split} searches had a completed iteration");
}

#[test]
fn a_node_limit_holds_across_threads() {
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_MAX_THREADS", "64");
    let mut stopped = 0;
    for (i, tiles) in boards().iter().enumerate().filter(|(i, _)| i % 3 == 0) {
        let full = solve(tiles, false, 1, None);
        for limit in [0, 1, 7, full.stats.expanded / 2, full.stats.expanded.saturating_sub(1)] {
            let one = solve(tiles, false, 1, Some(limit));
            for threads in [2, 4] {
                let many = solve(tiles, false, threads, Some(limit));
                let what = format!("board {i} limit {limit} threads {threads}");
                assert!(many.stats.expanded <= limit, "{what}: expanded {}", many.stats.expanded);
                match many.status {
                    Status::Solved => {
                        assert_eq!((many.cost, &many.moves), (full.cost, &full.moves), "{what}");
                    }
                    Status::NodeLimit => {
                        stopped += 1;
                        // the bound of the iteration it stopped in: one of the serial search's f-bounds
                        let lb = many.lower_bound.expect("a bound");
                        assert!(full.stats.iterations.iter().any(|it| it.bound == lb), "{what}: {lb}");
                        // the iterations it completed are the serial search's
                        let done = &many.stats.iterations[..many.stats.iterations.len() - 1];
                        for (x, y) in full.stats.iterations.iter().zip(done) {
                            assert_eq!((x.bound, x.expanded), (y.bound, y.expanded), "{what}");
                        }
                        if one.status == Status::NodeLimit {
                            assert!(lb <= one.lower_bound.expect("a bound"), "{what}");
                        }
                    }
                    other => panic!("{what}: {other:?}"),
                }
            }
        }
    }
    assert!(stopped > 50, "only {stopped} searches stopped on the limit");
}
