//! Position history for superko (CN2002 art. 6): one 64-bit key per position reached.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::{Color, KoRule, zobrist};

/// Zobrist keys are already uniformly random: hashing them again is wasted work.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The key of a position for `rule`: the stones alone (positional) or the stones and the
/// player to move (situational; also used under simple ko, to report repetitions).
#[inline]
pub(crate) fn position_key(rule: KoRule, stones_hash: u64, to_move: Color) -> u64 {
    match (rule, to_move) {
        (KoRule::Positional, _) | (_, Color::Black) => stones_hash,
        (_, Color::White) => stones_hash ^ zobrist::WHITE_TO_MOVE,
    }
}

/// Every position key so far, and where each first occurred.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    /// `keys[i]` is the key after move `i` (0 = the start).
    keys: Vec<u64>,
    first_seen: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
}

impl History {
    pub(crate) fn new(start: u64) -> Self {
        // A 19x19 game runs to a few hundred moves: reserve once instead of rehashing.
        let mut h = Self {
            keys: Vec::with_capacity(512),
            first_seen: HashMap::with_capacity_and_hasher(512, BuildHasherDefault::default()),
        };
        h.push(start);
        h
    }

    pub(crate) fn push(&mut self, key: u64) {
        let index = self.keys.len();
        self.keys.push(key);
        self.first_seen.entry(key).or_insert(index);
    }

    /// The move after which `key` first occurred.
    pub(crate) fn first_occurrence(&self, key: u64) -> Option<usize> {
        self.first_seen.get(&key).copied()
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
