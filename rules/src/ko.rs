//! Position history for superko (CN2002 art. 6): one 64-bit key per position reached.
//!
//! A superko check runs on every stone, and almost every answer is "never seen". The keys
//! are kept in move order, and a 65,536-bit filter indexed by the key's low bits answers
//! "never seen" with one bit test; only when the bit is set (a real repetition, or about
//! one move in 400 in a 300-move game) are the keys scanned. No hash map, no
//! allocation per move once the game's key list has its capacity, and none per game once a
//! game has been dropped on the thread: a dropped history hands its key list and filter to
//! the next one.

use std::cell::RefCell;

use crate::{Color, KoRule, zobrist};

/// Words of the filter: 1,024 x 64 = 65,536 bits (8 KB). With one bit per key, a
/// 300-move game sets at most 300 of them, so a new key finds its bit set in about 0.25%
/// of moves (four times less often than with 16,384 bits, when the scans cost 6
/// instructions a move on real games and 25 on 600-move ones; see docs/performance.md).
const FILTER_WORDS: usize = 1024;

/// The filter's words.
type Filter = [u64; FILTER_WORDS];

/// The filter's length in bits.
#[cfg(test)]
const FILTER_BITS: u64 = FILTER_WORDS as u64 * 64;

/// The key of a position for `rule`: the stones alone (positional) or the stones and the
/// player to move (situational; also used under simple ko, to report repetitions).
#[inline]
pub(crate) fn position_key(rule: KoRule, stones_hash: u64, to_move: Color) -> u64 {
    match (rule, to_move) {
        (KoRule::Positional, _) | (_, Color::Black) => stones_hash,
        (_, Color::White) => stones_hash ^ zobrist::WHITE_TO_MOVE,
    }
}

/// Histories' allocations kept per thread for reuse, at most this many.
const SPARE_MAX: usize = 4;

/// A key list that grew beyond this many keys is freed rather than kept.
const KEEP_MAX: usize = 8192;

thread_local! {
    /// Empty key lists, and filters with every bit clear.
    static SPARE: RefCell<Vec<(Vec<u64>, Box<Filter>)>> = const { RefCell::new(Vec::new()) };
}

/// Every position key so far, in order, with a filter of the keys seen.
#[derive(Clone)]
pub(crate) struct History {
    /// What [`position_key`] XORs into the stones' hash for each colour to move (Black
    /// first) under the game's rule: a key is then one XOR.
    to_move: [u64; 2],
    /// `keys[i]` is the key after move `i` (0 = the start).
    keys: Vec<u64>,
    /// The most stones any recorded position had. A position with more has not occurred,
    /// whatever its key: most moves add a stone to the most the game has seen, and need
    /// no look-up.
    most_stones: u32,
    /// Bit `key % 65536` is set once a key with those low bits has been pushed. Always
    /// `Some` but while the history is dropped, when it goes to [`SPARE`].
    filter: Option<Box<Filter>>,
}

#[inline]
const fn filter_slot(key: u64) -> (usize, u64) {
    // The mask keeps the word index below FILTER_WORDS.
    (((key >> 6) as usize) & (FILTER_WORDS - 1), 1 << (key & 63))
}

impl History {
    /// The history of a game under `rule` whose start position has the stones' hash
    /// `stones_hash` and `stones` stones, `first` to move.
    pub(crate) fn new(rule: KoRule, stones_hash: u64, stones: u32, first: Color) -> Self {
        let spare = SPARE
            .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten();
        // A 19x19 game runs to a few hundred moves: reserve once instead of growing.
        let (keys, filter) =
            spare.unwrap_or_else(|| (Vec::with_capacity(512), Box::new([0; FILTER_WORDS])));
        let mut h = Self {
            to_move: Color::BOTH.map(|c| position_key(rule, 0, c)),
            keys,
            most_stones: 0,
            filter: Some(filter),
        };
        h.push(h.key(stones_hash, first), stones);
        h
    }

    /// The key of the position with the stones' hash `stones_hash`, `to_move` to move:
    /// [`position_key`] under the history's rule.
    #[inline(always)]
    pub(crate) fn key(&self, stones_hash: u64, to_move: Color) -> u64 {
        stones_hash ^ self.to_move[to_move.index()]
    }

    /// Records the position with the key `key` and `stones` stones.
    #[inline]
    pub(crate) fn push(&mut self, key: u64, stones: u32) {
        self.most_stones = self.most_stones.max(stones);
        self.keys.push(key);
        let (word, bit) = filter_slot(key);
        self.filter_mut()[word] |= bit;
    }

    /// The move after which the position with the key `key` and `stones` stones first
    /// occurred: [`History::first_occurrence`], answered at once when no recorded position
    /// had that many stones.
    #[inline(always)]
    pub(crate) fn first_occurrence_of(&self, key: u64, stones: u32) -> Option<usize> {
        if stones > self.most_stones {
            return None;
        }
        self.first_occurrence(key)
    }

    /// The move after which `key` first occurred.
    #[inline(always)]
    pub(crate) fn first_occurrence(&self, key: u64) -> Option<usize> {
        let (word, bit) = filter_slot(key);
        if self.filter()[word] & bit == 0 {
            return None;
        }
        self.scan(key)
    }

    /// The keys scanned for `key`: the filter's bit for it is set. Eight keys at a time
    /// with no early exit inside a chunk, which the compiler turns into vector compares.
    #[inline(never)]
    fn scan(&self, key: u64) -> Option<usize> {
        const LANES: usize = 8;
        let chunks = self.keys.chunks_exact(LANES);
        let rest = chunks.remainder();
        for (c, chunk) in chunks.enumerate() {
            if chunk.iter().fold(false, |hit, &k| hit | (k == key)) {
                return chunk.iter().position(|&k| k == key).map(|i| c * LANES + i);
            }
        }
        let rest_start = self.keys.len() - rest.len();
        rest.iter().position(|&k| k == key).map(|i| rest_start + i)
    }

    #[inline(always)]
    fn filter(&self) -> &Filter {
        match &self.filter {
            Some(filter) => filter,
            None => unreachable!("the filter is taken only when the history is dropped"),
        }
    }

    #[inline(always)]
    fn filter_mut(&mut self) -> &mut Filter {
        match &mut self.filter {
            Some(filter) => filter,
            None => unreachable!("the filter is taken only when the history is dropped"),
        }
    }

    /// The key of the current position.
    pub(crate) fn current(&self) -> Option<u64> {
        self.keys.last().copied()
    }

    /// The number of positions recorded (moves + 1).
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }
}

impl Drop for History {
    /// Clears the filter and the keys and hands them to the next [`History::new`] on this
    /// thread. Every set bit came from a key, so clearing the keys' words clears the filter:
    /// a few instructions per move played instead of all 1,024 words.
    fn drop(&mut self) {
        let Some(mut filter) = self.filter.take() else {
            return;
        };
        if self.keys.capacity() > KEEP_MAX {
            return;
        }
        for &key in &self.keys {
            filter[filter_slot(key).0] = 0;
        }
        self.keys.clear();
        let keys = std::mem::take(&mut self.keys);
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < SPARE_MAX
            {
                spare.push((keys, filter));
            }
        });
    }
}

impl std::fmt::Debug for History {
    /// The keys alone: the filter is derived from them, and 1,024 words long.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History").field("keys", &self.keys).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A history whose first key is `start` (Black to move: the key is the stones' hash).
    fn build_history(start: u64) -> History {
        History::new(KoRule::Situational, start, 0, Color::Black)
    }

    #[test]
    fn first_occurrence_is_the_earliest_and_unseen_keys_are_none() {
        let mut h = build_history(7);
        h.push(7 + FILTER_BITS, 0); // same filter bit as 7, another key
        h.push(99, 0);
        h.push(7, 0);
        assert_eq!(h.first_occurrence(7), Some(0));
        assert_eq!(h.first_occurrence(7 + FILTER_BITS), Some(1));
        assert_eq!(h.first_occurrence(99), Some(2));
        assert_eq!(h.first_occurrence(8), None);
        assert_eq!(h.first_occurrence(7 + 2 * FILTER_BITS), None); // bit set, key absent
        assert_eq!((h.current(), h.len()), (Some(7), 4));
    }

    #[test]
    fn the_scan_finds_the_earliest_key_in_every_lane_and_in_the_rest() {
        let mut h = build_history(1_000_000);
        for key in 0..37 {
            h.push(key, 0);
        }
        h.push(20, 0); // a repetition: the earlier one counts
        for key in 0..37 {
            assert_eq!(h.first_occurrence(key), Some(key as usize + 1));
        }
        assert_eq!(h.first_occurrence(1_000_000), Some(0));
        assert_eq!(h.first_occurrence(37), None);
        assert_eq!(h.first_occurrence(20 + 4 * FILTER_BITS), None); // bit set, key absent
    }

    #[test]
    fn a_history_made_from_a_dropped_ones_buffers_has_seen_only_its_start() {
        let many: Vec<History> = (0..3 * SPARE_MAX as u64)
            .map(|i| {
                let mut h = build_history(i);
                for key in 1000..1600_u64 {
                    h.push(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0);
                }
                h
            })
            .collect();
        drop(many);
        for i in 0..3 * SPARE_MAX as u64 {
            let h = build_history(u64::MAX);
            assert_eq!((h.len(), h.current()), (1, Some(u64::MAX)));
            assert_eq!(h.first_occurrence(i), None);
            // Every bit the dropped histories set is clear: no key is even scanned for.
            for key in 1000..1600_u64 {
                let slot = filter_slot(key.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                if slot != filter_slot(u64::MAX) {
                    assert_eq!(h.filter()[slot.0] & slot.1, 0);
                }
            }
        }
    }
}
