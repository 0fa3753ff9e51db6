//! A plain standalone IDA* (Korf 1985) with the Manhattan distance kept incrementally, for the sliding-tile
//! puzzle of side 2..4: the yardstick against which `benchmarks/ida_overhead.py` measures searchkit's native
//! IDA* driver.
//!
//! It searches exactly as searchkit's `ida_star` on the sliding-tiles game with `-H manhattan` and the
//! game's default rules: the blank moves `U`, `D`, `L`, `R` in that order, the move straight back is left out
//! (`no-undo`, not counted as generated), a state is tested for the goal when it is entered (a goal is not
//! counted as expanded), every successor not left out counts as generated, a successor with
//! f = g + h above the bound is not entered, and the next bound is the least such f.  So its expanded and
//! generated counts, iterations and first solution equal searchkit's.
//!
//! The board is one array changed in place and changed back (no copies, no successor lists, no heuristic
//! behind a trait object): h of a child is h of its parent plus the change of the one tile that moved.
//!
//! Usage: `standalone-ida FILE N...`: FILE holds boards in the plugin's format (rows of tiles, 0 the blank,
//! goal `1 .. n*n-1` then the blank, boards separated by blank lines); N are 1-based board numbers. One line
//! a board: `board=N cost=C expanded=E generated=G iterations=I moves=...`.

use std::process::ExitCode;

struct Search {
    n: usize,
    t: [u8; 16],
    blank: usize,
    /// `md[tile][cell]`: grid distance from `cell` to `tile`'s goal cell (0 for the blank).
    md: [[u8; 16]; 16],
    /// `nbr[cell]`: the blank's cells after `U`, `D`, `L`, `R` (`NONE` where the move is off the board).
    nbr: [[u8; 4]; 16],
    path: Vec<u8>,
    expanded: u64,
    generated: u64,
}

const NONE: u8 = u8::MAX;
const MOVES: [u8; 4] = *b"UDLR";

impl Search {
    fn new(n: usize, tiles: &[u8]) -> Search {
        let cells = n * n;
        let mut t = [0u8; 16];
        t[..cells].copy_from_slice(tiles);
        let blank = tiles.iter().position(|&x| x == 0).expect("a blank");
        let mut md = [[0u8; 16]; 16];
        for tile in 1..cells {
            let g = tile - 1;
            for cell in 0..cells {
                md[tile][cell] = ((cell / n).abs_diff(g / n) + (cell % n).abs_diff(g % n)) as u8;
            }
        }
        let mut nbr = [[NONE; 4]; 16];
        for (b, m) in nbr.iter_mut().enumerate().take(cells) {
            let (r, c) = (b / n, b % n);
            if r > 0 {
                m[0] = (b - n) as u8;
            }
            if r + 1 < n {
                m[1] = (b + n) as u8;
            }
            if c > 0 {
                m[2] = (b - 1) as u8;
            }
            if c + 1 < n {
                m[3] = (b + 1) as u8;
            }
        }
        Search { n, t, blank, md, nbr, path: Vec::new(), expanded: 0, generated: 0 }
    }

    fn manhattan(&self) -> u32 {
        (0..self.n * self.n).map(|c| u32::from(self.md[self.t[c] as usize][c])).sum()
    }

    /// Search below the state on the board (cost `g`, estimate `h`, the blank came from `prev`) under
    /// `bound`: the solution's cost, or the least f above the bound (`u32::MAX`: none).
    fn dfs(&mut self, g: u32, h: u32, prev: u8, bound: u32) -> u32 {
        if h == 0 {
            return g; // Manhattan distance 0: every tile home, the goal
        }
        self.expanded += 1;
        let b = self.blank;
        let mut least = u32::MAX;
        for k in 0..4 {
            let to = self.nbr[b][k];
            if to == NONE || to == prev {
                continue;
            }
            self.generated += 1;
            let to = to as usize;
            let tile = self.t[to] as usize;
            let h2 = h + u32::from(self.md[tile][b]) - u32::from(self.md[tile][to]);
            let f = g + 1 + h2;
            if f > bound {
                least = least.min(f);
                continue;
            }
            self.t[b] = tile as u8;
            self.t[to] = 0;
            self.blank = to;
            self.path.push(MOVES[k]);
            let r = self.dfs(g + 1, h2, b as u8, bound);
            if r <= bound {
                return r; // the board and path stay as the solution left them
            }
            self.path.pop();
            self.blank = b;
            self.t[to] = tile as u8;
            self.t[b] = 0;
            least = least.min(r);
        }
        least
    }

    /// IDA*: `(cost, iterations)`, or `None` when no goal is reachable.
    fn solve(&mut self) -> Option<(u32, u32)> {
        let h0 = self.manhattan();
        let mut bound = h0;
        let mut iterations = 0;
        loop {
            iterations += 1;
            let r = self.dfs(0, h0, NONE, bound);
            if r <= bound {
                return Some((r, iterations));
            }
            if r == u32::MAX {
                return None;
            }
            bound = r;
        }
    }
}

fn boards(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    for (i, block) in text.split("\n\n").filter(|b| !b.trim().is_empty()).enumerate() {
        let tiles: Result<Vec<u8>, _> = block.split_whitespace().map(str::parse::<u8>).collect();
        let tiles = tiles.map_err(|e| format!("board {}: {e}", i + 1))?;
        let n = (2..=4).find(|&n| n * n == tiles.len()).ok_or(format!("board {}: not 4, 9 or 16 tiles", i + 1))?;
        let mut seen = vec![false; n * n];
        for &x in &tiles {
            if x as usize >= n * n || std::mem::replace(&mut seen[x as usize], true) {
                return Err(format!("board {}: not a permutation", i + 1));
            }
        }
        out.push(tiles);
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: standalone-ida FILE N...");
        return ExitCode::from(2);
    }
    let all = match std::fs::read_to_string(&args[0]).map_err(|e| e.to_string()).and_then(|t| boards(&t)) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", args[0]);
            return ExitCode::from(2);
        }
    };
    for a in &args[1..] {
        let Some(tiles) = a.parse::<usize>().ok().filter(|&k| (1..=all.len()).contains(&k)).map(|k| &all[k - 1])
        else {
            eprintln!("{a}: not a board number 1..{}", all.len());
            return ExitCode::from(2);
        };
        let n = (tiles.len() as f64).sqrt() as usize;
        let mut s = Search::new(n, tiles);
        match s.solve() {
            Some((cost, it)) => println!("board={a} cost={cost} expanded={} generated={} iterations={it} moves={}",
                                         s.expanded, s.generated, String::from_utf8_lossy(&s.path)),
            None => println!("board={a} cost=none expanded={} generated={}", s.expanded, s.generated),
        }
    }
    ExitCode::SUCCESS
}
