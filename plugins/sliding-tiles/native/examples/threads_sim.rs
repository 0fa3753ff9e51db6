//! Scaling beyond this machine, by simulation: what parallel IDA* (`searchkit_core::run_parallel`) would give on
//! 2, 4, 16 and 64 threads, from its work units' sizes, with the Manhattan distance on boards of Korf's 100.
//!
//! `cargo run --release --example threads_sim -- FILE N...` (FILE: boards in the plugin's format, N: 1-based
//! board numbers). For each board the serial search gives each iteration's f-bound and expanded count. For
//! each thread count T, each iteration that the parallel search would split (the one before it expanded at
//! least 2^14 states) is split as it splits it (T x 2048 units wanted) and each unit searched in turn to
//! measure its expanded count ([`searchkit_core::unit_sizes`]); then the threads are simulated taking the units
//! in order, each the next one when it is free (the driver's atomic counter), time counted in states expanded.
//! An iteration ends when every unit has been searched, or, on the solution's iteration, when the solution's
//! unit and every unit before it have. The split itself is serial. The speed-up is the serial count over
//! the sum of the iterations' simulated lengths: what the balance of the work units allows, with every state
//! costing the same on every thread (no memory contention, no thread start: an upper bound on a real machine).

mod common;

use searchkit_core::{run, unit_sizes, Algorithm, AlgorithmSpec, Limiter, Pruner, UNITS_PER_THREAD};
use searchkit_tiles::puzzle::{Tiles, TilesH};

/// The simulated length of one iteration on `threads` threads: the split's expansions, then the units.
fn length(split: u64, units: &[(u64, bool)], threads: usize) -> u64 {
    let mut free = vec![0u64; threads];
    let mut end = 0;
    for &(size, solved) in units {
        let t = free.iter_mut().min().expect("a thread");
        *t += size;
        end = end.max(*t);
        if solved {
            break;
        }
    }
    split + end
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let boards = common::read_boards(&args[1]);
    let counts = [2usize, 4, 16, 64];
    let mut serial_total = 0u64;
    let mut totals = vec![0u64; counts.len()];
    for a in &args[2..] {
        let tiles = &boards[a.parse::<usize>().expect("a board number") - 1];
        let n = (tiles.len() as f64).sqrt() as usize;
        let puzzle = Tiles::new(n, tiles, true).expect("a board");
        let mut h = TilesH::manhattan(n);
        let mut pruners: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
        let o = run(&AlgorithmSpec::new(Algorithm::IdaStar), &puzzle, &mut h, &mut pruners, None, &Limiter::new());
        let serial: u64 = o.stats.expanded;
        serial_total += serial;
        let mut line = format!("board {a}: cost {:?}, {serial} expanded;", o.cost);
        for (i, &threads) in counts.iter().enumerate() {
            let mut sim = 0u64;
            let mut last = 0u64;
            for it in &o.stats.iterations {
                if last < 1 << 14 {
                    sim += it.expanded;
                } else {
                    let (split, units) = unit_sizes(&puzzle, &mut h, it.bound as u32, threads * UNITS_PER_THREAD);
                    sim += length(split, &units, threads);
                }
                last = it.expanded;
            }
            totals[i] += sim;
            line += &format!(" {threads} threads {:.2}x", serial as f64 / sim as f64);
        }
        println!("{line}");
    }
    let figures: Vec<String> = counts.iter().zip(&totals)
        .map(|(t, &s)| format!("{t} threads {:.2}x ({:.0}% efficiency)", serial_total as f64 / s as f64,
                               100.0 * serial_total as f64 / s as f64 / *t as f64))
        .collect();
    println!("all: {serial_total} expanded; simulated speed-up {}", figures.join(", "));
}
