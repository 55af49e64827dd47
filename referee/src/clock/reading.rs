//! What the clock shows: the api.md `clock` object, the wire `$SHOW` fields and the time of a completed move.

use serde::{Deserialize, Serialize};

use super::systems::SideTime;
use super::{Color, TimeControl};

/// One side's clock as api.md publishes it: `{"main_ms", "periods", "period_ms"}` plus extras.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(as = SideClock, description = "One side's clock reading.")
)]
pub struct SideReading {
    /// Main time left.
    pub main_ms: u64,
    /// Byo-yomi periods (or reserved minutes, CN2002 12.3) left; 0 for systems without periods.
    pub periods: u32,
    /// Time left in the current byo-yomi period, or in the Canadian block.
    pub period_ms: u64,
    /// Moves left to make in the Canadian block (Canadian time only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_left: Option<u32>,
    /// Total time the side's clock has run this game (pauses excluded).
    pub used_ms: u64,
    /// The side's time ran out (CN2002 12.4, 22.5).
    pub flagged: bool,
}

impl SideReading {
    pub(crate) fn from_state(state: &SideTime, used_ms: u64) -> Self {
        Self {
            main_ms: state.main_ms,
            periods: state.periods,
            period_ms: state.period_ms,
            moves_left: state.moves_left,
            used_ms,
            flagged: state.flagged,
        }
    }

    /// The time a display shows: main time while it lasts, then the period or block.
    #[must_use]
    pub fn display_ms(&self) -> u64 {
        if self.main_ms > 0 {
            self.main_ms
        } else {
            self.period_ms
        }
    }

    /// The count a display shows next to the time (wire `$SHOW`, SGF `OB`/`OW`):
    /// byo-yomi periods left, or moves left in a Canadian block.
    #[must_use]
    pub fn display_count(&self) -> u32 {
        self.moves_left.unwrap_or(self.periods)
    }
}

/// The api.md `clock` object of the board state.
///
/// `{"running": "black"|"white"|null, "black": {...}, "white": {...}}`,
/// plus whose turn it is, whether an arbiter paused the clocks, whose flag
/// fell, and the time control string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(as = ClockState, description = "Both clocks, plus whose turn it is, whether an arbiter \
        paused them, whose flag fell, and the time control.")
)]
pub struct ClockReading {
    /// The side whose clock is running now; null before the start, while paused and after a flag fall.
    pub running: Option<Color>,
    /// Black's clock.
    pub black: SideReading,
    /// White's clock.
    pub white: SideReading,
    /// Whose turn the clock is timing, running or not.
    pub to_move: Option<Color>,
    /// An arbiter stopped both clocks (CN2002 14).
    pub paused: bool,
    /// Whose flag fell, if any.
    pub flag_fallen: Option<Color>,
    /// The time control, in the form of `POST /game`'s `time_control`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub time_control: TimeControl,
}

impl ClockReading {
    /// One side's reading.
    #[must_use]
    pub fn side(&self, side: Color) -> &SideReading {
        match side {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

/// The fields of the wire `$SHOW` frame (wire-protocol.md "Host to devices").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// Black's remaining time on the display.
    pub black_ms: u64,
    /// White's remaining time on the display.
    pub white_ms: u64,
    /// Black's periods left, or moves left in a Canadian block.
    pub black_periods: u32,
    /// White's periods left, or moves left in a Canadian block.
    pub white_periods: u32,
    /// The running side.
    pub running: Option<Color>,
}

impl Show {
    /// `<running>` as the frame writes it: `B`, `W` or `-`.
    #[must_use]
    pub fn running_letter(&self) -> char {
        match self.running {
            Some(Color::Black) => 'B',
            Some(Color::White) => 'W',
            None => '-',
        }
    }
}

impl From<&ClockReading> for Show {
    fn from(reading: &ClockReading) -> Self {
        Self {
            black_ms: reading.black.display_ms(),
            white_ms: reading.white.display_ms(),
            black_periods: reading.black.display_count(),
            white_periods: reading.white.display_count(),
            running: reading.running,
        }
    }
}

/// The clock's record of one completed move, for the move list and SGF `BL`/`WL`, `OB`/`OW`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveTime {
    /// Who moved.
    pub side: Color,
    /// Time the move took (pauses excluded).
    pub used_ms: u64,
    /// The mover's clock at the press, before a period reset, increment or new block.
    pub left: SideReading,
    /// The mover's clock once the move is complete.
    pub after: SideReading,
}
