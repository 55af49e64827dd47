//! The kinds of frames: their KIND word on the wire and which side sends them.

#[cfg(feature = "std")]
use serde::{Deserialize, Serialize};

/// The kind of a frame ([`crate::FrameRef`], or `Frame` with `std`), for statistics, logs and dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(rename_all = "snake_case"))]
pub enum FrameKind {
    /// `Frame::BoardHello`.
    BoardHello,
    /// `Frame::ClockHello`.
    ClockHello,
    /// `Frame::Snap`.
    Snap,
    /// `Frame::Diff`.
    Diff,
    /// `Frame::Beat`.
    Beat,
    /// `Frame::Fault`.
    Fault,
    /// `Frame::Press`.
    Press,
    /// `Frame::Key`.
    Key,
    /// `Frame::Caps`.
    Caps,
    /// `Frame::Zone`.
    Zone,
    /// `Frame::SyncEcho`.
    SyncEcho,
    /// `Frame::Sync`.
    Sync,
    /// `Frame::HelloQuery`.
    HelloQuery,
    /// `Frame::SnapQuery`.
    SnapQuery,
    /// `Frame::Led`.
    Led,
    /// `Frame::Show`.
    Show,
    /// `Frame::Beep`.
    Beep,
}

impl FrameKind {
    /// The KIND word on the wire (`HELLO` for both hellos).
    pub const fn wire_kind(self) -> &'static str {
        match self {
            Self::BoardHello | Self::ClockHello => "HELLO",
            Self::Snap => "SNAP",
            Self::Diff => "DIFF",
            Self::Beat => "BEAT",
            Self::Fault => "FAULT",
            Self::Press => "PRESS",
            Self::Key => "KEY",
            Self::Caps => "CAPS",
            Self::Zone => "ZONE",
            Self::SyncEcho | Self::Sync => "SYNC",
            Self::HelloQuery => "HELLO?",
            Self::SnapQuery => "SNAP?",
            Self::Led => "LED",
            Self::Show => "SHOW",
            Self::Beep => "BEEP",
        }
    }

    /// Whether the host sends this kind (as opposed to a board or a clock).
    pub const fn is_host(self) -> bool {
        matches!(
            self,
            Self::HelloQuery | Self::SnapQuery | Self::Led | Self::Show | Self::Beep | Self::Sync
        )
    }
}
