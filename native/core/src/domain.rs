//! The interface a game implements for the native drivers (the twin of `searchkit/puzzle.py`).
//!
//! Agreed contract between the core crate and the domain crates (each game's, in its plugin):
//! * a *state* is a plain value (`Clone + Eq + Hash`), e.g. a set of cells as a bitset `[u64; W]`;
//! * successors come in the game's move order, with the game's enabled rules already fused in
//!   (the Python puzzle built with the same disabled set generates exactly the same list);
//! * costs are small non-negative integers (`u32`); heuristic values are `u32`, with [`DEAD`] meaning
//!   "no goal is reachable from here" (the state is pruned and counted);
//! * `tie_break` orders states of equal f and g in best-first drivers, smaller first (Python's
//!   `puzzle.tie_break`); it never changes optimality.

/// A heuristic value meaning "this state cannot reach a goal": the driver drops the state.
pub const DEAD: u32 = u32::MAX;

/// One successor: the move that leads to it, the child state and the step cost.
pub struct Successor<M, S> {
    pub mv: M,
    pub state: S,
    pub cost: u32,
}

/// A puzzle instance as the native drivers see it.
pub trait Domain {
    /// A state of the search: hashable, compared by value.
    type State: Clone + Eq + std::hash::Hash;
    /// A move, as small as possible (e.g. a colour index, `u8`).
    type Move: Copy + Eq + std::fmt::Debug;

    /// The start state.
    fn initial(&self) -> Self::State;
    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// Append the successors of `state` to `out` (cleared by the caller), in the game's move order, with the
    /// enabled successor rules fused in; returns how many successors each fused rule cut, added into
    /// `cuts` (indexed as [`Domain::rule_names`]).
    fn successors(&self, state: &Self::State, out: &mut Vec<Successor<Self::Move, Self::State>>, cuts: &mut [u64]);
    /// Python's optional hook `successors_within(state, remaining)`: the successors of a state from which a
    /// goal must be reached within cost `remaining`, leaving out some that cannot (a bound fused into move
    /// generation). The depth-first drivers (`ida_star` with a cost cap, `bounded_dfs`) use it when
    /// [`Domain::has_successors_within`] says the game has one, as Python's drivers use the hook when the
    /// puzzle has it. By default `successors`.
    fn successors_within(&self, state: &Self::State, _remaining: u32,
                         out: &mut Vec<Successor<Self::Move, Self::State>>, cuts: &mut [u64]) {
        self.successors(state, out, cuts)
    }
    /// Whether [`Domain::successors_within`] is the game's own (its Python puzzle has the hook).
    fn has_successors_within(&self) -> bool {
        false
    }
    /// Names of the rules fused into `successors`, in the order of the `cuts` slots.
    fn rule_names(&self) -> &[&'static str] {
        &[]
    }
    /// Key ordering states of equal f and g in best-first drivers (smaller first); 0 by default.
    fn tie_break(&self, _state: &Self::State) -> i64 {
        0
    }
}

/// An estimate of the cost from a state to the nearest goal.
pub trait Heuristic<D: Domain> {
    /// The estimate of `state`, or [`DEAD`].
    fn estimate(&mut self, domain: &D, state: &D::State) -> u32;
}

/// A driver-level pruning rule (Python's `Pruner.cut`): asked when a state is popped/entered.
pub trait StatePruner<D: Domain> {
    /// The rule's name (counted in `rule_cuts`).
    fn name(&self) -> &'static str;
    /// `true` skips `state` reached with cost `g` before it is expanded; `remaining` is the cost still
    /// allowed (f-bound or depth minus g) or `None` in unbounded best-first drivers.
    fn cut(&mut self, domain: &D, state: &D::State, g: u32, remaining: Option<u32>) -> bool;
    /// Python's `Pruner.on_fail`: `state`, entered with cost `g`, was fully searched with `remaining` left
    /// and held no solution (depth-first drivers only). Nothing by default.
    fn on_fail(&mut self, _domain: &D, _state: &D::State, _g: u32, _remaining: Option<u32>) {}
    /// `true` once the rule's own tables could not grow (a refused `try_reserve`): the driver then stops
    /// with status `memory_limit` at its next limit check. A rule that cannot record a state should not cut
    /// on it (not cutting is always sound). `false` by default.
    fn out_of_memory(&self) -> bool {
        false
    }
    /// Bytes the rule's own tables hold now: charged to the memory budget with the driver's (checked where
    /// the driver checks its limits) and reported in `Stats::pruner_bytes`. 0 by default.
    fn bytes(&self) -> usize {
        0
    }
}
