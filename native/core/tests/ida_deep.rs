//! IDA*'s in-place search is a recursion that goes on with an explicit stack on the heap where its thread's
//! stack runs low: a search of any depth on any thread, with the same answer and counts. A line of cells
//! walked one step at a time to a goal 300,000 steps away (far deeper than a test thread's 2 MiB stack
//! holds frames for), on the test's thread, on a thread of a 160 KiB stack and on 2 threads; and the change
//! to the heap forced at every depth (`Limiter::set_recursion_stack`), under node limits too.

use searchkit_core::*;

/// A line of cells `0 ..= goal`: a state is the cell; slot 0 steps right, slot 1 steps left (cut and counted
/// by the fused rule `wall` at cell 0). In place: the cell itself changes.
struct Line {
    goal: u32,
}

impl Puzzle for Line {
    type State = u32;
    type Move = u8;

    fn initial_state(&self) -> u32 {
        0
    }

    fn is_goal(&self, s: &u32) -> bool {
        *s == self.goal
    }

    fn successors(&self, s: &u32, out: &mut Vec<Successor<u8, u32>>, cuts: &mut [u64]) {
        for k in 0..2 {
            let mut c = *s;
            if let Some((mv, cost)) = self.move_at(s, k, cuts) {
                self.apply(&mut c, k);
                out.push(Successor { mv, state: c, cost });
            }
        }
    }

    fn successor_slots(&self) -> usize {
        2
    }

    fn in_place(&self) -> bool {
        true
    }

    fn move_at(&self, s: &u32, k: usize, cuts: &mut [u64]) -> Option<(u8, u32)> {
        match k {
            0 if *s < self.goal => Some((b'R', 1)),
            1 if *s == 0 => {
                cuts[0] += 1;
                None
            }
            1 => Some((b'L', 1)),
            _ => None,
        }
    }

    fn apply(&self, s: &mut u32, k: usize) -> u64 {
        if k == 0 {
            *s += 1
        } else {
            *s -= 1
        }
        0
    }

    fn undo(&self, s: &mut u32, k: usize, _undo: u64) {
        if k == 0 {
            *s -= 1
        } else {
            *s += 1
        }
    }

    fn rule_names(&self) -> &[&'static str] {
        &["wall"]
    }
}

/// The distance to the goal, halved when `half` (then IDA* takes several iterations); `by_move`: worked out
/// before the move ([`Estimator::estimate_move`]), else from the cell after it.
#[derive(Clone)]
struct ToGo {
    half: bool,
    by_move: bool,
}

impl Estimator<Line> for ToGo {
    fn estimate(&mut self, d: &Line, s: &u32) -> u32 {
        let left = d.goal - s;
        if self.half {
            left.div_ceil(2)
        } else {
            left
        }
    }

    fn estimate_move(&mut self, d: &Line, parent: &u32, _parent_h: u32, slot: usize, _mv: u8) -> Option<u32> {
        let mut c = *parent;
        d.apply(&mut c, slot);
        self.by_move.then(|| self.estimate(d, &c))
    }

    fn zero_only_at_goal(&self, _d: &Line) -> bool {
        true
    }
}

const DEEP: u32 = 300_000;

fn key(o: &SearchResult<u8>) -> String {
    let s = &o.stats;
    let its: Vec<_> = s.iterations.iter().map(|i| (i.bound, i.expanded, i.generated)).collect();
    format!("{:?} cost {:?} bound {:?} moves {} (R: {}) expanded {} generated {} cuts {:?} iterations {:?}",
            o.status, o.cost, o.lower_bound, o.moves.len(), o.moves.iter().filter(|&&m| m == b'R').count(),
            s.expanded, s.generated, s.rule_cuts, its)
}

fn solve(goal: u32, h: ToGo, threads: usize, stack: Option<usize>, max_nodes: Option<u64>) -> SearchResult<u8> {
    let d = Line { goal };
    let mut limiter = Limiter::new();
    limiter.max_nodes = max_nodes;
    limiter.set_recursion_stack(stack);
    let mut spec = AlgorithmSpec::new(Algorithm::IdaStar);
    spec.threads = threads;
    let mut h = h;
    let mut none: Vec<&mut dyn Pruner<Line>> = Vec::new();
    run_parallel(&spec, &d, &mut h, &mut none, None, &limiter, Seed::default())
}

#[test]
fn a_deep_solution_on_the_test_thread_and_on_a_small_stack() {
    let exact = ToGo { half: false, by_move: true };
    let o = solve(DEEP, exact.clone(), 1, None, None);
    assert_eq!(o.status, Status::Solved);
    assert_eq!(o.cost, Some(u64::from(DEEP)));
    assert!(o.moves.len() == DEEP as usize && o.moves.iter().all(|&m| m == b'R'));
    // every cell but the goal expanded, its slot 0 (right) generated and entered; the wall's cut at cell 0,
    // whose slot 1 the path leaves untried, counted as listing its successors counts it
    assert_eq!((o.stats.expanded, o.stats.generated), (u64::from(DEEP), u64::from(DEEP)));
    assert_eq!(o.stats.rule_cuts, vec![("wall".to_string(), 1)]);
    let want = key(&o);
    for stack in [Some(0), Some(2000), Some(100_000)] {
        assert_eq!(key(&solve(DEEP, exact.clone(), 1, stack, None)), want, "recursion stack {stack:?}");
    }
    // a thread of a small stack (the recursion's floor is above the end of its own thread's stack)
    let small = std::thread::Builder::new().stack_size(160 * 1024)
        .spawn(move || key(&solve(DEEP, ToGo { half: false, by_move: true }, 1, None, None)))
        .expect("a thread").join().expect("no overflow");
    assert_eq!(small, want);
    // without estimate_move (the move made, then the estimate)
    assert_eq!(key(&solve(DEEP, ToGo { half: false, by_move: false }, 1, None, None)), want);
}

#[test]
fn every_depth_of_change_to_the_heap_gives_the_same_counts() {
    // several iterations (a halved estimate), solved and stopped by node limits: the explicit stack from the
    // start (0 bytes), from each of many depths, and the recursion alone, alike
    let goal = 24;
    for by_move in [true, false] {
        let h = ToGo { half: true, by_move };
        let all = solve(goal, h.clone(), 1, None, None);
        assert_eq!(all.status, Status::Solved);
        for limit in [None, Some(1), Some(7), Some(100), Some(1000), Some(all.stats.expanded - 1)] {
            let want = key(&solve(goal, h.clone(), 1, Some(0), limit));
            for bytes in (0..4000).step_by(97).chain([1 << 20]) {
                assert_eq!(key(&solve(goal, h.clone(), 1, Some(bytes), limit)), want,
                           "by_move {by_move} limit {limit:?} recursion stack {bytes}");
            }
            assert_eq!(key(&solve(goal, h.clone(), 1, None, limit)), want, "by_move {by_move} limit {limit:?}");
        }
    }
}

#[test]
fn a_deep_solution_on_two_threads() {
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_MAX_THREADS", "64");
    // every iteration split: the one unit below the split's levels searched on a thread of a 512 KiB stack
    let h = ToGo { half: false, by_move: true };
    let want = key(&solve(DEEP, h.clone(), 1, None, None));
    assert!(want.starts_with(&format!("Solved cost Some({DEEP})")), "{want}");
    for stack in [None, Some(0), Some(3000)] {
        assert_eq!(key(&solve(DEEP, h.clone(), 2, stack, None)), want, "recursion stack {stack:?}");
    }
    // and several iterations
    let h = ToGo { half: true, by_move: true };
    let want = key(&solve(24, h.clone(), 1, None, None));
    for stack in [None, Some(0), Some(1000), Some(3000)] {
        assert_eq!(key(&solve(24, h.clone(), 2, stack, None)), want, "recursion stack {stack:?}");
    }
}
