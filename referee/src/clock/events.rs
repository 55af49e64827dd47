//! What the clock announces as time passes: count-out calls, byo-yomi periods used, flag falls.

use serde::{Deserialize, Serialize};

use super::{Color, CountOutCall};
use crate::Timestamp;

/// An event produced by `Clock::handle_timeout` (or queued by a press that caught up with time).
///
/// `at` is the instant the event was due on the clock, not the instant it
/// was handled, so a late timer does not shift the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ClockEvent {
    /// A count-out call by the arbiter's voice (CN2002 12.3), for MQTT `clock` and `$BEEP`.
    Call {
        /// Whose time is being counted.
        side: Color,
        /// When the call is due.
        at: Timestamp,
        /// What is called, flattened: `"call": "elapsed", "seconds": 30` or `"call": "count", "n": 3`.
        #[serde(flatten)]
        call: CountOutCall,
    },
    /// Main time is used up: byo-yomi periods or the first Canadian block begin.
    OvertimeStarted {
        /// Whose main time ran out.
        side: Color,
        /// When.
        at: Timestamp,
        /// Byo-yomi periods left (0 under Canadian time).
        periods: u32,
        /// Moves to make in the block (Canadian time only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moves: Option<u32>,
    },
    /// A full byo-yomi period was used: "1 minute used, N left" (1分, 还剩×分, CN2002 12.3; JK 3).
    PeriodUsed {
        /// Whose period.
        side: Color,
        /// When it ran out.
        at: Timestamp,
        /// Periods still reserved.
        periods_left: u32,
    },
    /// The flag fell: the last period or the main time ran out (`time_forfeit`).
    FlagFall {
        /// Whose flag.
        side: Color,
        /// When.
        at: Timestamp,
        /// The rule: CN2002 12.3 / 12.4 with 22.5, or JK 3.
        article: String,
    },
}

impl ClockEvent {
    /// The side the event concerns.
    #[must_use]
    pub fn side(&self) -> Color {
        match self {
            Self::Call { side, .. }
            | Self::OvertimeStarted { side, .. }
            | Self::PeriodUsed { side, .. }
            | Self::FlagFall { side, .. } => *side,
        }
    }

    /// When the event was due.
    #[must_use]
    pub fn at(&self) -> Timestamp {
        match self {
            Self::Call { at, .. }
            | Self::OvertimeStarted { at, .. }
            | Self::PeriodUsed { at, .. }
            | Self::FlagFall { at, .. } => *at,
        }
    }

    /// Whether this is a voice call only (no change to the game's facts).
    #[must_use]
    pub fn is_call(&self) -> bool {
        matches!(self, Self::Call { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialise_with_their_kind() {
        let event = ClockEvent::PeriodUsed {
            side: Color::White,
            at: Timestamp(5),
            periods_left: 4,
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(
            json,
            r#"{"event":"period_used","side":"white","at":5,"periods_left":4}"#
        );
        let back: ClockEvent = serde_json::from_str(&json).unwrap();
        assert_eq!(back, event);
    }

    #[test]
    fn calls_serialise_flat() {
        let event = ClockEvent::Call {
            side: Color::Black,
            at: Timestamp(7),
            call: CountOutCall::Elapsed { seconds: 30 },
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(
            json,
            r#"{"event":"call","side":"black","at":7,"call":"elapsed","seconds":30}"#
        );
        let back: ClockEvent = serde_json::from_str(&json).unwrap();
        assert_eq!(back, event);
    }
}
