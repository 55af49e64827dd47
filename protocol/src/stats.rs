//! Decoder statistics: frames by kind, rejections by reason, bytes; serialisable for publishing.

use crate::error::RejectReason;
use crate::kind::FrameKind;
#[cfg(feature = "std")]
use serde::{Deserialize, Serialize};

/// Defines a counter struct with one documented `u64` field per variant of a key enum.
macro_rules! counters {
    ($(#[$meta:meta])* $name:ident, $key:ident, { $($(#[$fmeta:meta])* $field:ident => $variant:ident,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
        pub struct $name {
            $($(#[$fmeta])* pub $field: u64,)*
        }

        impl $name {
            /// The count for one key.
            pub fn count(&self, key: $key) -> u64 {
                match key {
                    $($key::$variant => self.$field,)*
                }
            }

            /// The sum over all keys.
            pub fn total(&self) -> u64 {
                [$(self.$field),*].iter().fold(0u64, |acc, n| acc.saturating_add(*n))
            }

            pub(crate) fn bump(&mut self, key: $key) {
                let slot = match key {
                    $($key::$variant => &mut self.$field,)*
                };
                *slot = slot.saturating_add(1);
            }
        }
    };
}

counters!(
    /// Accepted frames, by kind.
    FrameCounts, FrameKind, {
        /// Board `HELLO` frames.
        board_hello => BoardHello,
        /// Clock `HELLO` frames.
        clock_hello => ClockHello,
        /// `SNAP` frames.
        snap => Snap,
        /// `DIFF` frames.
        diff => Diff,
        /// `BEAT` frames.
        beat => Beat,
        /// `FAULT` frames.
        fault => Fault,
        /// `PRESS` frames.
        press => Press,
        /// `KEY` frames.
        key => Key,
        /// v1.1 `CAPS` frames.
        caps => Caps,
        /// v1.1 `ZONE` frames.
        zone => Zone,
        /// v1.1 device `SYNC` echoes.
        sync_echo => SyncEcho,
        /// v1.1 host `SYNC` frames.
        sync => Sync,
        /// `HELLO?` frames.
        hello_query => HelloQuery,
        /// `SNAP?` frames.
        snap_query => SnapQuery,
        /// `LED` frames.
        led => Led,
        /// `SHOW` frames.
        show => Show,
        /// `BEEP` frames.
        beep => Beep,
    }
);

counters!(
    /// Rejections, by reason (see [`RejectReason`]).
    RejectionCounts, RejectReason, {
        /// `$` inside a frame.
        interrupted => Interrupted,
        /// Over 1024 bytes without LF.
        too_long => TooLong,
        /// No `*` and 4 upper-case hex digits at the end.
        bad_framing => BadFraming,
        /// CRC mismatch.
        bad_crc => BadCrc,
        /// Non-printable or reserved byte in the body.
        bad_byte => BadByte,
        /// KIND not upper-case letters.
        bad_kind => BadKind,
        /// Wrong number of fields.
        field_count => FieldCount,
        /// Not a decimal u32.
        bad_number => BadNumber,
        /// Value outside its set.
        bad_value => BadValue,
        /// `HELLO` of a protocol version other than 1.
        unsupported_version => UnsupportedVersion,
        /// `SNAP` of the wrong length.
        bad_length => BadLength,
        /// Index off the board.
        bad_index => BadIndex,
        /// Point state not `.`, `B`, `W` or `?`.
        bad_state => BadState,
    }
);

/// What a [`crate::Decoder`] has seen since it was made; the daemon publishes it.
///
/// Every consumed byte is counted once, in exactly one of `frame_bytes`,
/// `unknown_bytes`, `dropped_bytes` and `noise_bytes`; their sum is `bytes`.
/// Bytes of a partial frame still waiting in the buffer are not counted yet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "std", derive(Serialize, Deserialize))]
pub struct DecoderStats {
    /// All bytes consumed from the buffer.
    pub bytes: u64,
    /// Accepted frames, by kind.
    pub frames: FrameCounts,
    /// Bytes of accepted frames, `$` to LF.
    pub frame_bytes: u64,
    /// Valid frames of a KIND protocol v1 does not define, skipped (not an error).
    pub unknown_kinds: u64,
    /// Bytes of those unknown-kind frames.
    pub unknown_bytes: u64,
    /// Rejected frames, by reason.
    pub rejections: RejectionCounts,
    /// Bytes dropped with rejected frames, including the rest of too-long runs.
    pub dropped_bytes: u64,
    /// Bytes outside frames (line noise, boot banners), ignored as the spec says.
    pub noise_bytes: u64,
}

impl DecoderStats {
    pub(crate) fn on_frame(&mut self, kind: FrameKind, len: usize) {
        self.frames.bump(kind);
        add(&mut self.frame_bytes, len);
        add(&mut self.bytes, len);
    }

    pub(crate) fn on_unknown(&mut self, len: usize) {
        self.unknown_kinds = self.unknown_kinds.saturating_add(1);
        add(&mut self.unknown_bytes, len);
        add(&mut self.bytes, len);
    }

    pub(crate) fn on_reject(&mut self, reason: RejectReason, len: usize) {
        self.rejections.bump(reason);
        self.on_dropped(len);
    }

    pub(crate) fn on_dropped(&mut self, len: usize) {
        add(&mut self.dropped_bytes, len);
        add(&mut self.bytes, len);
    }

    pub(crate) fn on_noise(&mut self, len: usize) {
        add(&mut self.noise_bytes, len);
        add(&mut self.bytes, len);
    }
}

fn add(counter: &mut u64, len: usize) {
    *counter = counter.saturating_add(u64::try_from(len).unwrap_or(u64::MAX));
}
