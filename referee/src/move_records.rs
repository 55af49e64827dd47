//! A game's move records, shared between the versions of a board's state: a copy costs a few
//! pointers and at most one chunk of records, whatever the game's length.
//!
//! The referee keeps the game's record and every state it publishes carries
//! one (`GET /boards/{board}`, the views a broadcast delay holds back): with a
//! plain `Vec` each of them was a whole copy, O(moves) of memory and time per
//! state. Here the records sit in chunks of [`CHUNK`]; a full chunk never
//! changes again (an arbiter's rare correction of an old move copies just
//! that chunk) and is shared by every version that holds it, so a copy only
//! duplicates the chunk being filled.
//!
//! It reads like a slice (`len`, `iter`, `last`, `get`, indexing) and
//! serializes as the plain JSON list of its records.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

use goban_rules::Color;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Timestamp;
use crate::move_name::MoveName;

/// One recorded move (api.md `moves[]`). Plain values, no heap: a board holds one per move
/// in the referee and one in the state it publishes, and copying the list is a `memcpy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(description = "One move of the game record.")
)]
pub struct MoveRecord {
    /// 1-based move number (handicap stones excluded).
    pub number: u32,
    /// Who moved.
    pub color: Color,
    /// "D4" or "pass".
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "Q16"))]
    pub point: MoveName,
    /// When the stone (or the pass) was seen; RFC 3339 UTC with milliseconds in JSON.
    #[serde(with = "crate::timestamp::as_rfc3339")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub at: Timestamp,
    /// The mover's time left after the move, when a clock runs.
    pub time_left_ms: Option<u64>,
    /// The mover's byo-yomi periods (or Canadian moves) left, when a clock runs.
    pub periods_left: Option<u32>,
    /// `false` for the moves of a setup block: moves played while the board could not see
    /// whose stones are known but whose order is not. Such moves come together, listed by
    /// point (their numbers say where the block stands, not which came first), with no
    /// time left. Absent in JSON when `true` (every move read in order), so records written
    /// before the field existed read as they were.
    #[serde(default = "order_known", skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true, required = false))]
    pub order_known: bool,
}

/// Records without `order_known` were read in order.
pub(crate) fn order_known() -> bool {
    true
}

/// Whether `order_known` is left out of the JSON.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes a reference"
)]
pub(crate) fn is_true(known: &bool) -> bool {
    *known
}

/// Records per shared chunk.
pub(crate) const CHUNK: usize = 32;

/// The move records of a game, oldest first.
#[derive(Clone, Default)]
pub struct MoveRecords {
    /// Full chunks, oldest first, each shared by every copy that holds it.
    full: Vec<Arc<[MoveRecord; CHUNK]>>,
    /// The chunk being filled: fewer than [`CHUNK`] records, owned by this copy.
    tail: Vec<MoveRecord>,
}

impl MoveRecords {
    /// No records.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many records.
    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }

    /// The record at `index`, oldest first.
    pub fn get(&self, index: usize) -> Option<&MoveRecord> {
        match self.full.get(index / CHUNK) {
            Some(chunk) => chunk.get(index % CHUNK),
            None => self.tail.get(index - self.full.len() * CHUNK),
        }
    }

    /// The newest record.
    pub fn last(&self) -> Option<&MoveRecord> {
        self.tail
            .last()
            .or_else(|| self.full.last().and_then(|chunk| chunk.last()))
    }

    /// The records, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &MoveRecord> + '_ {
        self.full
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(self.tail.iter())
    }

    /// The records from `index` on, oldest first.
    pub fn iter_from(&self, index: usize) -> impl Iterator<Item = &MoveRecord> + '_ {
        let in_full = self.full.len() * CHUNK;
        self.full
            .get(index / CHUNK..)
            .unwrap_or_default()
            .iter()
            .flat_map(|chunk| chunk.iter())
            .skip(index % CHUNK)
            .chain(self.tail.iter().skip(index.saturating_sub(in_full)))
    }

    /// The records from `index` on, to serialize as a list (a client catching up).
    pub fn tail_from(&self, index: usize) -> Tail<'_> {
        Tail {
            records: self,
            index,
        }
    }

    /// How many records come before the first for which `is_before` is false; the records
    /// must be ordered so that `is_before` holds for a prefix of them (as for `slice::partition_point`).
    pub fn partition_point(&self, mut is_before: impl FnMut(&MoveRecord) -> bool) -> usize {
        let chunks = self
            .full
            .partition_point(|chunk| is_before(&chunk[CHUNK - 1]));
        match self.full.get(chunks) {
            Some(chunk) => chunks * CHUNK + chunk.partition_point(&mut is_before),
            None => chunks * CHUNK + self.tail.partition_point(is_before),
        }
    }

    /// The records in one list, oldest first.
    pub fn to_vec(&self) -> Vec<MoveRecord> {
        self.iter().copied().collect()
    }

    /// Appends a record.
    pub fn push(&mut self, record: MoveRecord) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(CHUNK);
        }
        self.tail.push(record);
        // Only a full tail converts into a chunk.
        if let Ok(chunk) = <[MoveRecord; CHUNK]>::try_from(self.tail.as_slice()) {
            self.full.push(Arc::new(chunk));
            self.tail.clear();
        }
    }

    /// Removes and returns the newest record.
    pub fn pop(&mut self) -> Option<MoveRecord> {
        if self.tail.is_empty() {
            let chunk = self.full.pop()?;
            self.tail.extend_from_slice(&chunk[..]);
        }
        self.tail.pop()
    }

    /// The newest record, to change.
    pub fn last_mut(&mut self) -> Option<&mut MoveRecord> {
        let last = self.len().checked_sub(1)?;
        self.get_mut(last)
    }

    /// The record at `index`, to change: a shared chunk is copied for this version first.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut MoveRecord> {
        let in_full = self.full.len() * CHUNK;
        match self.full.get_mut(index / CHUNK) {
            Some(chunk) => Arc::make_mut(chunk).get_mut(index % CHUNK),
            None => self.tail.get_mut(index - in_full),
        }
    }

    /// The first record for which `matches` holds, to change.
    pub fn find_mut(
        &mut self,
        matches: impl FnMut(&MoveRecord) -> bool,
    ) -> Option<&mut MoveRecord> {
        let index = self.iter().position(matches)?;
        self.get_mut(index)
    }
}

impl Index<usize> for MoveRecords {
    type Output = MoveRecord;

    fn index(&self, index: usize) -> &MoveRecord {
        match self.get(index) {
            Some(record) => record,
            None => panic!("move record {index} out of range: there are {}", self.len()),
        }
    }
}

impl IndexMut<usize> for MoveRecords {
    /// A shared chunk is copied for this version first.
    fn index_mut(&mut self, index: usize) -> &mut MoveRecord {
        let len = self.len();
        match self.get_mut(index) {
            Some(record) => record,
            None => panic!("move record {index} out of range: there are {len}"),
        }
    }
}

impl PartialEq for MoveRecords {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for MoveRecords {}

impl std::fmt::Debug for MoveRecords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<MoveRecord> for MoveRecords {
    fn from_iter<I: IntoIterator<Item = MoveRecord>>(records: I) -> Self {
        let mut out = Self::new();
        out.extend(records);
        out
    }
}

impl Extend<MoveRecord> for MoveRecords {
    fn extend<I: IntoIterator<Item = MoveRecord>>(&mut self, records: I) {
        for record in records {
            self.push(record);
        }
    }
}

impl From<Vec<MoveRecord>> for MoveRecords {
    fn from(records: Vec<MoveRecord>) -> Self {
        records.into_iter().collect()
    }
}

impl IntoIterator for MoveRecords {
    type Item = MoveRecord;
    type IntoIter = std::vec::IntoIter<MoveRecord>;

    fn into_iter(self) -> Self::IntoIter {
        self.to_vec().into_iter()
    }
}

impl Serialize for MoveRecords {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for MoveRecords {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<MoveRecord>::deserialize(deserializer).map(Self::from)
    }
}

/// The records of a [`MoveRecords`] from an index on; serializes as their list.
#[derive(Clone, Copy, Debug)]
pub struct Tail<'a> {
    records: &'a MoveRecords,
    index: usize,
}

impl Serialize for Tail<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.records.iter_from(self.index))
    }
}

#[cfg(test)]
#[path = "move_records_tests.rs"]
mod tests;
