//! Device-level alerts: the board cannot see (presses it cannot explain) or a sensor chatters; they ask the arbiter, they accuse no player.

use serde::{Deserialize, Serialize};

/// What a device alert is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeviceAlertKind {
    /// The board could not see (unplugged, frames lost, `?` or chattering points) while
    /// the clock was pressed: the presses are held, no move or pass is guessed.
    BoardUnavailable,
    /// One sensor flips too often; it reads `?` until steady again.
    ChatteringSensor,
    /// The board's readings arrive later than the clock's by more than `port_skew` allows:
    /// honest stones read after their presses are not premature presses; the message names
    /// the `[referee] port_skew` to set (issue 39.5).
    PortLag,
}

/// One device alert (published in `device.alerts` on the `device` topic and in the state).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeviceAlert {
    /// Unique within the board's life: "<board>-d<n>".
    pub id: String,
    /// What it is about.
    pub kind: DeviceAlertKind,
    /// The chattering point ("D4"), for `chattering_sensor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "D4"))]
    pub point: Option<String>,
    /// Clock presses the board could not explain yet, for `board_unavailable`.
    #[serde(default)]
    pub presses_unexplained: u32,
    /// When it was raised (RFC 3339).
    pub raised_at: String,
    /// When it ended (RFC 3339), or null while open.
    pub resolved_at: Option<String>,
    /// What the arbiter is asked to do, in words.
    pub message: String,
}
