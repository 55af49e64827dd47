//! Commands for the devices, drained by the daemon and encoded as wire frames (`$SNAP?`, `$LED`, `$SHOW`, `$BEEP`).

use serde::{Deserialize, Serialize};

/// Which clock runs, for the `$SHOW` frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Running {
    /// Black's clock.
    B,
    /// White's clock.
    W,
    /// Neither.
    #[serde(rename = "-")]
    None,
}

/// One command for a device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum DeviceCommand {
    /// Ask the board for a full snapshot (`$SNAP?`), e.g. after a sequence gap.
    SnapRequest,
    /// Light these wire indices (`$LED`); empty clears them.
    Led {
        /// The points.
        points: Vec<u16>,
    },
    /// What the clock shows (`$SHOW`).
    Show {
        /// Black's remaining ms.
        black_ms: u64,
        /// White's remaining ms.
        white_ms: u64,
        /// Black's remaining periods (or moves left in a Canadian block).
        black_periods: u32,
        /// White's.
        white_periods: u32,
        /// Which runs.
        running: Running,
    },
    /// Sound beeps (`$BEEP`), for count-out calls.
    Beep {
        /// How many.
        count: u8,
    },
}
