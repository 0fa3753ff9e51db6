//! The open list of the best-first drivers: a bucket queue on (key ascending, g descending, tie-break key
//! ascending), each bucket a LIFO stack of re-pushed states (PEA*'s next slices, Python's negative tie
//! numbers) served before a FIFO queue of children (Python's positive tie numbers, first in, first out).
//!
//! This pops in exactly the order of Python's heap of `(key, -g, tie_break, tie, ...)` tuples, at 4 bytes an
//! entry (a state id) plus the bucket map, which stays small because keys (f) and g take few values.

use std::collections::{BTreeMap, VecDeque};

use crate::control::{Status, Stop};

#[derive(Default)]
struct Bucket {
    again: Vec<u32>,
    fifo: VecDeque<u32>,
}

/// Bucket key: (key, g descending, tie-break ascending).
type Key = (u64, u32, i64);

pub(crate) struct BucketQueue {
    map: BTreeMap<Key, Bucket>,
    len: usize,
    slots: usize,
}

impl BucketQueue {
    pub fn new() -> Self {
        BucketQueue { map: BTreeMap::new(), len: 0, slots: 0 }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn bucket(&mut self, key: u64, g: u32, tie: i64) -> &mut Bucket {
        self.map.entry((key, u32::MAX - g, tie)).or_default()
    }

    /// Push a child (after every entry of equal key, g and tie-break pushed before it).
    #[inline]
    pub fn push(&mut self, key: u64, g: u32, tie: i64, id: u32) -> Result<(), Stop> {
        let b = self.map.entry((key, u32::MAX - g, tie)).or_default();
        if b.fifo.len() == b.fifo.capacity() {
            let before = b.fifo.capacity();
            b.fifo.try_reserve(before.max(4)).map_err(|_| Status::MemoryLimit)?;
            self.slots += b.fifo.capacity() - before;
        }
        b.fifo.push_back(id);
        self.len += 1;
        Ok(())
    }

    /// Push a state again (PEA*'s next slice): before every child of equal key, g and tie-break, and before
    /// the states re-pushed earlier.
    pub fn push_again(&mut self, key: u64, g: u32, tie: i64, id: u32) -> Result<(), Stop> {
        let b = self.bucket(key, g, tie);
        b.again.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
        b.again.push(id);
        self.len += 1;
        Ok(())
    }

    /// The first entry: `(key, g, id)`.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32, u32)> {
        let mut e = self.map.first_entry()?;
        let &(key, ng, _) = e.key();
        let b = e.get_mut();
        let id = match b.again.pop() {
            Some(id) => id,
            None => b.fifo.pop_front().expect("empty buckets are removed"),
        };
        if b.again.is_empty() && b.fifo.is_empty() {
            self.slots -= e.get().fifo.capacity();
            e.remove();
        }
        self.len -= 1;
        Some((key, u32::MAX - ng, id))
    }

    /// Every entry as `(key, g, id)`, in no particular order.
    pub fn for_each(&self, mut f: impl FnMut(u64, u32, u32)) {
        for (&(key, ng, _), b) in &self.map {
            for &id in b.again.iter().chain(b.fifo.iter()) {
                f(key, u32::MAX - ng, id);
            }
        }
    }

    /// Bytes held (ids and bucket overhead, approximately).
    pub fn bytes(&self) -> usize {
        self.slots * 4 + self.map.len() * 96
    }
}
