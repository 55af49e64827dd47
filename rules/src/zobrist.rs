//! Zobrist keys: one random 64-bit key per (colour, point), fixed at compile time.

use crate::{Color, Point};

/// Points of the largest board (25x25).
const MAX_POINTS: usize = 625;

/// splitmix64: a fixed, well-mixed sequence, so hashes are the same in every build.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Length of a colour's row: a power of two, so that a masked index needs no bounds check.
/// Only the first `MAX_POINTS` keys are drawn; the rest are never used.
const SLOTS: usize = 1024;

const fn build_table() -> [[u64; SLOTS]; 2] {
    let mut table = [[0u64; SLOTS]; 2];
    let mut state = 0x676F_6261_6E2D_7275; // "goban-ru"
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            let (next, key) = splitmix(state);
            state = next;
            table[color][i] = key;
            i += 1;
        }
        color += 1;
    }
    table
}

static TABLE: [[u64; SLOTS]; 2] = build_table();

/// The key XORed into a situational hash when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix(0x7369_6465_746F_6D76).1;

/// The key of a stone of `color` on `p`. Points are checked on-board by callers; the mask
/// keeps any other index in the table (where it would read an unused key) without a check.
#[inline]
#[must_use]
pub(crate) fn stone_key(color: Color, p: Point) -> u64 {
    TABLE[color.index() & 1][p.index() & (SLOTS - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for c in Color::BOTH {
            for i in 0..MAX_POINTS {
                let k = stone_key(c, Point(i as u16));
                assert_ne!(k, 0);
                assert!(seen.insert(k));
            }
        }
        assert!(!seen.contains(&WHITE_TO_MOVE));
    }
}
