//! The board port's lag behind the clock's, measured from play: how late each stone is read against the press that completes it (referee-notes point 8, issue 39.5).
//!
//! A hand needs well over 50 ms to go from the board to the clock, so on ports without lag the
//! stone of an ordinary move is read before its press. When the board's frames lag, honest
//! stones are read after their presses, move after move. The meter keeps the last
//! [`WINDOW`] moves' margins (the stone read this many ms after its press; negative: before)
//! and takes the [`TOLERATED`]th largest as the lag, so a few real premature presses in the
//! window do not count as lag; a lag shows on many moves, a premature press on a few.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

/// Moves kept.
const WINDOW: usize = 24;
/// Moves needed before a lag is read at all.
const MIN_MOVES: usize = 4;
/// The margin the lag is read from is the largest but this many: premature presses are rare.
const TOLERATED: usize = 3;
/// Larger margins within this much of the one below still belong to the port's lag (the
/// fastest hands); a larger step up is a premature press, whose stone comes a reach later.
const CLUSTER_STEP_MS: i64 = 100;
/// The margin an operator should add to the measured lag (`[referee] port_skew`).
pub(crate) const SKEW_MARGIN_MS: u64 = 50;

/// A press that looked premature by at most this much before the lag could be measured is
/// held until it can (a lag of the board's port explains margins up to about this).
pub(crate) const HELD_UP_TO_MS: u64 = 300;

/// The recent margins between stones and the presses that completed them, and the presses
/// that looked premature before there were enough of them to tell.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PortLag {
    margins: VecDeque<i64>,
    /// Held premature presses: judged once the lag can be measured.
    suspects: Vec<Suspect>,
}

/// A press that looked premature while the lag could not be measured yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Suspect {
    /// The presser.
    pub(crate) player: goban_rules::Color,
    /// The move it would be raised on.
    pub(crate) number: u32,
    /// The stone's point.
    pub(crate) points: Vec<usize>,
    /// The alert's evidence.
    pub(crate) evidence: Vec<(crate::Timestamp, String)>,
    /// How long after the press the stone was read, in ms.
    pub(crate) margin_ms: u64,
}

impl PortLag {
    /// A press that looked premature while the lag could not be measured yet: held.
    pub(crate) fn handle_suspect(&mut self, suspect: Suspect) {
        self.suspects.push(suspect);
    }

    /// The held presses, to judge now that the lag can be measured.
    pub(crate) fn poll_suspects(&mut self) -> Vec<Suspect> {
        std::mem::take(&mut self.suspects)
    }

    /// A move completed by a press at `press_ms` whose stone was read at `stone_ms`.
    pub(crate) fn record(&mut self, stone_ms: u64, press_ms: u64) {
        let margin = i64::try_from(stone_ms).unwrap_or(i64::MAX)
            - i64::try_from(press_ms).unwrap_or(i64::MAX);
        if self.margins.len() == WINDOW {
            self.margins.pop_front();
        }
        self.margins.push_back(margin);
    }

    /// Whether too few moves were seen to tell a lag.
    pub(crate) fn warming_up(&self) -> bool {
        self.margins.len() < MIN_MOVES
    }

    /// The board's measured lag in ms: 0 while stones are read before their presses, or
    /// before enough moves were seen.
    pub(crate) fn lag_ms(&self) -> u64 {
        if self.margins.len() < MIN_MOVES {
            return 0;
        }
        let mut sorted: Vec<i64> = self.margins.iter().copied().collect();
        sorted.sort_unstable();
        let base = sorted.len().saturating_sub(TOLERATED + 1);
        let mut lag = sorted[base];
        if lag <= 0 {
            return 0;
        }
        for &larger in &sorted[base + 1..] {
            if larger - lag > CLUSTER_STEP_MS {
                break;
            }
            lag = larger;
        }
        u64::try_from(lag).unwrap_or(0)
    }

    /// The `port_skew` an operator should set for this lag: the lag plus a margin, rounded
    /// up to 50 ms.
    pub(crate) fn advised_skew_ms(&self) -> u64 {
        (self.lag_ms() + SKEW_MARGIN_MS).div_ceil(50) * 50
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_meter(margins: &[i64]) -> PortLag {
        let mut meter = PortLag::default();
        for &m in margins {
            let press = 10_000;
            meter.record(u64::try_from(press + m).unwrap(), 10_000);
        }
        meter
    }

    #[test]
    fn honest_play_on_an_even_port_has_no_lag() {
        let meter = build_meter(&[-300, -120, -90, -400, -800, -150, -60, -200, -95, -1_000]);
        assert_eq!(meter.lag_ms(), 0);
    }

    #[test]
    fn a_few_premature_presses_are_no_lag() {
        let meter = build_meter(&[-300, 700, -90, -400, 450, -150, -60, -200, 900, -1_000]);
        assert_eq!(meter.lag_ms(), 0, "three premature presses in ten moves");
    }

    #[test]
    fn a_lagging_port_shows_on_many_moves() {
        // 250 ms late: hands of 80-400 ms read as -150..+170.
        let meter = build_meter(&[170, 120, -50, 90, 150, -150, 60, 130, 20, 100, 160, -10]);
        assert_eq!(meter.lag_ms(), 170, "the fastest hands belong to the lag");
        assert_eq!(meter.advised_skew_ms(), 250);
        // A premature press among them stands apart: a reach later than the cluster.
        let meter = build_meter(&[170, 120, -50, 90, 900, -150, 60, 130, 20, 100, 160, -10]);
        assert_eq!(meter.lag_ms(), 170);
    }

    #[test]
    fn too_few_moves_say_nothing() {
        assert_eq!(build_meter(&[500, 500, 500]).lag_ms(), 0);
    }
}
