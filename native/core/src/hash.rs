//! The hash of the drivers' tables (the closed set, the open list's bucket index): a word-at-a-time
//! multiply-fold hash.
//!
//! The states are short runs of 64-bit words (bitsets `[u64; W]`) or bytes (boards of small cells), and
//! hashbrown's default hasher (foldhash) takes a 24-byte state through its long-input path with the slice's
//! length prefix before it: about a tenth of a region-bitset search's instructions went to hashing and re-hashing
//! when the closed set grows. Here each 8-byte word costs one 64 x 64 -> 128-bit multiply folded to 64 bits
//! (the high half XORed into the low), and the length prefix one addition.
//!
//! Only look-ups depend on the hash: a state's id is its order of first reach and the open list pops by key,
//! so no answer, tie-break or count depends on it. The seed is fixed (the searches are not fed by an
//! adversary, and a fixed seed keeps runs repeatable).

use std::hash::{BuildHasher, Hasher};

/// An odd constant with well spread bits (the fractional part of pi).
const K: u64 = 0x243F_6A88_85A3_08D3;
/// The start value.
const SEED: u64 = 0x1319_8A2E_0370_7344;

/// The full 128-bit product of `a` and `b`, its halves XORed.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

/// The [`Hasher`] of [`WordHash`].
#[derive(Clone, Copy)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut w = [0u8; 8];
            w[..tail.len()].copy_from_slice(tail);
            // the tail's length in the top byte, so tails differing only in trailing zero bytes differ
            self.write_u64(u64::from_le_bytes(w) ^ ((tail.len() as u64) << 56));
        }
    }

    #[inline(always)]
    fn write_u64(&mut self, w: u64) {
        self.0 = fold(self.0 ^ w, K);
    }

    #[inline(always)]
    fn write_u8(&mut self, w: u8) {
        self.write_u64(u64::from(w));
    }

    #[inline(always)]
    fn write_u16(&mut self, w: u16) {
        self.write_u64(u64::from(w));
    }

    #[inline(always)]
    fn write_u32(&mut self, w: u32) {
        self.write_u64(u64::from(w));
    }

    /// Lengths (the prefix of a slice or an array) are added, not multiplied: a table holds one type, whose
    /// length rarely varies.
    #[inline(always)]
    fn write_usize(&mut self, n: usize) {
        self.0 = self.0.wrapping_add(n as u64);
    }

    #[inline(always)]
    fn write_i64(&mut self, w: i64) {
        self.write_u64(w as u64);
    }

    #[inline(always)]
    fn write_i32(&mut self, w: i32) {
        self.write_u64(w as u32 as u64);
    }

    /// One more fold, so the last word reaches the top bits (hashbrown's 7-bit tags) and the bottom ones (its
    /// bucket index) alike.
    #[inline(always)]
    fn finish(&self) -> u64 {
        fold(self.0, K.rotate_left(32))
    }
}

/// The [`BuildHasher`] of the drivers' tables (module docs).
#[derive(Clone, Copy, Default)]
pub struct WordHash;

impl BuildHasher for WordHash {
    type Hasher = WordHasher;

    #[inline(always)]
    fn build_hasher(&self) -> WordHasher {
        WordHasher(SEED)
    }
}

#[cfg(test)]
mod tests {
    use super::WordHash;
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    /// Bitsets of a few bits set among 192 (regions of a board): no two of 100 000 hash alike, and the top 7
    /// bits and the low 12 bits take every value.
    #[test]
    fn spreads_sparse_word_arrays() {
        let mut x = 3u64;
        let mut hashes = HashSet::new();
        let (mut tops, mut lows) = (HashSet::new(), HashSet::new());
        for _ in 0..100_000 {
            let mut s = [0u64; 3];
            for _ in 0..8 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let a = ((x >> 33) % 192) as usize;
                s[a / 64] |= 1 << (a % 64);
            }
            let h = WordHash.hash_one(s);
            hashes.insert((s, h));
            tops.insert(h >> 57);
            lows.insert(h & 0xfff);
        }
        let distinct_states: HashSet<[u64; 3]> = hashes.iter().map(|p| p.0).collect();
        let distinct_hashes: HashSet<u64> = hashes.iter().map(|p| p.1).collect();
        assert_eq!(distinct_states.len(), distinct_hashes.len());
        assert_eq!(tops.len(), 128);
        assert_eq!(lows.len(), 4096);
    }

    /// Byte strings that differ only in trailing zero bytes hash apart.
    #[test]
    fn tails_of_zero_bytes_count() {
        assert_ne!(WordHash.hash_one([1u8, 0, 0]), WordHash.hash_one([1u8, 0]));
        assert_ne!(WordHash.hash_one(&b"abc\0"[..3]), WordHash.hash_one(&b"abc\0"[..]));
    }
}
