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

    /// The counters of trouble (rejected frames, noise, gaps, withheld frames, dropped
    /// commands): a change in any is news at once; the others only count traffic.
    pub(crate) fn trouble(&self) -> [u64; 6] {
        [
            self.errors(),
            self.dropped_bytes,
            self.noise_bytes,
            self.sequence_gaps,
            self.untrusted_frames,
            self.commands_dropped,
        ]
    }
}

/// When a periodic tick sends its `Stats` event: at once when trouble counters moved, else
/// every `every` ticks. Traffic alone (frames, bytes) changes at every tick of a live device;
/// at one event a second per port it was the most frequent wake-up of a hall's board tasks.
#[derive(Debug)]
pub(crate) struct StatsPacing {
    every: u64,
    quiet_ticks: u64,
    trouble_sent: [u64; 6],
}

impl StatsPacing {
    /// One event per `event_ms` (at least every tick) for ticks `tick_ms` apart.
    pub(crate) fn new(tick_ms: u64, event_ms: u64) -> Self {
        Self {
            every: (event_ms / tick_ms.max(1)).max(1),
            quiet_ticks: 0,
            trouble_sent: [0; 6],
        }
    }

    /// Whether this tick sends `stats`.
    pub(crate) fn is_due(&mut self, stats: &LinkStats) -> bool {
        self.quiet_ticks += 1;
        let trouble = stats.trouble();
        if trouble != self.trouble_sent || self.quiet_ticks >= self.every {
            self.sent(stats);
            return true;
        }
        false
    }

    /// `stats` went out (a tick, or a connection change that always sends).
    pub(crate) fn sent(&mut self, stats: &LinkStats) {
        self.quiet_ticks = 0;
        self.trouble_sent = stats.trouble();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_alone_is_sent_every_nth_tick_and_trouble_at_once() {
        let mut pacing = StatsPacing::new(1_000, 5_000);
        let mut stats = LinkStats::new("p");
        let mut sent = Vec::new();
        for tick in 1..=12 {
            stats.frames += 3;
            stats.bytes += 75;
            if tick == 7 {
                stats.sequence_gaps += 1;
            }
            if pacing.is_due(&stats) {
                sent.push(tick);
            }
        }
        assert_eq!(sent, vec![5, 7, 12]);
    }

    #[test]
    fn a_tick_as_long_as_the_interval_sends_every_time() {
        let mut pacing = StatsPacing::new(1_000, 500);
        let stats = LinkStats::new("p");
        assert!((0..3).all(|_| pacing.is_due(&stats)));
    }
}
