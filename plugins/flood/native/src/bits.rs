//! Fixed-width area bitsets: `[u64; W]` (monomorphised per board width in words) or, beyond
//! [`MAX_FIXED_WORDS`] words, a boxed slice (the general fallback: the same code, heap-allocated values).
//!
//! Bit `a` of word `a / 64` is area `a`; bits at or above the board's area count are always 0.

use std::fmt::Debug;
use std::hash::Hash;

/// The widest fixed-size bitset: 9 words, 576 areas (every ColorFill set fits; b24c4 has at most 346 areas).
pub const MAX_FIXED_WORDS: usize = 9;

/// Words of 64 bits needed for `count` areas (at least 1).
pub fn words_for(count: usize) -> usize {
    count.div_ceil(64).max(1)
}

/// An area bitset. Implemented for `[u64; W]` (copy, no allocation) and `Box<[u64]>` (fallback).
///
/// All binary operations take two sets of the same width.
pub trait Bits: Clone + Eq + Hash + Debug + Send + Sync + 'static {
    /// The empty set of `words` words (`[u64; W]` ignores `words`).
    fn zeros(words: usize) -> Self;
    /// [`Bits::zeros`], or `None` when its memory cannot be had (only the boxed fallback allocates).
    fn try_zeros(words: usize) -> Option<Self> {
        Some(Self::zeros(words))
    }
    fn words(&self) -> &[u64];
    fn words_mut(&mut self) -> &mut [u64];
    /// Bytes the set owns on the heap: 0 for `[u64; W]`, held inline.
    fn heap_bytes(&self) -> usize {
        0
    }

    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.words().iter().fold(0, |acc, &w| acc | w) == 0
    }
    #[inline(always)]
    fn intersects(&self, o: &Self) -> bool {
        self.words().iter().zip(o.words()).fold(0, |acc, (&a, &b)| acc | (a & b)) != 0
    }
    /// `self` minus `o` is empty (`self` is a subset of `o`).
    #[inline(always)]
    fn subset_of(&self, o: &Self) -> bool {
        self.words().iter().zip(o.words()).fold(0, |acc, (&a, &b)| acc | (a & !b)) == 0
    }
    #[inline(always)]
    fn or_with(&mut self, o: &Self) {
        for (a, b) in self.words_mut().iter_mut().zip(o.words()) {
            *a |= *b;
        }
    }
    #[inline(always)]
    fn and_with(&mut self, o: &Self) {
        for (a, b) in self.words_mut().iter_mut().zip(o.words()) {
            *a &= *b;
        }
    }
    #[inline(always)]
    fn andnot_with(&mut self, o: &Self) {
        for (a, b) in self.words_mut().iter_mut().zip(o.words()) {
            *a &= !*b;
        }
    }
    #[inline(always)]
    fn xor_with(&mut self, o: &Self) {
        for (a, b) in self.words_mut().iter_mut().zip(o.words()) {
            *a ^= *b;
        }
    }
    #[inline(always)]
    fn and(&self, o: &Self) -> Self {
        let mut r = self.clone();
        r.and_with(o);
        r
    }
    #[inline(always)]
    fn or(&self, o: &Self) -> Self {
        let mut r = self.clone();
        r.or_with(o);
        r
    }
    #[inline(always)]
    fn andnot(&self, o: &Self) -> Self {
        let mut r = self.clone();
        r.andnot_with(o);
        r
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.words().iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn set(&mut self, i: usize) {
        self.words_mut()[i >> 6] |= 1u64 << (i & 63);
    }
    #[inline(always)]
    fn test(&self, i: usize) -> bool {
        self.words()[i >> 6] >> (i & 63) & 1 != 0
    }
    /// Calls `f(a)` for every area `a` in the set, ascending.
    #[inline(always)]
    fn for_each(&self, mut f: impl FnMut(usize)) {
        for (k, &w) in self.words().iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
    /// The areas of the set, ascending.
    fn to_vec(&self) -> Vec<usize> {
        let mut v = Vec::new();
        self.for_each(|a| v.push(a));
        v
    }
}

/// The fixed widths spell every operation as a loop over `0..W` (a constant): fully unrolled, no bounds checks
/// (the slice defaults cost a third more instructions in the Puchert play-out).
impl<const W: usize> Bits for [u64; W] {
    #[inline(always)]
    fn zeros(_words: usize) -> Self {
        [0; W]
    }
    #[inline(always)]
    fn words(&self) -> &[u64] {
        self
    }
    #[inline(always)]
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        let mut acc = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            acc |= self[i];
        }
        acc == 0
    }
    #[inline(always)]
    fn intersects(&self, o: &Self) -> bool {
        let mut acc = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            acc |= self[i] & o[i];
        }
        acc != 0
    }
    #[inline(always)]
    fn subset_of(&self, o: &Self) -> bool {
        let mut acc = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            acc |= self[i] & !o[i];
        }
        acc == 0
    }
    #[inline(always)]
    fn or_with(&mut self, o: &Self) {
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            self[i] |= o[i];
        }
    }
    #[inline(always)]
    fn and_with(&mut self, o: &Self) {
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            self[i] &= o[i];
        }
    }
    #[inline(always)]
    fn andnot_with(&mut self, o: &Self) {
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            self[i] &= !o[i];
        }
    }
    #[inline(always)]
    fn xor_with(&mut self, o: &Self) {
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            self[i] ^= o[i];
        }
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        let mut n = 0;
        #[allow(clippy::needless_range_loop)]
        for i in 0..W {
            n += self[i].count_ones();
        }
        n
    }
}

impl Bits for Box<[u64]> {
    fn zeros(words: usize) -> Self {
        vec![0; words].into_boxed_slice()
    }
    fn try_zeros(words: usize) -> Option<Self> {
        let mut v = Vec::new();
        v.try_reserve_exact(words).ok()?;
        v.resize(words, 0);
        Some(v.into_boxed_slice())
    }
    fn words(&self) -> &[u64] {
        self
    }
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
    /// The words and the allocator's header, rounded up to its 16-byte chunks (glibc's malloc).
    fn heap_bytes(&self) -> usize {
        (self.len() * 8 + 8).next_multiple_of(16).max(32)
    }
}

/// The set of the given areas.
pub fn from_areas<B: Bits>(words: usize, areas: impl IntoIterator<Item = usize>) -> B {
    let mut b = B::zeros(words);
    for a in areas {
        b.set(a);
    }
    b
}
