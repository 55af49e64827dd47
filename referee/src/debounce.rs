//! Debouncing of raw sensor readings: a point is steady once unchanged for the settle time, the board quiet once every point is.

use crate::Timestamp;
use crate::input::{PointChange, Reading};

/// A quiet board: what the sensors show once nothing changed for the settle time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiet {
    /// When the board became quiet (the last change plus the settle time).
    pub at: Timestamp,
    /// The readings, index order.
    pub readings: Vec<Reading>,
    /// For each point, when its reading last changed (igoki's sub-steps:
    /// the order in which stones arrived during a burst).
    pub changed_at: Vec<Timestamp>,
}

/// What feeding a frame did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed {
    /// Accepted.
    Accepted,
    /// Rejected: wrong length or the board is waiting for a snapshot after a gap.
    Rejected,
}

/// The debouncer of one board.
#[derive(Clone, Debug)]
pub struct Debouncer {
    settle_ms: u64,
    raw: Vec<Reading>,
    changed_at: Vec<Timestamp>,
    /// Time of the last change not yet reported as quiet.
    pending_since: Option<Timestamp>,
    /// False until a first snapshot and after a sequence gap (wire-protocol.md: trust nothing until a SNAP).
    synced: bool,
}

impl Debouncer {
    /// A debouncer for `points` points with the given settle time.
    pub fn new(points: usize, settle_ms: u64) -> Self {
        Self {
            settle_ms,
            raw: vec![Reading::Unknown; points],
            changed_at: vec![Timestamp(0); points],
            pending_since: None,
            synced: false,
        }
    }

    /// Whether a snapshot has been seen since the last gap.
    pub fn is_synced(&self) -> bool {
        self.synced
    }

    /// The raw readings now (not debounced).
    pub fn raw(&self) -> &[Reading] {
        &self.raw
    }

    /// Frames were lost: ignore diffs until the next snapshot.
    pub fn handle_gap(&mut self) {
        self.synced = false;
    }

    /// A full snapshot.
    pub fn handle_snapshot(&mut self, now: Timestamp, points: &[Reading]) -> Feed {
        if points.len() != self.raw.len() {
            return Feed::Rejected;
        }
        for (index, reading) in points.iter().enumerate() {
            self.set(now, index, *reading);
        }
        self.synced = true;
        Feed::Accepted
    }

    /// A diff; rejected while unsynced or when an index is out of range.
    pub fn handle_diff(&mut self, now: Timestamp, changes: &[PointChange]) -> Feed {
        let in_range = changes
            .iter()
            .all(|c| usize::from(c.index) < self.raw.len());
        if !self.synced || !in_range {
            return Feed::Rejected;
        }
        for change in changes {
            self.set(now, usize::from(change.index), change.state);
        }
        Feed::Accepted
    }

    fn set(&mut self, now: Timestamp, index: usize, reading: Reading) {
        if self.raw[index] != reading {
            self.raw[index] = reading;
            self.changed_at[index] = now;
            self.pending_since = Some(now);
        }
    }

    /// When the board will be quiet if nothing else changes.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.pending_since.map(|t| t.plus_ms(self.settle_ms))
    }

    /// The quiet board, once `now` has reached the settle deadline.
    pub fn poll_quiet(&mut self, now: Timestamp) -> Option<Quiet> {
        let due = self.poll_timeout()?;
        if now < due || !self.synced {
            return None;
        }
        self.pending_since = None;
        Some(Quiet {
            at: due,
            readings: self.raw.clone(),
            changed_at: self.changed_at.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_board(points: &str) -> Vec<Reading> {
        points.chars().filter_map(Reading::from_char).collect()
    }

    fn change(index: u16, state: Reading) -> PointChange {
        PointChange { index, state }
    }

    #[test]
    fn quiet_only_after_the_settle_time() {
        let mut d = Debouncer::new(4, 300);
        d.handle_snapshot(Timestamp(1000), &build_board("...."));
        assert_eq!(d.poll_timeout(), Some(Timestamp(1300)));
        assert!(d.poll_quiet(Timestamp(1299)).is_none());
        let q = d.poll_quiet(Timestamp(1300)).unwrap();
        assert_eq!(q.at, Timestamp(1300));
        assert_eq!(d.poll_timeout(), None);
    }

    #[test]
    fn flicker_restarts_the_settle_time() {
        let mut d = Debouncer::new(4, 300);
        d.handle_snapshot(Timestamp(0), &build_board("...."));
        d.poll_quiet(Timestamp(300)).unwrap();
        d.handle_diff(Timestamp(1000), &[change(1, Reading::Black)]);
        d.handle_diff(Timestamp(1100), &[change(1, Reading::Empty)]);
        assert_eq!(d.poll_timeout(), Some(Timestamp(1400)));
        let q = d.poll_quiet(Timestamp(1400)).unwrap();
        assert_eq!(q.readings, build_board("...."));
    }

    #[test]
    fn diffs_after_a_gap_wait_for_a_snapshot() {
        let mut d = Debouncer::new(4, 300);
        assert_eq!(
            d.handle_diff(Timestamp(0), &[change(0, Reading::Black)]),
            Feed::Rejected
        );
        d.handle_snapshot(Timestamp(0), &build_board("...."));
        d.handle_gap();
        assert_eq!(
            d.handle_diff(Timestamp(5), &[change(0, Reading::Black)]),
            Feed::Rejected
        );
        assert_eq!(d.handle_diff(Timestamp(5), &[]), Feed::Rejected);
        assert_eq!(
            d.handle_snapshot(Timestamp(6), &build_board("B...")),
            Feed::Accepted
        );
        assert_eq!(
            d.handle_diff(Timestamp(7), &[change(9, Reading::Black)]),
            Feed::Rejected
        );
    }

    #[test]
    fn wrong_length_snapshots_are_rejected() {
        let mut d = Debouncer::new(4, 300);
        assert_eq!(
            d.handle_snapshot(Timestamp(0), &build_board("...")),
            Feed::Rejected
        );
        assert!(!d.is_synced());
    }
}
