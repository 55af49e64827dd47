//! Encoding of frames into wire bytes: `$<KIND>[,<field>]*<CRC>\n`, without allocation.

use crate::crc::{digest, to_hex};
use crate::types::{DeviceKind, PointState, Seq};
use crate::view::{Changes, FrameRef, Indices, States};
use crc::{Digest, Table};

/// Where the encoder writes bytes: a fixed buffer on a device, any `bytes::BufMut`
/// (a `Vec<u8>`, a `BytesMut`) with the `std` feature.
pub trait Sink {
    /// Appends `bytes`.
    fn put_slice(&mut self, bytes: &[u8]);
}

#[cfg(feature = "std")]
impl<B: bytes::BufMut + ?Sized> Sink for B {
    fn put_slice(&mut self, bytes: &[u8]) {
        bytes::BufMut::put_slice(self, bytes);
    }
}

/// Counts bytes instead of writing them: the length of a frame before it is written.
#[derive(Debug, Default, Clone, Copy)]
pub struct LenCounter(pub usize);

impl Sink for LenCounter {
    fn put_slice(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Writes a frame body to `dst` while keeping its CRC, so no temporary buffer is needed.
struct BodyWriter<'a, B: Sink + ?Sized> {
    dst: &'a mut B,
    crc: Digest<'static, u16, Table<16>>,
}

impl<'a, B: Sink + ?Sized> BodyWriter<'a, B> {
    fn start(dst: &'a mut B, kind: &str) -> Self {
        dst.put_slice(b"$");
        let mut w = Self { dst, crc: digest() };
        w.raw(kind.as_bytes());
        w
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.crc.update(bytes);
        self.dst.put_slice(bytes);
    }

    /// Starts a new field: `,` then the field.
    fn field(&mut self, bytes: &[u8]) {
        self.raw(b",");
        self.raw(bytes);
    }

    fn number(&mut self, n: u32) {
        let mut buf = [0u8; 10];
        self.raw(format_u32(n, &mut buf));
    }

    fn field_text(&mut self, text: &str) {
        self.field(text.as_bytes());
    }

    fn seq_ms(&mut self, seq: Seq, ms: u32) {
        self.field_number(seq.0);
        self.field_number(ms);
    }

    fn field_number(&mut self, n: u32) {
        self.raw(b",");
        self.number(n);
    }

    /// Ends the frame: `*`, 4 upper-case hex digits, LF (the encoder never writes CR).
    fn finish(self) {
        let crc = self.crc.finalize();
        let hex = to_hex(crc);
        self.dst
            .put_slice(&[b'*', hex[0], hex[1], hex[2], hex[3], b'\n']);
    }
}

/// Formats `n` in decimal without allocating; returns the digits inside `buf`.
fn format_u32(mut n: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        // `n % 10` is below 10, so the cast cannot truncate.
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[at..]
}

impl FrameRef<'_> {
    /// Appends the wire form of this frame to `dst`, LF-terminated.
    ///
    /// Never fails; a frame over [`crate::MAX_FRAME_LEN`] bytes (a `DIFF` or `LED` with
    /// hundreds of points) is written anyway and every receiver will discard it: check
    /// [`FrameRef::encoded_len`] first where that can happen.
    pub fn encode<S: Sink + ?Sized>(&self, dst: &mut S) {
        let mut w = BodyWriter::start(dst, self.kind().wire_kind());
        if self.kind().is_host() {
            self.host_fields(&mut w);
        } else {
            self.device_fields(&mut w);
        }
        w.finish();
    }

    /// Fields of board and clock frames (spec "Board to host", "Clock to host").
    fn device_fields<B: Sink + ?Sized>(&self, w: &mut BodyWriter<'_, B>) {
        match self {
            Self::BoardHello {
                size,
                firmware,
                serial,
            } => {
                w.field(DeviceKind::Board.as_str().as_bytes());
                w.field_number(crate::PROTOCOL_VERSION);
                w.field_number(u32::from(size.get()));
                w.field_text(firmware);
                w.field_text(serial);
            }
            Self::ClockHello { firmware, serial } => {
                w.field(DeviceKind::Clock.as_str().as_bytes());
                w.field_number(crate::PROTOCOL_VERSION);
                w.field_text(firmware);
                w.field_text(serial);
            }
            Self::Snap { seq, ms, points } => {
                w.seq_ms(*seq, *ms);
                w.raw(b",");
                encode_points(w, *points);
            }
            Self::Diff { seq, ms, changes } => {
                w.seq_ms(*seq, *ms);
                w.raw(b",");
                encode_changes(w, *changes);
            }
            Self::Beat { ms } => w.field_number(*ms),
            Self::Fault { code, text } => {
                w.field_text(code);
                w.field_text(text);
            }
            Self::Press { seq, ms, button } => {
                w.seq_ms(*seq, *ms);
                w.field(button.as_str().as_bytes());
            }
            Self::Key { seq, ms, key } => {
                w.seq_ms(*seq, *ms);
                w.field(key.as_str().as_bytes());
            }
            Self::Caps { sync, zones } => {
                let names = [(*sync, &b"SYNC"[..]), (*zones, &b"ZONE"[..])];
                let on = names.iter().filter(|(on, _)| *on).map(|(_, name)| *name);
                for (i, name) in on.enumerate() {
                    w.raw(if i == 0 { b"," } else { b";" });
                    w.raw(name);
                }
            }
            Self::Zone { ms, black, white } => {
                w.field_number(*ms);
                w.field(&[black.to_byte(), white.to_byte()]);
            }
            Self::SyncEcho { token, ms } => {
                w.field_number(*token);
                w.field_number(*ms);
            }
            // Host frames are written by `host_fields`.
            _ => {}
        }
    }

    /// Fields of host frames (spec "Host to devices").
    fn host_fields<B: Sink + ?Sized>(&self, w: &mut BodyWriter<'_, B>) {
        match self {
            Self::Led { points } => encode_led(w, *points),
            Self::Show {
                black_ms,
                white_ms,
                black_periods,
                white_periods,
                running,
            } => {
                for n in [*black_ms, *white_ms, *black_periods, *white_periods] {
                    w.field_number(n);
                }
                w.field(&[running.to_byte()]);
            }
            Self::Beep { count } => w.field_number(*count),
            Self::Sync { token } => w.field_number(*token),
            // `HELLO?` and `SNAP?` have no fields; device frames go through `device_fields`.
            _ => {}
        }
    }

    /// The length of the wire form in bytes, `$` to LF, without writing it.
    pub fn encoded_len(&self) -> usize {
        let mut counter = LenCounter::default();
        self.encode(&mut counter);
        counter.0
    }
}

fn encode_points<B: Sink + ?Sized>(w: &mut BodyWriter<'_, B>, points: States<'_>) {
    let points = match points {
        States::Wire(wire) => return w.raw(wire),
        States::Typed(points) => points,
    };
    // Chunks keep the CRC update and copy in large slices without allocating.
    let mut chunk = [0u8; 64];
    for part in points.chunks(chunk.len()) {
        for (slot, state) in chunk.iter_mut().zip(part) {
            *slot = PointState::to_byte(*state);
        }
        w.raw(&chunk[..part.len()]);
    }
}

fn encode_changes<B: Sink + ?Sized>(w: &mut BodyWriter<'_, B>, changes: Changes<'_>) {
    for (i, change) in changes.iter().enumerate() {
        if i > 0 {
            w.raw(b";");
        }
        w.number(u32::from(change.point.0));
        w.raw(&[change.state.to_byte()]);
    }
}

fn encode_led<B: Sink + ?Sized>(w: &mut BodyWriter<'_, B>, points: Indices<'_>) {
    for (i, point) in points.iter().enumerate() {
        w.raw(if i == 0 { b"," } else { b";" });
        w.number(u32::from(point.0));
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::error::ProtocolError;
    use crate::types::{Change, Point};
    use crate::{Frame, MAX_FRAME_LEN};

    fn build_diff(changes: u16) -> Frame {
        let changes = (0..changes)
            .map(|i| Change {
                point: Point(i),
                state: PointState::Black,
            })
            .collect();
        Frame::Diff {
            seq: Seq(1),
            ms: 2,
            changes,
        }
    }

    #[test]
    fn numbers_are_plain_decimal() {
        for (n, s) in [(0u32, "0"), (7, "7"), (10, "10"), (u32::MAX, "4294967295")] {
            let mut buf = [0u8; 10];
            assert_eq!(format_u32(n, &mut buf), s.as_bytes());
        }
    }

    #[test]
    fn try_encode_refuses_frames_no_receiver_accepts() {
        // A DIFF of all 361 points is about 1,800 bytes: over the 1024-byte limit.
        let big = build_diff(361);
        let mut out = Vec::new();
        let len = big.encoded_len();
        assert!(len > MAX_FRAME_LEN);
        assert_eq!(
            big.try_encode(&mut out),
            Err(ProtocolError::FrameTooLong { len })
        );
        assert!(out.is_empty(), "nothing written");
        assert_eq!(build_diff(3).try_encode(&mut out), Ok(()));
        let crc = crate::crc::to_hex(crate::crc::crc16(b"DIFF,1,2,0B;1B;2B"));
        assert_eq!(out, [&b"$DIFF,1,2,0B;1B;2B*"[..], &crc, b"\n"].concat());
    }
}
