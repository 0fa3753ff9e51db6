//! Hand-made boards, one check per rule and heuristic, worked out on paper.

use searchkit_core::puzzle::{Puzzle, Estimator, Pruner, Successor};
use searchkit_flood::greedy::{Greedy, TwoBest};
use searchkit_flood::heuristics::{Colours, Eccentricity, Layered, Puchert};
use searchkit_flood::{AreaGraph, Bits, Dominance, Flood};

type B1 = [u64; 1];

fn flood(cells: &[u32], w: usize, h: usize, disabled: &[&str]) -> Flood<B1> {
    Flood::new(cells, w, h, 0, disabled).unwrap()
}

type Listed = (Vec<(u16, u64)>, Vec<(&'static str, u64)>);

fn succ(f: &Flood<B1>, s: u64) -> Listed {
    let mut out: Vec<Successor<u16, B1>> = Vec::new();
    let mut cuts = vec![0; f.rule_names().len()];
    f.successors(&[s], &mut out, &mut cuts);
    (out.iter().map(|x| (x.mv, x.state[0])).collect(), f.rule_names().iter().copied().zip(cuts).collect())
}

#[test]
fn areas_are_numbered_breadth_first_from_the_pivot() {
    // 0 0 1      areas by first cell: A={0,1} B={2} C={3} D={4,5}... renumbered BFS from the pivot's area.
    // 2 1 1
    let g = AreaGraph::new(&[0, 0, 1, 2, 1, 1], 3, 2, 5).unwrap();
    assert_eq!(g.count, 3);
    assert_eq!(g.area_of, vec![1, 1, 0, 2, 0, 0]); // pivot cell 5's area is 0; its neighbours ascending by first cell
    assert_eq!(g.neighbours(0), &[1, 2]);
    assert_eq!(g.colour, vec![1, 0, 2]);
    assert_eq!(g.sizes, vec![3, 2, 1]);
}

#[test]
fn frontier_colours_and_no_growth_cut_the_moves_that_grow_nothing() {
    // a path 0-1-2 of three colours, completion and exposure off
    let f = flood(&[0, 1, 2], 3, 1, &["completion", "exposure"]);
    assert_eq!(succ(&f, 0b1), (vec![(1, 0b11)], vec![("frontier-colours", 2)]));
    let f = flood(&[0, 1, 2], 3, 1, &["completion", "exposure", "frontier-colours"]);
    assert_eq!(succ(&f, 0b1), (vec![(1, 0b11)], vec![("no-growth", 2)]));
    let f = flood(&[0, 1, 2], 3, 1, &["completion", "exposure", "frontier-colours", "no-growth"]);
    assert_eq!(succ(&f, 0b1), (vec![(0, 0b1), (1, 0b11), (2, 0b1)], vec![]));
}

#[test]
fn completion_takes_a_completing_colour_alone() {
    // 0 1 / 2 0: the pivot's frontier holds colours 1 and 2, each completing; the first one (1) alone
    let f = flood(&[0, 1, 2, 0], 2, 2, &["exposure"]);
    assert_eq!(f.graph.count, 4);
    assert_eq!(succ(&f, 0b1), (vec![(1, 0b11)], vec![("frontier-colours", 0), ("completion", 1)]));
    let f = flood(&[0, 1, 2, 0], 2, 2, &["exposure", "completion"]);
    assert_eq!(succ(&f, 0b1), (vec![(1, 0b11), (2, 0b101)], vec![("frontier-colours", 1)]));
}

#[test]
fn exposure_keeps_only_moves_that_reach_past_the_frontier() {
    // 1 0 0 2   the pivot's area (colour 1) touches B (colour 0) and D (colour 2, cell 4); beyond lie C (colour 2,
    // 2 0 3 3   cell 3), E (colour 3) and G (colour 0, cell 11), so neither 0 nor 2 completes. Colour 0 exposes C
    // 0 0 3 0   and E; colour 2 absorbs D, whose neighbours are all in the region or on the frontier: cut.
    let cells = [1, 0, 0, 2, 2, 0, 3, 3, 0, 0, 3, 0];
    let f = flood(&cells, 4, 3, &[]);
    let (out, cuts) = succ(&f, 0b1);
    let front = f.frontier(&[0b1])[0];
    assert_eq!(front.count_ones(), 2);
    let f_off = flood(&cells, 4, 3, &["exposure"]);
    let (all, _) = succ(&f_off, 0b1);
    assert_eq!(all.len(), 2);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(f.graph.colour[f.graph.area_of[1] as usize], 0);
    assert_eq!(out[0].0, 0);
    assert_eq!(cuts, vec![("frontier-colours", 2), ("completion", 0), ("exposure", 1)]);
}

#[test]
fn heuristics_on_a_path() {
    // 0 1 2 1 0: optimal 4 moves (1, 2, 1, 0)
    let f = flood(&[0, 1, 2, 1, 0], 5, 1, &[]);
    let s = f.initial_state();
    assert_eq!(Colours.estimate(&f, &s), 3);
    assert_eq!(Eccentricity::default().estimate(&f, &s), 4);
    assert_eq!(Layered::default().estimate(&f, &s), 4);
    assert_eq!(Puchert.estimate(&f, &s), 4);
    assert_eq!(Greedy.estimate(&f, &s), 4);
    assert_eq!(TwoBest::new(&f).estimate(&f, &s), 4);
    for h in [Colours.estimate(&f, &f.all), Puchert.estimate(&f, &f.all), Layered::default().estimate(&f, &f.all)] {
        assert_eq!(h, 0);
    }
    assert!(f.is_goal(&f.play(&[1, 2, 1, 0])));
    assert_eq!(f.tie_break(&[0b111]), -3);
}

#[test]
fn layered_beats_colours_and_eccentricity() {
    // 0 1 2 3 1: colours 3, eccentricity 4; t = 1: 1 + |{2, 3, 1}| = 4; t = 2: 2 + |{3, 1}| = 4 -> 4.
    // 0 1 2 1 2 1: colours 2, eccentricity 5; t=0: 2, ..., layered 5 = eccentricity
    let f = flood(&[0, 1, 2, 3, 1], 5, 1, &[]);
    assert_eq!(Colours.estimate(&f, &f.initial_state()), 3);
    assert_eq!(Layered::default().estimate(&f, &f.initial_state()), 4);
    // a star: pivot in the middle of four colours, each a leaf: colours 4, eccentricity 1, layered 4
    let f = Flood::<B1>::new(&[9, 1, 9, 2, 0, 3, 9, 4, 9], 3, 3, 4, &[]).unwrap();
    assert_eq!(Eccentricity::default().estimate(&f, &f.initial_state()), 2);
    assert_eq!(Colours.estimate(&f, &f.initial_state()), 5);
    assert_eq!(Layered::default().estimate(&f, &f.initial_state()), 5);
}

#[test]
fn dominance_cuts_subsets_at_the_same_cost_only() {
    let f = flood(&[0, 1, 2, 1, 0], 5, 1, &[]);
    let mut d = Dominance::new();
    let mut cut = |s: u64, g: u32| Pruner::<Flood<B1>>::cut(&mut d, &f, &[s], g, None);
    assert!(!cut(0b011, 1)); // recorded
    assert!(cut(0b001, 1)); // inside {0, 1} at g = 1
    assert!(cut(0b011, 1)); // equal
    assert!(!cut(0b001, 2)); // another level
    assert!(!cut(0b101, 1)); // not inside: recorded
    assert!(cut(0b100 | 0b001, 1));
    assert!(!cut(0b111, 1));
    assert!(cut(0b110 | 0b001, 1));
}

#[test]
fn fallback_bitsets_match_fixed_ones() {
    let cells: Vec<u32> = (0..64u32).map(|i| (i * 7 + i / 5) % 4).collect();
    let a = Flood::<[u64; 1]>::new(&cells, 8, 8, 0, &[]).unwrap();
    let b = Flood::<Box<[u64]>>::new(&cells, 8, 8, 0, &[]).unwrap();
    let (sa, sb) = (a.initial_state(), b.initial_state());
    assert_eq!(Puchert.estimate(&a, &sa), Puchert.estimate(&b, &sb));
    assert_eq!(Layered::default().estimate(&a, &sa), Layered::default().estimate(&b, &sb));
    assert_eq!(a.frontier(&sa)[0], b.frontier(&sb)[0]);
    assert!(Flood::<[u64; 1]>::new(&[0, 1].repeat(50), 100, 1, 0, &[]).is_err()); // 100 areas need 2 words
}

fn memo_matches<B: Bits>(f: Flood<B>, rnd: &mut impl FnMut(u64) -> u64) {
    use searchkit_flood::heuristics::PuchertMemo;
    let mut memo = PuchertMemo::new(&f);
    for _ in 0..40 {
        let mut s = f.initial_state();
        while s != f.all {
            assert_eq!(memo.estimate(&f, &s), Puchert.estimate(&f, &s));
            let fr = f.frontier(&s);
            let c = rnd(f.graph.colours as u64) as usize;
            s.or_with(&f.colour_areas[c].and(&fr));
        }
    }
}

#[test]
fn the_puchert_memo_changes_no_value() {
    let mut seed = 12345u64;
    let mut rnd = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..30 {
        let (w, h, k) = (4 + rnd(12) as usize, 4 + rnd(12) as usize, 2 + rnd(6));
        let cells: Vec<u32> = (0..w * h).map(|_| rnd(k) as u32).collect();
        let g = AreaGraph::new(&cells, w, h, 0).unwrap();
        searchkit_flood::with_flood!(g, &[], |f| memo_matches(f, &mut rnd)).unwrap();
    }
}

/// A 16x16 board of 6 colours from a fixed linear congruential sequence (175 areas; A* with `puchert` and
/// `dominance` expands about 12 000 states on it and the index takes about 440 KB).
fn board16() -> Vec<u32> {
    let mut x = 17u64;
    (0..256).map(|_| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 6) as u32
    }).collect()
}

#[test]
fn the_dominance_index_is_charged_to_the_memory_budget() {
    use searchkit_core::{run, Algorithm, AlgorithmSpec, Limiter, Status};
    use searchkit_flood::heuristics::PuchertMemo;
    let cells = board16();
    let f: Flood<[u64; 3]> = Flood::new(&cells, 16, 16, 0, &[]).unwrap();
    let solve = |budget: Option<usize>| {
        let mut c = Limiter::started(0.0, Some(1e6)); // a deadline: the driver checks its limits as it goes
        c.memory_budget = budget;
        let mut h = PuchertMemo::new(&f);
        let mut dom = Dominance::new();
        let mut pruners: Vec<&mut dyn Pruner<Flood<[u64; 3]>>> = vec![&mut dom];
        run(&AlgorithmSpec::new(Algorithm::Astar), &f, &mut h, &mut pruners, None, &c)
    };
    let free = solve(None);
    assert_eq!(free.status, Status::Solved);
    assert!(free.stats.pruner_bytes > 0);
    // Room for the closed set and the open list at their peak, not for the dominance index besides (its
    // size dwarfs what the store adds between two limit checks, at most 1024 expansions apart).
    assert!(free.stats.pruner_bytes > 256 << 10, "{} bytes", free.stats.pruner_bytes);
    let tight = solve(Some(free.stats.peak_bytes as usize + 1));
    assert_eq!(tight.status, Status::MemoryLimit, "{} + {} bytes", free.stats.peak_bytes, free.stats.pruner_bytes);
    assert!(tight.stats.peak_bytes + tight.stats.pruner_bytes > free.stats.peak_bytes + 1);
    let room = solve(Some((free.stats.peak_bytes + free.stats.pruner_bytes) as usize));
    assert_eq!(room.status, Status::Solved);
}
