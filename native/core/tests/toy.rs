//! The drivers on the 8-puzzle (Manhattan distance, admissible and consistent): optimal drivers against
//! breadth-first search, bounded-suboptimal ones within their bound, limits and statuses.

use searchkit_core::*;

/// The 8-puzzle: a state is the tile in each of the 9 cells (0 = blank); moves U, D, L, R move the blank.
struct Eight {
    start: [u8; 9],
}

const GOAL: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];

impl Puzzle for Eight {
    type State = [u8; 9];
    type Move = u8;

    fn initial_state(&self) -> [u8; 9] {
        self.start
    }

    fn is_goal(&self, s: &[u8; 9]) -> bool {
        *s == GOAL
    }

    fn successors(&self, s: &[u8; 9], out: &mut Vec<Successor<u8, [u8; 9]>>, _cuts: &mut [u64]) {
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / 3, b % 3);
        for (mv, ok, to) in [(b'U', r > 0, b.wrapping_sub(3)), (b'D', r < 2, b + 3), (b'L', c > 0, b.wrapping_sub(1)),
                             (b'R', c < 2, b + 1)] {
            if ok {
                let mut t = *s;
                t.swap(b, to);
                out.push(Successor { mv, state: t, cost: 1 });
            }
        }
    }

    fn tie_break(&self, s: &[u8; 9]) -> i64 {
        -(s.iter().zip(GOAL.iter()).filter(|(a, b)| a == b).count() as i64)
    }
}

struct Manhattan;

impl Estimator<Eight> for Manhattan {
    fn estimate(&mut self, _d: &Eight, s: &[u8; 9]) -> u32 {
        let mut h = 0;
        for (i, &t) in s.iter().enumerate() {
            if t != 0 {
                let j = (t - 1) as usize;
                h += ((i / 3) as i32 - (j / 3) as i32).unsigned_abs() + ((i % 3) as i32 - (j % 3) as i32).unsigned_abs();
            }
        }
        h
    }
}

/// A deterministic scramble of `n` random blank moves.
fn scramble(seed: u64, n: usize) -> [u8; 9] {
    let d = Eight { start: GOAL };
    let mut s = GOAL;
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut out = Vec::new();
    for _ in 0..n {
        out.clear();
        d.successors(&s, &mut out, &mut []);
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        s = out[((x >> 33) as usize) % out.len()].state;
    }
    s
}

fn replay(d: &Eight, moves: &[u8]) -> [u8; 9] {
    let mut s = d.initial_state();
    let mut out = Vec::new();
    for &m in moves {
        out.clear();
        d.successors(&s, &mut out, &mut []);
        s = out.iter().find(|x| x.mv == m).expect("a legal move").state;
    }
    s
}

fn solve(alg: Algorithm, d: &Eight, limiter: &Limiter) -> SearchResult<u8> {
    run(&AlgorithmSpec::new(alg), d, &mut Manhattan, &mut [], None, limiter)
}

#[test]
fn optimal_drivers_match_bfs() {
    for seed in 0..40 {
        let d = Eight { start: scramble(seed, 10 + (seed as usize % 30)) };
        let c = Limiter::new();
        let reference = solve(Algorithm::Bfs, &d, &c);
        assert_eq!(reference.status, Status::Solved);
        let opt = reference.cost.unwrap();
        for alg in [Algorithm::Astar, Algorithm::Peastar, Algorithm::IdaStar, Algorithm::IdaStarTt,
                    Algorithm::Wastar { weight: Ratio::ONE }] {
            let o = solve(alg, &d, &c);
            assert_eq!(o.status, Status::Solved, "{alg:?} seed {seed}");
            assert_eq!(o.cost, Some(opt), "{alg:?} seed {seed}");
            assert_eq!(o.lower_bound, Some(opt), "{alg:?} seed {seed}");
            assert_eq!(o.moves.len() as u64, opt);
            assert_eq!(replay(&d, &o.moves), GOAL, "{alg:?} seed {seed}");
        }
        for (alg, w) in [(Algorithm::Wastar { weight: Ratio::new(3, 2) }, (3, 2)),
                         (Algorithm::Wastar { weight: Ratio::new(5, 1) }, (5, 1))] {
            let o = solve(alg, &d, &c);
            let cost = o.cost.unwrap();
            assert!(cost * w.1 <= opt * w.0, "{alg:?} seed {seed}: {cost} vs {opt}");
            assert!(o.lower_bound.unwrap() <= opt);
            assert_eq!(replay(&d, &o.moves), GOAL);
        }
        let g = solve(Algorithm::Gbfs, &d, &c);
        assert!(g.cost.unwrap() >= opt && g.lower_bound.unwrap() <= opt);
        assert_eq!(replay(&d, &g.moves), GOAL);
    }
}

#[test]
fn node_limit_is_exact_and_bounds_hold() {
    let d = Eight { start: scramble(7, 40) };
    let opt = solve(Algorithm::Bfs, &d, &Limiter::new()).cost.unwrap();
    for alg in [Algorithm::Astar, Algorithm::Peastar, Algorithm::IdaStar, Algorithm::Bfs] {
        let mut c = Limiter::new();
        c.max_nodes = Some(5);
        let o = solve(alg, &d, &c);
        assert_eq!(o.status, Status::NodeLimit, "{alg:?}");
        assert_eq!(o.stats.expanded, 5, "{alg:?}");
        assert!(o.lower_bound.is_none_or(|b| b <= opt));
    }
}

#[test]
fn max_cost_below_optimum_is_exhausted() {
    let d = Eight { start: scramble(3, 30) };
    let opt = solve(Algorithm::Bfs, &d, &Limiter::new()).cost.unwrap() as u32;
    for alg in [Algorithm::Astar, Algorithm::Peastar, Algorithm::IdaStar, Algorithm::Bfs, Algorithm::Wastar { weight: Ratio::new(2, 1) }] {
        let o = run(&AlgorithmSpec::new(alg), &d, &mut Manhattan, &mut [], Some(opt - 1), &Limiter::new());
        assert_eq!(o.status, Status::Exhausted, "{alg:?}");
        assert_eq!(o.lower_bound, Some(u64::from(opt)), "{alg:?}");
    }
}

#[test]
fn cancel_flag_and_deadline_stop_the_search() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let d = Eight { start: scramble(11, 60) };
    let mut c = Limiter::new();
    c.cancel = Some(Arc::new(AtomicBool::new(true)));
    assert_eq!(solve(Algorithm::Astar, &d, &c).status, Status::Cancelled);
    let c = Limiter::started(0.0, Some(0.0));
    assert_eq!(solve(Algorithm::IdaStar, &d, &c).status, Status::TimeLimit);
}

#[test]
fn memory_budget_gives_memory_limit() {
    let d = Eight { start: [8, 6, 7, 2, 5, 4, 3, 0, 1] }; // 31 moves, the hardest
    let mut c = Limiter::new();
    c.memory_budget = Some(4096);
    let o = run(&AlgorithmSpec::new(Algorithm::Bfs), &d, &mut Manhattan, &mut [], None, &c);
    assert_eq!(o.status, Status::MemoryLimit);
}

#[test]
fn bounded_dfs_finds_solutions_of_the_asked_cost_only() {
    for seed in 0..15 {
        let d = Eight { start: scramble(seed, 6 + (seed as usize % 10)) };
        let opt = solve(Algorithm::Bfs, &d, &Limiter::new()).cost.unwrap() as u32;
        let dfs = |mode, heuristic, depth| {
            run(&AlgorithmSpec::new(Algorithm::BoundedDfs { mode, heuristic }), &d, &mut Manhattan, &mut [],
                Some(depth), &Limiter::new())
        };
        for h in [true, false] {
            // Shortest: the optimum, one iteration record per depth tried.
            let o = dfs(DfsMode::Shortest, h, opt + 2);
            assert_eq!((o.status, o.cost), (Status::Solved, Some(u64::from(opt))), "seed {seed}");
            assert_eq!(o.stats.iterations.len() as u32, opt + 1);
            assert_eq!(replay(&d, &o.moves), GOAL);
            assert_eq!(o.stats.per_depth.iter().sum::<u64>(), o.stats.expanded);
            // Exact: a solution of cost exactly the depth (the 8-puzzle's costs have one parity), or none.
            let o = dfs(DfsMode::Exact, h, opt + 2);
            assert_eq!((o.status, o.cost), (Status::Solved, Some(u64::from(opt + 2))), "seed {seed}");
            assert_eq!(replay(&d, &o.moves), GOAL);
            assert_eq!(dfs(DfsMode::Exact, h, opt + 1).status, Status::Exhausted);
            if opt > 0 {
                assert_eq!(dfs(DfsMode::AtMost, h, opt - 1).status, Status::Exhausted);
            }
            let o = dfs(DfsMode::AtMost, h, opt + 4);
            assert!(o.status == Status::Solved && o.cost.unwrap() <= u64::from(opt + 4));
        }
        // The heuristic only prunes: fewer states, the same first solution in move order.
        let (with, without) = (dfs(DfsMode::Exact, true, opt), dfs(DfsMode::Exact, false, opt));
        assert_eq!(with.moves, without.moves);
        assert!(with.stats.expanded <= without.stats.expanded);
        assert_eq!(without.stats.evaluated, 0);
    }
}

#[test]
fn bounded_dfs_without_a_depth_is_an_error() {
    let d = Eight { start: scramble(1, 8) };
    let spec = AlgorithmSpec::new(Algorithm::BoundedDfs { mode: DfsMode::Exact, heuristic: true });
    let o = run(&spec, &d, &mut Manhattan, &mut [], None, &Limiter::new());
    assert_eq!(o.status, Status::Error);
}

#[test]
fn progress_carries_the_expanded_count_and_the_bound() {
    let d = Eight { start: scramble(3, 40) };
    for alg in [Algorithm::Astar, Algorithm::IdaStar,
                Algorithm::BoundedDfs { mode: DfsMode::Shortest, heuristic: true }] {
        let mut c = Limiter::new();
        c.progress = Some(std::sync::Arc::new(Progress::default()));
        let o = run(&AlgorithmSpec::new(alg), &d, &mut Manhattan, &mut [], Some(40), &c);
        let (expanded, bound) = c.progress.as_ref().unwrap().read();
        // Written at every limit check: the last one came before the last expansion.
        assert!(expanded > 0 && expanded < o.stats.expanded, "{alg:?}");
        assert_eq!(bound, o.cost, "{alg:?}: the last bound searched is the optimum's");
    }
}

/// A puzzle whose every step costs 40 000, so that g passes 65 535 (kept aside by the closed set).
struct Dear(Eight);

impl Puzzle for Dear {
    type State = [u8; 9];
    type Move = u8;

    fn initial_state(&self) -> [u8; 9] {
        self.0.initial_state()
    }

    fn is_goal(&self, s: &[u8; 9]) -> bool {
        self.0.is_goal(s)
    }

    fn successors(&self, s: &[u8; 9], out: &mut Vec<Successor<u8, [u8; 9]>>, cuts: &mut [u64]) {
        self.0.successors(s, out, cuts);
        out.iter_mut().for_each(|x| x.cost = 40_000);
    }

    fn tie_break(&self, s: &[u8; 9]) -> i64 {
        self.0.tie_break(s)
    }
}

struct DearManhattan;

impl Estimator<Dear> for DearManhattan {
    fn estimate(&mut self, d: &Dear, s: &[u8; 9]) -> u32 {
        Manhattan.estimate(&d.0, s) * 40_000
    }
}

#[test]
fn large_costs_keep_their_exact_g() {
    for seed in 0..10 {
        let d = Eight { start: scramble(seed, 12 + seed as usize) };
        let unit = solve(Algorithm::Astar, &d, &Limiter::new());
        let dear = Dear(Eight { start: d.start });
        for alg in [Algorithm::Astar, Algorithm::Peastar, Algorithm::Wastar { weight: Ratio::new(3, 2) }] {
            let o = run(&AlgorithmSpec::new(alg), &dear, &mut DearManhattan, &mut [], None, &Limiter::new());
            assert_eq!(o.status, Status::Solved);
            assert_eq!(replay(&d, &o.moves), GOAL);
            if alg != (Algorithm::Wastar { weight: Ratio::new(3, 2) }) {
                assert_eq!(o.cost, unit.cost.map(|c| c * 40_000), "{alg:?} seed {seed}");
                assert_eq!(o.stats.expanded, unit.stats.expanded, "{alg:?} seed {seed}");
            }
        }
    }
}

/// A* and PEA* on several threads (K-parallel best-first search, `run_replicated`): the optimal cost of
/// breadth-first search, its lower bound, moves that reach the goal, and the same search (moves, counts,
/// f-layers) whatever the threads asked for; a node limit counted over the threads, exactly.
#[test]
fn astar_on_threads_is_optimal_and_the_same_at_every_thread_count() {
    let replicate = |start: [u8; 9]| move || Some((Eight { start }, Box::new(Manhattan) as Box<dyn Estimator<Eight>>));
    // the threads start at the first batch (these searches are below the default threshold); no other test
    // here reads these variables
    std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
    std::env::set_var("SEARCHKIT_PARALLEL_BATCH", "4");
    let mut started = 0;
    for seed in 0..24 {
        let d = Eight { start: scramble(100 + seed, 300) };
        let opt = solve(Algorithm::Bfs, &d, &Limiter::new()).cost.unwrap();
        for alg in [Algorithm::Astar, Algorithm::Peastar] {
            let on = |threads: usize, limiter: &Limiter| {
                let spec = AlgorithmSpec { threads, ..AlgorithmSpec::new(alg) };
                run_replicated(&spec, &d, &mut Manhattan, &mut [], None, limiter, Seed::default(), &replicate(d.start))
            };
            let two = on(2, &Limiter::new());
            assert_eq!((two.status, two.cost, two.lower_bound), (Status::Solved, Some(opt), Some(opt)), "{alg:?} {seed}");
            assert_eq!(replay(&d, &two.moves), GOAL);
            started += usize::from(two.stats.threads > 1);
            let three = on(3, &Limiter::new());
            assert_eq!((&three.moves, three.stats.expanded, three.stats.generated, three.stats.evaluated),
                       (&two.moves, two.stats.expanded, two.stats.generated, two.stats.evaluated), "{alg:?} {seed}");
            assert_eq!(three.stats.iterations.iter().map(|i| (i.bound, i.expanded)).collect::<Vec<_>>(),
                       two.stats.iterations.iter().map(|i| (i.bound, i.expanded)).collect::<Vec<_>>());
            std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "1000000000");
            let alone = on(2, &Limiter::new());
            std::env::set_var("SEARCHKIT_PARALLEL_SMALL", "0");
            assert_eq!(alone.stats.threads, 1, "no thread started");
            assert_eq!((&alone.moves, alone.stats.expanded, alone.stats.generated),
                       (&two.moves, two.stats.expanded, two.stats.generated), "{alg:?} {seed}");
            let one = on(1, &Limiter::new());
            assert_eq!(one.stats.threads, 1);
            assert_eq!((one.cost, one.lower_bound), (two.cost, two.lower_bound));
            for limit in [0, 1, 7, 100, 1000] {
                let mut c = Limiter::new();
                c.max_nodes = Some(limit);
                let o = on(2, &c);
                assert!(o.stats.expanded <= limit, "{alg:?} {seed} {limit}");
                match o.status {
                    Status::Solved => assert_eq!(o.cost, Some(opt)),
                    Status::NodeLimit => {
                        assert_eq!(o.stats.expanded, limit);
                        assert!(o.lower_bound.unwrap() <= opt);
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }
    assert!(started > 0, "no search was large enough to start its threads");
}
