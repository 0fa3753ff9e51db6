//! Profiling harness: the core's IDA* with the Manhattan distance on boards of Korf's 100, without Python, as
//! the binding runs it (`searchkit_tiles::puzzle::search`, a cancel flag and a poll hook armed, so the limit checks run as under Ctrl-C
//! polling), so `perf` and `valgrind --tool=callgrind` see the driver and the puzzle with their symbols.
//!
//! `cargo run --release --example bench_ida -- FILE N...` (FILE: boards in the plugin's format, N: 1-based
//! board numbers) prints each board's cost, expanded, generated and iterations, then the time per node.
//! `THREADS=N` in the environment runs the parallel search on N threads (`searchkit_core::run_parallel`).
//! Its counts equal `benchmarks/standalone_ida`'s and searchkit's (`benchmarks/ida_overhead.py`).

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use searchkit_core::{Algorithm, AlgorithmSpec, Limiter, Poll, Pruner, Seed};
use searchkit_tiles::puzzle::{search, Tiles, TilesH};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let boards = common::read_boards(&args[1]);
    let mut spec = AlgorithmSpec::new(Algorithm::IdaStar);
    spec.threads = std::env::var("THREADS").ok().map_or(1, |t| t.parse().expect("THREADS: a number"));
    let (mut expanded, mut generated) = (0u64, 0u64);
    let t0 = Instant::now();
    for a in &args[2..] {
        let tiles = &boards[a.parse::<usize>().expect("a board number") - 1];
        let n = (tiles.len() as f64).sqrt() as usize;
        let puzzle = Tiles::new(n, tiles, true).expect("a board");
        let mut h = TilesH::manhattan(n);
        let mut limiter = Limiter::started(0.0, None);
        limiter.cancel = Some(Arc::new(AtomicBool::new(false)));
        limiter.poll = Some(Poll(Arc::new(|| {})));
        let mut pruners: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
        let o = search(&spec, &puzzle, &mut h, &mut pruners, None, &limiter, Seed::default());
        println!("board={a} cost={:?} expanded={} generated={} iterations={}", o.cost, o.stats.expanded,
                 o.stats.generated, o.stats.iterations.len());
        expanded += o.stats.expanded;
        generated += o.stats.generated;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("expanded {expanded} generated {generated} time {secs:.3} s, {:.2} ns/generated",
             secs * 1e9 / generated as f64);
}
