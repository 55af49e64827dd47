//! Between the owned [`Frame`] and the borrowed [`FrameRef`]: one encoder and one parser for both.

use crate::MAX_FRAME_LEN;
use crate::error::ProtocolError;
use crate::frame::Frame;
use crate::types::Text;
use crate::view::{Changes, FrameRef, Indices, States};
use bytes::BufMut;

impl Frame {
    /// This frame as a [`FrameRef`] borrowing its lists and texts.
    pub fn as_view(&self) -> FrameRef<'_> {
        match self {
            Self::BoardHello {
                size,
                firmware,
                serial,
            } => FrameRef::BoardHello {
                size: *size,
                firmware: firmware.as_str(),
                serial: serial.as_str(),
            },
            Self::ClockHello { firmware, serial } => FrameRef::ClockHello {
                firmware: firmware.as_str(),
                serial: serial.as_str(),
            },
            Self::Snap { seq, ms, points } => FrameRef::Snap {
                seq: *seq,
                ms: *ms,
                points: States::Typed(points),
            },
            Self::Diff { seq, ms, changes } => FrameRef::Diff {
                seq: *seq,
                ms: *ms,
                changes: Changes::Typed(changes),
            },
            Self::Fault { code, text } => FrameRef::Fault {
                code: code.as_str(),
                text: text.as_str(),
            },
            Self::Led { points } => FrameRef::Led {
                points: Indices::Typed(points),
            },
            _ => self.scalar_ref(),
        }
    }

    /// The variants without lists or texts.
    fn scalar_ref(&self) -> FrameRef<'_> {
        match *self {
            Self::Beat { ms } => FrameRef::Beat { ms },
            Self::Press { seq, ms, button } => FrameRef::Press { seq, ms, button },
            Self::Key { seq, ms, key } => FrameRef::Key { seq, ms, key },
            Self::Caps { sync, zones } => FrameRef::Caps { sync, zones },
            Self::Zone { ms, black, white } => FrameRef::Zone { ms, black, white },
            Self::SyncEcho { token, ms } => FrameRef::SyncEcho { token, ms },
            Self::Sync { token } => FrameRef::Sync { token },
            Self::HelloQuery => FrameRef::HelloQuery,
            Self::SnapQuery => FrameRef::SnapQuery,
            Self::Show {
                black_ms,
                white_ms,
                black_periods,
                white_periods,
                running,
            } => FrameRef::Show {
                black_ms,
                white_ms,
                black_periods,
                white_periods,
                running,
            },
            Self::Beep { count } => FrameRef::Beep { count },
            // Handled by `as_view`.
            Self::BoardHello { .. }
            | Self::ClockHello { .. }
            | Self::Snap { .. }
            | Self::Diff { .. }
            | Self::Fault { .. }
            | Self::Led { .. } => unreachable!("lists and texts are borrowed by as_view"),
        }
    }

    /// Appends the wire form of this frame to `dst`, LF-terminated.
    ///
    /// Never fails; a frame over [`MAX_FRAME_LEN`] bytes (a `DIFF` or `LED` with
    /// hundreds of points) is written anyway and every receiver will discard it:
    /// use [`Frame::try_encode`] where that can happen.
    pub fn encode(&self, dst: &mut impl BufMut) {
        self.as_view().encode(dst);
    }

    /// Like [`Frame::encode`], but refuses (writing nothing) a frame longer than
    /// [`MAX_FRAME_LEN`] bytes, which no receiver would accept.
    pub fn try_encode(&self, dst: &mut impl BufMut) -> Result<(), ProtocolError> {
        let len = self.encoded_len();
        if len > MAX_FRAME_LEN {
            return Err(ProtocolError::FrameTooLong { len });
        }
        self.encode(dst);
        Ok(())
    }

    /// The wire form in a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        self.encode(&mut out);
        out
    }

    /// The length of the wire form in bytes, `$` to LF.
    pub fn encoded_len(&self) -> usize {
        self.as_view().encoded_len()
    }
}

impl From<FrameRef<'_>> for Frame {
    fn from(frame: FrameRef<'_>) -> Self {
        let text = |s: &str| Text::from_checked(s.as_bytes());
        match frame {
            FrameRef::BoardHello {
                size,
                firmware,
                serial,
            } => Self::BoardHello {
                size,
                firmware: text(firmware),
                serial: text(serial),
            },
            FrameRef::ClockHello { firmware, serial } => Self::ClockHello {
                firmware: text(firmware),
                serial: text(serial),
            },
            FrameRef::Snap { seq, ms, points } => Self::Snap {
                seq,
                ms,
                points: points.iter().collect(),
            },
            FrameRef::Diff { seq, ms, changes } => Self::Diff {
                seq,
                ms,
                changes: changes.iter().collect(),
            },
            FrameRef::Fault { code, text: t } => Self::Fault {
                code: text(code),
                text: text(t),
            },
            FrameRef::Led { points } => Self::Led {
                points: points.iter().collect(),
            },
            scalar => from_scalar(scalar),
        }
    }
}

/// The variants without lists or texts.
fn from_scalar(frame: FrameRef<'_>) -> Frame {
    match frame {
        FrameRef::Beat { ms } => Frame::Beat { ms },
        FrameRef::Press { seq, ms, button } => Frame::Press { seq, ms, button },
        FrameRef::Key { seq, ms, key } => Frame::Key { seq, ms, key },
        FrameRef::Caps { sync, zones } => Frame::Caps { sync, zones },
        FrameRef::Zone { ms, black, white } => Frame::Zone { ms, black, white },
        FrameRef::SyncEcho { token, ms } => Frame::SyncEcho { token, ms },
        FrameRef::Sync { token } => Frame::Sync { token },
        FrameRef::HelloQuery => Frame::HelloQuery,
        FrameRef::SnapQuery => Frame::SnapQuery,
        FrameRef::Show {
            black_ms,
            white_ms,
            black_periods,
            white_periods,
            running,
        } => Frame::Show {
            black_ms,
            white_ms,
            black_periods,
            white_periods,
            running,
        },
        FrameRef::Beep { count } => Frame::Beep { count },
        FrameRef::BoardHello { .. }
        | FrameRef::ClockHello { .. }
        | FrameRef::Snap { .. }
        | FrameRef::Diff { .. }
        | FrameRef::Fault { .. }
        | FrameRef::Led { .. } => unreachable!("lists and texts are collected by from"),
    }
}
