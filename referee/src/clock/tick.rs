//! The `clock` topic's reading: what changes while a clock runs, small enough to publish once a second per board (under 300 bytes with the event's envelope; api.md).

use serde::{Deserialize, Serialize};

use super::Color;
use super::reading::{ClockReading, SideReading};

/// One side in a [`ClockTick`]: the time left as the board state's `clock` gives it, without
/// the totals; `moves_left` only for Canadian time, `flagged` only once the flag fell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideTick {
    /// Main time left.
    pub main_ms: u64,
    /// Byo-yomi periods left (0 for systems without periods).
    pub periods: u32,
    /// Time left in the current byo-yomi period, or in the Canadian block.
    pub period_ms: u64,
    /// Moves left to make in the Canadian block (Canadian time only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_left: Option<u32>,
    /// The side's time ran out (written only when true).
    #[serde(default, skip_serializing_if = "is_false")]
    pub flagged: bool,
}

/// A running clock's reading on the `clock` topic: who runs and both sides' time left.
///
/// The board state's `clock` (a [`ClockReading`]) carries the rest: whose turn, the time
/// control, the time each side used. A client keeps those from the state and takes the time
/// left from each tick; `paused` and `flag_fallen` are written only when set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTick {
    /// The side whose clock is running now; null while paused, before the start and after a flag fall.
    pub running: Option<Color>,
    /// Black's clock.
    pub black: SideTick,
    /// White's clock.
    pub white: SideTick,
    /// An arbiter stopped both clocks (CN2002 14).
    #[serde(default, skip_serializing_if = "is_false")]
    pub paused: bool,
    /// Whose flag fell, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag_fallen: Option<Color>,
}

// serde's `skip_serializing_if` takes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(value: &bool) -> bool {
    !*value
}

impl From<&SideReading> for SideTick {
    fn from(side: &SideReading) -> Self {
        Self {
            main_ms: side.main_ms,
            periods: side.periods,
            period_ms: side.period_ms,
            moves_left: side.moves_left,
            flagged: side.flagged,
        }
    }
}

impl From<&ClockReading> for ClockTick {
    fn from(reading: &ClockReading) -> Self {
        Self {
            running: reading.running,
            black: SideTick::from(&reading.black),
            white: SideTick::from(&reading.white),
            paused: reading.paused,
            flag_fallen: reading.flag_fallen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_keeps_the_time_left_and_drops_what_the_state_has() {
        let side = SideReading {
            main_ms: 3_600_000,
            periods: 5,
            period_ms: 30_000,
            moves_left: None,
            used_ms: 1_234,
            flagged: false,
        };
        let reading = ClockReading {
            running: Some(Color::Black),
            black: side,
            white: side,
            to_move: Some(Color::Black),
            paused: false,
            flag_fallen: None,
            time_control: "byoyomi-jp:main=60m,periods=5,period=30s".parse().unwrap(),
        };
        let json = serde_json::to_string(&ClockTick::from(&reading)).unwrap();
        assert_eq!(
            json,
            r#"{"running":"black","black":{"main_ms":3600000,"periods":5,"period_ms":30000},"white":{"main_ms":3600000,"periods":5,"period_ms":30000}}"#
        );
        let flagged = ClockTick {
            flag_fallen: Some(Color::White),
            paused: true,
            ..ClockTick::default()
        };
        let back: ClockTick =
            serde_json::from_str(&serde_json::to_string(&flagged).unwrap()).unwrap();
        assert_eq!(back, flagged);
    }
}
