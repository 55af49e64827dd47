//! Per-point filtering: a reading must hold for a number of scans before the point reads it.

use crate::sensor::{Reading, Thresholds};
use goban_protocol::PointState;

/// The filter of one point: its state, and a candidate state with the number of
/// consecutive scans that read it.
///
/// This removes electrical noise (one bad sample), nothing more: a hand over the board
/// or a stone sliding in still reads as it happens (docs/protocol.md section 4: the
/// board reports raw readings; deciding what a move is belongs to the host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointFilter {
    state: PointState,
    candidate: PointState,
    count: u8,
}

impl Default for PointFilter {
    fn default() -> Self {
        Self::new(PointState::Empty)
    }
}

impl PointFilter {
    /// A point that reads `state`.
    pub const fn new(state: PointState) -> Self {
        Self {
            state,
            candidate: state,
            count: 0,
        }
    }

    /// What the point reads now.
    pub const fn state(&self) -> PointState {
        self.state
    }

    /// Takes one scan's reading; returns the new state when it changed. A reading must
    /// be seen on `confirm` consecutive scans (1: at once).
    pub fn update(
        &mut self,
        reading: Reading,
        thresholds: &Thresholds,
        confirm: u8,
    ) -> Option<PointState> {
        let seen = match reading {
            Reading::Level(level) => thresholds.classify(level, self.state),
            Reading::State(state) => state,
        };
        if seen == self.state {
            self.candidate = seen;
            self.count = 0;
            return None;
        }
        if seen == self.candidate {
            self.count = self.count.saturating_add(1);
        } else {
            self.candidate = seen;
            self.count = 1;
        }
        if self.count < confirm.max(1) {
            return None;
        }
        self.state = seen;
        self.count = 0;
        Some(seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Thresholds = Thresholds::HALL_12BIT;
    const BLACK: Reading = Reading::Level(2048 + 500);
    const EMPTY: Reading = Reading::Level(2048);

    #[test]
    fn one_noisy_sample_is_not_a_stone() {
        let mut f = PointFilter::default();
        assert_eq!(f.update(BLACK, &T, 2), None);
        assert_eq!(f.update(EMPTY, &T, 2), None);
        assert_eq!(f.update(BLACK, &T, 2), None);
        assert_eq!(f.update(BLACK, &T, 2), Some(PointState::Black));
        assert_eq!(f.state(), PointState::Black);
        assert_eq!(f.update(BLACK, &T, 2), None);
    }

    #[test]
    fn confirm_one_passes_every_reading_through() {
        let mut f = PointFilter::default();
        let white = Reading::State(PointState::White);
        assert_eq!(f.update(white, &T, 1), Some(PointState::White));
        assert_eq!(f.update(EMPTY, &T, 1), Some(PointState::Empty));
        assert_eq!(f.update(EMPTY, &T, 0), None, "0 counts as 1");
    }

    #[test]
    fn a_change_of_candidate_restarts_the_count() {
        let mut f = PointFilter::default();
        let white = Reading::Level(2048 - 500);
        assert_eq!(f.update(BLACK, &T, 3), None);
        assert_eq!(f.update(BLACK, &T, 3), None);
        assert_eq!(f.update(white, &T, 3), None);
        assert_eq!(f.update(white, &T, 3), None);
        assert_eq!(f.update(white, &T, 3), Some(PointState::White));
    }
}
