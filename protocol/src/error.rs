//! Errors of the crate: why the decoder dropped bytes, and why a value could not be built.

use core::fmt;
#[cfg(feature = "std")]
use serde::{Deserialize, Serialize};

/// Why the decoder dropped a frame or a partial frame (wire protocol v1, "Framing").
///
/// Every rejection is counted in [`crate::DecoderStats`]; none ever yields a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "std", serde(rename_all = "snake_case"))]
pub enum RejectReason {
    /// A `$` arrived inside a frame: the partial frame was dropped and a new one starts.
    Interrupted,
    /// More than 1024 bytes (`$` to LF) without a line end: discarded up to the next `$`.
    TooLong,
    /// The line does not end in `*` and exactly 4 upper-case hex digits.
    BadFraming,
    /// The CRC-16/CCITT-FALSE of the body does not match the 4 hex digits.
    BadCrc,
    /// A byte that is not printable ASCII, or a stray `*` or CR, inside the body.
    BadByte,
    /// The KIND is not upper-case letters (optionally followed by `?`).
    BadKind,
    /// The KIND is known but its number of fields is wrong.
    FieldCount,
    /// A field that must be a decimal u32 is empty, not decimal or too large.
    BadNumber,
    /// A field outside its set: device kind, board size, button, key or running side.
    BadValue,
    /// A `HELLO` announces a protocol version other than 1.
    UnsupportedVersion,
    /// A `SNAP` whose point count is not size*size (or no board size at all when unknown).
    BadLength,
    /// A `DIFF` or `LED` index outside `0 .. size*size` (the board's, or 361 when unknown).
    BadIndex,
    /// A point state that is not one of `.`, `B`, `W`, `?`.
    BadState,
}

impl RejectReason {
    /// Every reason, in declaration order (for tables and metrics).
    pub const ALL: [Self; 13] = [
        Self::Interrupted,
        Self::TooLong,
        Self::BadFraming,
        Self::BadCrc,
        Self::BadByte,
        Self::BadKind,
        Self::FieldCount,
        Self::BadNumber,
        Self::BadValue,
        Self::UnsupportedVersion,
        Self::BadLength,
        Self::BadIndex,
        Self::BadState,
    ];

    /// A stable snake_case name, the same as the serde name (for metric labels).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Interrupted => "interrupted",
            Self::TooLong => "too_long",
            Self::BadFraming => "bad_framing",
            Self::BadCrc => "bad_crc",
            Self::BadByte => "bad_byte",
            Self::BadKind => "bad_kind",
            Self::FieldCount => "field_count",
            Self::BadNumber => "bad_number",
            Self::BadValue => "bad_value",
            Self::UnsupportedVersion => "unsupported_version",
            Self::BadLength => "bad_length",
            Self::BadIndex => "bad_index",
            Self::BadState => "bad_state",
        }
    }
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One frame or partial frame the decoder dropped; already counted in its statistics.
///
/// The caller may log it and call [`crate::Decoder::decode`] again at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("wire frame rejected ({reason}), {dropped} bytes dropped")]
pub struct Rejection {
    /// Why the bytes were dropped.
    pub reason: RejectReason,
    /// How many bytes were dropped with it (for `TooLong`: the first 1024; the rest
    /// of the run is added to [`crate::DecoderStats::dropped_bytes`] as it is skipped).
    pub dropped: usize,
}

#[cfg(feature = "std")]
/// The error enum of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The decoder dropped a frame (see [`Rejection`]).
    #[error(transparent)]
    Rejected(#[from] Rejection),
    /// A text field would contain a byte the wire forbids (`$`, `*`, `,`, CR, LF or
    /// anything outside printable ASCII).
    #[error("invalid text field {0:?}: only printable ASCII without '$', '*' or ','")]
    InvalidText(String),
    /// A board size other than 9, 13 or 19 (wire protocol v1, "Coordinates").
    #[error("invalid board size {0}: protocol v1 knows 9, 13 and 19")]
    InvalidBoardSize(u32),
    /// A frame would encode to more than 1024 bytes, which every receiver discards.
    #[error("frame of {len} bytes exceeds the 1024-byte limit of protocol v1")]
    FrameTooLong {
        /// The encoded length in bytes, `$` to LF.
        len: usize,
    },
}
