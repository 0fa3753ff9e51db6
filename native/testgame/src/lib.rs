//! `searchkit_testgame`: a toy puzzle for the tests of the engine itself, built with the kit as a game's
//! module is (never shipped: only the test command installs it): the sliding-tile puzzle of width 2 to 4 (blank moves
//! `U`, `D`, `L`, `R` in that order, unit costs), with the heuristics `manhattan`, `misplaced`, `zero` and
//! `panic` (panics at its 100th call: the test of the `error` status), the driver-level rule `corner`
//! (cuts a state, other than the start, whose blank is in the top-left cell: unsound, but the same rule on
//! both engines, so the tests see its cut counts) and the tie-break "more tiles home first". Its Python twin
//! is `tests/native/toy.py`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use searchkit_core::{run_seeded, Puzzle, Estimator, Seed, Pruner, Successor};

use searchkit_core::manifest::{Component, Kind};
use searchkit_pyo3::{error_dict, improvement_callback, result_dict, run_inline, NativeGame, SearchRequest};

type Tiles = [u8; 16];

struct Toy {
    width: usize,
    start: Tiles,
    goal: Tiles,
    /// Whether the game has `successors_within`: the successors less those whose Manhattan distance
    /// exceeds what is left after the move.
    within: bool,
}

fn manhattan(w: usize, s: &Tiles) -> u32 {
    let mut h = 0;
    for (i, &t) in s[..w * w].iter().enumerate() {
        if t != 0 {
            let j = (t - 1) as usize;
            h += (i / w).abs_diff(j / w) + (i % w).abs_diff(j % w);
        }
    }
    h as u32
}

impl Puzzle for Toy {
    type State = Tiles;
    type Move = u8;

    fn initial_state(&self) -> Tiles {
        self.start
    }

    fn is_goal(&self, s: &Tiles) -> bool {
        *s == self.goal
    }

    fn successors(&self, s: &Tiles, out: &mut Vec<Successor<u8, Tiles>>, _cuts: &mut [u64]) {
        let w = self.width;
        let b = s[..w * w].iter().position(|&t| t == 0).expect("a blank");
        let (r, c) = (b / w, b % w);
        for (mv, ok, to) in [(b'U', r > 0, b.wrapping_sub(w)), (b'D', r + 1 < w, b + w),
                             (b'L', c > 0, b.wrapping_sub(1)), (b'R', c + 1 < w, b + 1)] {
            if ok {
                let mut t = *s;
                t.swap(b, to);
                out.push(Successor { mv, state: t, cost: 1 });
            }
        }
    }

    fn successors_within(&self, s: &Tiles, remaining: u32, out: &mut Vec<Successor<u8, Tiles>>, cuts: &mut [u64]) {
        self.successors(s, out, cuts);
        out.retain(|c| c.cost <= remaining && manhattan(self.width, &c.state) <= remaining - c.cost);
    }

    fn has_successors_within(&self) -> bool {
        self.within
    }

    fn tie_break(&self, s: &Tiles) -> i64 {
        -(s[..self.width * self.width].iter().zip(&self.goal).filter(|(a, b)| a == b && **a != 0).count() as i64)
    }
}

enum ToyH {
    Manhattan,
    Misplaced,
    Zero,
    Panic(u32),
}

impl Estimator<Toy> for ToyH {
    fn estimate(&mut self, d: &Toy, s: &Tiles) -> u32 {
        let w = d.width;
        match self {
            ToyH::Zero => 0,
            ToyH::Panic(n) => {
                *n += 1;
                assert!(*n < 100, "the toy heuristic 'panic' was called 100 times");
                0
            }
            ToyH::Misplaced => s[..w * w].iter().zip(&d.goal).filter(|(a, b)| a != b && **a != 0).count() as u32,
            ToyH::Manhattan => manhattan(w, s),
        }
    }
}

struct Corner;

impl Pruner<Toy> for Corner {
    fn name(&self) -> &'static str {
        "corner"
    }

    fn cut(&mut self, d: &Toy, s: &Tiles, _g: u32, _remaining: Option<u32>) -> bool {
        s[0] == 0 && *s != d.start
    }
}

/// The toy for the kit.
pub struct ToyGame;

impl NativeGame for ToyGame {
    const GAME: &'static str = "toy";

    fn components() -> Vec<Component> {
        let mut c: Vec<Component> = ["manhattan", "misplaced", "zero", "panic"].iter()
            .map(|h| Component::plain(Kind::Heuristic, h)).collect();
        c.push(Component::plain(Kind::Pruner, "corner"));
        c
    }

    /// `problem` is `(width, tiles, within)`: the toy puzzle `tiles` (row by row, 0 the blank, width 2 to 4);
    /// `within`: the game has `successors_within` (the twin of `tests/native/toy.py`'s `ToyWithin`).
    fn solve<'py>(py: Python<'py>, problem: &Bound<'py, PyAny>, mut req: SearchRequest) -> PyResult<Bound<'py, PyDict>> {
        let (width, tiles, within): (usize, Vec<u8>, bool) = problem.extract()?;
        if !(2..=4).contains(&width) || tiles.len() != width * width {
            return Err(PyValueError::new_err("toy: width 2 to 4 and width**2 tiles"));
        }
        let mut start = [0u8; 16];
        start[..tiles.len()].copy_from_slice(&tiles);
        let mut goal = [0u8; 16];
        for (i, g) in goal[..width * width - 1].iter_mut().enumerate() {
            *g = i as u8 + 1;
        }
        let mut h = match req.heuristic.as_deref().unwrap_or("manhattan") {
            "manhattan" => ToyH::Manhattan,
            "misplaced" => ToyH::Misplaced,
            "zero" => ToyH::Zero,
            "panic" => ToyH::Panic(0),
            other => unreachable!("the kit checked {other:?}"),
        };
        let corner = !req.pruners.is_empty();
        let puzzle = Toy { width, start, goal, within };
        let incumbent = req.incumbent.take().map(|(m, c)| (m.into_iter().map(|x| x as u8).collect(), c));
        let mut on_improve = improvement_callback(req.on_improve.take());
        let (spec, max_cost) = (req.spec, req.max_cost);
        let outcome = run_inline(py, &mut req.limits, req.progress.take(), |limiter| {
            let mut pruner = Corner;
            let mut pruners: Vec<&mut dyn Pruner<Toy>> = Vec::new();
            if corner {
                pruners.push(&mut pruner);
            }
            let seed = Seed { incumbent, on_improve: Some(&mut on_improve) };
            run_seeded(&spec, &puzzle, &mut h, &mut pruners, max_cost, limiter, seed)
        });
        match outcome {
            Ok(o) => result_dict(py, &o, |&m| Ok((m as char).to_string().into_pyobject(py)?.into_any().unbind())),
            Err(message) => error_dict(py, &message, &req.limits),
        }
    }
}

searchkit_pyo3::native_module!(searchkit_testgame, ToyGame);
