//! The handshake: send `$HELLO?`, read HELLO, check the device kind and protocol version 1.

use crate::error::HardwareError;
use crate::wire::{FrameReader, Read, write_frame};
use goban_protocol::{BoardSize, Decoder, DeviceKind, Frame, RejectReason};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::io::AsyncWrite;
use tokio::time::{Instant, sleep_until};

/// What a device said about itself in its HELLO (wire protocol v1, "Board to host"/"Clock to host").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// Board or clock.
    pub kind: DeviceKind,
    /// Board size in lines (9, 13, 19); `None` for a clock.
    pub size: Option<u8>,
    /// Firmware version string.
    pub firmware: String,
    /// The device's serial number.
    pub serial: String,
}

impl DeviceInfo {
    /// The identity carried by a HELLO frame, or `None` for any other frame.
    pub fn from_hello(frame: &Frame) -> Option<Self> {
        match frame {
            Frame::BoardHello {
                size,
                firmware,
                serial,
            } => Some(Self {
                kind: DeviceKind::Board,
                size: Some(BoardSize::get(*size)),
                firmware: firmware.to_string(),
                serial: serial.to_string(),
            }),
            Frame::ClockHello { firmware, serial } => Some(Self {
                kind: DeviceKind::Clock,
                size: None,
                firmware: firmware.to_string(),
                serial: serial.to_string(),
            }),
            _ => None,
        }
    }
}

/// Handshake timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HandshakeTiming {
    /// Give up after this many milliseconds without the expected HELLO. Default 1500.
    pub timeout_ms: u64,
    /// Repeat `$HELLO?` every this many milliseconds (a device may miss the first). Default 300.
    pub retry_ms: u64,
}

impl Default for HandshakeTiming {
    fn default() -> Self {
        Self {
            timeout_ms: 1_500,
            retry_ms: 300,
        }
    }
}

/// A successful handshake: who answered, and frames that came in meanwhile (a press must not be lost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Handshake {
    /// The devices that identified themselves, in order of their HELLO.
    pub(crate) devices: Vec<DeviceInfo>,
    /// Other frames received during the handshake, with their host receive time (ms since epoch).
    pub(crate) early: Vec<(Frame, u64)>,
}

/// Frames kept during one handshake at most; a device flooding the port is cut off.
const MAX_EARLY: usize = 256;

/// What the handshake saw so far.
#[derive(Default)]
struct Seen {
    frames: u64,
    rejected: u64,
    other_version: bool,
}

/// The handshake's working state on one port.
struct Shake<'a> {
    port: &'a str,
    expect: &'a [DeviceKind],
    found: Handshake,
    seen: Seen,
}

/// Runs the handshake on a fresh connection: expects every device of `expect` to answer (a
/// shared port is accepted once one expected device answered and the others stay silent
/// until the timeout). Fails with `WrongDevice` on a HELLO of another kind, another protocol
/// version or a chatty device without HELLO, and `HandshakeTimeout` on a silent port.
pub(crate) async fn handshake<W>(
    port: &str,
    expect: &[DeviceKind],
    timing: HandshakeTiming,
    reader: &mut FrameReader,
    writer: &mut W,
    decoder: &mut Decoder,
) -> Result<Handshake, HardwareError>
where
    W: AsyncWrite + Unpin,
{
    let deadline = Instant::now() + Duration::from_millis(timing.timeout_ms);
    let retry = Duration::from_millis(timing.retry_ms.max(1));
    let io_error = |source| HardwareError::Io {
        port: port.to_owned(),
        source,
    };
    let found = Handshake {
        devices: Vec::new(),
        early: Vec::new(),
    };
    let mut shake = Shake {
        port,
        expect,
        found,
        seen: Seen::default(),
    };
    let mut next_query = Instant::now();
    while shake.found.devices.len() < expect.len() {
        if Instant::now() >= next_query {
            write_frame(writer, &Frame::HelloQuery)
                .await
                .map_err(io_error)?;
            next_query = Instant::now() + retry;
        }
        tokio::select! {
            read = reader.next(decoder) => shake.handle_read(read.map_err(io_error)?)?,
            () = sleep_until(next_query.min(deadline)) => {
                if Instant::now() >= deadline {
                    return shake.finish(timing.timeout_ms);
                }
            }
        }
    }
    Ok(shake.found)
}

impl Shake<'_> {
    fn handle_read(&mut self, read: Read) -> Result<(), HardwareError> {
        match read {
            Read::Eof => Err(HardwareError::Closed {
                port: self.port.to_owned(),
            }),
            Read::Rejected(rejection) => {
                self.seen.rejected += 1;
                self.seen.other_version |= rejection.reason == RejectReason::UnsupportedVersion;
                Ok(())
            }
            Read::Frame { frame, read_ms } => {
                self.seen.frames += 1;
                handle_frame(self.port, self.expect, frame, read_ms, &mut self.found)
            }
        }
    }

    /// The timeout verdict: some expected device answered, or why not.
    fn finish(self, waited_ms: u64) -> Result<Handshake, HardwareError> {
        finish(self.port, self.expect, self.found, &self.seen, waited_ms)
    }
}

/// Sorts one frame received during the handshake.
fn handle_frame(
    port: &str,
    expect: &[DeviceKind],
    frame: Frame,
    read_ms: u64,
    found: &mut Handshake,
) -> Result<(), HardwareError> {
    let Some(info) = DeviceInfo::from_hello(&frame) else {
        if found.early.len() < MAX_EARLY {
            found.early.push((frame, read_ms));
        }
        return Ok(());
    };
    if !expect.contains(&info.kind) {
        return Err(HardwareError::WrongDevice {
            port: port.to_owned(),
            expected: expect.to_vec(),
            found: format!(
                "{} {} (firmware {})",
                info.kind.as_str(),
                info.serial,
                info.firmware
            ),
        });
    }
    if !found.devices.iter().any(|d| d.kind == info.kind) {
        found.devices.push(info);
    }
    Ok(())
}

/// The timeout verdict: some expected device answered, or why not.
fn finish(
    port: &str,
    expect: &[DeviceKind],
    found: Handshake,
    seen: &Seen,
    waited_ms: u64,
) -> Result<Handshake, HardwareError> {
    if !found.devices.is_empty() {
        return Ok(found);
    }
    let wrong = |found: String| HardwareError::WrongDevice {
        port: port.to_owned(),
        expected: expect.to_vec(),
        found,
    };
    if seen.other_version {
        Err(wrong(
            "a device speaking another protocol version than 1".to_owned(),
        ))
    } else if seen.frames > 0 {
        Err(wrong(format!(
            "a device that sends {} frames but no HELLO",
            seen.frames
        )))
    } else if seen.rejected > 0 {
        Err(wrong(format!(
            "an unknown device ({} unreadable lines, no HELLO)",
            seen.rejected
        )))
    } else {
        Err(HardwareError::HandshakeTimeout {
            port: port.to_owned(),
            waited_ms,
        })
    }
}
