//! What the examples share: reading a file of boards.

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
