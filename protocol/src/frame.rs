//! The typed frames of wire protocol v1: board, clock and host frames in one enum.

use crate::kind::FrameKind;
use crate::types::{BoardSize, Button, Change, Key, Point, PointState, Running, Seq, Text};
use serde::{Deserialize, Serialize};

/// One frame of wire protocol v1, whichever side sent it.
///
/// `BEAT` and `FAULT` have the same form on the board and the clock, so they are one
/// variant each; on a shared port only the `HELLO` before them tells the sender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// Board: `$HELLO,BOARD,1,<size>,<firmware>,<serial>`.
    BoardHello {
        /// Board size (9, 13 or 19).
        size: BoardSize,
        /// Firmware version, free text.
        firmware: Text,
        /// Device serial number, free text.
        serial: Text,
    },
    /// Clock: `$HELLO,CLOCK,1,<firmware>,<serial>`.
    ClockHello {
        /// Firmware version, free text.
        firmware: Text,
        /// Device serial number, free text.
        serial: Text,
    },
    /// Board: `$SNAP,<seq>,<ms>,<points>`, a full snapshot in index order.
    Snap {
        /// Counter shared with `DIFF`.
        seq: Seq,
        /// Device milliseconds since power-up (wraps; diagnostics only).
        ms: u32,
        /// Exactly size*size point states.
        points: Vec<PointState>,
    },
    /// Board: `$DIFF,<seq>,<ms>,<idx><state>[;<idx><state>]*`, changes since `seq-1`.
    Diff {
        /// Counter shared with `SNAP`.
        seq: Seq,
        /// Device milliseconds since power-up.
        ms: u32,
        /// The changed points, at least one, in wire order.
        changes: Vec<Change>,
    },
    /// Board or clock: `$BEAT,<ms>`, the heartbeat.
    Beat {
        /// Device milliseconds since power-up.
        ms: u32,
    },
    /// Board or clock: `$FAULT,<code>,<text>`, a device-side fault (informational).
    Fault {
        /// Fault code, free text.
        code: Text,
        /// Human-readable description.
        text: Text,
    },
    /// Clock: `$PRESS,<seq>,<ms>,<button>`.
    Press {
        /// Counter shared with `KEY`.
        seq: Seq,
        /// Device milliseconds since power-up.
        ms: u32,
        /// Which player button.
        button: Button,
    },
    /// Clock: `$KEY,<seq>,<ms>,<key>`.
    Key {
        /// Counter shared with `PRESS`.
        seq: Seq,
        /// Device milliseconds since power-up.
        ms: u32,
        /// Which key.
        key: Key,
    },
    /// Board or clock, v1.1: `$CAPS[,<cap>[;<cap>]*]`, the capabilities a device adds to
    /// v1, sent right after each `HELLO` (v1 hosts skip the unknown KIND). `SYNC` and
    /// `ZONE` are defined; other names are ignored.
    Caps {
        /// The device echoes `$SYNC` (docs/protocol.md 10.1).
        sync: bool,
        /// The board reads its off-board zones and sends `$ZONE` (docs/protocol.md 10.2).
        zones: bool,
    },
    /// Board, v1.1 `ZONE`: `$ZONE,<ms>,<black><white>`, what lies in the two off-board
    /// zones now, each outside the lines at one player's lower right (docs/protocol.md 10.2).
    Zone {
        /// Device milliseconds since power-up.
        ms: u32,
        /// The zone at Black's lower right, beyond the last point (T1 on 19x19).
        black: PointState,
        /// The zone at White's lower right, beyond point 0 (A19 on 19x19).
        white: PointState,
    },
    /// Board or clock, v1.1: `$SYNC,<token>,<ms>`, the echo of a host `$SYNC` with the
    /// device's milliseconds when it received it.
    SyncEcho {
        /// The host's token, unchanged.
        token: u32,
        /// Device milliseconds since power-up when the host frame was received.
        ms: u32,
    },
    /// Host, v1.1: `$SYNC,<token>`, asks a device announcing `SYNC` for its clock.
    Sync {
        /// Any number; the echo carries it back.
        token: u32,
    },
    /// Host: `$HELLO?`, asks a device to identify itself.
    HelloQuery,
    /// Host: `$SNAP?`, asks the board for a snapshot now.
    SnapQuery,
    /// Host: `$LED[,<idx>[;<idx>]*]`; an empty list clears the LEDs.
    Led {
        /// Points to light.
        points: Vec<Point>,
    },
    /// Host: `$SHOW,<black_ms>,<white_ms>,<black_periods>,<white_periods>,<running>`.
    Show {
        /// Black's remaining milliseconds.
        black_ms: u32,
        /// White's remaining milliseconds.
        white_ms: u32,
        /// Black's remaining overtime periods (or moves left in a Canadian period).
        black_periods: u32,
        /// White's remaining overtime periods (or moves left in a Canadian period).
        white_periods: u32,
        /// Whose time runs.
        running: Running,
    },
    /// Host: `$BEEP,<count>`, short beeps (byo-yomi count-down).
    Beep {
        /// Number of beeps.
        count: u32,
    },
}

impl Frame {
    /// The kind of this frame.
    pub const fn kind(&self) -> FrameKind {
        match self {
            Self::BoardHello { .. } => FrameKind::BoardHello,
            Self::ClockHello { .. } => FrameKind::ClockHello,
            Self::Snap { .. } => FrameKind::Snap,
            Self::Diff { .. } => FrameKind::Diff,
            Self::Beat { .. } => FrameKind::Beat,
            Self::Fault { .. } => FrameKind::Fault,
            Self::Press { .. } => FrameKind::Press,
            Self::Key { .. } => FrameKind::Key,
            Self::Caps { .. } => FrameKind::Caps,
            Self::Zone { .. } => FrameKind::Zone,
            Self::SyncEcho { .. } => FrameKind::SyncEcho,
            Self::Sync { .. } => FrameKind::Sync,
            Self::HelloQuery => FrameKind::HelloQuery,
            Self::SnapQuery => FrameKind::SnapQuery,
            Self::Led { .. } => FrameKind::Led,
            Self::Show { .. } => FrameKind::Show,
            Self::Beep { .. } => FrameKind::Beep,
        }
    }

    /// The `<seq>` of a SNAP, DIFF, PRESS or KEY frame; `None` for the others.
    pub const fn seq(&self) -> Option<Seq> {
        match self {
            Self::Snap { seq, .. }
            | Self::Diff { seq, .. }
            | Self::Press { seq, .. }
            | Self::Key { seq, .. } => Some(*seq),
            _ => None,
        }
    }

    /// The device milliseconds of a device frame that carries them.
    pub const fn device_ms(&self) -> Option<u32> {
        match self {
            Self::Snap { ms, .. }
            | Self::Diff { ms, .. }
            | Self::Beat { ms }
            | Self::Zone { ms, .. }
            | Self::SyncEcho { ms, .. }
            | Self::Press { ms, .. }
            | Self::Key { ms, .. } => Some(*ms),
            _ => None,
        }
    }
}
