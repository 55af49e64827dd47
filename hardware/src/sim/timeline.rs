//! The simulator's plan: timed physical acts (sensor changes, presses) and device faults, computed up front from a seed.

use goban_protocol::{Button, DeviceKind, Key, PointState};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One thing that happens at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    /// Physical changes on the board, as the sensors see them (a hand hiding points reads `?`).
    Board {
        /// `(point index, new state)` pairs.
        changes: Vec<(u16, PointState)>,
    },
    /// Stones put in or taken out of the off-board zones (v1.1 `ZONE`, docs/protocol.md
    /// 10.2): the agreed end of CN2002 puts a stone of the opponent's colour in one's own.
    Zones {
        /// What lies in the zone at Black's lower right.
        black: PointState,
        /// What lies in the zone at White's lower right.
        white: PointState,
    },
    /// A sensor sticks at a reading (`Some`) or recovers (`None`).
    Stuck {
        /// Point index.
        point: u16,
        /// Stuck reading, or `None` to free it.
        state: Option<PointState>,
    },
    /// A clock button pressed.
    Press {
        /// Which button.
        button: Button,
    },
    /// Another clock key.
    Key {
        /// Which key.
        key: Key,
    },
    /// Line noise on a device's port (no `$`, so it is pure noise to the decoder).
    Garbage {
        /// Whose port.
        device: DeviceKind,
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// The next `count` frames of a device go out with a wrong CRC.
    CorruptNext {
        /// Which device.
        device: DeviceKind,
        /// How many frames.
        count: u32,
    },
    /// The next `count` frames of a device are lost on the line.
    DropNext {
        /// Which device.
        device: DeviceKind,
        /// How many frames.
        count: u32,
    },
    /// The device's cable is pulled and plugged back after `down_ms`; the device reboots.
    Unplug {
        /// Which device.
        device: DeviceKind,
        /// Milliseconds unplugged.
        down_ms: u64,
    },
}

/// An act after a delay from the previous one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Wait this long after the previous step (already scaled by the speed factor).
    pub delay: Duration,
    /// What happens.
    pub act: Act,
    /// Why, for logs: the move number and the gesture or the staged infraction (with its article).
    pub note: String,
}

/// A whole simulated game at one table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    /// Board size in lines.
    pub size: u8,
    /// The steps in order.
    pub steps: Vec<Step>,
    /// Scripted faults that could not be staged here (e.g. no ko on the board), with the reason.
    pub skipped: Vec<String>,
    /// The physical position after the last step: what a host must end up seeing.
    pub final_position: Vec<PointState>,
}

impl Timeline {
    /// Total duration of the timeline.
    pub fn duration(&self) -> Duration {
        self.steps.iter().map(|s| s.delay).sum()
    }

    /// The number of clock presses in the timeline.
    pub fn presses(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s.act, Act::Press { .. }))
            .count()
    }
}
