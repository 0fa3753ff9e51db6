//! What the examples share: reading a file of boards, finding a cached table, the CPU time.

/// The boards of the file at `path`: each board its tiles in row-major order (0 the blank), boards separated
/// by a blank line (the sliding-tiles plugin's format). Panics on a file that cannot be read or a tile that
/// is not a number: these are measurement aids, run by hand.
pub fn read_boards(path: &str) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).expect("a file of boards");
    text.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| b.split_whitespace().map(|x| x.parse().expect("a tile")).collect())
        .collect()
}

/// The folder of cached tables, as `searchkit/machinery/pdb/store.py`'s `cache_dir` finds it:
/// `$SEARCHKIT_CACHE_DIR`, else `~/.cache/searchkit/pdb`.
#[allow(dead_code)] // not every example reads tables
pub fn cache_dir() -> std::path::PathBuf {
    std::env::var_os("SEARCHKIT_CACHE_DIR").map_or_else(
        || std::path::PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/searchkit/pdb"),
        std::path::PathBuf::from)
}

/// The file of the group `tiles`' table in `dir` (`sliding-tiles-T1-T2-...-HASH.pdb`, HASH 16 hex digits)
/// and the digest its header names (bytes 40-72), which the core's readers check it against.  Panics when
/// there is none.
#[allow(dead_code)]
pub fn table_file(dir: &std::path::Path, tiles: &[u8]) -> (std::path::PathBuf, [u8; 32]) {
    let stem = format!("sliding-tiles-{}-", tiles.iter().map(u8::to_string).collect::<Vec<_>>().join("-"));
    let path = std::fs::read_dir(dir).expect("the pattern-database folder").flatten().map(|e| e.path())
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.starts_with(&stem) && n.ends_with(".pdb") && n[stem.len()..].len() == 20
        }))
        .unwrap_or_else(|| panic!("no table {stem}*.pdb in {}", dir.display()));
    let mut head = [0u8; 72];
    std::io::Read::read_exact(&mut std::fs::File::open(&path).expect("the table"), &mut head).expect("a header");
    (path, head[40..72].try_into().expect("a header"))
}

/// The process's CPU time (user + system, every thread's) in seconds.
#[allow(dead_code)] // not every example times itself
pub fn cpu() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given
    unsafe { clock_gettime(2, &mut ts) }; // CLOCK_PROCESS_CPUTIME_ID
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
