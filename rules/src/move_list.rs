//! A game's move records and capture scratch, whose allocations a dropped game hands to the
//! next game on the same thread.
//!
//! Replaying many games would otherwise allocate (and, past its first capacity, grow) a
//! record list per game: about 12 KB, the largest allocation of a new game. A dropped list
//! is cleared and kept for reuse, like the board's arrays (`board/mod.rs`).

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

use crate::{MoveRecord, Point};

/// Records reserved for a new list: a 19x19 game runs to a few hundred moves.
const FIRST_CAPACITY: usize = 384;

/// Lists kept per thread: a replay holds a few games at a time.
const SPARE_MAX: usize = 4;

/// A list that grew beyond this many records is freed rather than kept.
const KEEP_MAX: usize = 4096;

thread_local! {
    /// Empty record lists and capture scratches (kept as plain `Vec`s: a `MoveList` would
    /// come back here when dropped).
    static SPARE: RefCell<Vec<(Vec<MoveRecord>, Vec<Point>)>> = const { RefCell::new(Vec::new()) };
}

/// The moves of a game in order, and where a move's captures are gathered before they go
/// into its record. Reads and changes like the `Vec` of records it holds.
pub(crate) struct MoveList {
    records: Vec<MoveRecord>,
    /// Empty between moves.
    pub(crate) scratch: Vec<Point>,
}

impl MoveList {
    /// An empty list, with the allocations of a dropped one when this thread has one.
    pub(crate) fn new() -> Self {
        let (records, scratch) = SPARE
            .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
            .ok()
            .flatten()
            .unwrap_or_else(|| (Vec::with_capacity(FIRST_CAPACITY), Vec::with_capacity(32)));
        Self { records, scratch }
    }
}

impl Deref for MoveList {
    type Target = Vec<MoveRecord>;
    fn deref(&self) -> &Vec<MoveRecord> {
        &self.records
    }
}

impl DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut Vec<MoveRecord> {
        &mut self.records
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        Self {
            records: self.records.clone(),
            scratch: Vec::with_capacity(self.scratch.capacity()),
        }
    }
}

impl std::fmt::Debug for MoveList {
    /// The records alone, as a `Vec` prints them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.records.fmt(f)
    }
}

impl Drop for MoveList {
    /// Clears the list and hands its allocations to the next [`MoveList::new`] on this thread.
    fn drop(&mut self) {
        if self.records.capacity() == 0 || self.records.capacity() > KEEP_MAX {
            return;
        }
        self.records.clear();
        self.scratch.clear();
        let list = (
            std::mem::take(&mut self.records),
            std::mem::take(&mut self.scratch),
        );
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < SPARE_MAX
            {
                spare.push(list);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Captures, Color, Move};

    fn build_record(i: u16) -> MoveRecord {
        MoveRecord {
            color: Color::Black,
            mv: Move::Play(Point(i)),
            captured: Captures::from(vec![Point(i + 1)]),
            out_of_turn: false,
            order_known: true,
            seen: true,
        }
    }

    #[test]
    fn a_list_made_from_a_dropped_ones_allocation_is_empty() {
        let mut list = MoveList::new();
        list.extend((0..500).map(build_record));
        list.scratch.push(Point(3));
        drop(list);
        let reused = MoveList::new();
        assert!(reused.is_empty());
        assert!(reused.scratch.is_empty());
        // The allocation that grew past the first capacity is the one reused.
        assert!(reused.capacity() >= 500);
        let copy = reused.clone();
        assert!(copy.is_empty() && copy.scratch.is_empty());
    }

    #[test]
    fn lists_dropped_beyond_the_spares_are_freed() {
        let lists: Vec<MoveList> = (0..3 * SPARE_MAX).map(|_| MoveList::new()).collect();
        drop(lists);
        let again: Vec<MoveList> = (0..3 * SPARE_MAX).map(|_| MoveList::new()).collect();
        assert!(again.iter().all(|list| list.is_empty()));
    }
}
