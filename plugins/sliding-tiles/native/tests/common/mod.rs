//! What the crate's integration tests share: the boards they search and one search on 1 or N threads.
#![allow(dead_code)] // each test file uses its part

use searchkit_core::{run, run_parallel, Algorithm, AlgorithmSpec, Estimator, Limiter, Pruner, Puzzle, SearchResult, Seed};

/// The LCG step of every walk here (Knuth's MMIX constants).
fn next(x: u64) -> u64 {
    x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407)
}

/// A board of side `n` `steps` random blank moves from the goal (a fixed pseudo-random walk; a move off the
/// board is skipped, so it may undo the last one).
pub fn scrambled(n: usize, steps: usize, seed: u64) -> Vec<u8> {
    let mut t: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
    let mut blank = n * n - 1;
    let mut x = next(seed);
    for _ in 0..steps {
        x = next(x);
        let (r, c) = (blank / n, blank % n);
        let to = match (x >> 33) % 4 {
            0 if r > 0 => blank - n,
            1 if r + 1 < n => blank + n,
            2 if c > 0 => blank - 1,
            3 if c + 1 < n => blank + 1,
            _ => continue,
        };
        t.swap(blank, to);
        blank = to;
    }
    t
}

/// A board of side `n` `steps` random moves from the goal, the blank never undoing its last move.
pub fn walk(n: usize, steps: usize, seed: u64) -> Vec<u8> {
    let mut tiles: Vec<u8> = (1..(n * n) as u8).chain([0]).collect();
    let mut x = next(seed);
    let (mut blank, mut last) = (n * n - 1, usize::MAX);
    for _ in 0..steps {
        let (r, c) = (blank / n, blank % n);
        let to: Vec<usize> = [(r > 0).then(|| blank - n), (r + 1 < n).then(|| blank + n),
                              (c > 0).then(|| blank - 1), (c + 1 < n).then(|| blank + 1)]
            .into_iter().flatten().filter(|&t| t != last).collect();
        x = next(x);
        let t = to[(x >> 33) as usize % to.len()];
        tiles.swap(blank, t);
        (last, blank) = (blank, t);
    }
    tiles
}

/// Everything a search reports, as one string to compare: status, cost, bound, moves, counts, cuts and each
/// iteration's bound, counts and kind.
pub fn key(o: &SearchResult<u8>) -> String {
    let s = &o.stats;
    let its: Vec<_> = s.iterations.iter().map(|i| (i.bound, i.expanded, i.generated, i.evaluated, i.kind)).collect();
    format!("{:?} cost {:?} bound {:?} moves {:?} expanded {} generated {} evaluated {} cuts {:?} iterations {:?}",
            o.status, o.cost, o.lower_bound, String::from_utf8_lossy(&o.moves), s.expanded, s.generated,
            s.evaluated, s.rule_cuts, its)
}

/// IDA* on `puzzle` with `h` under `limiter`: the serial search on 1 thread, else the parallel one.
pub fn ida<D, H>(puzzle: &D, h: &mut H, threads: usize, limiter: &Limiter) -> SearchResult<D::Move>
where
    D: Puzzle + Sync,
    D::State: Send + Sync,
    D::Move: Send + Sync,
    H: Estimator<D> + Clone + Send,
{
    let mut spec = AlgorithmSpec::new(Algorithm::IdaStar);
    spec.threads = threads;
    let mut pruners: Vec<&mut dyn Pruner<D>> = Vec::new();
    if threads == 1 {
        run(&spec, puzzle, h, &mut pruners, None, limiter)
    } else {
        run_parallel(&spec, puzzle, h, &mut pruners, None, limiter, Seed::default())
    }
}
