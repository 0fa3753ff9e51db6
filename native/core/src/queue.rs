//! The open list of the best-first drivers: a bucket queue on (key ascending, g descending, tie-break key
//! ascending), each bucket a LIFO stack of re-pushed states (PEA*'s next slices, Python's negative tie
//! numbers) served before a FIFO queue of children (Python's positive tie numbers, first in, first out).
//!
//! This pops in exactly the order of Python's heap of `(key, -g, tie_break, tie, ...)` tuples, at 4 bytes an
//! entry (a state id). The ids live in 32-byte chunks of one shared pool (7 ids and a link), handed back
//! when a bucket empties them, so the open list holds its entries plus at most two partly used chunks a live
//! bucket. Buckets live in a slab (an emptied bucket's slot is reused for the next key), a hash map finds a
//! key's bucket, and a binary heap of the keys in use gives the least; keys (f) and g take few values, so the
//! heap is small.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::HashMap;

use crate::limits::Stop;
use crate::result::Status;
use crate::hash::WordHash;

/// Words in a chunk of the shared pool: [`IDS`] ids and a link to the next chunk.
const CHUNK: usize = 8;
/// Ids a chunk holds.
const IDS: usize = CHUNK - 1;
/// "No chunk".
const NIL: u32 = u32::MAX;
/// log2 of the chunks a pool block holds (256 chunks, 8 KiB).
const POOL_BITS: u32 = 8;

/// Every bucket's ids, in chunks of [`CHUNK`] words taken from fixed-size blocks and handed back when
/// emptied: the open list holds what is queued plus at most two partly used chunks a live bucket, never a
/// per-bucket doubling slack.
struct Pool {
    blocks: Vec<Box<[[u32; CHUNK]]>>,
    /// The first chunk handed back (`NIL`: none); each links to the next through its last word.
    free: u32,
    /// Chunks ever handed out from the blocks.
    used: usize,
}

impl Pool {
    #[inline]
    fn chunk(&mut self, c: u32) -> &mut [u32; CHUNK] {
        &mut self.blocks[(c >> POOL_BITS) as usize][(c as usize) & ((1 << POOL_BITS) - 1)]
    }

    #[inline]
    fn get(&self, c: u32) -> &[u32; CHUNK] {
        &self.blocks[(c >> POOL_BITS) as usize][(c as usize) & ((1 << POOL_BITS) - 1)]
    }

    #[inline]
    fn alloc(&mut self) -> Result<u32, Stop> {
        if self.free != NIL {
            let c = self.free;
            self.free = self.get(c)[IDS];
            return Ok(c);
        }
        if self.used == self.blocks.len() << POOL_BITS {
            self.grow()?;
        }
        self.used += 1;
        Ok((self.used - 1) as u32)
    }

    #[inline(never)]
    fn grow(&mut self) -> Result<(), Stop> {
        let n = 1usize << POOL_BITS;
        let mut block = Vec::new();
        block.try_reserve_exact(n).map_err(|_| Status::MemoryLimit)?;
        block.resize(n, [0u32; CHUNK]);
        self.blocks.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
        self.blocks.push(block.into_boxed_slice());
        Ok(())
    }

    #[inline]
    fn release(&mut self, c: u32) {
        let head = self.free;
        self.chunk(c)[IDS] = head;
        self.free = c;
    }
}

/// A first-in, first-out list of ids in pool chunks (children).
#[derive(Clone, Copy)]
struct Fifo {
    head: u32,
    hpos: u32,
    tail: u32,
    tlen: u32,
}

impl Fifo {
    const EMPTY: Fifo = Fifo { head: NIL, hpos: 0, tail: NIL, tlen: 0 };

    #[inline]
    fn push(&mut self, pool: &mut Pool, id: u32) -> Result<(), Stop> {
        if self.tail == NIL {
            let c = pool.alloc()?;
            *self = Fifo { head: c, hpos: 0, tail: c, tlen: 0 };
        } else if self.tlen as usize == IDS {
            let c = pool.alloc()?;
            pool.chunk(self.tail)[IDS] = c;
            self.tail = c;
            self.tlen = 0;
        }
        pool.chunk(self.tail)[self.tlen as usize] = id;
        self.tlen += 1;
        Ok(())
    }

    #[inline]
    fn pop(&mut self, pool: &mut Pool) -> Option<u32> {
        if self.head == NIL {
            return None;
        }
        let chunk = pool.get(self.head);
        let id = chunk[self.hpos as usize];
        self.hpos += 1;
        if self.head == self.tail && self.hpos == self.tlen {
            pool.release(self.head);
            *self = Fifo::EMPTY;
        } else if self.hpos as usize == IDS {
            let next = chunk[IDS];
            pool.release(self.head);
            self.head = next;
            self.hpos = 0;
        }
        Some(id)
    }

    fn for_each(&self, pool: &Pool, mut f: impl FnMut(u32)) {
        let (mut c, mut from) = (self.head, self.hpos as usize);
        while c != NIL {
            let chunk = pool.get(c);
            let to = if c == self.tail { self.tlen as usize } else { IDS };
            chunk[from..to].iter().for_each(|&id| f(id));
            c = if c == self.tail { NIL } else { chunk[IDS] };
            from = 0;
        }
    }
}

/// A last-in, first-out list of ids in pool chunks (PEA*'s re-pushed states); a chunk's link is the chunk
/// below it.
#[derive(Clone, Copy)]
struct Stack {
    top: u32,
    tlen: u32,
}

impl Stack {
    const EMPTY: Stack = Stack { top: NIL, tlen: 0 };

    fn push(&mut self, pool: &mut Pool, id: u32) -> Result<(), Stop> {
        if self.top == NIL || self.tlen as usize == IDS {
            let c = pool.alloc()?;
            pool.chunk(c)[IDS] = self.top;
            self.top = c;
            self.tlen = 0;
        }
        pool.chunk(self.top)[self.tlen as usize] = id;
        self.tlen += 1;
        Ok(())
    }

    #[inline]
    fn pop(&mut self, pool: &mut Pool) -> Option<u32> {
        if self.top == NIL {
            return None;
        }
        self.tlen -= 1;
        let chunk = pool.get(self.top);
        let id = chunk[self.tlen as usize];
        if self.tlen == 0 {
            let below = chunk[IDS];
            pool.release(self.top);
            self.top = below;
            self.tlen = if below == NIL { 0 } else { IDS as u32 };
        }
        Some(id)
    }

    fn for_each(&self, pool: &Pool, mut f: impl FnMut(u32)) {
        let (mut c, mut n) = (self.top, self.tlen as usize);
        while c != NIL {
            let chunk = pool.get(c);
            chunk[..n].iter().for_each(|&id| f(id));
            c = chunk[IDS];
            n = IDS;
        }
    }
}

/// One key's entries: re-pushed states first (last in, first out), then children (first in, first out).
#[derive(Clone, Copy)]
struct Bucket {
    again: Stack,
    fifo: Fifo,
}

impl Bucket {
    const EMPTY: Bucket = Bucket { again: Stack::EMPTY, fifo: Fifo::EMPTY };

    #[inline]
    fn is_empty(&self) -> bool {
        self.again.top == NIL && self.fifo.head == NIL
    }
}

/// A bucket's key: `(key, u32::MAX - g, tie)`, ordered field by field as Python's `(key, -g, tie_break)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key(u64, u32, i64);

impl Key {
    #[inline]
    fn new(key: u64, g: u32, tie: i64) -> Key {
        Key(key, u32::MAX - g, tie)
    }

    #[inline]
    fn key(self) -> u64 {
        self.0
    }

    #[inline]
    fn g(self) -> u32 {
        u32::MAX - self.1
    }
}

pub(crate) struct BucketQueue {
    pool: Pool,
    slab: Vec<Bucket>,
    free: Vec<u32>,
    index: HashMap<Key, u32, WordHash>,
    order: BinaryHeap<Reverse<(Key, u32)>>,
    len: usize,
    /// The bucket pushed to last (an expansion's children often share one).
    last: Option<(Key, u32)>,
}

impl BucketQueue {
    pub fn new() -> Self {
        BucketQueue {
            pool: Pool { blocks: Vec::new(), free: NIL, used: 0 },
            slab: Vec::new(),
            free: Vec::new(),
            index: HashMap::with_hasher(WordHash),
            order: BinaryHeap::new(),
            len: 0,
            last: None,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The slab index of key `k`'s bucket, opened if needed.
    #[inline]
    fn bucket(&mut self, k: Key) -> Result<usize, Stop> {
        if let Some((lk, i)) = self.last {
            if lk == k {
                return Ok(i as usize);
            }
        }
        let i = match self.index.get(&k) {
            Some(&i) => i,
            None => self.open(k)?,
        };
        self.last = Some((k, i));
        Ok(i as usize)
    }

    #[inline(never)]
    fn open(&mut self, k: Key) -> Result<u32, Stop> {
        let i = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slab.try_reserve(1).map_err(|_| Status::MemoryLimit)?;
                self.slab.push(Bucket::EMPTY);
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
        self.slab[b].fifo.push(&mut self.pool, id)?;
        self.len += 1;
        Ok(())
    }

    /// Push a state again (PEA*'s next slice): before every child of equal key, g and tie-break, and before
    /// the states re-pushed earlier.
    pub fn push_again(&mut self, key: u64, g: u32, tie: i64, id: u32) -> Result<(), Stop> {
        let b = self.bucket(Key::new(key, g, tie))?;
        self.slab[b].again.push(&mut self.pool, id)?;
        self.len += 1;
        Ok(())
    }

    /// The key of the first entry (`None`: the list is empty).
    #[inline]
    pub fn peek_key(&self) -> Option<u64> {
        self.order.peek().map(|Reverse((k, _))| k.key())
    }

    /// The first entry: `(key, g, id)`.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32, u32)> {
        let &Reverse((k, i)) = self.order.peek()?;
        let b = &mut self.slab[i as usize];
        let id = match b.again.pop(&mut self.pool) {
            Some(id) => id,
            None => b.fifo.pop(&mut self.pool).expect("empty buckets are closed"),
        };
        if b.is_empty() {
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
            b.again.for_each(&self.pool, |id| f(k.key(), k.g(), id));
            b.fifo.for_each(&self.pool, |id| f(k.key(), k.g(), id));
        }
    }

    /// Bytes held: the chunk pool and the buckets' bookkeeping.
    pub fn bytes(&self) -> usize {
        let ids = (self.pool.blocks.len() << POOL_BITS) * CHUNK * 4 + self.pool.blocks.capacity() * 16;
        ids + self.slab.capacity() * std::mem::size_of::<Bucket>()
            + self.index.capacity() * (std::mem::size_of::<(Key, u32)>() + 1)
            + self.order.capacity() * std::mem::size_of::<(Key, u32)>()
    }
}

#[cfg(test)]
mod tests {
    use super::BucketQueue;
    use std::collections::BTreeSet;

    /// Pushes, re-pushes and pops in a pseudo-random mix against Python's heap order: `(key, -g, tie,
    /// counter)` with a child's counter counting up and a re-pushed state's counting down.
    #[test]
    fn pops_in_python_heap_order_across_chunks() {
        let mut x = 7u64;
        let mut rnd = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let mut q = BucketQueue::new();
        let mut reference: BTreeSet<(u64, i64, i64, i64, u32)> = BTreeSet::new();
        let mut counter = 0i64;
        for round in 0..20_000u32 {
            if rnd(3) > 0 || reference.is_empty() {
                let (key, g, tie) = (rnd(4), rnd(3) as u32, rnd(2) as i64);
                counter += 1;
                if rnd(5) == 0 {
                    q.push_again(key, g, tie, round).unwrap();
                    reference.insert((key, -i64::from(g), tie, -counter, round));
                } else {
                    q.push(key, g, tie, round).unwrap();
                    reference.insert((key, -i64::from(g), tie, counter, round));
                }
            } else {
                let first = reference.pop_first().unwrap();
                assert_eq!(q.pop(), Some((first.0, (-first.1) as u32, first.4)));
            }
            assert_eq!(q.len(), reference.len());
        }
        let mut all = Vec::new();
        q.for_each(|_, _, id| all.push(id));
        all.sort_unstable();
        let mut want: Vec<u32> = reference.iter().map(|r| r.4).collect();
        want.sort_unstable();
        assert_eq!(all, want);
        while let Some(first) = reference.pop_first() {
            assert_eq!(q.pop(), Some((first.0, (-first.1) as u32, first.4)));
        }
        assert_eq!(q.pop(), None);
    }
}
