//! The machine-readable fault script (JSON): infractions of the rules digest and device faults, by move number.

use crate::error::HardwareError;
use goban_protocol::DeviceKind;
use serde::{Deserialize, Serialize};

/// A fault script: what goes wrong, and when.
///
/// ```json
/// {"steps": [
///   {"at_move": 12, "fault": "ko_violation"},
///   {"at_move": 20, "fault": "garbage", "device": "board", "bytes": 40},
///   {"at_move": 30, "fault": "unplug", "device": "clock", "down_ms": 2000}
/// ]}
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultScript {
    /// The steps; several may share a move.
    #[serde(default)]
    pub steps: Vec<ScriptStep>,
}

/// One scripted fault at a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptStep {
    /// The move (1-based) at which it happens: before the move is played, or, for acts that
    /// follow a move (double move, takeback), right after it.
    pub at_move: u32,
    /// What happens.
    #[serde(flatten)]
    pub fault: Fault,
}

/// The device a fault hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Device {
    /// The board (default).
    #[default]
    Board,
    /// The clock.
    Clock,
}

impl Device {
    /// The protocol's device kind.
    pub fn kind(self) -> DeviceKind {
        match self {
            Self::Board => DeviceKind::Board,
            Self::Clock => DeviceKind::Clock,
        }
    }
}

const fn default_think_ms() -> u64 {
    // Longer than any main time plus byo-yomi used in simulations: the flag falls.
    3_600_000
}

const fn default_absent_ms() -> u64 {
    // 16 minutes: beyond CN2002 22.1's 15 minutes at the same venue.
    960_000
}

const fn one() -> u32 {
    1
}

const fn default_garbage() -> usize {
    32
}

const fn default_down_ms() -> u64 {
    1_500
}

const fn default_stuck_ms() -> u64 {
    5_000
}

const fn default_chatter_hz() -> u32 {
    4
}

const fn default_chatter_ms() -> u64 {
    20_000
}

/// Where a chattering sensor is, chosen when the fault is staged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatterAt {
    /// An empty point away from the move (default).
    #[default]
    Empty,
    /// A point with a stone on it.
    Stone,
    /// An empty neighbour of the point about to be played.
    NextToMove,
}

/// A fault: the infraction ids of `spec/rules-digest.md` ("Infractions a sensor board and
/// clock can witness") staged physically, and device faults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum Fault {
    /// A stone on a suicide point (CN2002 19, JK 10); the arbiter voids it and play resumes.
    ForbiddenPoint,
    /// An immediate ko retake (CN2002 18.3, 20.1; JK 11.1).
    KoViolation,
    /// A stone put on an occupied point (CN2002 2.3).
    OccupiedPoint,
    /// The same colour plays twice (CN2002 17.2; JK 8.1): a second stone right after the move.
    DoubleMove {
        /// Set: the player lifts the second stone this many ms (unscaled) after placing it,
        /// without pressing. Unset: they press and the arbiter removes it after 3-10 s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corrected_ms: Option<u64>,
    },
    /// The players hold each other's colours from this move on (CN2002 17.1).
    WrongColour,
    /// The mover presses before removing the stones captured (CN2002 18.2, 22.6), at the first
    /// capturing move from here.
    MissedCapture,
    /// The mover removes a stone that still had liberties (CN2002 18.1; JK 9).
    WrongCapture,
    /// The clock is pressed before the stone is placed (CN2002 17.4).
    PrematurePress,
    /// After the press the stone is lifted and put elsewhere (CN2002 17.3; JK 8.2).
    Takeback {
        /// Set: the player puts it back on its first point this many ms (unscaled) later.
        /// Unset: the arbiter does, after 3-10 s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corrected_ms: Option<u64>,
    },
    /// A stone already on the board moves to another point (CN2002 17.5; JK 8.3).
    DisplacedStones {
        /// Set: it is put back this many ms (unscaled) later. Unset: after 3-10 s.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        corrected_ms: Option<u64>,
    },
    /// The board is knocked: many stones move or vanish at once (CN2002 17.6; JK 8.4).
    #[serde(alias = "knocked_board")]
    BoardDisturbed {
        /// How many stones are disturbed; default a third of them, at least 3.
        #[serde(default)]
        stones: Option<usize>,
    },
    /// The mover thinks this long, so the flag falls (CN2002 12.4, 22.5).
    TimeForfeit {
        /// Thinking time in ms, not scaled by the speed factor. Default 3600000.
        #[serde(default = "default_think_ms")]
        think_ms: u64,
    },
    /// The player is absent when the clock starts (CN2002 22.1-22.4).
    LateStart {
        /// Absence in ms, not scaled. Default 960000 (16 min).
        #[serde(default = "default_absent_ms")]
        absent_ms: u64,
    },
    /// Line noise bytes on the device's port.
    Garbage {
        /// Which port.
        #[serde(default)]
        device: Device,
        /// How many bytes. Default 32.
        #[serde(default = "default_garbage")]
        bytes: usize,
    },
    /// Frames with a bad CRC.
    CrcError {
        /// Which device.
        #[serde(default)]
        device: Device,
        /// How many frames. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// Frames lost on the line (the host sees a sequence gap).
    DropFrames {
        /// Which device.
        #[serde(default)]
        device: Device,
        /// How many frames. Default 1.
        #[serde(default = "one")]
        count: u32,
    },
    /// A board sensor stuck at a reading for a while.
    StuckSensor {
        /// Point index (row-major, wire protocol v1).
        point: u16,
        /// Stuck reading: `.`, `B`, `W` or `?`. Default `?`.
        #[serde(default)]
        state: Option<char>,
        /// How long, in ms (scaled by the speed factor). Default 5000.
        #[serde(default = "default_stuck_ms")]
        duration_ms: u64,
    },
    /// A chattering sensor: one point's reading flips between what lies there and a wrong
    /// reading (a stone on an empty point, empty on a stone) `hz` times a second, with a
    /// little jitter, for `duration_ms` (unscaled), starting before the move.
    Chatter {
        /// Which point.
        #[serde(default)]
        on: ChatterAt,
        /// Flips to the wrong reading per second. Default 4.
        #[serde(default = "default_chatter_hz")]
        hz: u32,
        /// How long, in ms (unscaled). Default 20000.
        #[serde(default = "default_chatter_ms")]
        duration_ms: u64,
    },
    /// A clock key pressed before the move: `PAUSE`, `RESUME`, `RESIGN_L`, `RESIGN_R`,
    /// `DONE_L`, `DONE_R` (wire protocol v1, "Clock to host"), e.g. an arbiter's pause (CN2002 14).
    ClockKey {
        /// The key as the wire spells it.
        key: String,
    },
    /// The device is unplugged and replugged.
    Unplug {
        /// Which device.
        #[serde(default)]
        device: Device,
        /// How long it stays unplugged, in ms (not scaled). Default 1500.
        #[serde(default = "default_down_ms")]
        down_ms: u64,
    },
}

/// The infraction ids of the rules digest's table, in its order.
pub const INFRACTION_IDS: [&str; 13] = [
    "forbidden_point",
    "occupied_point",
    "ko_violation",
    "double_move",
    "wrong_colour",
    "missed_capture",
    "wrong_capture",
    "premature_press",
    "takeback",
    "displaced_stones",
    "board_disturbed",
    "time_forfeit",
    "late_start",
];

impl FaultScript {
    /// Parses a script from JSON; `origin` names it in errors (with line and column).
    pub fn from_json(text: &str, origin: &str) -> Result<Self, HardwareError> {
        serde_json::from_str(text).map_err(|source| HardwareError::Script {
            origin: origin.to_owned(),
            source,
        })
    }

    /// The faults scheduled at move `n`, in script order.
    pub fn at(&self, n: u32) -> impl Iterator<Item = &Fault> {
        self.steps
            .iter()
            .filter(move |s| s.at_move == n)
            .map(|s| &s.fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_infraction_of_the_digest_table_parses_by_its_id() {
        for id in INFRACTION_IDS {
            let json = format!(r#"{{"steps": [{{"at_move": 3, "fault": "{id}"}}]}}"#);
            let script = FaultScript::from_json(&json, "inline").unwrap();
            let back = serde_json::to_value(&script.steps[0]).unwrap();
            assert_eq!(back["fault"], id, "round trip of {id}");
        }
    }

    #[test]
    fn device_faults_parse_with_defaults_and_knocked_board_alias() {
        let script = FaultScript::from_json(
            r#"{"steps": [
                {"at_move": 1, "fault": "garbage"},
                {"at_move": 2, "fault": "unplug", "device": "clock", "down_ms": 800},
                {"at_move": 2, "fault": "knocked_board", "stones": 6},
                {"at_move": 4, "fault": "stuck_sensor", "point": 40, "state": "B"}
            ]}"#,
            "inline",
        )
        .unwrap();
        assert_eq!(
            script.steps[0].fault,
            Fault::Garbage {
                device: Device::Board,
                bytes: 32
            }
        );
        assert_eq!(script.at(2).count(), 2);
        assert_eq!(
            script.steps[2].fault,
            Fault::BoardDisturbed { stones: Some(6) }
        );
    }

    #[test]
    fn a_bad_script_names_its_origin_and_line() {
        let err = FaultScript::from_json(
            "{\"steps\": [\n{\"at_move\": 1, \"fault\": \"teleport\"}]}",
            "faults.json",
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("faults.json") && text.contains("line 2"),
            "{text}"
        );
    }
}
