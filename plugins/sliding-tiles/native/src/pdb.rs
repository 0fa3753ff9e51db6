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
//!
//! **The builder's memory** ([`build`]): per placement one word of two bit planes over its `f = n*n - k`
//! free cells (bit `j` of a plane is the `j`-th free cell in cell order), the planes at bits 0 and `f`: two bits
//! per cell, so 16 bits when `f <= 8` (8 of the 15-puzzle's tiles), else 32.  A cell is *unseen* (0, 0), *seen*
//! (1, 1: in a region reached at this layer or before), or a seed of the layer of one parity, (1, 0) or (0, 1);
//! the two seed states swap roles with the layer's parity (current, next), so nothing is copied between layers.
//! Beside the words, the entries (one byte each) and, per parity, a bitmap of the placements that may hold
//! seeds of that layer.  A layer is the set bits of its bitmap, scanned in rank order: each placement's seeds
//! give (flood fill) the regions expanded, all their cells set seen (the seeds among them, so no layer mask is
//! cleared), and their children are queued (a cell unseen becomes a seed of the next layer) unless their cell
//! is seen, in this layer, or queued already; a seed later covered by a region of this layer is seen, so it is
//! dropped.  Each (placement, region) is therefore expanded once, at its exact distance, and the order in which
//! a layer's children are applied changes no entry.  Each child's word is prefetched and the child applied
//! once the next state is expanded.  Because the scan is in rank order, a child moving a late tile lands near
//! its parent (tile `i` keeps the digits before `i`: a block of `P(n*n-1-(i-1), k-i)` placements); children
//! moving the first tiles land far away.  (Gathering those and applying them after a counting sort by their
//! rank's high bits, in ascending blocks, cost more than the cache misses it saved: docs/pdb.md.)
//!
//! **The mirror** ([`Mirror`]).  Let `M` be the left-right mirror of the board and suppose the group is closed
//! under it (tile `t`'s goal mirrored is the goal of a group tile `t'`; `pi(i)` is the index of `t'`) and so
//! is the blank's region in the goal (the free cells connected to the last cell): the 7-8 partition's 8-tile
//! group 1..8, the top two rows, whose goal region is the bottom two rows.  Map a state (placement `p`, blank
//! cell `b`) to its image, the placement `p'` with `p'[pi(i)] = M(p[i])` and the blank on `M(b)`.  The image of a
//! move is a move of the image tile (M maps neighbours to neighbours), of a group tile exactly when the move is,
//! so of the same cost; the map is its own inverse, and it maps the goal states (the group home, the blank in
//! the goal region) onto themselves.  So it is an automorphism of the 0/1-cost graph fixing the goal set: a
//! state and its image have the same distance, and the entry of `p` (the least over its blank cells) equals
//! that of `p'`.  The builder therefore searches the quotient: a placement is *canonical* when its rank is at
//! most its image's, only canonical placements hold seeds, a child whose placement is not canonical is queued
//! as its image (the image placement, the blank's cell mirrored), and when a placement's entry is set, so is
//! its image's.  Breadth-first search on the quotient of a graph by an automorphism group that fixes the goal
//! set gives each class its distance, so every entry is the plain search's.  Rank order is the lexicographic
//! order of the cells, so the test compares the cells packed as nibbles (tile 0 highest) with the image's.  A
//! canonical parent's cells first differ from its image's at some tile `a`, where the parent's is lower; a move
//! of tile `i` changes only tile `i`'s cell in the placement and tile `pi(i)`'s in the image, so when both `i`
//! and `pi(i)` come after `a` the child still ranks strictly below its image, canonical without a test (for
//! tiles 1..8, mostly `a = 0`, and then only the moves of tiles 1 and 4 are tested, since `pi` swaps 1<->4,
//! 2<->3).  Half the placements are expanded, and half the words are touched (the others' pages are never
//! written, so never allocated).

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

/// The rank of the placement packed as nibbles, tile `i`'s cell at bit `nib[i]`.
#[inline]
fn rank_nibbles(packed: u64, w: &[u64], nib: &[u32]) -> u64 {
    let mut used: u32 = 0;
    let mut r = 0u64;
    for (&s, &wi) in nib.iter().zip(w) {
        let c = ((packed >> s) & 15) as u32;
        r += u64::from(c - (used & ((1u32 << c) - 1)).count_ones()) * wi;
        used |= 1 << c;
    }
    r
}

/// The cells of rank `r` (inverse of [`rank`]); returns the mask of the used cells.
#[inline]
pub fn unrank(mut r: u64, w: &[u64], out: &mut [u8]) -> u32 {
    let mut used: u32 = 0;
    for (i, &wi) in w.iter().enumerate() {
        let c = Soft::select(!used & 0xFFFF, (r / wi) as u32);
        r %= wi;
        out[i] = c as u8;
        used |= 1 << c;
    }
    used
}

// -- CRC-32 ---------------------------------------------------------------------------------------

/// zlib's `crc32(data)` (the ISO-HDLC polynomial, reflected `0xEDB88320`), by the `crc32fast` crate: folded
/// with carry-less multiplication where the CPU has it: 50 ms for 519 MB here, against 317 ms for slice-by-8
/// tables, and the 8-tile table's 519 MB are checked when written and again when loaded.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

// -- files -----------------------------------------------------------------------------------------

/// The file's parts for `values` (255 = unreachable) under `key` (its text and SHA-256 digest): the header
/// with the key text, and the packed data when entries take four bits (`None`: the data is `values` itself,
/// one byte each, so an 8-bit table is never copied).
fn parts(values: &[u8], key: &str, digest: &[u8; 32]) -> (Vec<u8>, Option<Vec<u8>>) {
    let top = values.iter().copied().filter(|&v| v != UNREACHED).max().unwrap_or(0);
    let packed: Option<Vec<u8>> = (top <= 14).then(|| {
        let nib = |v: u8| if v == UNREACHED { 15 } else { v };
        values.chunks(2).map(|p| nib(p[0]) | (p.get(1).map_or(15, |&v| nib(v)) << 4)).collect()
    });
    let (bits, data): (u32, &[u8]) = match &packed {
        Some(d) => (4, d),
        None => (8, values),
    };
    let mut head = Vec::with_capacity(HEAD + key.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&1u32.to_le_bytes());
    head.extend_from_slice(&bits.to_le_bytes());
    head.extend_from_slice(&(values.len() as u64).to_le_bytes());
    head.extend_from_slice(&(data.len() as u64).to_le_bytes());
    head.extend_from_slice(&crc32(data).to_le_bytes());
    head.extend_from_slice(&u32::from(top).to_le_bytes());
    head.extend_from_slice(digest);
    head.extend_from_slice(&(key.len() as u32).to_le_bytes());
    head.extend_from_slice(key.as_bytes());
    (head, packed)
}

/// The file bytes of `values` (255 = unreachable) under `key` (its text and SHA-256 digest).
pub fn encode(values: &[u8], key: &str, digest: &[u8; 32]) -> Vec<u8> {
    let (mut out, packed) = parts(values, key, digest);
    out.extend_from_slice(packed.as_deref().unwrap_or(values));
    out
}

/// Write the file of `values` to `path` (as [`encode`], without a copy of the data in memory: the 8-tile
/// table's 519 MB would otherwise be held three times at once), through a temporary file renamed into place,
/// so that `path` only ever holds a whole table; on an error (the disk full, `path` a folder) the temporary
/// file is removed.
///
/// The temporary file, `.NAME.PID-N.tmp` beside `path`, is created exclusively (`create_new`: `O_CREAT |
/// O_EXCL`, which fails on any existing entry, a symbolic link included, instead of following it; `N` counts
/// up past names already taken), so a link planted at that name never makes the builder write into the file
/// it points to; the rename replaces a link at `path` itself rather than following it.
pub fn write(path: &str, values: &[u8], key: &str, digest: &[u8; 32]) -> io::Result<()> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let (mut f, tmp) = create_temporary(path, nanos)?;
    let placed = (|| {
        let (head, packed) = parts(values, key, digest);
        f.write_all(&head)?;
        f.write_all(packed.as_deref().unwrap_or(values))?;
        f.flush()?;
        fs::rename(&tmp, path)
    })();
    if placed.is_err() {
        let _ = fs::remove_file(&tmp); // never leave a half-written or unplaceable table behind
    }
    placed
}

/// A new file `.NAME.PID-N.tmp` in `path`'s folder (`N` from `start` on), created exclusively (never through a
/// link), and its name.
fn create_temporary(path: &str, start: u32) -> io::Result<(fs::File, std::path::PathBuf)> {
    let target = std::path::Path::new(path);
    let name = target.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let pid = std::process::id();
    for n in 0..1000u32 {
        let tmp = folder.join(format!(".{}.{pid}-{}.tmp", name.to_string_lossy(), start.wrapping_add(n)));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o666).custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        match options.open(&tmp) {
            Ok(f) => return Ok((f, tmp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name beside the table"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The entries of a file (unpacked to one byte each), verified: magic, version, key digest, length, CRC.
/// The file's bytes become the entries of an 8-bit table in place (the header dropped), without a second copy.
pub fn decode(mut blob: Vec<u8>, digest: &[u8; 32]) -> Result<Vec<u8>, String> {
    if blob.len() < HEAD || &blob[..8] != MAGIC || u32_at(&blob, 8) != 1 {
        return Err("not a searchkit pattern database of format 1".into());
    }
    let bits = u32_at(&blob, 12);
    let entries = u64_at(&blob, 16) as usize;
    let size = u64_at(&blob, 24) as usize;
    if &blob[40..72] != digest {
        return Err("it holds another table (key digest differs)".into());
    }
    let keylen = u32_at(&blob, 72) as usize;
    let expected_size = if bits == 8 { entries } else { entries.div_ceil(2) };
    if (bits != 8 && bits != 4) || size != expected_size || blob.len() != HEAD + keylen + size {
        return Err(format!("{} bytes, expected {}", blob.len(), HEAD + keylen + expected_size));
    }
    let data = &blob[HEAD + keylen..];
    if crc32(data) != u32_at(&blob, 32) {
        return Err("checksum mismatch".into());
    }
    if bits == 8 {
        blob.drain(..HEAD + keylen);
        return Ok(blob);
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
    decode(blob, digest)
}

/// Back the whole of `v`'s allocation with memory now, in one call (Linux's `madvise(MADV_POPULATE_WRITE)`,
/// kernel 5.14 on), instead of one page fault per 4 kB page as it is first written: for the builder's entries
/// and layer bitmaps (650 MB for the 8-tile table, every page of which is written; not its words, of which a
/// mirrored group writes only half).  That took the 8-tile build's system time from 2.0 s to 1.4 s here
/// (docs/pdb.md).  Only advice: without it (another system, an older kernel) the pages are faulted in as
/// they are written.  (A table read from its file gains nothing: `read` faults its pages in the kernel.)
fn prefault<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = v.capacity() * std::mem::size_of::<T>();
        let start = v.as_mut_ptr() as usize;
        let (lo, hi) = ((start + 4095) & !4095, (start + bytes) & !4095);
        if hi > lo {
            // SAFETY: the range is whole pages inside `v`'s allocation, which we own; the advice changes no
            // byte of it (the pages are made present as if written, without writing), and its result (an
            // error on an older kernel) is ignored.
            unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_POPULATE_WRITE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

// -- the builder -----------------------------------------------------------------------------------

#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
}

/// One placement's word in the builder: two bit planes over the placement's `f = n*n - k` free cells (bit `j`
/// is the `j`-th free cell in cell order), at bits 0 and `f`; a cell's two bits are its state (module docs).
/// `u16` when that fits (`f <= 8`: 8 or more of the 15-puzzle's tiles), else `u32`.
trait Word: Copy {
    fn get(self) -> u64;
    fn put(x: u64) -> Self;
}

impl Word for u32 {
    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn put(x: u64) -> Self {
        x as u32
    }
}

impl Word for u16 {
    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn put(x: u64) -> Self {
        x as u16
    }
}

/// For each of `kids` (`(rank << 4) | free-cell index`), queue free cell `j` of placement `r` for the next layer
/// (its bit in the plane at `next`, and `r` in the bitmap `nextbits`) unless it is seen, in this layer, or queued
/// already.  Returns whether any was queued.
///
/// # Safety
///
/// Every kid's rank is below `word.len()`, and `nextbits` has a bit for each (the builder indexes `word` with
/// the rank, bounds-checked, when it queues the kid, to prefetch its word).
#[inline(always)]
unsafe fn apply_kids<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
    // without branches: whether the child is new is a coin toss the branch predictor would lose (a branch here
    // cost 6% on the 7-tile table)
    let seen = 1u64 | 1 << f;
    let mut any = 0;
    for &c in kids {
        let (r, j) = ((c >> 4) as usize, (c & 15) as u32);
        debug_assert!(r < word.len() && r >> 6 < nextbits.len());
        // SAFETY: the caller's promise (`r` is in range)
        let at = unsafe { word.get_unchecked_mut(r) };
        let e = at.get();
        let new = u64::from(e & (seen << j) == 0);
        *at = T::put(e | new << (j + next));
        // SAFETY: as above
        unsafe { *nextbits.get_unchecked_mut(r >> 6) |= new << (r & 63) };
        any |= new;
    }
    any != 0
}

/// [`apply_kids`] compiled with BMI2's shifts (only reached from [`build_bmi2`], which checks the CPU has them).
///
/// # Safety
///
/// As [`apply_kids`], on a CPU with BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
#[inline(never)]
unsafe fn apply_kids_bmi2<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
    // SAFETY: the caller's promise
    unsafe { apply_kids(word, nextbits, f, next, kids) }
}

/// [`apply_kids`] without BMI2.
///
/// # Safety
///
/// As [`apply_kids`].
#[inline(never)]
unsafe fn apply_kids_soft<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
    // SAFETY: the caller's promise
    unsafe { apply_kids(word, nextbits, f, next, kids) }
}

/// The table of the group `tiles` (tile numbers, goal `1 .. n*n-1` row-major then the blank) on the
/// `n` x `n` board: `P(n*n, k)` entries, the Python builder's numbers (module docs).
///
/// `progress(reached, total)` is called after each layer.
pub fn build(n: usize, tiles: &[u8], progress: impl FnMut(u64, u64)) -> Vec<u8> {
    build_with(n, tiles, true, progress)
}

/// [`build`] with or without a group's mirror symmetry (the tests try both; neither changes an entry).
fn build_with(n: usize, tiles: &[u8], sym: bool, progress: impl FnMut(u64, u64)) -> Vec<u8> {
    assert!((2..=4).contains(&n), "boards of side 2 to 4");
    let cells = n * n;
    let k = tiles.len();
    assert!(k >= 1 && k < cells && tiles.iter().all(|&t| t >= 1 && (t as usize) < cells));
    let mirror = if sym { Mirror::of(n, tiles) } else { None };
    if 2 * (cells - k) <= 16 {
        dispatch::<u16>(n, tiles, mirror, progress)
    } else {
        dispatch::<u32>(n, tiles, mirror, progress)
    }
}

/// The left-right mirror of a group whose table it leaves unchanged (module docs, "the mirror").
#[derive(Clone, Copy)]
struct Mirror {
    /// the mirror image of each cell (`n*n` of them)
    cell: [u8; 16],
    /// per tile index `i`, the index of the tile whose goal is the mirror of tile `i`'s
    tile: [u8; 16],
}

impl Mirror {
    /// The mirror of the group `tiles` on the `n` x `n` board, if it maps the table onto itself: the group
    /// is closed under the mirror (each tile's goal mirrored is a group tile's goal) and so is the blank's
    /// region in the goal (the free cells connected to the last cell).
    fn of(n: usize, tiles: &[u8]) -> Option<Mirror> {
        let cells = n * n;
        let mut m = Mirror { cell: [0; 16], tile: [0; 16] };
        for c in 0..cells {
            m.cell[c] = (c - c % n + (n - 1 - c % n)) as u8;
        }
        for (i, &t) in tiles.iter().enumerate() {
            let image = m.cell[usize::from(t - 1)] + 1;
            m.tile[i] = tiles.iter().position(|&u| u == image)? as u8;
        }
        let used: u32 = tiles.iter().fold(0, |acc, &t| acc | 1 << (t - 1));
        let mut region = 1u32 << (cells - 1);
        loop {
            let mut grown = region;
            for c in 0..cells {
                if region >> c & 1 != 0 {
                    for d in 0..cells {
                        let (r1, c1, r2, c2) = (c / n, c % n, d / n, d % n);
                        if r1.abs_diff(r2) + c1.abs_diff(c2) == 1 && used >> d & 1 == 0 {
                            grown |= 1 << d;
                        }
                    }
                }
            }
            if grown == region {
                break;
            }
            region = grown;
        }
        let mirrored = (0..cells).filter(|&c| region >> c & 1 != 0).fold(0u32, |acc, c| acc | 1 << m.cell[c]);
        (mirrored == region).then_some(m)
    }
}

/// [`build_body`] in the fastest variant the CPU runs.
fn dispatch<T: Word>(n: usize, tiles: &[u8], mirror: Option<Mirror>,
                     progress: impl FnMut(u64, u64)) -> Vec<u8> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has the instructions the function is compiled for (checked just above).
        return unsafe { build_bmi2::<T>(n, tiles, mirror, progress) };
    }
    side::<T, Soft>(n, tiles, mirror, progress)
}

/// [`build_body`] compiled with `popcnt` and BMI1/2 (`pdep`/`pext` for the masks over the free cells,
/// `tzcnt`, `blsr`; otherwise loops of a dozen instructions each).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
unsafe fn build_bmi2<T: Word>(n: usize, tiles: &[u8], mirror: Option<Mirror>,
                              progress: impl FnMut(u64, u64)) -> Vec<u8> {
    side::<T, Bmi2>(n, tiles, mirror, progress)
}

/// [`build_body`] for the board side `n` as a constant (the flood fill's masks and the moves' loops then
/// unroll).
#[inline(always)]
fn side<T: Word, B: Bits>(n: usize, tiles: &[u8], mirror: Option<Mirror>,
                          progress: impl FnMut(u64, u64)) -> Vec<u8> {
    match n {
        2 => build_body::<T, B, 2>(tiles, mirror, progress),
        3 => build_body::<T, B, 3>(tiles, mirror, progress),
        _ => build_body::<T, B, 4>(tiles, mirror, progress),
    }
}

/// Masks over a placement's free cells: `deposit(x, m)` puts bit `j` of `x` on the `j`-th set bit of `m`,
/// `extract` is its inverse on the bits of `m` (the x86 `pdep`/`pext`).
trait Bits {
    fn deposit(x: u32, m: u32) -> u32;
    fn extract(x: u32, m: u32) -> u32;
    /// The `d`-th set bit of `m` (lowest first).
    #[inline(always)]
    fn select(m: u32, d: u32) -> u32 {
        Self::deposit(1 << d, m).trailing_zeros()
    }
    /// [`apply_kids`] for this variant, not inlined: in the builder's loop its pointers would be spilled to the
    /// stack and read again for every child.
    ///
    /// # Safety
    ///
    /// As [`apply_kids`].
    #[inline(always)]
    unsafe fn apply_all<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise
        unsafe { apply_kids_soft(word, nextbits, f, next, kids) }
    }
}

/// [`Bits`] by loops over the set bits.
struct Soft;

impl Bits for Soft {
    #[inline(always)]
    fn deposit(mut x: u32, mut m: u32) -> u32 {
        let mut out = 0;
        while x != 0 {
            let low = m & m.wrapping_neg();
            if x & 1 != 0 {
                out |= low;
            }
            m ^= low;
            x >>= 1;
        }
        out
    }
    #[inline(always)]
    fn extract(x: u32, m: u32) -> u32 {
        let mut out = 0;
        let mut bits = x & m;
        while bits != 0 {
            let c = bits.trailing_zeros();
            bits &= bits - 1;
            out |= 1 << (m & ((1u32 << c) - 1)).count_ones();
        }
        out
    }
}

/// [`Bits`] by the BMI2 instructions (only inside [`build_bmi2`], which checks the CPU has them).
#[cfg(target_arch = "x86_64")]
struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn deposit(x: u32, m: u32) -> u32 {
        // SAFETY: reached only from `build_bmi2`, run only on CPUs with BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(x, m) }
    }
    #[inline(always)]
    fn extract(x: u32, m: u32) -> u32 {
        // SAFETY: as in `deposit`.
        unsafe { std::arch::x86_64::_pext_u32(x, m) }
    }
    #[inline(always)]
    unsafe fn apply_all<T: Word>(word: &mut [T], nextbits: &mut [u64], f: u32, next: u32, kids: &[u64]) -> bool {
        // SAFETY: the caller's promise, and reached only from `build_bmi2`, run only on CPUs with BMI2
        unsafe { apply_kids_bmi2(word, nextbits, f, next, kids) }
    }
}

#[inline(always)]
fn build_body<T: Word, B: Bits, const N: usize>(tiles: &[u8], mirror: Option<Mirror>,
                                                mut progress: impl FnMut(u64, u64)) -> Vec<u8> {
    let cells = N * N;
    let k = tiles.len();
    let f = (cells - k) as u32;
    let fmask = (1u64 << f) - 1;
    let w = weights(cells, k);
    let mut w16 = [0u64; 16];
    w16[..k].copy_from_slice(&w);
    let entries = count(cells, k) as usize;
    let full: u32 = (1u32 << cells) - 1;
    let nn = N as u32;
    let mut left_col = 0u32;
    for r in 0..nn {
        left_col |= 1 << (r * nn);
    }
    let right_col = left_col << (nn - 1);
    let spread = |m: u32| ((m << nn) | (m >> nn) | ((m & !right_col) << 1) | ((m & !left_col) >> 1)) & full;
    let mut neighbours = [0u32; 16];
    for (c, x) in neighbours[..cells].iter_mut().enumerate() {
        *x = spread(1 << c);
    }
    let bits_len = entries.div_ceil(64);
    let mut value: Vec<u8> = Vec::with_capacity(entries);
    prefault(&mut value);
    value.resize(entries, UNREACHED);
    // tile i's nibble in a placement packed as nibbles, tile 0 highest (the mirror's test, module docs)
    let mut nib = [0u32; 16];
    for (i, x) in nib[..k].iter_mut().enumerate() {
        *x = 4 * (k - 1 - i) as u32;
    }
    // tile i's cell mirrored is tile `m.tile[i]`'s in the image; a move of tile i changes the first `before[i]`
    // tiles' cells of neither the placement nor its image (16 without the mirror: no child is tested)
    let mut image_nib = [0u32; 16];
    let mut before = [16u8; 16];
    if let Some(m) = mirror {
        for (i, x) in image_nib[..k].iter_mut().enumerate() {
            *x = nib[usize::from(m.tile[i])];
            before[i] = m.tile[i].min(i as u8);
        }
    }
    // per layer parity, one bit per placement: its layer mask is not empty
    let mut bits = [vec![0u64; bits_len], vec![0u64; bits_len]];
    bits.iter_mut().for_each(prefault);
    // per placement its two bit planes over the free cells (module docs, "the builder's memory")
    let mut word: Vec<T> = vec![T::put(0); entries];
    // Decoding a rank (the frontier is scanned in rank order): of the first `s` digits, digit `t` is kept while
    // the rank stays in the block of `w[t]` placements that digits 0 ..= t fix (it starts at `start[t]`), so only
    // the digits from the first block left are decoded again; the last ones come from a table.
    let s = k.saturating_sub(2);
    let tail = if s == 0 { entries } else { w[s - 1] as usize };
    let low: Vec<[u8; 2]> = (0..tail as u64)
        .map(|mut rem| {
            let mut dg = [0u8; 2];
            for (slot, &wi) in w[s..].iter().enumerate() {
                dg[slot] = (rem / wi) as u8;
                rem %= wi;
            }
            dg
        })
        .collect();
    let mut start = [usize::MAX / 2; 16];
    // per prefix length t <= s, with the first t tiles decoded: the cells packed as nibbles (tile 0 highest,
    // so that numeric order is rank order), those of the mirror image, and the image's used cells
    let (mut pk, mut im, mut iu) = ([0u64; 16], [0u64; 16], [0u32; 16]);
    let mut mcell = [0u8; 16];
    for (c, x) in mcell.iter_mut().enumerate() {
        *x = mirror.map_or(c as u8, |m| m.cell[c]);
    }
    // the goal: the group home, the blank on the last cell
    let goal: Vec<u8> = tiles.iter().map(|&t| t - 1).collect();
    let rg = rank(&goal, &w) as usize;
    let goal_used: u32 = goal.iter().fold(0, |m, &c| m | 1 << c);
    let j0 = (full & !goal_used & ((1u32 << (cells - 1)) - 1)).count_ones();
    word[rg] = T::put(1u64 << (j0 + f));
    bits[0][rg >> 6] |= 1u64 << (rg & 63);
    let mut d: u8 = 0;
    let mut reached = 0u64;
    // a state's children, applied after the next state is expanded (prefetched until then)
    // (`(rank << 4) | free-cell index`, at most 4 per tile, so fewer than 64)
    let mut kids = [0u64; 64];
    let mut nkids = 0;
    // per used cell the index of its tile and its weight, per tile the cells of the tiles before it, kept
    // with the decoded digits; never cleared: only used cells are read (`wcell` masked by `passed`)
    let mut tile_at = [0u8; 16];
    let mut wcell = [0u64; 32];
    let mut earlier = [0u32; 16];
    loop {
        let par = (d & 1) as usize;
        let cur = f * (1 - par as u32);
        let next = f * par as u32;
        let (b0, b1) = bits.split_at_mut(1);
        let (curbits, nextbits) = if par == 0 { (&mut b0[0], &mut b1[0]) } else { (&mut b1[0], &mut b0[0]) };
        let mut any = false;
        for (wi, slot) in curbits.iter_mut().enumerate() {
            let mut m = std::mem::take(slot);
            while m != 0 {
                let r = (wi << 6) | m.trailing_zeros() as usize;
                m &= m - 1;
                let e = word[r].get();
                let seeds = (e >> cur) & !(e >> next) & fmask;
                if seeds == 0 {
                    continue;
                }
                // decode r into the per-cell and per-tile tables, the used cells and the nibbles
                let block_start = if s == 0 {
                    0
                } else {
                    if r.wrapping_sub(start[s - 1]) >= tail {
                        // the first digit whose block r left (the blocks nest; with the scan ascending, mostly a late one)
                        let mut t = s - 1;
                        while t > 0 && r.wrapping_sub(start[t - 1]) >= w[t - 1] as usize {
                            t -= 1;
                        }
                        let mut base = if t == 0 { 0 } else { start[t - 1] };
                        for t in t..s {
                            let wt = w[t] as usize;
                            let dg = (r - base) / wt;
                            base += dg * wt;
                            start[t] = base;
                            let c = B::select(full & !earlier[t], dg as u32);
                            earlier[t + 1] = earlier[t] | 1 << c;
                            tile_at[c as usize] = t as u8;
                            wcell[c as usize] = w[t];
                            let mc = mcell[c as usize];
                            pk[t + 1] = pk[t] | u64::from(c) << nib[t];
                            im[t + 1] = im[t] | u64::from(mc) << image_nib[t];
                            iu[t + 1] = iu[t] | 1 << mc;
                        }
                    }
                    start[s - 1]
                };
                let (mut used, mut packed, mut image, mut image_used) = (earlier[s], pk[s], im[s], iu[s]);
                for (i, &dg) in (s..k).zip(&low[r - block_start][..k - s]) {
                    let c = B::select(full & !used, u32::from(dg));
                    earlier[i] = used;
                    tile_at[c as usize] = i as u8;
                    wcell[c as usize] = w[i];
                    let mc = mcell[c as usize];
                    packed |= u64::from(c) << nib[i];
                    image |= u64::from(mc) << image_nib[i];
                    image_used |= 1 << mc;
                    used |= 1 << c;
                }
                let free = full & !used;
                // the seeds' cells, their region, and the region as free-cell indices
                let mut region = B::deposit(seeds as u32, free);
                loop {
                    let grown = (region | spread(region)) & free;
                    if grown == region {
                        break;
                    }
                    region = grown;
                }
                let x = u64::from(B::extract(region, free));
                let e = e | x | x << f;
                // with the mirror: the first tile whose cell differs from the image's (k if none); a child moving a
                // tile that is after it, and whose image tile is too, ranks below its image like its parent
                let first = match packed ^ image {
                    0 => k,
                    x => k - 1 - (63 - x.leading_zeros() as usize) / 4,
                };
                if value[r] == UNREACHED {
                    value[r] = d;
                    reached += 1;
                    if mirror.is_some() {
                        // the mirror image's entry is the same (module docs, "the mirror")
                        let ri = rank_nibbles(image, &w, &nib[..k]) as usize;
                        if value[ri] == UNREACHED {
                            value[ri] = d;
                            reached += 1;
                        }
                    }
                }
                word[r] = T::put(e);
                // the previous state's children, their words prefetched meanwhile
                // SAFETY: each kid's rank indexed `word` (bounds-checked) when it was queued
                any |= unsafe { B::apply_all(&mut word, nextbits, f, next, &kids[..nkids]) };
                nkids = 0;
                // the children: tile i from p next to the region to q in it, the blank left on p
                // a child: its word prefetched, and the child applied after the next state is expanded
                macro_rules! child {
                    ($check:expr, $r2:expr, $j:expr, $i:expr, $p:expr, $q:expr) => {{
                        let (mut r2, mut j): (usize, u32) = ($r2, $j);
                        if let Some((others, image_others)) = $check {
                            // tile i from p to q: if the child's image ranks lower, queue the image instead
                            let (i, p, q): (usize, u32, u32) = ($i, $p, $q);
                            let (mp, mq) = (u32::from(mcell[p as usize]), u32::from(mcell[q as usize]));
                            let child = others | u64::from(q) << nib[i];
                            let child_image = image_others | u64::from(mq) << image_nib[i];
                            if child_image < child {
                                r2 = rank_nibbles(child_image, &w, &nib[..k]) as usize;
                                let image_free = full & !(image_used ^ (1 << mp) ^ (1 << mq));
                                j = (image_free & ((1 << mp) - 1)).count_ones();
                            }
                        }
                        prefetch(&word[r2]);
                        kids[nkids & 63] = ((r2 as u64) << 4) | u64::from(j);
                        nkids += 1;
                    }};
                }
                let mut movable = spread(region) & used;
                while movable != 0 {
                    let p = movable.trailing_zeros() & 15;
                    movable &= movable - 1;
                    let i = tile_at[p as usize] as usize & 15;
                    let (wi, at_p) = (w16[i], 1u32 << p);
                    let targets = neighbours[p as usize] & region;
                    // the child's blank cell p among its free cells: p's index among ours, less one when the
                    // tile moves to a lower cell (that cell is no longer free)
                    let jp = (free & (at_p - 1)).count_ones();
                    // when a move of tile i can change the first cell where the placement and its image differ:
                    // the nibbles without tile i's, and the image's (module docs, "the mirror")
                    let check = (usize::from(before[i]) <= first)
                        .then(|| (packed & !(15 << nib[i]), image & !(15 << image_nib[i])));
                    // sideways: only digit i moves, by one
                    if targets & (at_p >> 1) != 0 {
                        child!(check, r - wi as usize, jp - 1, i, p, p - 1);
                    }
                    if targets & (at_p << 1) != 0 {
                        child!(check, r + wi as usize, jp, i, p, p + 1);
                    }
                    // up or down: digit i moves by one for the step and one per cell stepped over that is free
                    // or a later tile's; each later tile j stepped over moves its own digit by one (its count
                    // of earlier cells below it changes), so the rank by w[j]
                    let vertical = |lo: u32| {
                        let between = ((1u32 << (N - 1)) - 1) << (lo + 1);
                        let passed = between & used & !earlier[i] & !at_p;
                        let mut delta = wi * u64::from(1 + (between & !earlier[i]).count_ones());
                        for t in 1..N as u32 {
                            let c = (lo + t) & 31;
                            delta += wcell[c as usize] & u64::from((passed >> c) & 1).wrapping_neg();
                        }
                        delta as usize
                    };
                    if targets & (at_p >> N) != 0 {
                        child!(check, r - vertical(p - N as u32), jp - 1, i, p, p - N as u32);
                    }
                    if targets & (at_p << N) != 0 {
                        child!(check, r + vertical(p), jp, i, p, p + N as u32);
                    }
                }
            }
        }
        // SAFETY: as in the loop
        any |= unsafe { B::apply_all(&mut word, nextbits, f, next, &kids[..nkids]) };
        nkids = 0;
        progress(reached, entries as u64);
        if !any {
            break;
        }
        d = d.checked_add(1).filter(|&x| x < UNREACHED).expect("a distance above 254");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn builder_equals_the_one_before() {
        // the 15-puzzle's 5-tile groups (5-5-5) and a 3-tile one (64-bit words), the 8-puzzle's 4-4 and 8 (32-bit
        // words); every child applied at once, every one gathered and sorted (in small chunks), and the default
        for (n, tiles) in [(4, &[1u8, 2, 3, 5, 6][..]), (4, &[4, 7, 8, 11, 12]), (4, &[13, 14, 15]), (3, &[1, 2, 3, 4]),
                           (3, &[5, 6, 7, 8]), (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            let before = build_before(n, tiles, |_, _| {});
            assert!(build(n, tiles, |_, _| {}) == before, "{n} {tiles:?}");
        }
    }

    /// Groups the left-right mirror maps onto themselves, with the blank's goal region: the 15-puzzle's top row, its
    /// second row (the goal region is then the bottom two rows), the top row's corners, and the 7-8 partition's
    /// 8-tile group (top two rows) less two mirrored tiles; on the 8-puzzle, the top row (tile 2 its own image).  In
    /// several tile orders, so that the first tiles the mirror maps onto themselves are 1, 2, 4 or all.
    const MIRRORED: [(usize, &[u8]); 8] =
        [(4, &[1, 2, 3, 4]), (4, &[5, 6, 7, 8]), (4, &[1, 4]), (4, &[1, 2, 3, 4, 5, 8]), (4, &[6, 2, 7, 3]),
         (4, &[2, 3, 1, 4]), (3, &[1, 2, 3]), (3, &[2, 1, 3])];

    #[test]
    fn mirror_is_found_only_where_it_holds() {
        for (n, tiles) in MIRRORED {
            assert!(Mirror::of(n, tiles).is_some(), "{n} {tiles:?}");
        }
        let m = Mirror::of(4, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        assert_eq!(m.tile[..8], [3, 2, 1, 0, 7, 6, 5, 4]);
        assert_eq!(Mirror::of(4, &[6, 2, 7, 3]).unwrap().tile[..4], [2, 3, 0, 1]);
        // not closed (tile 1's image is 4), or the goal region not (the blank's cell 15 alone, or with 11 only)
        for (n, tiles) in [(4, &[1u8, 2, 3][..]), (4, &[9, 10, 11, 12, 13, 14, 15]), (4, &[9, 10, 13, 14, 15]),
                           (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            assert!(Mirror::of(n, tiles).is_none(), "{n} {tiles:?}");
        }
    }

    #[test]
    fn mirrored_placements_have_equal_entries() {
        // the claim behind the symmetric build, checked on the plain builder's tables
        for (n, tiles) in MIRRORED {
            let m = Mirror::of(n, tiles).unwrap();
            let (cells, k) = (n * n, tiles.len());
            let w = weights(cells, k);
            let v = build_with(n, tiles, false, |_, _| {});
            let (mut at, mut image) = ([0u8; 16], [0u8; 16]);
            for r in 0..v.len() as u64 {
                unrank(r, &w, &mut at[..k]);
                for i in 0..k {
                    image[usize::from(m.tile[i])] = m.cell[usize::from(at[i])];
                }
                assert_eq!(v[r as usize], v[rank(&image[..k], &w) as usize], "{n} {tiles:?} {:?}", &at[..k]);
            }
        }
    }

    #[test]
    fn mirrored_build_equals_the_one_before() {
        // only half the placements expanded, children whose image ranks lower queued as the image; also with every
        // child gathered and sorted, and with every one applied at once
        for (n, tiles) in MIRRORED {
            let before = build_before(n, tiles, |_, _| {});
            assert!(build(n, tiles, |_, _| {}) == before, "{n} {tiles:?}");
        }
    }

    #[test]
    fn builder_without_bmi2_equals_the_one_before() {
        // the variant a CPU without BMI2 runs (loops for pdep and pext, its own children's loop), with 32- and
        // 16-bit words, with and without the mirror
        for (n, tiles) in [(4, &[1u8, 2, 3, 4, 5, 8][..]), (4, &[13, 14, 15]), (3, &[1, 2, 3]),
                           (3, &[1, 2, 3, 4, 5, 6, 7, 8])] {
            let before = build_before(n, tiles, |_, _| {});
            let mirror = Mirror::of(n, tiles);
            let v = if 2 * (n * n - tiles.len()) <= 16 {
                side::<u16, Soft>(n, tiles, mirror, |_, _| {})
            } else {
                side::<u32, Soft>(n, tiles, mirror, |_, _| {})
            };
            assert!(v == before, "{n} {tiles:?}");
        }
        assert!(Mirror::of(4, &[1, 2, 3, 4, 5, 8]).is_some() && Mirror::of(3, &[1, 2, 3]).is_some());
    }

    #[test]
    fn bmi2_masks_equal_the_loops() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut x = 0x1234_5678u32;
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let (a, m) = (x & 0xFFFF, x >> 16);
                assert_eq!(Soft::deposit(a, m), Bmi2::deposit(a, m));
                assert_eq!(Soft::extract(a, m), Bmi2::extract(a, m));
            }
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

    #[cfg(unix)]
    #[test]
    fn write_never_follows_a_planted_link() {
        // links planted at every temporary name the writer could pick (this process's pid) and at the table's
        // name: the files they point to stay untouched, and the table is written whole at its own name
        let dir = std::env::temp_dir().join(format!("skpdb-link-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, b"precious").unwrap();
        let path = dir.join("t.pdb");
        let pid = std::process::id();
        for n in 0..50u32 {
            std::os::unix::fs::symlink(&victim, dir.join(format!(".t.pdb.{pid}-{}.tmp", 1000 + n))).unwrap();
        }
        let (mut f, tmp) = create_temporary(path.to_str().unwrap(), 1000).unwrap();
        f.write_all(b"table").unwrap();
        assert_eq!(tmp, dir.join(format!(".t.pdb.{pid}-1050.tmp")));
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        fs::remove_file(&tmp).unwrap();
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        let digest = [7u8; 32];
        write(path.to_str().unwrap(), &[0, 1, 2, UNREACHED], "k", &digest).unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert!(!fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
        assert_eq!(decode(fs::read(&path).unwrap(), &digest).unwrap(), vec![0, 1, 2, UNREACHED]);
        fs::remove_dir_all(&dir).unwrap();
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
