//! IDA* by move slots (`Puzzle::successor_slots`, the board's successors made one at a time into the
//! driver's stack, the Manhattan distance kept incrementally) against IDA* on the listed successors with the
//! whole Manhattan distance worked out for each state: the same status, cost, moves, bound, expanded,
//! generated and evaluated counts, iterations and `no-undo` cuts, on boards solved and on searches stopped
//! by a node limit anywhere (where the slots of the states on the path not yet tried must still count
//! their cuts, as listing each expanded state's successors did); and with a driver-level rule, the same calls
//! of its `cut` and `on_fail` in the same order. The game's own `Tiles` is searched in place
//! (`Puzzle::in_place`: one board changed by `apply` and `undo`, Manhattan's `estimate_move` before the move),
//! so these tests hold the in-place path to the listed one; `Slotted` keeps the slot path (successors made
//! into the driver's stack) under the same checks.

mod common;

use std::collections::HashMap;

use common::{key, scrambled};
use searchkit_core::{run, Algorithm, AlgorithmSpec, Limiter, Puzzle, Estimator, Pruner, Successor};
use searchkit_tiles::puzzle::{manhattan_table, Board, Tiles, TilesH};

/// The board with only `successors` (no slots): the driver lists each state's successors.
struct Listed(Tiles);

impl Puzzle for Listed {
    type State = Board;
    type Move = u8;

    fn initial_state(&self) -> Board {
        self.0.initial_state()
    }

    fn is_goal(&self, s: &Board) -> bool {
        self.0.is_goal(s)
    }

    fn successors(&self, s: &Board, out: &mut Vec<Successor<u8, Board>>, cuts: &mut [u64]) {
        self.0.successors(s, out, cuts)
    }

    fn rule_names(&self) -> &[&'static str] {
        self.0.rule_names()
    }
}

/// The board with `successors` and move slots but not changed in place (`in_place` false): the driver makes
/// each successor into its stack ([`Puzzle::successor_at`]).
struct Slotted(Tiles);

impl Puzzle for Slotted {
    type State = Board;
    type Move = u8;

    fn initial_state(&self) -> Board {
        self.0.initial_state()
    }

    fn is_goal(&self, s: &Board) -> bool {
        self.0.is_goal(s)
    }

    fn successors(&self, s: &Board, out: &mut Vec<Successor<u8, Board>>, cuts: &mut [u64]) {
        self.0.successors(s, out, cuts)
    }

    fn successor_slots(&self) -> usize {
        self.0.successor_slots()
    }

    fn successor_at(&self, s: &Board, k: usize, child: &mut Board, cuts: &mut [u64]) -> Option<(u8, u32)> {
        self.0.successor_at(s, k, child, cuts)
    }

    fn rule_names(&self) -> &[&'static str] {
        self.0.rule_names()
    }
}

/// The game's heuristic with its `estimate_child` (no `estimate_move`: that is only for the in-place path).
struct Incremental(TilesH);

impl Estimator<Slotted> for Incremental {
    fn estimate(&mut self, d: &Slotted, s: &Board) -> u32 {
        self.0.estimate(&d.0, s)
    }

    fn estimate_child(&mut self, d: &Slotted, parent: &Board, parent_h: u32, mv: u8, child: &Board) -> u32 {
        self.0.estimate_child(&d.0, parent, parent_h, mv, child)
    }
}

/// A heuristic worked out whole for each state (no `estimate_child`).
struct Whole(TilesH);

impl Estimator<Listed> for Whole {
    fn estimate(&mut self, d: &Listed, s: &Board) -> u32 {
        self.0.estimate(&d.0, s)
    }
}

fn manhattan(n: usize) -> TilesH {
    TilesH::manhattan(n)
}

/// The game searched in place (its own `Tiles`: move slots, `in_place`, Manhattan's `estimate_move`) and on
/// listed successors with the whole distance; and, asserted equal to the listed search inside, by move slots
/// without the in-place interface.
fn both(n: usize, tiles: &[u8], no_undo: bool, alg: Algorithm, max_nodes: Option<u64>) -> (String, String) {
    let spec = AlgorithmSpec::new(alg);
    let mut limiter = Limiter::new();
    limiter.max_nodes = max_nodes;
    let slots = Tiles::new(n, tiles, no_undo).unwrap();
    assert_eq!(slots.successor_slots(), 4);
    assert!(slots.in_place());
    let listed = Listed(Tiles::new(n, tiles, no_undo).unwrap());
    let slotted = Slotted(Tiles::new(n, tiles, no_undo).unwrap());
    let mut none: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
    let mut none2: Vec<&mut dyn Pruner<Listed>> = Vec::new();
    let mut none3: Vec<&mut dyn Pruner<Slotted>> = Vec::new();
    let a = run(&spec, &slots, &mut manhattan(n), &mut none, None, &limiter);
    let b = run(&spec, &listed, &mut Whole(manhattan(n)), &mut none2, None, &limiter);
    let c = run(&spec, &slotted, &mut Incremental(manhattan(n)), &mut none3, None, &limiter);
    assert_eq!(key(&c), key(&b), "by slots, not in place: {tiles:?} no_undo {no_undo} {alg:?} {max_nodes:?}");
    (key(&a), key(&b))
}

/// The in-place search with a heuristic that has no `estimate_move` (linear conflict: the move is made, then
/// the board estimated whole, and undone when it is pruned) against the slot search with the same heuristic.
fn in_place_without_estimate_move(n: usize, tiles: &[u8], alg: Algorithm, max_nodes: Option<u64>)
                                  -> (String, String) {
    let spec = AlgorithmSpec::new(alg);
    let mut limiter = Limiter::new();
    limiter.max_nodes = max_nodes;
    let (place, slotted) = (Tiles::new(n, tiles, true).unwrap(), Slotted(Tiles::new(n, tiles, true).unwrap()));
    let mut none: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
    let mut none3: Vec<&mut dyn Pruner<Slotted>> = Vec::new();
    let lc = || TilesH::LinearConflict(manhattan_table(n));
    let a = run(&spec, &place, &mut lc(), &mut none, None, &limiter);
    let c = run(&spec, &slotted, &mut Incremental(lc()), &mut none3, None, &limiter);
    (key(&a), key(&c))
}

#[test]
fn in_place_searches_as_the_slots_on_many_random_boards() {
    let mut solved = 0;
    for seed in 0..40 {
        for (n, steps) in [(3, 30 + seed as usize), (4, 20 + seed as usize)] {
            let tiles = scrambled(n, steps, 1000 + seed);
            for alg in [Algorithm::IdaStar, Algorithm::IdaStarTt] {
                for limit in [None, Some(1 + seed * 37)] {
                    let (a, b) = both(n, &tiles, true, alg, limit);
                    assert_eq!(a, b, "{tiles:?} {alg:?} limit {limit:?}");
                    solved += usize::from(a.starts_with("Solved"));
                    let (a, c) = in_place_without_estimate_move(n, &tiles, alg, limit);
                    assert_eq!(a, c, "linear conflict {tiles:?} {alg:?} limit {limit:?}");
                }
            }
        }
    }
    assert!(solved > 100, "{solved} solved");
}

#[test]
fn slots_search_as_the_listed_successors_solved() {
    for (n, steps) in [(2, 7), (3, 20), (3, 40), (3, 200), (4, 30), (4, 45)] {
        for seed in 0..6 {
            let tiles = scrambled(n, steps, seed);
            for no_undo in [true, false] {
                for alg in [Algorithm::IdaStar, Algorithm::IdaStarTt] {
                    let (a, b) = both(n, &tiles, no_undo, alg, None);
                    assert_eq!(a, b, "{tiles:?} no_undo {no_undo} {alg:?}");
                }
            }
        }
    }
}

#[test]
fn slots_count_the_cuts_of_the_path_when_a_node_limit_stops_them() {
    let tiles = scrambled(4, 40, 3);
    let (all, _) = both(4, &tiles, true, Algorithm::IdaStar, None);
    assert!(all.starts_with("Solved"), "{all}");
    for limit in [0, 1, 2, 3, 5, 8, 13, 40, 100, 333, 1000, 2500, 10_000] {
        for alg in [Algorithm::IdaStar, Algorithm::IdaStarTt] {
            let (a, b) = both(4, &tiles, true, alg, Some(limit));
            assert_eq!(a, b, "limit {limit} {alg:?}");
        }
    }
}

#[test]
fn the_goal_itself_and_a_side_of_one() {
    for (n, tiles) in [(1, vec![0]), (2, vec![1, 2, 3, 0]), (3, vec![1, 2, 3, 4, 5, 6, 7, 8, 0])] {
        let (a, b) = both(n, &tiles, true, Algorithm::IdaStar, None);
        assert_eq!(a, b);
        assert!(a.starts_with("Solved cost Some(0)"), "{a}");
    }
}

#[test]
fn an_unsolvable_board_exhausts_alike_within_a_node_limit() {
    // 2x2 with two tiles swapped: the other parity, no goal reachable; IDA* + Manhattan never ends, so a limit
    let (a, b) = both(2, &[2, 1, 3, 0], true, Algorithm::IdaStar, Some(5000));
    assert_eq!(a, b);
    assert!(a.starts_with("NodeLimit"), "{a}");
}

/// A driver-level rule with a memory: `on_fail` records a board searched with `remaining` left and no
/// solution; `cut` skips a board recorded with at least as much left (sound, and it exercises both hooks and
/// their order). Every call is logged, so the two searches must make the same calls in the same order.
#[derive(Default)]
struct Failed {
    seen: HashMap<[u8; 16], u32>,
    log: Vec<(char, [u8; 16], u32, Option<u32>)>,
}

impl Failed {
    fn cut(&mut self, s: &Board, g: u32, remaining: Option<u32>) -> bool {
        self.log.push(('c', s.t, g, remaining));
        let r = remaining.expect("a bound");
        self.seen.get(&s.t).is_some_and(|&was| was >= r)
    }

    fn on_fail(&mut self, s: &Board, g: u32, remaining: Option<u32>) {
        self.log.push(('f', s.t, g, remaining));
        let r = remaining.expect("a bound");
        let e = self.seen.entry(s.t).or_insert(r);
        *e = (*e).max(r);
    }
}

impl Pruner<Tiles> for Failed {
    fn name(&self) -> &'static str {
        "failed"
    }
    fn cut(&mut self, _d: &Tiles, s: &Board, g: u32, remaining: Option<u32>) -> bool {
        Failed::cut(self, s, g, remaining)
    }
    fn on_fail(&mut self, _d: &Tiles, s: &Board, g: u32, remaining: Option<u32>) {
        Failed::on_fail(self, s, g, remaining)
    }
}

impl Pruner<Listed> for Failed {
    fn name(&self) -> &'static str {
        "failed"
    }
    fn cut(&mut self, _d: &Listed, s: &Board, g: u32, remaining: Option<u32>) -> bool {
        Failed::cut(self, s, g, remaining)
    }
    fn on_fail(&mut self, _d: &Listed, s: &Board, g: u32, remaining: Option<u32>) {
        Failed::on_fail(self, s, g, remaining)
    }
}

#[test]
fn slots_call_a_rule_s_cut_and_on_fail_as_the_listed_successors() {
    let (mut fails, mut cuts) = (0, 0);
    for (n, steps, seed) in [(3, 30, 1), (3, 200, 2), (4, 40, 3), (4, 60, 5)] {
        let tiles = scrambled(n, steps, seed);
        for limit in [None, Some(7), Some(500), Some(5000)] {
            let spec = AlgorithmSpec::new(Algorithm::IdaStar);
            let mut limiter = Limiter::new();
            limiter.max_nodes = limit;
            let slots = Tiles::new(n, &tiles, true).unwrap();
            let listed = Listed(Tiles::new(n, &tiles, true).unwrap());
            let (mut fa, mut fb) = (Failed::default(), Failed::default());
            let a = {
                let mut p: Vec<&mut dyn Pruner<Tiles>> = vec![&mut fa];
                run(&spec, &slots, &mut manhattan(n), &mut p, None, &limiter)
            };
            let b = {
                let mut p: Vec<&mut dyn Pruner<Listed>> = vec![&mut fb];
                run(&spec, &listed, &mut Whole(manhattan(n)), &mut p, None, &limiter)
            };
            assert_eq!(key(&a), key(&b), "{tiles:?} limit {limit:?}");
            fails += fa.log.iter().filter(|e| e.0 == 'f').count();
            assert_eq!(fa.log, fb.log, "{tiles:?} limit {limit:?}");
            cuts += a.stats.rule_cuts.iter().find(|(k, _)| k == "failed").map_or(0, |c| c.1);
        }
    }
    assert!(fails > 0 && cuts > 0, "the rule was exercised: {fails} on_fail calls, {cuts} cuts");
}

#[test]
fn the_manhattan_type_searches_as_the_heuristic_enum() {
    // `puzzle::search` runs IDA* with the Manhattan distance on its own type (as the binding does); `run`
    // on `TilesH` tests the heuristic's kind each child: the same results, under node limits too, and on 2
    // threads (without a limit: a parallel search stopped by one counts the work done, not the serial cuts)
    use searchkit_core::Seed;
    use searchkit_tiles::puzzle::search;
    for seed in 0..30 {
        let (n, steps) = if seed % 2 == 0 { (3, 40 + seed as usize) } else { (4, 30 + seed as usize) };
        let tiles = scrambled(n, steps, 500 + seed);
        let puzzle = Tiles::new(n, &tiles, true).unwrap();
        for alg in [Algorithm::IdaStar, Algorithm::IdaStarTt] {
            for limit in [None, Some(1 + seed * 41)] {
                let mut limiter = Limiter::new();
                limiter.max_nodes = limit;
                let mut spec = AlgorithmSpec::new(alg);
                let mut none: Vec<&mut dyn Pruner<Tiles>> = Vec::new();
                let want = key(&run(&spec, &puzzle, &mut manhattan(n), &mut none, None, &limiter));
                for threads in [1, 2] {
                    if threads > 1 && limit.is_some() {
                        continue;
                    }
                    spec.threads = threads;
                    let got = search(&spec, &puzzle, &mut manhattan(n), &mut none, None, &limiter, Seed::default());
                    assert_eq!(key(&got), want, "{tiles:?} {alg:?} limit {limit:?} threads {threads}");
                }
            }
        }
    }
}
