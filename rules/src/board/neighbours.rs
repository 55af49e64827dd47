//! The four neighbours of every point, one table per board size, built once.

use std::sync::OnceLock;

use super::SLOTS;
use crate::BoardSize;

/// Four neighbours of each point of one board size; off-board neighbours, and every
/// neighbour of the unused slots, are the sentinel.
pub(super) type NeighbourTable = [[u16; 4]; SLOTS];

/// The neighbour table of `size`, built once per size for the life of the program.
pub(super) fn neighbour_table(size: BoardSize) -> &'static NeighbourTable {
    static TABLES: [OnceLock<Box<NeighbourTable>>; BoardSize::MAX as usize + 1] =
        [const { OnceLock::new() }; BoardSize::MAX as usize + 1];
    TABLES[usize::from(size.lines())].get_or_init(|| build_neighbour_table(size))
}

pub(super) fn build_neighbour_table(size: BoardSize) -> Box<NeighbourTable> {
    let n = u16::from(size.lines());
    let off = n * n;
    let mut table = Box::new([[off; 4]; SLOTS]);
    for (i, slot) in (0..off).zip(table.iter_mut()) {
        let (r, c) = (i / n, i % n);
        *slot = [
            if r > 0 { i - n } else { off },
            if c > 0 { i - 1 } else { off },
            if c + 1 < n { i + 1 } else { off },
            if r + 1 < n { i + n } else { off },
        ];
    }
    table
}
