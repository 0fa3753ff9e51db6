//! Pattern databases for sliding tiles: ranking, files, and the builder.
//!
//! **Ranking** (`searchkit/pdb/ranking.py`): the cells `(p_0 .. p_{k-1})` of a group's tiles are a
//! k-permutation of the `n*n` cells, ranked lexicographically as
//! `sum_i (p_i - #{j < i : p_j < p_i}) * P(n*n - 1 - i, k - 1 - i)`.
//!
//! **File** (`searchkit/pdb/store.py`, format 1): a 76-byte little-endian header (magic `SKPDB01\n`,
//! version, bits per entry 8 or 4, entries, data bytes, CRC-32 of the data, max value, SHA-256 of the key
//! text, key length), the key text, then the data: one byte per entry, or two entries per byte (the even
//! entry in the low nibble); 255 (15) marks an unreachable entry.
//!
//! **Table** (the Python builder's definition, `searchkit/pdb/build.py` with the plugin's
//! `TileAbstraction`): entry `rank(cells)` is the least number of moves of the group's tiles that bring the
//! group home with the blank on the last cell, over every cell of the blank (moves of other tiles are
//! free).  The builder here reaches the same numbers by a layered search over *(placement, region)*:
//! with the group's tiles placed, the blank moves for free inside its connected region of the other cells,
//! so a layer's states are closed under free moves by a flood fill of the region (a 16-bit cell mask), and
//! a group tile next to the region moving into it starts a state of the next layer with the blank on the
//! tile's old cell.  The first layer that reaches a placement (in any region) is its entry.

use std::fs;
use std::io::{self, Write};

pub const MAGIC: &[u8; 8] = b"SKPDB01\n";
pub const HEAD: usize = 76;
pub const UNREACHED: u8 = 255;

/// `P(n, k) = n! / (n - k)!`.
pub fn count(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

/// The rank weights `P(n - 1 - i, k - 1 - i)`, `i = 0 .. k-1`.
pub fn weights(n: usize, k: usize) -> Vec<u64> {
    (0..k).map(|i| count(n - 1 - i, k - 1 - i)).collect()
}

/// The rank of the k-permutation `cells` (cells < 16).
#[inline]
pub fn rank(cells: &[u8], w: &[u64]) -> u64 {
    let mut used: u32 = 0;
    let mut r = 0u64;
    for (&c, &wi) in cells.iter().zip(w) {
        let below = (used & ((1u32 << c) - 1)).count_ones();
        r += (u64::from(c) - u64::from(below)) * wi;
        used |= 1 << c;
    }
    r
}

/// The part of [`rank`] from `cells` on, the cells before them being `used`.
#[inline(always)]
fn rank_from(cells: &[u8], w: &[u64], mut used: u32) -> u64 {
    let mut r = 0u64;
    for (&c, &wi) in cells.iter().zip(w) {
        let below = (used & ((1u32 << c) - 1)).count_ones();
        r += (u64::from(c) - u64::from(below)) * wi;
        used |= 1 << c;
    }
    r
}

/// The cells of rank `r` (inverse of [`rank`]); returns the mask of the used cells.
#[inline]
pub fn unrank(r: u64, w: &[u64], out: &mut [u8]) -> u32 {
    unrank_in(r, w, out)
}

/// [`unrank`] with 32-bit divisions, for tables of at most `u32::MAX` entries (`w[0] * n` fits).
#[inline]
fn unrank32(r: u32, w: &[u32], out: &mut [u8]) -> u32 {
    unrank_in(r, w, out)
}

/// The one unranking loop, in the integer width of the table (32-bit division is the cheaper one).
#[inline(always)]
fn unrank_in<T>(mut r: T, w: &[T], out: &mut [u8]) -> u32
where
    T: Copy + std::ops::Div<Output = T> + std::ops::Rem<Output = T> + Into<u64>,
{
    let mut used: u32 = 0;
    for (i, &wi) in w.iter().enumerate() {
        let mut d: u64 = (r / wi).into();
        r = r % wi;
        // the d-th cell not in `used`
        let mut free = !used;
        while d > 0 {
            free &= free - 1;
            d -= 1;
        }
        let c = free.trailing_zeros();
        out[i] = c as u8;
        used |= 1 << c;
    }
    used
}

// -- CRC-32 (the ISO-HDLC / zlib polynomial, reflected 0xEDB88320), slice-by-8 --------------------------

fn crc_tables() -> Vec<[u32; 256]> {
    let mut t = vec![[0u32; 256]; 8];
    for i in 0..256u32 {
        let mut c = i;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        t[0][i as usize] = c;
    }
    for i in 0..256 {
        for s in 1..8 {
            let prev = t[s - 1][i];
            t[s][i] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
        }
    }
    t
}

/// zlib's `crc32(data)`.
pub fn crc32(data: &[u8]) -> u32 {
    let t = crc_tables();
    let mut c = !0u32;
    let mut chunks = data.chunks_exact(8);
    for b in &mut chunks {
        let lo = c ^ u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hi = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        c = t[7][(lo & 0xFF) as usize] ^ t[6][((lo >> 8) & 0xFF) as usize] ^ t[5][((lo >> 16) & 0xFF) as usize]
            ^ t[4][(lo >> 24) as usize] ^ t[3][(hi & 0xFF) as usize] ^ t[2][((hi >> 8) & 0xFF) as usize]
            ^ t[1][((hi >> 16) & 0xFF) as usize] ^ t[0][(hi >> 24) as usize];
    }
    for &b in chunks.remainder() {
        c = (c >> 8) ^ t[0][((c ^ u32::from(b)) & 0xFF) as usize];
    }
    !c
}

// -- files -----------------------------------------------------------------------------------------

/// The file bytes of `values` (255 = unreachable) under `key` (its text and SHA-256 digest).
pub fn encode(values: &[u8], key: &str, digest: &[u8; 32]) -> Vec<u8> {
    let top = values.iter().copied().filter(|&v| v != UNREACHED).max().unwrap_or(0);
    let (bits, data): (u32, Vec<u8>) = if top <= 14 {
        let nib = |v: u8| if v == UNREACHED { 15 } else { v };
        let data = values.chunks(2).map(|p| nib(p[0]) | (p.get(1).map_or(15, |&v| nib(v)) << 4)).collect();
        (4, data)
    } else {
        (8, values.to_vec())
    };
    let mut out = Vec::with_capacity(HEAD + key.len() + data.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&bits.to_le_bytes());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(data.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32(&data).to_le_bytes());
    out.extend_from_slice(&u32::from(top).to_le_bytes());
    out.extend_from_slice(digest);
    out.extend_from_slice(&(key.len() as u32).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&data);
    out
}

/// Write `values` to `path` atomically (a temporary file renamed).
pub fn write(path: &str, values: &[u8], key: &str, digest: &[u8; 32]) -> io::Result<()> {
    let tmp = format!("{path}.{}.tmp", std::process::id());
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(&encode(values, key, digest))?;
    }
    fs::rename(&tmp, path)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The entries of a file (unpacked to one byte each), verified: magic, version, key digest, length, CRC.
pub fn decode(blob: &[u8], digest: &[u8; 32]) -> Result<Vec<u8>, String> {
    if blob.len() < HEAD || &blob[..8] != MAGIC || u32_at(blob, 8) != 1 {
        return Err("not a searchkit pattern database of format 1".into());
    }
    let bits = u32_at(blob, 12);
    let entries = u64_at(blob, 16) as usize;
    let size = u64_at(blob, 24) as usize;
    if &blob[40..72] != digest {
        return Err("it holds another table (key digest differs)".into());
    }
    let keylen = u32_at(blob, 72) as usize;
    let expected_size = if bits == 8 { entries } else { entries.div_ceil(2) };
    if (bits != 8 && bits != 4) || size != expected_size || blob.len() != HEAD + keylen + size {
        return Err(format!("{} bytes, expected {}", blob.len(), HEAD + keylen + expected_size));
    }
    let data = &blob[HEAD + keylen..];
    if crc32(data) != u32_at(blob, 32) {
        return Err("checksum mismatch".into());
    }
    if bits == 8 {
        return Ok(data.to_vec());
    }
    let mut out = Vec::with_capacity(entries + 1);
    for &b in data {
        for v in [b & 15, b >> 4] {
            out.push(if v == 15 { UNREACHED } else { v });
        }
    }
    out.truncate(entries);
    Ok(out)
}

/// Read and verify the table at `path`.
pub fn read(path: &str, digest: &[u8; 32]) -> Result<Vec<u8>, String> {
    let blob = fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    decode(&blob, digest)
}

// -- the builder -----------------------------------------------------------------------------------

/// The cells next to the cells of `m` on the `n` x `n` board.
#[inline]
fn spread(m: u32, n: u32) -> u32 {
    let full = (1u32 << (n * n)) - 1;
    let mut left_col = 0u32; // cells in column 0
    for r in 0..n {
        left_col |= 1 << (r * n);
    }
    let right_col = left_col << (n - 1);
    ((m << n) | (m >> n) | ((m & !right_col) << 1) | ((m & !left_col) >> 1)) & full
}

#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
}

/// Queue the blank cell `bit` of placement `r` for the next layer unless it was seen or is queued already.
#[inline(always)]
fn queue_child(mark: &mut [u32], next: &mut Vec<u32>, (r, bit): (usize, u32)) {
    let m = mark[r];
    if (m | (m >> 16)) & bit == 0 {
        if m >> 16 == 0 {
            next.push(r as u32);
        }
        mark[r] = m | (bit << 16);
    }
}

/// Children are applied in chunks of this many, sorted by their rank's high bits first (module docs).
const CHUNK: usize = 1 << 22;
/// At most this many buckets: the marks a bucket's children touch (`4 * entries / BUCKETS` bytes, 512 kB
/// for 8 of the 15-puzzle's tiles) stay in the second-level cache while the bucket is applied.
const BUCKETS: usize = 1 << 12;

/// Apply the children in `buf` (`(rank << 16) | blank bit`) to `mark` and `next` (see [`queue_child`]),
/// after a counting sort of them by `rank >> shift` into `sorted`: the marks are then touched in ascending
/// blocks instead of at random, and `next` receives the placements nearly in rank order.  `counts[b]`
/// holds the number of children in bucket `b` (counted as they were made); it is left all zero.
fn apply_children(buf: &mut Vec<u64>, sorted: &mut Vec<u64>, counts: &mut [usize], shift: u32, mark: &mut [u32],
                  next: &mut Vec<u32>) {
    let mut sum = 0;
    for x in counts.iter_mut() {
        let t = *x;
        *x = sum;
        sum += t;
    }
    sorted.clear();
    sorted.resize(buf.len(), 0);
    for &c in buf.iter() {
        let b = (c >> (16 + shift)) as usize;
        sorted[counts[b]] = c;
        counts[b] += 1;
    }
    for &c in sorted.iter() {
        queue_child(mark, next, ((c >> 16) as usize, (c & 0xFFFF) as u32));
    }
    buf.clear();
    counts.fill(0);
}

/// The table of the group `tiles` (tile numbers, goal `1 .. n*n-1` row-major then the blank) on the
/// `n` x `n` board: `P(n*n, k)` entries, the Python builder's numbers (module docs).
///
/// A layer's children are not applied one by one (a cache miss each on marks far larger than the
/// caches) but gathered, `CHUNK` at a time, and applied sorted by their rank's high bits
/// ([`apply_children`]).  The order in which a layer's children are applied does not change any entry:
/// a child whose blank cell was seen at this layer or before is dropped whenever it is applied, and the
/// frontier's seeds are filtered by the seen cells again when it is expanded, so each (placement, region)
/// is expanded once, at its exact distance.
///
/// `progress(reached, total)` is called after each layer.
pub fn build(n: usize, tiles: &[u8], progress: impl FnMut(u64, u64)) -> Vec<u8> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction the function is compiled for (checked just above).
        return unsafe { build_popcnt(n, tiles, progress) };
    }
    build_body(n, tiles, progress)
}

/// [`build_body`] compiled with the `popcnt` instruction (the ranks' `count_ones`, otherwise a dozen
/// instructions each).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn build_popcnt(n: usize, tiles: &[u8], progress: impl FnMut(u64, u64)) -> Vec<u8> {
    build_body(n, tiles, progress)
}

#[inline(always)]
fn build_body(n: usize, tiles: &[u8], mut progress: impl FnMut(u64, u64)) -> Vec<u8> {
    assert!((2..=4).contains(&n), "boards of side 2 to 4");
    let cells = n * n;
    let k = tiles.len();
    assert!(k >= 1 && k < cells && tiles.iter().all(|&t| t >= 1 && (t as usize) < cells));
    let w = weights(cells, k);
    let entries = count(cells, k) as usize;
    let w32: Option<Vec<u32>> = (entries <= u32::MAX as usize).then(|| w.iter().map(|&x| x as u32).collect());
    let mut value = vec![UNREACHED; entries];
    // per placement: the blank cells seen (low 16 bits) and those queued for the next layer (high 16 bits)
    let mut mark = vec![0u32; entries];
    let full: u32 = (1u32 << cells) - 1;
    let nn = n as u32;
    let neighbours: Vec<u32> = (0..cells as u32).map(|c| spread(1 << c, nn)).collect();
    let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
    let bits = usize::BITS - entries.leading_zeros();
    let shift = bits.saturating_sub(BUCKETS.trailing_zeros());
    let mut counts = vec![0usize; (entries >> shift) + 1];
    let mut buf: Vec<u64> = Vec::with_capacity(CHUNK.min(8 * entries));
    let mut sorted: Vec<u64> = Vec::with_capacity(buf.capacity());
    // a layer: (rank << 16) | seeded blank cells, each placement once
    let mut frontier: Vec<u64> = vec![(rank(&goal, &w) << 16) | (1u64 << (cells - 1))];
    let mut next: Vec<u32> = Vec::new();
    let mut d: u8 = 0;
    let mut reached = 0u64;
    let mut at = [0u8; 16];
    while !frontier.is_empty() {
        for (idx, &entry) in frontier.iter().enumerate() {
            if let Some(&ahead) = frontier.get(idx + 8) {
                let ra = (ahead >> 16) as usize;
                prefetch(&mark[ra]);
                prefetch(&value[ra]);
            }
            let r = (entry >> 16) as usize;
            let seeds = (entry & 0xFFFF) as u32 & !(mark[r] & 0xFFFF);
            if seeds == 0 {
                continue;
            }
            let used = match &w32 {
                Some(w32) => unrank32(r as u32, w32, &mut at[..k]),
                None => unrank(r as u64, &w, &mut at[..k]),
            };
            let free = full & !used;
            let mut region = seeds;
            loop {
                let grown = (region | spread(region, nn)) & free;
                if grown == region {
                    break;
                }
                region = grown;
            }
            mark[r] |= region;
            if value[r] == UNREACHED {
                value[r] = d;
                reached += 1;
            }
            if buf.len() + 4 * k > buf.capacity() {
                apply_children(&mut buf, &mut sorted, &mut counts, shift, &mut mark, &mut next);
            }
            // the rank and cells of the tiles before tile i: a child moving tile i shares them
            let mut head = 0u64;
            let mut head_used = 0u32;
            for i in 0..k {
                let p = at[i];
                let mut targets = neighbours[p as usize] & region;
                while targets != 0 {
                    let q = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    at[i] = q;
                    let r2 = head + rank_from(&at[i..k], &w[i..], head_used);
                    at[i] = p;
                    buf.push((r2 << 16) | (1u64 << p));
                    counts[(r2 >> shift) as usize] += 1;
                }
                head += (u64::from(p) - u64::from((head_used & ((1u32 << p) - 1)).count_ones())) * w[i];
                head_used |= 1 << p;
            }
        }
        apply_children(&mut buf, &mut sorted, &mut counts, shift, &mut mark, &mut next);
        progress(reached, entries as u64);
        frontier.clear();
        for &r in &next {
            let m = mark[r as usize];
            frontier.push((u64::from(r) << 16) | u64::from(m >> 16));
            mark[r as usize] = m & 0xFFFF;
        }
        next.clear();
        if !frontier.is_empty() {
            d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The builder before the chunked children (kept as the oracle of `build`): children applied one by one
        /// through a prefetch ring.  The table of the group `tiles` (tile numbers, goal `1 .. n*n-1` row-major then the blank) on the
    /// `n` x `n` board: `P(n*n, k)` entries, the Python builder's numbers (module docs).
    ///
    /// `progress(reached, total)` is called after each layer.
    fn build_before(n: usize, tiles: &[u8], mut progress: impl FnMut(u64, u64)) -> Vec<u8> {
        assert!((2..=4).contains(&n), "boards of side 2 to 4");
        let cells = n * n;
        let k = tiles.len();
        assert!(k >= 1 && k < cells && tiles.iter().all(|&t| t >= 1 && (t as usize) < cells));
        let w = weights(cells, k);
        let entries = count(cells, k) as usize;
        let mut value = vec![UNREACHED; entries];
        // per placement: the blank cells seen (low 16 bits) and those queued for the next layer (high 16 bits);
        // one word, so a child's test and mark touch one cache line
        let mut mark = vec![0u32; entries];
        let full: u32 = (1u32 << cells) - 1;
        let nn = n as u32;
        let neighbours: Vec<u32> = (0..cells as u32).map(|c| spread(1 << c, nn)).collect();
        let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
        // a layer: (rank << 16) | seeded blank cells, each placement once
        let mut frontier: Vec<u64> = vec![(rank(&goal, &w) << 16) | (1u64 << (cells - 1))];
        let mut next: Vec<u32> = Vec::new();
        let mut d: u8 = 0;
        let mut reached = 0u64;
        let mut at = [0u8; 16];
        // Children are tested and marked RING steps after they are made, their word prefetched meanwhile: the
        // marks are far larger than the caches, and this keeps many of those loads in flight at once.
        const RING: usize = 32;
        const AHEAD: usize = 8;
        let mut ring = [(0usize, 0u32); RING];
        let mut ring_len = 0usize;
        let mut ring_head = 0usize;
        while !frontier.is_empty() {
            for (idx, &entry) in frontier.iter().enumerate() {
                if let Some(&ahead) = frontier.get(idx + AHEAD) {
                    let ra = (ahead >> 16) as usize;
                    prefetch(&mark[ra]);
                    prefetch(&value[ra]);
                }
                let r = (entry >> 16) as usize;
                let seeds = (entry & 0xFFFF) as u32 & !(mark[r] & 0xFFFF);
                if seeds == 0 {
                    continue;
                }
                let used = unrank(r as u64, &w, &mut at[..k]);
                let free = full & !used;
                let mut region = seeds;
                loop {
                    let grown = (region | spread(region, nn)) & free;
                    if grown == region {
                        break;
                    }
                    region = grown;
                }
                mark[r] |= region;
                if value[r] == UNREACHED {
                    value[r] = d;
                    reached += 1;
                }
                for i in 0..k {
                    let p = at[i];
                    let mut targets = neighbours[p as usize] & region;
                    while targets != 0 {
                        let q = targets.trailing_zeros() as u8;
                        targets &= targets - 1;
                        at[i] = q;
                        let r2 = rank(&at[..k], &w) as usize;
                        at[i] = p;
                        prefetch(&mark[r2]);
                        let child = (r2, 1u32 << p);
                        if ring_len == RING {
                            let old = std::mem::replace(&mut ring[ring_head], child);
                            ring_head = (ring_head + 1) % RING;
                            queue_child(&mut mark, &mut next, old);
                        } else {
                            ring[(ring_head + ring_len) % RING] = child;
                            ring_len += 1;
                        }
                    }
                }
            }
            for j in 0..ring_len {
                queue_child(&mut mark, &mut next, ring[(ring_head + j) % RING]);
            }
            ring_len = 0;
            ring_head = 0;
            progress(reached, entries as u64);
            frontier.clear();
            for &r in &next {
                let m = mark[r as usize];
                frontier.push((u64::from(r) << 16) | u64::from(m >> 16));
                mark[r as usize] = m & 0xFFFF;
            }
            next.clear();
            if !frontier.is_empty() {
                d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
            }
        }
        value
    }

    #[test]
    fn chunked_builder_equals_the_one_before() {
        // the 15-puzzle's 5-tile groups (5-5-5) and a 3-tile one, and the 8-puzzle's 4-4
        for (n, tiles) in [(4, &[1u8, 2, 3, 5, 6][..]), (4, &[4, 7, 8, 11, 12]), (4, &[13, 14, 15]), (3, &[1, 2, 3, 4]),
                           (3, &[5, 6, 7, 8])] {
            assert!(build(n, tiles, |_, _| {}) == build_before(n, tiles, |_, _| {}), "{n} {tiles:?}");
        }
    }

    #[test]
    fn rank_round_trip() {
        let w = weights(9, 4);
        let mut out = [0u8; 4];
        for r in 0..count(9, 4) {
            unrank(r, &w, &mut out);
            assert_eq!(rank(&out, &w), r);
        }
    }

    #[test]
    fn crc_matches_zlib() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn full_8_puzzle_pattern_is_the_bfs_distribution() {
        let v = build(3, &[1, 2, 3, 4, 5, 6, 7, 8], |_, _| {});
        let mut hist = [0u32; 32];
        for &x in &v {
            if x != UNREACHED {
                hist[x as usize] += 1;
            }
        }
        assert_eq!(hist.iter().sum::<u32>(), 181_440);
        assert_eq!(hist[31], 2);
        assert_eq!(&hist[..6], &[1, 2, 4, 8, 16, 20]);
    }
}
