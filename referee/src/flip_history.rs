//! One point's recent flips for the chatter rule: nothing on the heap while the point is quiet.
//!
//! Most points of a board have no recent flip most of the time (a stone's
//! flips are released once the game explains them), so an empty history is
//! a null pointer (8 bytes) rather than an empty `VecDeque` (32 bytes): a
//! quarter of the memory over a 19x19 board's 361 points. It serializes as the
//! list of its times, empty or not, exactly as a `VecDeque` did, so
//! checkpoints read the same either way.

use std::collections::VecDeque;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Timestamp;

/// The times of a point's recent flips, oldest first.
#[expect(
    clippy::box_collection,
    reason = "the box is the point: 8 bytes per quiet point instead of an empty VecDeque's 32"
)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FlipHistory(Option<Box<VecDeque<Timestamp>>>);

impl FlipHistory {
    /// Adds a flip at `at`, the newest.
    pub(crate) fn push(&mut self, at: Timestamp) {
        self.0.get_or_insert_default().push_back(at);
    }

    /// Drops the oldest flips while `stale` says so of the oldest; frees the list once empty.
    pub(crate) fn drop_oldest_while(&mut self, mut stale: impl FnMut(Timestamp, usize) -> bool) {
        let Some(flips) = self.0.as_mut() else {
            return;
        };
        while let Some(&oldest) = flips.front() {
            if !stale(oldest, flips.len()) {
                break;
            }
            flips.pop_front();
        }
        if flips.is_empty() {
            self.0 = None;
        }
    }

    /// The oldest flip kept.
    pub(crate) fn oldest(&self) -> Option<Timestamp> {
        self.0.as_ref().and_then(|flips| flips.front().copied())
    }

    /// How many flips are kept.
    pub(crate) fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |flips| flips.len())
    }

    /// Forgets every flip and frees their memory.
    pub(crate) fn release(&mut self) {
        self.0 = None;
    }
}

impl Serialize for FlipHistory {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(flips) => flips.serialize(serializer),
            None => serializer.collect_seq(std::iter::empty::<Timestamp>()),
        }
    }
}

impl<'de> Deserialize<'de> for FlipHistory {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let flips = VecDeque::<Timestamp>::deserialize(deserializer)?;
        Ok(Self((!flips.is_empty()).then(|| Box::new(flips))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_reads_and_writes_the_json_of_a_plain_list() {
        let mut history = FlipHistory::default();
        assert_eq!(serde_json::to_string(&history).unwrap(), "[]");
        history.push(Timestamp(5));
        history.push(Timestamp(9));
        let text = serde_json::to_string(&history).unwrap();
        assert_eq!(
            text,
            serde_json::to_string(&VecDeque::from([Timestamp(5), Timestamp(9)])).unwrap()
        );
        assert_eq!(serde_json::from_str::<FlipHistory>(&text).unwrap(), history);
        assert_eq!(
            serde_json::from_str::<FlipHistory>("[]").unwrap(),
            FlipHistory::default()
        );
    }

    #[test]
    fn the_oldest_go_first_and_an_emptied_history_holds_nothing() {
        let mut history = FlipHistory::default();
        for t in [1, 2, 3] {
            history.push(Timestamp(t));
        }
        history.drop_oldest_while(|oldest, _| oldest < Timestamp(2));
        assert_eq!((history.oldest(), history.len()), (Some(Timestamp(2)), 2));
        history.drop_oldest_while(|_, len| len > 0);
        assert_eq!(history, FlipHistory::default());
        assert!(history.0.is_none());
    }
}
