//! The interface a game implements for the native drivers (the twin of `searchkit/puzzle.py`).
//!
//! Agreed contract between the core crate and the game crates (each game's, in its plugin):
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
pub trait Puzzle {
    /// A state of the search: hashable, compared by value.
    type State: Clone + Eq + std::hash::Hash;
    /// A move, as small as possible (e.g. a colour index, `u8`).
    type Move: Copy + Eq + std::fmt::Debug;

    /// The start state.
    fn initial_state(&self) -> Self::State;
    /// Bytes a stored state owns on the heap besides its own size (e.g. a boxed bitset's words and the
    /// allocator's header), the same for every state: the drivers' stores charge it per state to the memory
    /// budget (`--memory-limit`), so that the budget trips before the address space runs out.  0 by default
    /// (a state held inline).
    fn state_heap_bytes(&self, _state: &Self::State) -> usize {
        0
    }
    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// Append the successors of `state` to `out` (cleared by the caller), in the game's move order, with the
    /// enabled successor rules fused in; returns how many successors each fused rule cut, added into
    /// `cuts` (indexed as [`Puzzle::rule_names`]).
    fn successors(&self, state: &Self::State, out: &mut Vec<Successor<Self::Move, Self::State>>, cuts: &mut [u64]);
    /// Python's optional hook `successors_within(state, remaining)`: the successors of a state from which a
    /// goal must be reached within cost `remaining`, leaving out some that cannot (a bound fused into move
    /// generation). The depth-first drivers (`ida_star` with a cost cap, `bounded_dfs`) use it when
    /// [`Puzzle::has_successors_within`] says the game has one, as Python's drivers use the hook when the
    /// puzzle has it. By default `successors`.
    fn successors_within(&self, state: &Self::State, _remaining: u32,
                         out: &mut Vec<Successor<Self::Move, Self::State>>, cuts: &mut [u64]) {
        self.successors(state, out, cuts)
    }
    /// Whether [`Puzzle::successors_within`] is the game's own (its Python puzzle has the hook).
    fn has_successors_within(&self) -> bool {
        false
    }
    /// How many move slots [`Puzzle::successor_at`] has (e.g. 4 for a blank that moves `U D L R`); 0, the
    /// default, when the game has no such method. With slots, depth-first drivers (`ida_star`) make each
    /// successor when they try it, into their own stack, instead of listing a state's successors first.
    fn successor_slots(&self) -> usize {
        0
    }
    /// The successor in move slot `slot` (`0 .. successor_slots()`) of `state`: its move and step cost, the
    /// state written into `child` (a state of this game that the driver reuses: overwrite it whole); or
    /// `None` when that move does not exist there or a fused rule cuts it (counted into `cuts`, as
    /// `successors` counts it; `child` is then left as it is or overwritten, either is fine).
    ///
    /// Contract: for every state, the `Some` slots 0, 1, ... in turn give exactly [`Puzzle::successors`]'s
    /// list, in its order, and the cuts the slots count together are its cuts. A driver that stops before a
    /// state's last slot (a solution, a limit) asks the rest of its slots then, so the cut counts stay those
    /// of listing every expanded state's successors. Never asked without slots; `None` by default.
    #[inline]
    fn successor_at(&self, state: &Self::State, slot: usize, child: &mut Self::State, cuts: &mut [u64])
                    -> Option<(Self::Move, u32)> {
        let _ = (state, slot, child, cuts);
        None
    }
    /// Whether the game changes a state in place by move slots ([`Puzzle::move_at`], [`Puzzle::apply`],
    /// [`Puzzle::undo`]); `false`, the default, when it has no such methods. Only with
    /// [`Puzzle::successor_slots`]. `ida_star` then searches one state of its own, changed by each move it
    /// enters and changed back when the move returns, as a hand-written IDA* does: a successor is never
    /// copied, and one pruned by the f-bound is never made when the heuristic gives its estimate from the
    /// move ([`Estimator::estimate_move`]).
    fn in_place(&self) -> bool {
        false
    }
    /// The move and step cost of slot `slot` of `state`, without making it: `Some` exactly when
    /// [`Puzzle::successor_at`] is `Some` for that slot (the same move and cost), and the same cuts counted
    /// into `cuts` when a fused rule cuts it. Only asked when [`Puzzle::in_place`]; `None` by default.
    #[inline]
    fn move_at(&self, state: &Self::State, slot: usize, cuts: &mut [u64]) -> Option<(Self::Move, u32)> {
        let _ = (state, slot, cuts);
        None
    }
    /// Make the move of slot `slot` in `state` itself (a slot that [`Puzzle::move_at`] gave as `Some`):
    /// `state` becomes the child [`Puzzle::successor_at`] writes. Returns what [`Puzzle::undo`] needs to turn
    /// it back (the puzzle's own packing into 64 bits, e.g. the cells the move overwrote). Only asked when
    /// [`Puzzle::in_place`].
    #[inline]
    fn apply(&self, state: &mut Self::State, slot: usize) -> u64 {
        let _ = (state, slot);
        unreachable!("Puzzle::apply asked of a game without in_place")
    }
    /// Undo [`Puzzle::apply`]: `state` is the child made by `apply(parent, slot)`, which returned `undo`;
    /// afterwards it equals `parent` exactly (every field, `Eq` and hash). Moves are undone last made, first
    /// undone. Only asked when [`Puzzle::in_place`].
    #[inline]
    fn undo(&self, state: &mut Self::State, slot: usize, undo: u64) {
        let _ = (state, slot, undo);
        unreachable!("Puzzle::undo asked of a game without in_place")
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
pub trait Estimator<D: Puzzle> {
    /// The estimate of `state`, or [`DEAD`].
    fn estimate(&mut self, puzzle: &D, state: &D::State) -> u32;
    /// The estimate of `child`, the successor of `parent` by move `mv` (as the puzzle's `successors` made
    /// it), given `parent_h`, this heuristic's estimate of `parent` (never [`DEAD`]): an incremental
    /// heuristic (the Manhattan distance: the change of the one tile that moved) works it out from the
    /// parent's value. It must return exactly what [`Estimator::estimate`] would for `child`. `ida_star`
    /// uses it; by default `estimate(puzzle, child)`.
    #[inline]
    fn estimate_child(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, mv: D::Move, child: &D::State)
                      -> u32 {
        let _ = (parent, parent_h, mv);
        self.estimate(puzzle, child)
    }
    /// The estimate of the successor of `parent` by move slot `slot` (move `mv`, a slot the puzzle's
    /// [`Puzzle::move_at`] gave), worked out from the parent before the move is made, given `parent_h` (never
    /// [`DEAD`]); or `None`, the default, when this heuristic needs the child itself. It must be exactly what
    /// [`Estimator::estimate`] would return for the child. `ida_star`'s in-place search ([`Puzzle::in_place`])
    /// asks it first, so a successor beyond the f-bound is never made; on `None` it makes the move and asks
    /// `estimate` of the child.
    #[inline]
    fn estimate_move(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, slot: usize, mv: D::Move)
                     -> Option<u32> {
        let _ = (puzzle, parent, parent_h, slot, mv);
        None
    }
    /// [`Estimator::estimate_move`] when only an estimate below `cap` matters: below `cap` it must be exactly the
    /// estimate; when the estimate is `cap` or more it may return any value of at least `cap`.  `ida_star`'s
    /// recursive search passes the least f above the bound that the state's earlier slots gave, less the
    /// successor's cost g: a successor whose f is that or more is not entered and does not lower it, so the
    /// search, its counts and its next bound are what the exact estimates give.  A heuristic that is the
    /// maximum of several table look-ups may stop at the first that reaches `cap` (the sliding tiles' `pdb`
    /// with the mirror).  By default the exact estimate, [`Estimator::estimate_move`].
    #[inline]
    fn estimate_move_below(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, slot: usize, mv: D::Move,
                           cap: u32) -> Option<u32> {
        let _ = cap;
        self.estimate_move(puzzle, parent, parent_h, slot, mv)
    }
    /// Called by `ida_star`'s in-place search before it estimates the successors of `state` one slot at a
    /// time ([`Estimator::estimate_move`]): a heuristic that reads big tables may start loading the entries its
    /// estimates will read (a prefetch), so that their cache misses overlap.  It must change no estimate;
    /// by default it does nothing.
    #[inline]
    fn expanding(&mut self, puzzle: &D, state: &D::State) {
        let _ = (puzzle, state);
    }
    /// `true` when this heuristic's estimate of a state of `puzzle` is 0 at a goal and only there (the
    /// Manhattan distance of the sliding tiles): `ida_star`'s in-place search then tests a child for the goal
    /// by its estimate, not by [`Puzzle::is_goal`]. A heuristic that claims it wrongly makes wrong answers;
    /// `false` by default.
    #[inline]
    fn zero_only_at_goal(&self, puzzle: &D) -> bool {
        let _ = puzzle;
        false
    }
    /// `true` when this heuristic never returns [`DEAD`] for a state of `puzzle` (a sum of finite table
    /// entries, as the Manhattan distance): `ida_star`'s in-place search then leaves out the test for it. A
    /// heuristic that claims it wrongly has its dead children taken as beyond the f-bound (f at least
    /// `u32::MAX`): answers stay optimal, but its counts and a stopped search's lower bound may differ from
    /// the other engines'; `false` by default.
    #[inline]
    fn never_dead(&self, puzzle: &D) -> bool {
        let _ = puzzle;
        false
    }
}

/// A driver-level pruning rule (Python's `Pruner.cut`): asked when a state is popped/entered.
pub trait Pruner<D: Puzzle> {
    /// The rule's name (counted in `rule_cuts`).
    fn name(&self) -> &'static str;
    /// `true` skips `state` reached with cost `g` before it is expanded; `remaining` is the cost still
    /// allowed (f-bound or depth minus g) or `None` in unbounded best-first drivers.
    fn cut(&mut self, puzzle: &D, state: &D::State, g: u32, remaining: Option<u32>) -> bool;
    /// Python's `Pruner.on_fail`: `state`, entered with cost `g`, was fully searched with `remaining` left
    /// and held no solution (depth-first drivers only). Nothing by default.
    fn on_fail(&mut self, _domain: &D, _state: &D::State, _g: u32, _remaining: Option<u32>) {}
    /// `true` once the rule's own tables could not grow (a refused `try_reserve`): the driver then stops
    /// with status `memory_limit` at its next limit check. A rule that cannot record a state should not cut
    /// on it (not cutting is always sound). `false` by default.
    fn out_of_memory(&self) -> bool {
        false
    }
    /// A parallel best-first search's split of [`Pruner::cut`] (`drivers::best_first::parallel`): `true`
    /// when the rule has one. The search calls `freeze` on its calling thread before each batch of states is
    /// expanded; until the next `freeze`, [`Pruner::test`] is asked on any thread (the rule not changed
    /// meanwhile), and [`Pruner::cut_since_frozen`] on the calling thread, in the pop order, for a state
    /// `test` did not cut. `false` (the default): the search calls `cut` alone.
    fn freeze(&mut self) -> bool {
        false
    }
    /// After [`Pruner::freeze`]: whether `cut` would cut `state` (cost `g`) for what the rule recorded
    /// before the freeze, recording nothing. `false` by default.
    fn test(&self, _domain: &D, _state: &D::State, _g: u32) -> bool {
        false
    }
    /// After [`Pruner::freeze`], for a state [`Pruner::test`] did not cut: `cut`'s verdict (and its record)
    /// given that what the rule recorded before the freeze does not cut it, so that `test || cut_since_frozen`
    /// is exactly `cut`. By default `cut`.
    fn cut_since_frozen(&mut self, domain: &D, state: &D::State, g: u32, remaining: Option<u32>) -> bool {
        self.cut(domain, state, g, remaining)
    }
    /// Bytes the rule's own tables hold now: charged to the memory budget with the driver's (checked where
    /// the driver checks its limits) and reported in `SearchStats::pruner_bytes`. 0 by default.
    fn bytes(&self) -> usize {
        0
    }
}

/// A borrowed heuristic is a heuristic (how the core hands a caller's heuristic of any type, a trait object
/// too, to the drivers that take `&mut dyn Estimator`).
impl<D: Puzzle, H: Estimator<D> + ?Sized> Estimator<D> for &mut H {
    #[inline]
    fn estimate(&mut self, puzzle: &D, state: &D::State) -> u32 {
        (**self).estimate(puzzle, state)
    }

    #[inline]
    fn estimate_child(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, mv: D::Move, child: &D::State)
                      -> u32 {
        (**self).estimate_child(puzzle, parent, parent_h, mv, child)
    }

    #[inline]
    fn estimate_move(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, slot: usize, mv: D::Move)
                     -> Option<u32> {
        (**self).estimate_move(puzzle, parent, parent_h, slot, mv)
    }

    #[inline]
    fn estimate_move_below(&mut self, puzzle: &D, parent: &D::State, parent_h: u32, slot: usize, mv: D::Move,
                           cap: u32) -> Option<u32> {
        (**self).estimate_move_below(puzzle, parent, parent_h, slot, mv, cap)
    }

    #[inline]
    fn expanding(&mut self, puzzle: &D, state: &D::State) {
        (**self).expanding(puzzle, state)
    }

    #[inline]
    fn zero_only_at_goal(&self, puzzle: &D) -> bool {
        (**self).zero_only_at_goal(puzzle)
    }
    #[inline]
    fn never_dead(&self, puzzle: &D) -> bool {
        (**self).never_dead(puzzle)
    }
}
