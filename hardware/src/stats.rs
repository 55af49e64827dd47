//! Link counters the daemon publishes: frames, bytes, errors by reason, drops, reconnects, last frame.

use crate::handshake::DeviceInfo;
use goban_protocol::DecoderStats;
use serde::{Deserialize, Serialize};

/// Counters of one device link since it started; serialisable for REST, MQTT and metrics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkStats {
    /// The port label (path).
    pub port: String,
    /// Whether a handshake succeeded and the link is reading now.
    pub connected: bool,
    /// The devices that answered the last handshake.
    pub devices: Vec<DeviceInfo>,
    /// Valid frames received.
    pub frames: u64,
    /// Bytes received, frames and noise alike.
    pub bytes: u64,
    /// Bytes dropped: rejected frames, over-long input (not counting noise between frames).
    pub dropped_bytes: u64,
    /// Bytes outside frames (line noise, boot banners).
    pub noise_bytes: u64,
    /// The decoder's detail: frames by kind and rejections (CRC, format...) by reason.
    pub decoder: DecoderStats,
    /// Successful connections after the first one.
    pub reconnects: u64,
    /// Connections lost (watchdog, end of file, I/O error).
    pub disconnects: u64,
    /// Failed attempts to open the port.
    pub open_failures: u64,
    /// Handshakes that failed (silence, wrong device).
    pub handshake_failures: u64,
    /// Gaps (or backward jumps) in the SNAP/DIFF or PRESS/KEY sequence numbers.
    pub sequence_gaps: u64,
    /// Board frames withheld while waiting for the SNAP that makes the board trusted again.
    pub untrusted_frames: u64,
    /// Host commands written to the port.
    pub commands_sent: u64,
    /// Host commands dropped (queue full, or the device was disconnected).
    pub commands_dropped: u64,
    /// Host receive time of the last valid frame, ms since the Unix epoch.
    pub last_frame_ms: Option<u64>,
}

impl LinkStats {
    /// Fresh counters for `port`.
    pub fn new(port: impl Into<String>) -> Self {
        Self {
            port: port.into(),
            ..Self::default()
        }
    }

    /// Copies the decoder's counters in (it is the authority on bytes, frames and rejections).
    pub(crate) fn absorb_decoder(&mut self, decoder: &DecoderStats) {
        self.decoder = decoder.clone();
        self.bytes = decoder.bytes;
        self.dropped_bytes = decoder.dropped_bytes;
        self.noise_bytes = decoder.noise_bytes;
        self.frames = decoder.frames.total();
    }

    /// Rejected frames of all reasons.
    pub fn errors(&self) -> u64 {
        self.decoder.rejections.total()
    }
}
