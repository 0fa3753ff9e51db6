//! Profiling harness: the core's A* with `puchert` and `dominance` over a lines-format file (PC19 style),
//! without Python, so `perf` sees the puzzle and the driver with their symbols.
//!
//! `cargo run --release --example bench_astar -- FILE [COUNT [search-only]]` prints the total of the answers, the expanded
//! states and the CPU time per expansion; then the time per Puchert call on states along a few play-outs.

use std::time::Instant;

use searchkit_core::{run, Algorithm, AlgorithmSpec, Limiter, Puzzle, Estimator, Pruner};
use searchkit_flood::heuristics::{Puchert, PuchertMemo};
use searchkit_flood::{with_flood, AreaGraph, Bits, Dominance, Flood};

/// (cost, expanded, states stored, peak bytes of the store and open list, peak states stored + queued).
fn solve<B: Bits>(f: &Flood<B>) -> (u64, u64, u64, u64, u64) {
    let spec = AlgorithmSpec::new(Algorithm::Astar);
    let limiter = Limiter::started(0.0, None);
    let mut h = PuchertMemo::new(f);
    let mut dom = Dominance::new();
    let mut pruners: Vec<&mut dyn Pruner<Flood<B>>> = vec![&mut dom];
    let o = run(&spec, f, &mut h, &mut pruners, None, &limiter);
    (o.cost.expect("solved"), o.stats.expanded, o.stats.states_stored, o.stats.peak_bytes, o.stats.peak_stored)
}

/// Colour indices in order of first appearance, as `Board.from_values` numbers them.
fn cells(line: &str) -> Vec<u32> {
    let mut index: Vec<u8> = Vec::new();
    line.bytes().map(|b| match index.iter().position(|&x| x == b) {
        Some(i) => i as u32,
        None => {
            index.push(b);
            index.len() as u32 - 1
        }
    }).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let limit: usize = args.get(2).map_or(usize::MAX, |s| s.parse().unwrap());
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).take(limit).collect();
    let t0 = Instant::now();
    let (mut total, mut expanded) = (0u64, 0u64);
    let mut sizes = Vec::new();
    for line in &lines {
        let c = cells(line);
        let side = (c.len() as f64).sqrt() as usize;
        let (cost, e, stored, bytes, peak) =
            with_flood!(AreaGraph::new(&c, side, side, 0).unwrap(), &[], |f| solve(&f)).unwrap();
        total += cost;
        expanded += e;
        sizes.push((stored, bytes, peak));
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("boards {} total {total} expanded {expanded} time {secs:.3} s, {:.3} us/expansion", lines.len(),
             secs * 1e6 / expanded as f64);
    // Bytes per stored state on the 20 boards that store the most (fixed costs are noise on small ones).
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let top = &sizes[..sizes.len().min(20)];
    let (s, b, p) = top.iter().fold((0, 0, 0), |a, t| (a.0 + t.0, a.1 + t.1, a.2 + t.2));
    let worst = top.iter().map(|t| t.1 as f64 / t.0 as f64).fold(0.0, f64::max);
    println!("largest {}: {s} states stored ({p} peak stored + queued), {b} peak bytes: {:.1} B/state \
              (worst board {worst:.1}; largest board {} states, {:.1} B/state)",
             top.len(), b as f64 / s as f64, top[0].0, top[0].1 as f64 / top[0].0 as f64);
    if args.get(3).is_some_and(|a| a == "search-only") {
        return;
    }
    let t1 = Instant::now();
    let (mut calls, mut sink) = (0u64, 0u64);
    for line in lines.iter().take(200) {
        let c = cells(line);
        let side = (c.len() as f64).sqrt() as usize;
        sink += with_flood!(AreaGraph::new(&c, side, side, 0).unwrap(), &[], |f| {
            let mut s = f.initial_state();
            let mut acc = 0u64;
            for step in 0..20u16 {
                for _ in 0..200 {
                    acc += Puchert.estimate(&f, &s) as u64;
                    calls += 1;
                }
                let fr = f.frontier(&s);
                s.or_with(&f.colour_areas[(step % f.graph.colours as u16) as usize].and(&fr));
            }
            acc
        }).unwrap();
    }
    println!("puchert {:.3} us/call ({calls} calls, sink {sink})", t1.elapsed().as_secs_f64() * 1e6 / calls as f64);
}
