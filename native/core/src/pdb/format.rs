//! The pattern-database file, format 1: read and written byte for byte as `searchkit/machinery/pdb/store.py` does.
//!
//! A 76-byte little-endian header, the key text, then the data:
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `SKPDB01\n` |
//! | 8 | 4 | format version, 1 |
//! | 12 | 4 | bits per entry: 8 or 4 |
//! | 16 | 8 | entries `E` |
//! | 24 | 8 | data bytes `D`: `E` with 8 bits, `ceil(E / 2)` with 4 |
//! | 32 | 4 | CRC-32 of the data (zlib's) |
//! | 36 | 4 | the largest value, unreachable marks excluded |
//! | 40 | 32 | SHA-256 of the key text |
//! | 72 | 4 | key text length `L` |
//! | 76 | `L` | the key text (UTF-8) |
//! | 76 + `L` | `D` | one byte per entry, or two entries per byte (the even entry in the low nibble) |
//!
//! 255 (15 with four bits) marks an unreachable entry; four bits are used when every reachable value is at
//! most 14.  A file is accepted only if its length is exactly `76 + L + D`, its key digest is the expected one
//! and the data's CRC-32 matches ([`read_checked`] leaves the CRC out for a file searchkit's verification stamp
//! says was checked whole since it was written: `searchkit/machinery/pdb/store.py`, `stamp`).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::UNREACHED;

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"SKPDB01\n";
/// The format version this module reads and writes.
pub const VERSION: u32 = 1;
/// The header's length in bytes, before the key text.
pub const HEAD: usize = 76;

/// zlib's `crc32(data)` (the ISO-HDLC polynomial, reflected `0xEDB88320`), by the `crc32fast` crate: folded
/// with carry-less multiplication where the CPU has it: 50 ms for 519 MB here, against 317 ms for slice-by-8
/// tables, and a big table is checked when written and again when loaded.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// The CRC-32 of `values` ([`crc32`]) and their largest value, the unreachable mark (255) excluded (0 if
/// none), in one pass over blocks of 64 kB that stay in the cache between the two.
fn crc_and_top(values: &[u8]) -> (u32, u8) {
    // per lane the largest value plus one, the mark (255) wrapping to 0: a loop the compiler vectorises
    let mut lanes = [0u8; 64];
    let mut crc = crc32fast::Hasher::new();
    for block in values.chunks(1 << 16) {
        crc.update(block);
        let rows = block.chunks_exact(64);
        let rest = rows.remainder();
        for row in rows {
            for (m, &v) in lanes.iter_mut().zip(row) {
                *m = (*m).max(v.wrapping_add(1));
            }
        }
        for (m, &v) in lanes.iter_mut().zip(rest) {
            *m = (*m).max(v.wrapping_add(1));
        }
    }
    (crc.finalize(), lanes.iter().copied().max().unwrap_or(0).saturating_sub(1))
}

/// The file's parts for `values` (255 = unreachable) under `key` (its text and SHA-256 digest): the header
/// with the key text, and the packed data when entries take four bits (`None`: the data is `values` itself,
/// one byte each, so an 8-bit table is never copied).
fn parts(values: &[u8], key: &str, digest: &[u8; 32]) -> (Vec<u8>, Option<Vec<u8>>) {
    let (crc, top) = crc_and_top(values);
    let packed: Option<Vec<u8>> = (top <= 14).then(|| {
        let nib = |v: u8| if v == UNREACHED { 15 } else { v };
        values.chunks(2).map(|p| nib(p[0]) | (p.get(1).map_or(15, |&v| nib(v)) << 4)).collect()
    });
    let (bits, data, crc): (u32, &[u8], u32) = match &packed {
        Some(d) => (4, d, crc32(d)),
        None => (8, values, crc),
    };
    let mut head = Vec::with_capacity(HEAD + key.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&bits.to_le_bytes());
    head.extend_from_slice(&(values.len() as u64).to_le_bytes());
    head.extend_from_slice(&(data.len() as u64).to_le_bytes());
    head.extend_from_slice(&crc.to_le_bytes());
    head.extend_from_slice(&u32::from(top).to_le_bytes());
    head.extend_from_slice(digest);
    head.extend_from_slice(&(key.len() as u32).to_le_bytes());
    head.extend_from_slice(key.as_bytes());
    (head, packed)
}

/// The file bytes of `values` (one byte per entry, 255 = unreachable) under `key` (its text and SHA-256
/// `digest`, which the caller computes: the core has no SHA-256).
pub fn encode(values: &[u8], key: &str, digest: &[u8; 32]) -> Vec<u8> {
    let (mut out, packed) = parts(values, key, digest);
    out.extend_from_slice(packed.as_deref().unwrap_or(values));
    out
}

/// Write the file of `values` to `path` (as [`encode`], without a copy of the data in memory: a 519 MB
/// table would otherwise be held three times at once), through a temporary file renamed into place, so that
/// `path` only ever holds a whole table; on an error (the disk full, `path` a folder) the temporary file is
/// removed.
///
/// Where the system allows it (Linux's `O_TMPFILE`, and `/proc/self/fd` to name the open file), the data is
/// written to an *anonymous* file in `path`'s folder, which has no name until it is whole: it is then linked
/// as `.NAME.PID-N.tmp` and renamed over `path`.  A process killed while it writes (a second Ctrl-C that
/// interrupts the interpreter's wait for a write-behind thread, `kill -9`) leaves nothing behind, since the
/// kernel frees an anonymous file with its last descriptor; only the two system calls between the link and
/// the rename can leave a (whole) temporary file.  Elsewhere the data goes straight to the named temporary
/// file.
///
/// The temporary name is created exclusively (`create_new`: `O_CREAT | O_EXCL`, with `O_NOFOLLOW`, which
/// fails on any existing entry, a symbolic link included, instead of following it; `linkat` likewise never
/// replaces or follows an existing entry; `N` counts up past names already taken), so a link planted at that
/// name never makes the writer write into the file it points to; the rename replaces a link at `path` itself
/// rather than following it.
///
/// # Errors
///
/// The operating system's error from creating, writing, linking or renaming the file.
pub fn write(path: &Path, values: &[u8], key: &str, digest: &[u8; 32]) -> io::Result<()> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let fill = |f: &mut fs::File| -> io::Result<()> {
        let (head, packed) = parts(values, key, digest);
        f.write_all(&head)?;
        f.write_all(packed.as_deref().unwrap_or(values))?;
        f.flush()
    };
    if let Some(mut f) = open_anonymous(path) {
        fill(&mut f)?; // on an error the anonymous file is freed with `f`: nothing to remove
        let tmp = link_temporary(&f, path, nanos)?;
        let placed = fs::rename(&tmp, path);
        if placed.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        return placed;
    }
    let (mut f, tmp) = create_temporary(path, nanos)?;
    let placed = fill(&mut f).and_then(|()| fs::rename(&tmp, path));
    if placed.is_err() {
        let _ = fs::remove_file(&tmp); // never leave a half-written or unplaceable table behind
    }
    placed
}

/// An anonymous file (`O_TMPFILE`) in `path`'s folder, or `None` where there is none to be had: not Linux,
/// a file system without `O_TMPFILE`, no `/proc/self/fd` to link it by (the caller then writes a named
/// temporary file).  `SEARCHKIT_NO_TMPFILE` set in the environment gives `None` too, so that the tests run
/// the other way as well.
fn open_anonymous(path: &Path) -> Option<fs::File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        if std::env::var_os("SEARCHKIT_NO_TMPFILE").is_some() || !Path::new("/proc/self/fd").is_dir() {
            return None;
        }
        let (_, folder) = name_and_folder(path).ok()?;
        let mut options = fs::OpenOptions::new();
        options.write(true).mode(0o666).custom_flags(libc::O_TMPFILE | libc::O_CLOEXEC);
        options.open(folder).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

/// Give the whole anonymous file `f` its temporary name `.NAME.PID-N.tmp` beside `path` (`linkat` through
/// `/proc/self/fd`, which fails on an existing entry rather than replacing or following it: `N` counts up
/// from `start` past names taken), and return the name.
#[cfg(target_os = "linux")]
fn link_temporary(f: &fs::File, path: &Path, start: u32) -> io::Result<PathBuf> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::io::AsRawFd;

    let (name, folder) = name_and_folder(path)?;
    let from = CString::new(format!("/proc/self/fd/{}", f.as_raw_fd())).expect("no NUL in a number");
    let pid = std::process::id();
    for n in 0..1000u32 {
        let tmp = folder.join(format!(".{}.{pid}-{}.tmp", name.to_string_lossy(), start.wrapping_add(n)));
        let to = CString::new(tmp.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in the table's path"))?;
        // SAFETY: two NUL-terminated paths alive across the call, each relative to the working folder if not
        // absolute; AT_SYMLINK_FOLLOW resolves the /proc link to the open file itself.
        let follow = libc::AT_SYMLINK_FOLLOW;
        let done = unsafe { libc::linkat(libc::AT_FDCWD, from.as_ptr(), libc::AT_FDCWD, to.as_ptr(), follow) };
        if done == 0 {
            return Ok(tmp);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::AlreadyExists {
            return Err(e);
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name beside the table"))
}

#[cfg(not(target_os = "linux"))]
fn link_temporary(_: &fs::File, _: &Path, _: u32) -> io::Result<PathBuf> {
    unreachable!("open_anonymous gives no file here")
}

/// `path`'s file name and folder (`.` for a bare name).
fn name_and_folder(path: &Path) -> io::Result<(&std::ffi::OsStr, &Path)> {
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    Ok((name, path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))))
}

/// A new file `.NAME.PID-N.tmp` in `path`'s folder (`N` from `start` on), created exclusively (never through a
/// link), and its name.
fn create_temporary(path: &Path, start: u32) -> io::Result<(fs::File, PathBuf)> {
    let (name, folder) = name_and_folder(path)?;
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

/// The entries of a file (unpacked to one byte each, 255 = unreachable), verified: magic, version, key
/// digest, length, CRC.  The file's bytes become the entries of an 8-bit table in place (the header dropped),
/// without a second copy.
///
/// # Errors
///
/// Why the bytes are not the table of `digest` (a sentence without the path).
pub fn decode(blob: Vec<u8>, digest: &[u8; 32]) -> Result<Vec<u8>, String> {
    decode_checked(blob, digest, true)
}

/// [`decode`], checking the data's CRC-32 only when `crc` (the header, the key digest and the length always):
/// without it for a file the caller knows was verified whole since it was last written (searchkit's
/// verification stamp, `searchkit/machinery/pdb/store.py`: `stamp`, which says what that proves and what not).
///
/// # Errors
///
/// As [`decode`].
pub fn decode_checked(mut blob: Vec<u8>, digest: &[u8; 32], crc: bool) -> Result<Vec<u8>, String> {
    if blob.len() < HEAD || &blob[..8] != MAGIC || u32_at(&blob, 8) != VERSION {
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
    let whole = |data: usize| HEAD.saturating_add(keylen).saturating_add(data);
    if (bits != 8 && bits != 4) || size != expected_size || blob.len() != whole(size) {
        return Err(format!("{} bytes, expected {}", blob.len(), whole(expected_size)));
    }
    let data = &blob[HEAD + keylen..];
    if crc && crc32(data) != u32_at(&blob, 32) {
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

/// A plain 8-bit table file's header and where its data lies ([`plain_data`]).
struct Plain {
    head: [u8; HEAD],
    /// the file's length: exactly `start + size`
    length: u64,
    /// the data's first byte (after the header and the key) and its size
    start: u64,
    size: u64,
}

/// The header of the table file `f` (read from its start) and where its data lies, when it is a plain 8-bit
/// table of this format for `digest`, its length exactly header, key and data.  `None` for anything else (a
/// 4-bit table, or a file [`decode`] must say what is wrong with), which the callers read whole.
///
/// # Errors
///
/// The file's metadata cannot be read.
fn plain_data(f: &mut fs::File, digest: &[u8; 32]) -> io::Result<Option<Plain>> {
    use std::io::Read;

    let length = f.metadata()?.len();
    let mut head = [0u8; HEAD];
    if length < HEAD as u64 || f.read_exact(&mut head).is_err() || u32_at(&head, 12) != 8 {
        return Ok(None);
    }
    let start = (HEAD as u64).saturating_add(u64::from(u32_at(&head, 72)));
    let size = u64_at(&head, 24);
    let plain = &head[..8] == MAGIC && u32_at(&head, 8) == VERSION && &head[40..72] == digest
        && size == u64_at(&head, 16) && length == start.saturating_add(size);
    Ok(plain.then_some(Plain { head, length, start, size }))
}

/// Read and verify the table at `path` ([`decode`]).
///
/// # Errors
///
/// `cannot read PATH: REASON`, or [`decode`]'s reason.
pub fn read(path: &Path, digest: &[u8; 32]) -> Result<Vec<u8>, String> {
    read_checked(path, digest, true)
}

/// Read the table at `path`, its CRC checked only when `crc` ([`decode_checked`]).
///
/// # Errors
///
/// As [`read`].
pub fn read_checked(path: &Path, digest: &[u8; 32], crc: bool) -> Result<Vec<u8>, String> {
    use std::io::Read;

    let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
    let mut f = fs::File::open(path).map_err(cannot)?;
    // an 8-bit table's data is read straight into its own buffer, backed with memory in one call: reading the
    // whole file and dropping the header moved 519 MB once more, and its pages were faulted in one by one
    let Some(Plain { head, length, start, size }) = plain_data(&mut f, digest).map_err(cannot)? else {
        let blob = fs::read(path).map_err(cannot)?; // four bits (unpacked), or decode says why
        return decode_checked(blob, digest, crc);
    };
    io::copy(&mut (&mut f).take(start - HEAD as u64), &mut io::sink()).map_err(cannot)?;
    let mut data: Vec<u8> = Vec::new();
    data.try_reserve_exact(size as usize).map_err(|_| "out of memory for the table".to_string())?;
    super::build::huge_pages(&mut data);
    super::build::prefault(&mut data);
    f.take(size).read_to_end(&mut data).map_err(cannot)?;
    if data.len() as u64 != size {
        return Err(format!("{} bytes, expected {length}", start + data.len() as u64));
    }
    if crc && crc32(&data) != u32_at(&head, 32) {
        return Err("checksum mismatch".into());
    }
    Ok(data)
}

/// A table's entries, one byte each (255 = unreachable): in a buffer of its own, or the data of a verified
/// file mapped read-only ([`map_checked`]).  It dereferences to the entries (`&[u8]`) without a branch: a search
/// reads it millions of times a second.
///
/// **A mapped table never changes under a search.**  searchkit never writes a table file in place: every
/// writer (this module's [`write`], `searchkit/machinery/atomic.py`) writes a temporary name and renames it
/// onto the table's, and `pdb clear` unlinks; a mapping holds the inode it was made of, so a file replaced or
/// removed while mapped leaves the running search's entries as they were (the old inode lives until the map
/// is dropped).  What a mapping cannot survive is a file truncated or written *in place*: a read past a
/// truncated end raises SIGBUS, and a write in place shows through.  Only the cache folder's owner can do
/// either: tables are read only from a folder that no one else may write in, and only as regular files of
/// ours or root's (docs/pdb.md, "The cache folder is shared with nobody"; checked on the Python side before a
/// table reaches [`map_checked`]), so that is the user's own doing, as any other change of their files is.
pub struct Table {
    /// The entries' first byte and their count: inside `keep`, which owns them and never moves them.
    at: *const u8,
    len: usize,
    keep: Keep,
}

/// What holds a [`Table`]'s bytes (read through `at`, never by name: the variants own them).
#[allow(dead_code)]
enum Keep {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

// SAFETY: `at` points into `keep` (a `Vec` never changed after the table is made, or a read-only map that
// stays at its address until dropped), both `Send` and `Sync`; the table gives out only shared slices.
unsafe impl Send for Table {}
unsafe impl Sync for Table {}

impl Table {
    /// Whether the entries are a file's pages mapped (not a buffer of their own).
    pub fn is_mapped(&self) -> bool {
        matches!(self.keep, Keep::Mapped(_))
    }

    /// The entries `map[start..]` of a read-only map of a table file.
    fn mapped(map: memmap2::Mmap, start: usize) -> Table {
        let data = &map[start..];
        let (at, len) = (data.as_ptr(), data.len());
        Table { at, len, keep: Keep::Mapped(map) }
    }
}

impl From<Vec<u8>> for Table {
    fn from(v: Vec<u8>) -> Table {
        Table { at: v.as_ptr(), len: v.len(), keep: Keep::Owned(v) }
    }
}

impl std::ops::Deref for Table {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        // SAFETY: `at .. at + len` lies inside `keep`'s bytes, alive and unchanged as long as `self`
        unsafe { std::slice::from_raw_parts(self.at, self.len) }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} entries{})", self.len, if self.is_mapped() { ", mapped" } else { "" })
    }
}

/// The table at `path` as [`read_checked`] gives it (the same checks, the same errors), but an 8-bit table's
/// data mapped read-only ([`Table`]: its pages are the page cache's, not copied) instead of read into a
/// buffer; a 4-bit table is unpacked into one as before.  The file is opened without following a link.
///
/// The map is plain: its pages are mapped as the search first reads them (the kernel maps the cached pages
/// around each fault, 64 kB by default).  Measured on Korf's 100 with the 7-8 tables (docs/pdb.md), whole
/// process: `MAP_POPULATE` and `MADV_WILLNEED` cost or saved nothing measurable, and the copy into a buffer
/// on 2 MB pages ([`read_checked`]) cost 0.1-0.2 s of system time more for a search only a few per cent
/// faster (fewer TLB misses: a file's pages in the page cache are 4 kB ones).  So a long search (the
/// 24-puzzle's, minutes) is better served by [`read_checked`], a short one by this.
///
/// # Errors
///
/// As [`read`].
pub fn map_checked(path: &Path, digest: &[u8; 32], crc: bool) -> Result<Table, String> {
    let cannot = |e: io::Error| format!("cannot read {}: {e}", path.display());
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    let mut f = options.open(path).map_err(cannot)?;
    let Some(Plain { head, length, start, .. }) = plain_data(&mut f, digest).map_err(cannot)?.filter(|p| p.size > 0)
    else {
        // four bits (unpacked), the empty table, or read_checked says why not
        return read_checked(path, digest, crc).map(Table::from);
    };
    // SAFETY: a read-only map of a table file: such a file is never written in place (see [`Table`] for the
    // argument, and what the cache folder's trust rules leave to its owner)
    let map = unsafe { memmap2::Mmap::map(&f) }.map_err(cannot)?;
    if map.len() as u64 != length {
        return Err(format!("{} bytes, expected {length}", map.len()));
    }
    let table = Table::mapped(map, start as usize);
    if crc && crc32(&table) != u32_at(&head, 32) {
        return Err("checksum mismatch".into());
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder under the system's temporary folder, removed when dropped.
    struct Folder(PathBuf);

    impl Folder {
        fn new(tag: &str) -> Folder {
            let dir = std::env::temp_dir().join(format!("skpdb-{tag}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir(&dir).unwrap();
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn crc_and_top_are_the_plain_ones() {
        // lengths around the 64-byte rows and the 64 kB blocks; values with the mark, 254 and none reachable
        for len in [0usize, 1, 63, 64, 65, 1000, (1 << 16) - 1, 1 << 16, (1 << 16) + 129, 200_003] {
            for (seed, mark_only) in [(1u64, false), (7, false), (3, true)] {
                let mut x = seed;
                let values: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if mark_only || x >> 62 == 0 { UNREACHED } else { (x >> 33) as u8 % 255 }
                    })
                    .collect();
                let top = values.iter().copied().filter(|&v| v != UNREACHED).max().unwrap_or(0);
                assert_eq!(crc_and_top(&values), (crc32(&values), top), "{len} values, seed {seed}");
            }
        }
        let mut v = vec![UNREACHED; 70_000];
        v[69_999] = 254; // the largest value in the rest after the last whole row of the last block
        assert_eq!(crc_and_top(&v).1, 254);
    }

    #[test]
    fn crc_matches_zlib() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn header_is_the_python_layout() {
        // encode of [0, 1, 14, 255, 3] under "k": four bits, 5 entries, 3 data bytes, top 14
        let digest = [9u8; 32];
        let b = encode(&[0, 1, 14, UNREACHED, 3], "k", &digest);
        assert_eq!(&b[..8], MAGIC);
        assert_eq!(u32_at(&b, 8), 1);
        assert_eq!(u32_at(&b, 12), 4);
        assert_eq!(u64_at(&b, 16), 5);
        assert_eq!(u64_at(&b, 24), 3);
        assert_eq!(u32_at(&b, 32), crc32(&[0x10, 0xFE, 0xF3]));
        assert_eq!(u32_at(&b, 36), 14);
        assert_eq!(&b[40..72], &digest);
        assert_eq!(u32_at(&b, 72), 1);
        assert_eq!(&b[76..], b"k\x10\xFE\xF3");
        // a value of 15 takes eight bits
        let b = encode(&[15, UNREACHED], "k", &digest);
        assert_eq!((u32_at(&b, 12), u32_at(&b, 36)), (8, 15));
        assert_eq!(&b[77..], &[15, 255]);
    }

    #[test]
    fn round_trip_with_four_and_eight_bits() {
        let dir = Folder::new("round");
        let digest = [3u8; 32];
        for values in [vec![0u8, 1, 2, UNREACHED, 14], vec![0, 1, 2, UNREACHED, 15, 254], vec![], vec![7]] {
            let path = dir.0.join("t.pdb");
            write(&path, &values, "key text", &digest).unwrap();
            assert_eq!(fs::read(&path).unwrap(), encode(&values, "key text", &digest));
            assert_eq!(read(&path, &digest).unwrap(), values);
        }
        // no temporary file is left beside the table
        let names: Vec<_> = fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("t.pdb")]);
    }

    #[test]
    fn a_corrupted_byte_is_refused() {
        let digest = [5u8; 32];
        let values: Vec<u8> = (0..200u32).map(|i| (i % 40) as u8).collect();
        let good = encode(&values, "key", &digest);
        assert_eq!(decode(good.clone(), &digest).unwrap(), values);
        // any one data byte changed: the checksum refuses it
        for at in [HEAD + 3, HEAD + 3 + 57, good.len() - 1] {
            let mut bad = good.clone();
            bad[at] ^= 0x40;
            assert_eq!(decode(bad, &digest).unwrap_err(), "checksum mismatch", "byte {at}");
        }
        // the header's magic, version, size; a byte missing or one too many
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(decode(bad, &digest).unwrap_err().contains("not a searchkit pattern database"));
        let mut bad = good.clone();
        bad[8] = 2;
        assert!(decode(bad, &digest).unwrap_err().contains("format 1"));
        let mut bad = good.clone();
        bad.pop();
        assert!(decode(bad, &digest).unwrap_err().contains("bytes, expected"));
        let mut bad = good.clone();
        bad.push(0);
        assert!(decode(bad, &digest).unwrap_err().contains("bytes, expected"));
        let mut bad = good.clone();
        bad[16] ^= 1; // entries
        assert!(decode(bad, &digest).unwrap_err().contains("bytes, expected"));
        assert!(decode(good[..HEAD - 1].to_vec(), &digest).is_err());
    }

    #[test]
    fn without_the_crc_only_the_data_goes_unchecked() {
        // a file known verified (its stamp holds) is read without the CRC: a flipped data byte then passes,
        // but the header, the key digest and the length are still checked
        let digest = [4u8; 32];
        let values: Vec<u8> = (0..100u32).map(|i| (i % 30) as u8).collect();
        let good = encode(&values, "key", &digest);
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(decode_checked(flipped.clone(), &digest, true).unwrap_err(), "checksum mismatch");
        assert_eq!(decode_checked(flipped, &digest, false).unwrap().len(), 100);
        assert!(decode_checked(good.clone(), &[5u8; 32], false).unwrap_err().contains("another table"));
        assert!(decode_checked(good[..good.len() - 1].to_vec(), &digest, false).unwrap_err().contains("expected"));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(decode_checked(bad, &digest, false).is_err());
        assert_eq!(decode_checked(good, &digest, false).unwrap(), values);
    }

    #[test]
    fn reading_a_file_checks_as_decoding_its_bytes() {
        let dir = Folder::new("readchk");
        let path = dir.0.join("t.pdb");
        let digest = [6u8; 32];
        for values in [(0..300u32).map(|i| (i % 40) as u8).collect::<Vec<_>>(), vec![0, 1, 14, UNREACHED, 3], vec![]] {
            write(&path, &values, "a key", &digest).unwrap();
            let good = fs::read(&path).unwrap();
            for crc in [true, false] {
                assert_eq!(read_checked(&path, &digest, crc).unwrap(), values);
            }
            let mut flipped = good.clone();
            *flipped.last_mut().unwrap_or(&mut 0) ^= 1;
            for (bad, why) in [(flipped, "checksum mismatch"), (good[..good.len() - 1].to_vec(), "expected")] {
                if good.len() == HEAD + 5 && why == "checksum mismatch" {
                    continue; // the empty table: its last byte is the key's
                }
                fs::write(&path, &bad).unwrap();
                let r = read_checked(&path, &digest, true).unwrap_err();
                assert!(r.contains(why), "{r}");
                assert_eq!(r, decode(bad, &digest).unwrap_err());
            }
            fs::write(&path, &good).unwrap();
            assert!(read_checked(&path, &[1u8; 32], false).unwrap_err().contains("another table"));
        }
    }

    #[test]
    fn a_mapped_table_is_the_table_read_and_refuses_as_reading_does() {
        // map_checked gives read_checked's entries (8-bit: mapped; 4-bit and empty: unpacked into a buffer) and
        // its errors, for good files and for each kind of bad one
        let dir = Folder::new("map");
        let path = dir.0.join("t.pdb");
        let digest = [8u8; 32];
        let tables: [(Vec<u8>, bool); 4] = [((0..5000u32).map(|i| (i % 40) as u8).collect(), true),
                                             (vec![0, 1, 14, UNREACHED, 3], false), (vec![], false),
                                             (vec![200, UNREACHED, 15], true)];
        for (values, mapped) in tables {
            write(&path, &values, "a longer key text", &digest).unwrap();
            let good = fs::read(&path).unwrap();
            for crc in [true, false] {
                let t = map_checked(&path, &digest, crc).unwrap();
                assert_eq!(&*t, &values[..]);
                assert_eq!(t.is_mapped(), mapped, "{values:?}");
            }
            let mut flipped = good.clone();
            *flipped.last_mut().unwrap() ^= 1;
            let mut magic = good.clone();
            magic[0] = b'Y';
            for bad in [flipped, good[..good.len() - 1].to_vec(), [&good[..], &[0]].concat(), magic] {
                fs::write(&path, &bad).unwrap();
                for crc in [true, false] {
                    assert_eq!(map_checked(&path, &digest, crc).map(|t| t.to_vec()),
                               read_checked(&path, &digest, crc));
                }
            }
            fs::write(&path, &good).unwrap();
            assert!(map_checked(&path, &[1u8; 32], false).unwrap_err().contains("another table"));
        }
        assert!(map_checked(&dir.0.join("absent.pdb"), &digest, false).unwrap_err().starts_with("cannot read "));
    }

    #[test]
    fn a_table_replaced_while_mapped_keeps_its_entries() {
        // the cache replaces a file by renaming another onto it (write): a mapping of the old one is unchanged
        let dir = Folder::new("replace");
        let path = dir.0.join("t.pdb");
        let digest = [9u8; 32];
        let old: Vec<u8> = (0..10_000u32).map(|i| (i % 50) as u8).collect();
        write(&path, &old, "k", &digest).unwrap();
        let t = map_checked(&path, &digest, true).unwrap();
        let new: Vec<u8> = old.iter().map(|v| v + 1).collect();
        write(&path, &new, "k", &digest).unwrap();
        assert_eq!(&*t, &old[..]);
        fs::remove_file(&path).unwrap();
        assert_eq!(&*t, &old[..]);
        assert_eq!(t.len(), 10_000);
    }

    #[cfg(unix)]
    #[test]
    fn mapping_never_follows_a_link() {
        let dir = Folder::new("maplink");
        let real = dir.0.join("real.pdb");
        let digest = [2u8; 32];
        write(&real, &(0..100u8).collect::<Vec<_>>(), "k", &digest).unwrap();
        let link = dir.0.join("t.pdb");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(map_checked(&link, &digest, false).unwrap_err().starts_with("cannot read "));
    }

    #[test]
    fn a_wrong_key_is_refused() {
        let dir = Folder::new("key");
        let path = dir.0.join("t.pdb");
        write(&path, &[1, 2, 3], "key A", &[1u8; 32]).unwrap();
        assert_eq!(read(&path, &[2u8; 32]).unwrap_err(), "it holds another table (key digest differs)");
        assert!(read(&dir.0.join("absent.pdb"), &[1u8; 32]).unwrap_err().starts_with("cannot read "));
    }

    #[cfg(unix)]
    #[test]
    fn write_never_follows_a_planted_link() {
        // links planted at every temporary name the writer could pick (this process's pid) and at the table's
        // name: the files they point to stay untouched, and the table is written whole at its own name
        let dir = Folder::new("link");
        let victim = dir.0.join("victim");
        fs::write(&victim, b"precious").unwrap();
        let path = dir.0.join("t.pdb");
        let pid = std::process::id();
        for n in 0..50u32 {
            std::os::unix::fs::symlink(&victim, dir.0.join(format!(".t.pdb.{pid}-{}.tmp", 1000 + n))).unwrap();
        }
        let (mut f, tmp) = create_temporary(&path, 1000).unwrap();
        f.write_all(b"table").unwrap();
        assert_eq!(tmp, dir.0.join(format!(".t.pdb.{pid}-1050.tmp")));
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        fs::remove_file(&tmp).unwrap();
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        let digest = [7u8; 32];
        write(&path, &[0, 1, 2, UNREACHED], "k", &digest).unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        assert!(!fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
        assert_eq!(read(&path, &digest).unwrap(), vec![0, 1, 2, UNREACHED]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_anonymous_file_is_linked_only_whole_and_never_through_a_planted_link() {
        let dir = Folder::new("anon");
        let victim = dir.0.join("victim");
        fs::write(&victim, b"precious").unwrap();
        let path = dir.0.join("t.pdb");
        let mut f = open_anonymous(&path).expect("O_TMPFILE on the test's folder");
        f.write_all(b"table").unwrap();
        let names = |d: &Path| -> Vec<String> {
            let mut v: Vec<_> =
                fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            v.sort();
            v
        };
        assert_eq!(names(&dir.0), ["victim"]); // written, and still without a name
        let pid = std::process::id();
        for n in 0..50u32 {
            std::os::unix::fs::symlink(&victim, dir.0.join(format!(".t.pdb.{pid}-{}.tmp", 1000 + n))).unwrap();
        }
        let tmp = link_temporary(&f, &path, 1000).unwrap();
        assert_eq!(tmp, dir.0.join(format!(".t.pdb.{pid}-1050.tmp")));
        assert_eq!(fs::read(&tmp).unwrap(), b"table");
        assert_eq!(fs::read(&victim).unwrap(), b"precious");
        drop(f);
        let dropped = Folder::new("dropped"); // an anonymous file dropped unlinked (a writer that died) is gone
        let mut g = open_anonymous(&dropped.0.join("t.pdb")).unwrap();
        g.write_all(&[1u8; 4096]).unwrap();
        drop(g);
        assert!(names(&dropped.0).is_empty());
    }

    /// A child process writes a 64 MB table and is killed (SIGALRM's default action) 0.2 to 115 ms in, while
    /// it computes the CRC or writes, or after it is done: the folder then holds nothing or the whole table, never a temporary
    /// file.  With the named temporary file alone (`SEARCHKIT_NO_TMPFILE=1 cargo test`), it fails.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_writer_killed_while_it_writes_leaves_nothing_behind() {
        let dir = Folder::new("killed");
        let path = dir.0.join("t.pdb");
        let values = vec![3u8; 64 << 20];
        let digest = [1u8; 32];
        let mut killed = 0;
        for trial in 0..25 {
            // SAFETY: the child only writes the table (glibc's malloc is usable after fork) and exits.
            let pid = unsafe { libc::fork() };
            assert!(pid >= 0, "fork failed");
            if pid == 0 {
                let when = libc::itimerval {
                    it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
                    it_value: libc::timeval { tv_sec: 0, tv_usec: 200 + trial * trial * 200 },
                };
                unsafe { libc::setitimer(libc::ITIMER_REAL, &when, std::ptr::null_mut()) };
                let code = i32::from(write(&path, &values, "k", &digest).is_err());
                unsafe { libc::_exit(code) };
            }
            let mut status = 0;
            assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
            if libc::WIFSIGNALED(status) {
                killed += 1;
            } else {
                assert_eq!(libc::WEXITSTATUS(status), 0, "the write failed");
            }
            for entry in fs::read_dir(&dir.0).unwrap() {
                let name = entry.unwrap().file_name();
                assert_eq!(name, "t.pdb", "trial {trial}: {name:?} left behind");
                assert_eq!(read(&path, &digest).unwrap().len(), values.len());
            }
            let _ = fs::remove_file(&path);
        }
        assert!(killed >= 5, "only {killed} of 25 writers were killed before they finished");
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        // the target is a folder: the rename fails, and the temporary file is removed
        let dir = Folder::new("fail");
        let path = dir.0.join("t.pdb");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"x").unwrap();
        assert!(write(&path, &[1, 2], "k", &[0u8; 32]).is_err());
        let names: Vec<_> = fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("t.pdb")]);
    }
}
