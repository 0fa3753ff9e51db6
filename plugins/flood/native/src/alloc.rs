//! Fallible allocation for everything that grows with the board (the area graph, the puzzle's tables, the
//! heuristics' memo): under `--memory-limit` (an address-space limit around the worker) an allocation that
//! fails is [`BoardError::OutOfMemory`], the case's `memory_limit`, instead of Rust's abort of the process.

use crate::bits::Bits;
use crate::graph::BoardError;

/// An empty vector with room for `n` items.
pub fn with_capacity<T>(n: usize) -> Result<Vec<T>, BoardError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| BoardError::OutOfMemory)?;
    Ok(v)
}

/// `n` copies of `value` (for values whose clone allocates nothing: numbers, fixed-width bitsets).
pub fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, BoardError> {
    let mut v = with_capacity(n)?;
    v.resize(n, value);
    Ok(v)
}

/// `x` pushed onto `v`, growing it fallibly.
#[inline]
pub fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), BoardError> {
    if v.len() == v.capacity() {
        v.try_reserve(1).map_err(|_| BoardError::OutOfMemory)?;
    }
    v.push(x);
    Ok(())
}

/// An empty bitset of `words` words (the boxed fallback allocates: fallibly).
pub fn zeros<B: Bits>(words: usize) -> Result<B, BoardError> {
    B::try_zeros(words).ok_or(BoardError::OutOfMemory)
}

/// `n` empty bitsets of `words` words.
pub fn zeros_vec<B: Bits>(n: usize, words: usize) -> Result<Vec<B>, BoardError> {
    let mut v = with_capacity(n)?;
    for _ in 0..n {
        v.push(zeros(words)?);
    }
    Ok(v)
}
