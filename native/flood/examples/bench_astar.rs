//! Profiling harness for the domain alone: A* with `puchert` and `dominance` over a lines-format file
//! (PC19 style), in the Python engine's order (f, then larger g, then `tie_break`, then first in first out).
//! The drivers proper live in `searchkit-core`; this only times the domain's share.
//!
//! `cargo run --release --example bench_astar -- FILE [COUNT]` prints the total of the answers, the expanded
//! states and the time per expansion and per heuristic call.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use searchkit_core::domain::{Domain, Heuristic, StatePruner, Successor};
use searchkit_flood::heuristics::Puchert;
use searchkit_flood::{with_flood, AreaGraph, Bits, Dominance, Flood};

fn astar<B: Bits + Ord>(f: &Flood<B>) -> (u32, u64, u64) {
    let mut h = Puchert;
    let mut dom = Dominance::new();
    let mut best: HashMap<B, u32> = HashMap::new();
    let mut heap = BinaryHeap::new();
    let start = f.initial();
    best.insert(start.clone(), 0);
    heap.push(Reverse((h.estimate(f, &start), 0i64, 0i64, 0u64, start)));
    let (mut expanded, mut evaluated, mut tie) = (0u64, 1u64, 0u64);
    let mut out: Vec<Successor<u16, B>> = Vec::new();
    let mut cuts = vec![0; f.rule_names().len()];
    while let Some(Reverse((_, neg_g, _, _, s))) = heap.pop() {
        let g = (-neg_g) as u32;
        if best.get(&s).is_some_and(|&b| b < g) {
            continue;
        }
        if f.is_goal(&s) {
            return (g, expanded, evaluated);
        }
        if dom.cut(f, &s, g, None) {
            continue;
        }
        expanded += 1;
        out.clear();
        f.successors(&s, &mut out, &mut cuts);
        for x in out.drain(..) {
            let g2 = g + x.cost;
            match best.entry(x.state.clone()) {
                Entry::Occupied(mut e) => {
                    if *e.get() <= g2 {
                        continue;
                    }
                    e.insert(g2);
                }
                Entry::Vacant(e) => {
                    e.insert(g2);
                }
            }
            evaluated += 1;
            let hv = h.estimate(f, &x.state);
            tie += 1;
            heap.push(Reverse((g2 + hv, -(g2 as i64), f.tie_break(&x.state), tie, x.state)));
        }
    }
    unreachable!("a Flood-It board is always solvable")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let limit: usize = args.get(2).map_or(usize::MAX, |s| s.parse().unwrap());
    let t0 = Instant::now();
    let (mut total, mut expanded, mut evaluated) = (0u64, 0u64, 0u64);
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(limit) {
        let line = line.trim();
        let mut index: Vec<u8> = Vec::new();
        let cells: Vec<u32> = line.bytes().map(|b| match index.iter().position(|&x| x == b) {
            Some(i) => i as u32,
            None => {
                index.push(b);
                index.len() as u32 - 1
            }
        }).collect();
        let side = (cells.len() as f64).sqrt() as usize;
        let graph = AreaGraph::new(&cells, side, side, 0).unwrap();
        let (c, e, v) = with_flood!(graph, &[], |f| astar(&f)).unwrap();
        total += c as u64;
        expanded += e;
        evaluated += v;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("total {total} expanded {expanded} evaluated {evaluated} time {secs:.3} s, {:.3} us/expansion",
             secs * 1e6 / expanded as f64);
    // Heuristic alone: re-evaluate the start states' children.
    let t1 = Instant::now();
    let mut calls = 0u64;
    let mut sink = 0u64;
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(limit.min(200)) {
        let cells: Vec<u32> = line.trim().bytes().map(|b| (b - b'0') as u32).collect();
        let side = (cells.len() as f64).sqrt() as usize;
        let graph = AreaGraph::new(&cells, side, side, 0).unwrap();
        sink += with_flood!(graph, &[], |f| {
            let mut s = f.initial();
            let mut acc = 0u64;
            let mut h = Puchert;
            for step in 0..20u16 {
                for _ in 0..200 {
                    acc += h.estimate(&f, &s) as u64;
                    calls += 1;
                }
                let c = (step % (f.graph.colours as u16)) as usize;
                let fr = f.frontier(&s);
                s.or_with(&f.colour_areas[c].and(&fr));
            }
            acc
        }).unwrap();
    }
    println!("puchert {:.3} us/call ({calls} calls, sink {sink})", t1.elapsed().as_secs_f64() * 1e6 / calls as f64);
}
