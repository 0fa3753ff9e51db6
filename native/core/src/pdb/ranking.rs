//! Ranking k-permutations: `searchkit/machinery/pdb/ranking.py`'s numbers.
//!
//! The positions `(p_0 .. p_{k-1})` of k distinct items among `n` places (`n <= 32`) are ranked
//! lexicographically as `sum_i (p_i - #{j < i : p_j < p_i}) * P(n - 1 - i, k - 1 - i)`: digit `i` is `p_i`'s
//! index among the places the items before it leave free, and the ranks run over `0 .. P(n, k)`.

/// `P(n, k) = n! / (n - k)!`, the number of k-permutations of `n` places.
pub fn count(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

/// The rank weights `P(n - 1 - i, k - 1 - i)`, `i = 0 .. k-1`.
pub fn weights(n: usize, k: usize) -> Vec<u64> {
    (0..k).map(|i| count(n - 1 - i, k - 1 - i)).collect()
}

/// The rank of the k-permutation `places` (each below 32, distinct) under the weights `w` of [`weights`].
#[inline]
pub fn rank(places: &[u8], w: &[u64]) -> u64 {
    let mut used: u32 = 0;
    let mut r = 0u64;
    for (&c, &wi) in places.iter().zip(w) {
        let below = (used & ((1u32 << c) - 1)).count_ones();
        r += (u64::from(c) - u64::from(below)) * wi;
        used |= 1 << c;
    }
    r
}

/// The place of the `d`-th set bit of `m` (lowest first; `d` below `m`'s count of set bits).
#[inline]
pub fn select(mut m: u32, d: u32) -> u32 {
    for _ in 0..d {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The places of rank `r` written to `out[..w.len()]` (the inverse of [`rank`]); returns the mask of the
/// places used.
#[inline]
pub fn unrank(mut r: u64, w: &[u64], out: &mut [u8]) -> u32 {
    let mut used: u32 = 0;
    for (i, &wi) in w.iter().enumerate() {
        // digit i is below n - i, so its free place is among the first n (the bits above n are never used)
        let c = select(!used, (r / wi) as u32);
        r %= wi;
        out[i] = c as u8;
        used |= 1 << c;
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_round_trip() {
        for (n, k) in [(9, 4), (16, 3), (5, 5), (7, 1), (20, 2)] {
            let w = weights(n, k);
            let mut out = [0u8; 32];
            for r in 0..count(n, k) {
                let used = unrank(r, &w, &mut out);
                assert_eq!(rank(&out[..k], &w), r);
                assert_eq!(used.count_ones() as usize, k);
                assert!(out[..k].iter().all(|&c| usize::from(c) < n));
            }
        }
    }

    #[test]
    fn ranks_are_lexicographic() {
        // the ranking.py numbers: (0, 1) is 0, (0, 2) is 1, (1, 0) is n - 1, the last is P(n, k) - 1
        let w = weights(4, 2);
        assert_eq!(w, vec![3, 1]);
        assert_eq!(rank(&[0, 1], &w), 0);
        assert_eq!(rank(&[0, 2], &w), 1);
        assert_eq!(rank(&[1, 0], &w), 3);
        assert_eq!(rank(&[3, 2], &w), 11);
        assert_eq!(count(16, 8), 518_918_400);
        assert_eq!(count(4, 0), 1);
    }
}
