//! The open list of the best-first drivers: a bucket queue on (key ascending, g descending, tie-break key
//! ascending), each bucket a LIFO stack of re-pushed states (PEA*'s next slices, Python's negative tie
//! numbers) served before a FIFO queue of children (Python's positive tie numbers, first in, first out).
//!
//! This pops in exactly the order of Python's heap of `(key, -g, tie_break, tie, ...)` tuples, at 4 bytes an
//! entry (a state id). Buckets live in a slab (an emptied bucket keeps its allocation for the next key), a
//! hash map finds a key's bucket, and a binary heap of the keys in use gives the least; keys (f) and g take
//! few values, so the heap is small.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use hashbrown::HashMap;

use crate::control::{Status, Stop};

#[derive(Default)]
struct Bucket {
    again: Vec<u32>,
    fifo: VecDeque<u32>,
}

/// A bucket's key: `(key << 32 | (u32::MAX - g), tie)`, ordered as Python's `(key, -g, tie_break)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key(u128, i64);

impl Key {
    #[inline]
    fn new(key: u64, g: u32, tie: i64) -> Key {
        Key((u128::from(key) << 32) | u128::from(u32::MAX - g), tie)
    }

    #[inline]
    fn key(self) -> u64 {
        (self.0 >> 32) as u64
    }

    #[inline]
    fn g(self) -> u32 {
        u32::MAX - (self.0 as u32)
    }
}

pub(crate) struct BucketQueue {
    slab: Vec<Bucket>,
    free: Vec<u32>,
    index: HashMap<Key, u32>,
    order: BinaryHeap<Reverse<(Key, u32)>>,
    len: usize,
    /// The bucket pushed to last (an expansion's children often share one).
    last: Option<(Key, u32)>,
}

impl BucketQueue {
    pub fn new() -> Self {
        BucketQueue {
            slab: Vec::new(),
            free: Vec::new(),
            index: HashMap::default(),
            order: BinaryHeap::new(),
            len: 0,
            last: None,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn bucket(&mut self, k: Key) -> Result<&mut Bucket, Stop> {
        if let Some((lk, i)) = self.last {
            if lk == k {
                return Ok(&mut self.slab[i as usize]);
            }
        }
        let i = match self.index.get(&k) {
            Some(&i) => i,
            None => self.open(k)?,
        };
        self.last = Some((k, i));
        Ok(&mut self.slab[i as usize])
    }

    #[inline(never)]
    fn open(&mut self, k: Key) -> Result<u32, Stop> {
        let i = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slab.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                self.slab.push(Bucket::default());
                (self.slab.len() - 1) as u32
            }
        };
        self.index.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
        self.index.insert(k, i);
        self.order.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
        self.order.push(Reverse((k, i)));
        Ok(i)
    }

    /// Push a child (after every entry of equal key, g and tie-break pushed before it).
    #[inline]
    pub fn push(&mut self, key: u64, g: u32, tie: i64, id: u32) -> Result<(), Stop> {
        let b = self.bucket(Key::new(key, g, tie))?;
        if b.fifo.len() == b.fifo.capacity() {
            let extra = b.fifo.capacity().max(4);
            b.fifo.try_reserve(extra).map_err(|_| Status::MemoryLimit)?;
        }
        b.fifo.push_back(id);
        self.len += 1;
        Ok(())
    }

    /// Push a state again (PEA*'s next slice): before every child of equal key, g and tie-break, and before
    /// the states re-pushed earlier.
    pub fn push_again(&mut self, key: u64, g: u32, tie: i64, id: u32) -> Result<(), Stop> {
        let b = self.bucket(Key::new(key, g, tie))?;
        b.again.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
        b.again.push(id);
        self.len += 1;
        Ok(())
    }

    /// The first entry: `(key, g, id)`.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32, u32)> {
        let &Reverse((k, i)) = self.order.peek()?;
        let b = &mut self.slab[i as usize];
        let id = match b.again.pop() {
            Some(id) => id,
            None => b.fifo.pop_front().expect("empty buckets are closed"),
        };
        if b.again.is_empty() && b.fifo.is_empty() {
            self.order.pop();
            self.index.remove(&k);
            self.free.push(i);
            if self.last.is_some_and(|(lk, _)| lk == k) {
                self.last = None;
            }
        }
        self.len -= 1;
        Some((k.key(), k.g(), id))
    }

    /// Every entry as `(key, g, id)`, in no particular order.
    pub fn for_each(&self, mut f: impl FnMut(u64, u32, u32)) {
        for &Reverse((k, i)) in self.order.iter() {
            let b = &self.slab[i as usize];
            for &id in b.again.iter().chain(b.fifo.iter()) {
                f(k.key(), k.g(), id);
            }
        }
    }

    /// Bytes held: the ids' buffers and the buckets' bookkeeping.
    pub fn bytes(&self) -> usize {
        let ids: usize = self.slab.iter().map(|b| (b.fifo.capacity() + b.again.capacity()) * 4).sum();
        ids + self.slab.capacity() * std::mem::size_of::<Bucket>()
            + self.index.capacity() * (std::mem::size_of::<(Key, u32)>() + 1)
            + self.order.capacity() * std::mem::size_of::<(Key, u32)>()
    }
}
