//! The compact closed set of the best-first drivers: Python's `best_g` and `parent` dicts in one table.
//!
//! A state's id is its index in order of first reach. States and their records live in fixed-size blocks
//! of [`BLOCK`] ids, column by column: the states (`S`), the parents' ids (`u32`), the best g (`u16`, a g of
//! 65535 or more kept aside in a map) and the moves from the parents (`M`), so a record costs
//! `4 + 2 + size_of::<M>()` bytes with no padding, and a
//! block, once allocated, is never moved or copied (no doubling slack: at most one block partly empty).
//! A hashbrown `HashTable<u32>` of ids finds a state by value (4 bytes a slot plus one control byte, load
//! 7/16 to 7/8; the hash is recomputed from the blocks when the table grows).
//!
//! At W = 3 (a `[u64; 3]` state, `u16` moves) that is 24 + 8 bytes in the blocks and 5.7 to 11.4 in the
//! table a stored state. Every growth is fallible and charged to the memory budget.

use std::hash::{BuildHasher, Hash};
use std::mem::MaybeUninit;

use hashbrown::{HashMap, HashTable};

use crate::limits::{Limiter, Stop};
use crate::result::Status;
use crate::hash::WordHash;

pub(crate) const ROOT: u32 = u32::MAX;

/// log2 of the ids a block holds.
const BLOCK_BITS: u32 = 10;
/// Ids a block holds (1024: 24 KiB of states at W = 3).
const BLOCK: usize = 1 << BLOCK_BITS;
const MASK: usize = BLOCK - 1;

/// Ids the id table first makes room for: its growths up to there re-hash about as many states as it
/// holds (hashbrown doubles it at 7/8 full), a state read back from its block for each.
const TABLE_START: usize = 4096;

/// A g of [`BIG`] or more is kept in [`Store::big`]; the block holds `BIG` as its mark.
const BIG: u16 = u16::MAX;

/// [`BLOCK`] consecutive ids, column by column (every column allocated once at its full size).
struct Block<S, M: Copy> {
    states: Vec<S>,
    parent: Vec<u32>,
    /// The best g, or [`BIG`]: look in [`Store::big`] (costs are small integers, so a g of 65535 or more is
    /// rare, and two bytes a state are saved for it).
    g: Vec<u16>,
    mv: Vec<MaybeUninit<M>>, // uninitialised for the root only (parent == ROOT)
}

impl<S, M: Copy> Block<S, M> {
    /// Bytes of a block's columns.
    const BYTES: usize = BLOCK * (std::mem::size_of::<S>() + 6 + std::mem::size_of::<M>());

    fn new(limiter: &Limiter) -> Result<Self, Stop> {
        fn column<T>() -> Result<Vec<T>, Stop> {
            let mut v = Vec::new();
            v.try_reserve_exact(BLOCK).map_err(|_| Status::MemoryLimit)?;
            Ok(v)
        }
        limiter.charge(Self::BYTES)?;
        Ok(Block { states: column()?, parent: column()?, g: column()?, mv: column()? })
    }
}

pub(crate) struct Store<S, M: Copy> {
    blocks: Vec<Block<S, M>>,
    len: usize,
    /// id -> g for the states whose g is [`BIG`] or more.
    big: HashMap<u32, u32>,
    table: HashTable<u32>,
    hasher: WordHash,
    table_bytes: usize,
    /// Bytes each state owns on the heap (`Puzzle::state_heap_bytes`), counted in [`Store::bytes`].
    heap_each: usize,
}

impl<S: Clone + Eq + Hash, M: Copy> Store<S, M> {
    /// A store holding `root` with g = 0; each state owns `heap_each` bytes on the heap besides its size
    /// (`Puzzle::state_heap_bytes`).
    pub fn new(root: S, heap_each: usize, limiter: &Limiter) -> Result<Self, Stop> {
        let mut s = Store {
            blocks: Vec::new(),
            len: 0,
            big: HashMap::new(),
            table: HashTable::new(),
            hasher: WordHash,
            table_bytes: 0,
            heap_each,
        };
        let h = s.hash(&root);
        s.insert(h, root, ROOT, MaybeUninit::uninit(), 0, limiter)?;
        Ok(s)
    }

    #[inline]
    pub fn hash(&self, state: &S) -> u64 {
        self.hasher.hash_one(state)
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn block(&self, id: u32) -> &Block<S, M> {
        &self.blocks[id as usize >> BLOCK_BITS]
    }

    /// The state of id `id`.
    #[inline]
    pub fn state(&self, id: u32) -> &S {
        &self.block(id).states[id as usize & MASK]
    }

    /// The id of `state` (hash `h`), if stored.
    #[inline]
    pub fn find(&self, h: u64, state: &S) -> Option<u32> {
        self.table.find(h, |&i| self.state(i) == state).copied()
    }

    #[inline]
    pub fn g(&self, id: u32) -> u32 {
        match self.block(id).g[id as usize & MASK] {
            BIG => self.big[&id],
            g => u32::from(g),
        }
    }

    /// `g` as the g column holds it, recording a big one in `big`.
    #[inline]
    fn small_g(&mut self, id: u32, g: u32) -> Result<u16, Stop> {
        match u16::try_from(g) {
            Ok(g) if g != BIG => {
                if !self.big.is_empty() {
                    self.big.remove(&id);
                }
                Ok(g)
            }
            _ => {
                self.big.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                self.big.insert(id, g);
                Ok(BIG)
            }
        }
    }

    /// Store a new state (not stored yet) and return its id.
    #[inline]
    pub fn insert(&mut self, h: u64, state: S, parent: u32, mv: MaybeUninit<M>, g: u32, limiter: &Limiter)
                  -> Result<u32, Stop> {
        let id = u32::try_from(self.len).ok().filter(|&i| i != ROOT).ok_or(Status::MemoryLimit)?;
        if self.table.len() == self.table.capacity() {
            self.grow_table(limiter)?;
        }
        let g = self.small_g(id, g)?;
        if self.len & MASK == 0 {
            self.blocks.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
            self.blocks.push(Block::new(limiter)?);
        }
        let b = self.blocks.last_mut().expect("a block with room");
        b.states.push(state);
        b.parent.push(parent);
        b.g.push(g);
        b.mv.push(mv);
        self.len += 1;
        let blocks = &self.blocks;
        let hasher = &self.hasher;
        self.table.insert_unique(h, id, |&i| {
            hasher.hash_one(&blocks[i as usize >> BLOCK_BITS].states[i as usize & MASK])
        });
        Ok(id)
    }

    #[inline(never)]
    fn grow_table(&mut self, limiter: &Limiter) -> Result<(), Stop> {
        let blocks = &self.blocks;
        let hasher = &self.hasher;
        let extra = self.table.len().max(TABLE_START);
        self.table
            .try_reserve(extra, |&i| hasher.hash_one(&blocks[i as usize >> BLOCK_BITS].states[i as usize & MASK]))
            .map_err(|_| Status::MemoryLimit)?;
        let now = self.table.allocation_size();
        let more = now.saturating_sub(self.table_bytes);
        self.table_bytes = now;
        limiter.charge(more)
    }

    /// A better path to stored state `id`: its new g and parent link.
    #[inline]
    pub fn update(&mut self, id: u32, parent: u32, mv: M, g: u32) -> Result<(), Stop> {
        let g = self.small_g(id, g)?;
        let b = &mut self.blocks[id as usize >> BLOCK_BITS];
        let i = id as usize & MASK;
        b.parent[i] = parent;
        b.g[i] = g;
        b.mv[i] = MaybeUninit::new(mv);
        Ok(())
    }

    /// The moves from the root to `id` through the parent links.
    pub fn path(&self, mut id: u32) -> Vec<M> {
        let mut moves = Vec::new();
        loop {
            let b = self.block(id);
            let i = id as usize & MASK;
            if b.parent[i] == ROOT {
                break;
            }
            // SAFETY: every record but the root's (parent == ROOT) was written with an initialised move.
            moves.push(unsafe { b.mv[i].assume_init() });
            id = b.parent[i];
        }
        moves.reverse();
        moves
    }

    /// Bytes held by the blocks and the table, and by the states on the heap.
    pub fn bytes(&self) -> usize {
        self.len * self.heap_each
            + self.blocks.len() * Block::<S, M>::BYTES
            + self.blocks.capacity() * std::mem::size_of::<Block<S, M>>()
            + self.table.allocation_size()
            + self.big.capacity() * 9
    }
}
