//! The area graph of a Flood-It board, numbered exactly as `searchkit_flood.areas.AreaGraph` numbers it.
//!
//! Python's numbering, reproduced step by step:
//! 1. areas are first labelled in order of their lowest cell index (the seed scan of the flood fill);
//! 2. each area's neighbour row holds the adjacent areas ascending by that first label;
//! 3. areas are renumbered in breadth-first order from the pivot's area (area 0), a row's neighbours visited
//!    in its order;
//! 4. the renumbered rows are sorted ascending.

use std::fmt;

use crate::alloc::{filled, push, with_capacity};

/// A board that cannot be built: the error of [`AreaGraph::new`] and [`crate::Flood::from_graph`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// Not a board the engine takes (the reason).
    Invalid(String),
    /// An allocation for the board failed (under `--memory-limit`: the case's `memory_limit`).
    OutOfMemory,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Invalid(reason) => f.write_str(reason),
            BoardError::OutOfMemory => f.write_str("not enough memory for the board"),
        }
    }
}

impl std::error::Error for BoardError {}

/// The areas of one board (no bitsets: those are per word width, in [`crate::Flood`]).
#[derive(Debug, Clone)]
pub struct AreaGraph {
    pub width: usize,
    pub height: usize,
    /// Number of colours (colour indices are `0..colours`).
    pub colours: usize,
    /// Number of areas.
    pub count: usize,
    /// `colour[a]`: area `a`'s colour index.
    pub colour: Vec<u16>,
    /// `area_of[i]`: the area of cell `i = y * width + x`.
    pub area_of: Vec<u32>,
    /// Compressed sparse rows: the neighbours of `a` are `adjacency[adjacency_start[a]..adjacency_start[a + 1]]`,
    /// ascending.
    pub adjacency_start: Vec<u32>,
    pub adjacency: Vec<u32>,
    /// `sizes[a]`: cells in area `a`.
    pub sizes: Vec<u32>,
}

/// Colour indices are `u16` (moves are colour indices): boards of more colours stay on the Python engine.
pub const MAX_COLOURS: usize = 1 << 16;

impl AreaGraph {
    /// Build the graph of a `width` x `height` board of colour indices `cells` (row-major), pivot cell `pivot`.
    ///
    /// Errors: a size mismatch, an empty board, a pivot outside it, or a colour index >= [`MAX_COLOURS`]
    /// ([`BoardError::Invalid`]); an allocation that fails ([`BoardError::OutOfMemory`]: every one here grows
    /// with the board, and none aborts).
    pub fn new(cells: &[u32], width: usize, height: usize, pivot: usize) -> Result<AreaGraph, BoardError> {
        let n = width * height;
        if width == 0 || height == 0 || cells.len() != n {
            return Err(BoardError::Invalid(format!("expected {}x{} = {n} cells, got {}", width, height,
                                                   cells.len())));
        }
        if pivot >= n {
            return Err(BoardError::Invalid(format!("pivot cell {pivot} outside the {width}x{height} board")));
        }
        let colours = cells.iter().copied().max().unwrap_or(0) as usize + 1;
        if colours > MAX_COLOURS {
            return Err(BoardError::Invalid(format!("{colours} colours: the native engine takes at most \
                                                    {MAX_COLOURS}")));
        }
        // 1. Label by a flood fill from each unlabelled cell in cell order.
        let mut label = filled(n, u32::MAX)?;
        let mut first_colour: Vec<u16> = Vec::new();
        let mut stack = Vec::new();
        let mut full = false; // a push onto the stack failed
        for seed in 0..n {
            if label[seed] != u32::MAX {
                continue;
            }
            let a = first_colour.len() as u32;
            let col = cells[seed];
            push(&mut first_colour, col as u16)?;
            label[seed] = a;
            push(&mut stack, seed)?;
            while let Some(i) = stack.pop() {
                let x = i % width;
                let mut visit = |j: usize| {
                    if label[j] == u32::MAX && cells[j] == col {
                        label[j] = a;
                        full |= push(&mut stack, j).is_err();
                    }
                };
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < width {
                    visit(i + 1);
                }
                if i >= width {
                    visit(i - width);
                }
                if i + width < n {
                    visit(i + width);
                }
                if full {
                    return Err(BoardError::OutOfMemory);
                }
            }
        }
        let count = first_colour.len();
        // 2. Neighbour rows by first label, ascending, without duplicates: the adjacent pairs counted per area,
        // laid out in one buffer (compressed rows), then each row sorted and deduplicated in place.
        let mut degree = filled(count + 1, 0u32)?;
        let pairs = |f: &mut dyn FnMut(u32, u32)| {
            for i in 0..n {
                let a = label[i];
                if (i + 1) % width != 0 && label[i + 1] != a {
                    f(a, label[i + 1]);
                }
                if i + width < n && label[i + width] != a {
                    f(a, label[i + width]);
                }
            }
        };
        pairs(&mut |a, b| {
            degree[a as usize + 1] += 1;
            degree[b as usize + 1] += 1;
        });
        for a in 0..count {
            degree[a + 1] += degree[a];
        }
        let mut fill = with_capacity(count + 1)?;
        fill.extend_from_slice(&degree);
        let mut flat = filled(degree[count] as usize, 0u32)?;
        pairs(&mut |a, b| {
            flat[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            flat[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        });
        // row `a` is rows_start[a]..rows_end[a] of `flat` once deduplicated
        let mut rows_end = filled(count, 0u32)?;
        for a in 0..count {
            let (lo, hi) = (degree[a] as usize, degree[a + 1] as usize);
            let row = &mut flat[lo..hi];
            row.sort_unstable();
            let mut k = 0;
            for j in 0..row.len() {
                if j == 0 || row[j] != row[k - 1] {
                    row[k] = row[j];
                    k += 1;
                }
            }
            rows_end[a] = (lo + k) as u32;
        }
        let row = |a: usize| &flat[degree[a] as usize..rows_end[a] as usize];
        // 3. Breadth-first renumbering from the pivot's area.
        let mut new = filled(count, u32::MAX)?;
        let mut order: Vec<u32> = with_capacity(count)?;
        let root = label[pivot];
        new[root as usize] = 0;
        order.push(root);
        let mut k = 0;
        while k < order.len() {
            let a = order[k] as usize;
            k += 1;
            for &b in row(a) {
                if new[b as usize] == u32::MAX {
                    new[b as usize] = order.len() as u32;
                    order.push(b);
                }
            }
        }
        debug_assert_eq!(order.len(), count, "a board is 4-connected");
        for l in label.iter_mut() {
            *l = new[*l as usize];
        }
        // 4. Renumbered rows, sorted.
        drop(fill);
        let mut adjacency_start = with_capacity(count + 1)?;
        let mut adjacency = with_capacity(flat.len())?;
        adjacency_start.push(0u32);
        for &a in &order {
            let from = adjacency.len();
            adjacency.extend(row(a as usize).iter().map(|&b| new[b as usize]));
            adjacency[from..].sort_unstable();
            adjacency_start.push(adjacency.len() as u32);
        }
        let mut colour: Vec<u16> = with_capacity(count)?;
        colour.extend(order.iter().map(|&a| first_colour[a as usize]));
        let mut sizes = filled(count, 0u32)?;
        for &l in &label {
            sizes[l as usize] += 1;
        }
        Ok(AreaGraph { width, height, colours, count, colour, area_of: label, adjacency_start, adjacency, sizes })
    }

    /// The neighbours of area `a`, ascending.
    pub fn neighbours(&self, a: usize) -> &[u32] {
        &self.adjacency[self.adjacency_start[a] as usize..self.adjacency_start[a + 1] as usize]
    }

    /// Words of 64 bits an area bitset of this board takes.
    pub fn words(&self) -> usize {
        crate::bits::words_for(self.count)
    }
}
