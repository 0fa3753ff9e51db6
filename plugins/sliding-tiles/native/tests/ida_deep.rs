//! IDA*'s in-place search (a recursion on the thread's stack, going on with an explicit stack on the heap
//! where the stack runs low) on the game's boards: the change to the heap forced at every depth
//! (`Limiter::set_recursion_stack`) gives the same status, cost, moves, lower bound, counts, `no-undo` cuts
//! and iterations as the recursion alone, solved and stopped by node limits, with the Manhattan distance
//! (estimated before the move) and linear conflict (after it), on one thread and on two.

mod common;

use common::{key, scrambled};
use searchkit_core::{Limiter, SearchResult};
use searchkit_tiles::puzzle::{manhattan_table, Tiles, TilesH};

fn solve(tiles: &[u8], linear: bool, threads: usize, stack: Option<usize>, max_nodes: Option<u64>)
         -> SearchResult<u8> {
    let n = (tiles.len() as f64).sqrt() as usize;
    let puzzle = Tiles::new(n, tiles, true).expect("a board");
    let mut h = if linear { TilesH::LinearConflict(manhattan_table(n)) } else { TilesH::manhattan(n) };
    let mut limiter = Limiter::new();
    limiter.max_nodes = max_nodes;
    limiter.set_recursion_stack(stack);
    common::ida(&puzzle, &mut h, threads, &limiter)
}

#[test]
fn the_heap_from_any_depth_searches_as_the_recursion() {
    let mut changed = 0;
    for seed in 0..12 {
        for (n, steps) in [(3, 40 + seed as usize), (4, 30 + 2 * seed as usize)] {
            let tiles = scrambled(n, steps, 7 + seed);
            for linear in [false, true] {
                let all = solve(&tiles, linear, 1, None, None);
                for limit in [None, Some(1 + seed * 53), Some(all.stats.expanded / 2)] {
                    let want = key(&solve(&tiles, linear, 1, None, limit));
                    // 0 bytes: the explicit stack from the start; then a change at every few levels
                    for bytes in (0..6000).step_by(150) {
                        let got = key(&solve(&tiles, linear, 1, Some(bytes), limit));
                        assert_eq!(got, want, "{tiles:?} linear {linear} limit {limit:?} stack {bytes}");
                        changed += 1;
                    }
                }
            }
        }
    }
    assert!(changed > 1000);
}

#[test]
fn the_heap_from_any_depth_on_two_threads() {
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_MAX_THREADS", "64");
    for seed in 0..6 {
        let tiles = scrambled(4, 40 + 3 * seed as usize, 99 + seed);
        let want = key(&solve(&tiles, false, 1, None, None));
        for bytes in [Some(0), Some(700), Some(2000), None] {
            assert_eq!(key(&solve(&tiles, false, 2, bytes, None)), want, "{tiles:?} stack {bytes:?}");
        }
    }
}
