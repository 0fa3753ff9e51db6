//! The compact closed set of the best-first drivers: Python's `best_g` and `parent` dicts in one table.
//!
//! States live in an arena (`Vec<S>`, index = the state's id, in order of first reach); a record per state
//! holds its parent's id, the move from it and the best g (12 bytes with a one-byte move); a hashbrown
//! `HashTable<u32>` of ids finds a state by value (4 bytes a slot plus one control byte). At W = 3
//! (Flood-It's `[u64; 3]`) that is 24 + 12 + about 7 bytes a stored state. Every growth is fallible and
//! charged to the memory budget.

use std::hash::{BuildHasher, Hash};
use std::mem::MaybeUninit;

use hashbrown::{DefaultHashBuilder, HashTable};

use crate::control::{push, Control, Status, Stop};

pub(crate) const ROOT: u32 = u32::MAX;

#[derive(Clone, Copy)]
pub(crate) struct Rec<M: Copy> {
    pub parent: u32,
    pub g: u32,
    pub mv: MaybeUninit<M>, // uninitialised for the root only (parent == ROOT)
}

pub(crate) struct Store<S, M: Copy> {
    pub states: Vec<S>,
    pub recs: Vec<Rec<M>>,
    table: HashTable<u32>,
    hasher: DefaultHashBuilder,
    table_bytes: usize,
}

impl<S: Clone + Eq + Hash, M: Copy> Store<S, M> {
    /// A store holding `root` with g = 0.
    pub fn new(root: S, control: &Control) -> Result<Self, Stop> {
        let mut s = Store {
            states: Vec::new(),
            recs: Vec::new(),
            table: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            table_bytes: 0,
        };
        let h = s.hash(&root);
        s.insert(h, root, ROOT, MaybeUninit::uninit(), 0, control)?;
        Ok(s)
    }

    #[inline]
    pub fn hash(&self, state: &S) -> u64 {
        self.hasher.hash_one(state)
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// The id of `state` (hash `h`), if stored.
    #[inline]
    pub fn find(&self, h: u64, state: &S) -> Option<u32> {
        let states = &self.states;
        self.table.find(h, |&i| states[i as usize] == *state).copied()
    }

    #[inline]
    pub fn g(&self, id: u32) -> u32 {
        self.recs[id as usize].g
    }

    /// Store a new state (not stored yet) and return its id.
    #[inline]
    pub fn insert(&mut self, h: u64, state: S, parent: u32, mv: MaybeUninit<M>, g: u32, control: &Control)
                  -> Result<u32, Stop> {
        let id = u32::try_from(self.states.len()).ok().filter(|&i| i != ROOT).ok_or(Status::MemoryLimit)?;
        if self.table.len() == self.table.capacity() {
            self.grow_table(control)?;
        }
        push(&mut self.states, state, control)?;
        push(&mut self.recs, Rec { parent, g, mv }, control)?;
        let states = &self.states;
        let hasher = &self.hasher;
        self.table.insert_unique(h, id, |&i| hasher.hash_one(&states[i as usize]));
        Ok(id)
    }

    #[inline(never)]
    fn grow_table(&mut self, control: &Control) -> Result<(), Stop> {
        let states = &self.states;
        let hasher = &self.hasher;
        let extra = self.table.len().max(16);
        self.table
            .try_reserve(extra, |&i| hasher.hash_one(&states[i as usize]))
            .map_err(|_| Status::MemoryLimit)?;
        let now = self.table.allocation_size();
        let more = now.saturating_sub(self.table_bytes);
        self.table_bytes = now;
        control.charge(more)
    }

    /// A better path to stored state `id`: its new g and parent link.
    #[inline]
    pub fn update(&mut self, id: u32, parent: u32, mv: M, g: u32) {
        self.recs[id as usize] = Rec { parent, g, mv: MaybeUninit::new(mv) };
    }

    /// The moves from the root to `id` through the parent links.
    pub fn path(&self, mut id: u32) -> Vec<M> {
        let mut moves = Vec::new();
        loop {
            let r = self.recs[id as usize];
            if r.parent == ROOT {
                break;
            }
            // SAFETY: every record but the root's (parent == ROOT) was written with an initialised move.
            moves.push(unsafe { r.mv.assume_init() });
            id = r.parent;
        }
        moves.reverse();
        moves
    }

    /// Bytes held by the arena, the records and the table.
    pub fn bytes(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<S>()
            + self.recs.capacity() * std::mem::size_of::<Rec<M>>()
            + self.table.allocation_size()
    }
}
