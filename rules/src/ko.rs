//! Position history for superko (CN2002 art. 6): one 64-bit key per position reached.
//!
//! A superko check runs on every stone, and almost every answer is "never seen". The keys
//! are kept in move order, and a 16,384-bit filter indexed by the key's low bits answers
//! "never seen" with one bit test; only when the bit is set (a real repetition, or about
//! one move in fifty in a 300-move game) are the keys scanned. No hash map, no
//! allocation per move once the game's key list has its capacity.

use crate::{Color, KoRule, zobrist};

/// Words of the filter: 256 x 64 = 16,384 bits.
const FILTER_WORDS: usize = 256;

/// The key of a position for `rule`: the stones alone (positional) or the stones and the
/// player to move (situational; also used under simple ko, to report repetitions).
#[inline]
pub(crate) fn position_key(rule: KoRule, stones_hash: u64, to_move: Color) -> u64 {
    match (rule, to_move) {
        (KoRule::Positional, _) | (_, Color::Black) => stones_hash,
        (_, Color::White) => stones_hash ^ zobrist::WHITE_TO_MOVE,
    }
}

/// Every position key so far, in order, with a filter of the keys seen.
#[derive(Clone)]
pub(crate) struct History {
    /// `keys[i]` is the key after move `i` (0 = the start).
    keys: Vec<u64>,
    /// Bit `key % 16384` is set once a key with those low bits has been pushed.
    filter: Box<[u64; FILTER_WORDS]>,
}

#[inline]
const fn filter_slot(key: u64) -> (usize, u64) {
    // The mask keeps the word index below FILTER_WORDS.
    (((key >> 6) as usize) & (FILTER_WORDS - 1), 1 << (key & 63))
}

impl History {
    pub(crate) fn new(start: u64) -> Self {
        // A 19x19 game runs to a few hundred moves: reserve once instead of growing.
        let mut h = Self {
            keys: Vec::with_capacity(512),
            filter: Box::new([0; FILTER_WORDS]),
        };
        h.push(start);
        h
    }

    #[inline]
    pub(crate) fn push(&mut self, key: u64) {
        self.keys.push(key);
        let (word, bit) = filter_slot(key);
        self.filter[word] |= bit;
    }

    /// The move after which `key` first occurred.
    #[inline]
    pub(crate) fn first_occurrence(&self, key: u64) -> Option<usize> {
        let (word, bit) = filter_slot(key);
        if self.filter[word] & bit == 0 {
            return None;
        }
        self.keys.iter().position(|&k| k == key)
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

impl std::fmt::Debug for History {
    /// The keys alone: the filter is derived from them, and 256 words long.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History").field("keys", &self.keys).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_occurrence_is_the_earliest_and_unseen_keys_are_none() {
        let mut h = History::new(7);
        h.push(7 + 16_384); // same filter bit as 7, another key
        h.push(99);
        h.push(7);
        assert_eq!(h.first_occurrence(7), Some(0));
        assert_eq!(h.first_occurrence(7 + 16_384), Some(1));
        assert_eq!(h.first_occurrence(99), Some(2));
        assert_eq!(h.first_occurrence(8), None);
        assert_eq!(h.first_occurrence(7 + 2 * 16_384), None); // bit set, key absent
        assert_eq!((h.current(), h.len()), (Some(7), 4));
    }
}
