//! Link counters the daemon publishes: frames, bytes, errors by reason, drops, reconnects, last frame.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

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
    pub fn trouble(&self) -> [u64; 6] {
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

/// Where in `span` (0 to `span - 1`) a port's periodic work falls: a fixed share drawn from
/// its label. The ports of a hall all connect at start-up; without it their ticks and their
/// `Stats` events fell in the same millisecond, period after period, and woke every board
/// of the hall at once.
pub(crate) fn phase_of(port: &str, span: u64) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(port) % span.max(1)
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
    /// One event per `event_ms` (at least every tick) for ticks `tick_ms` apart; the first
    /// after a share of that interval fixed by `port` (see [`phase_of`]).
    pub(crate) fn new(tick_ms: u64, event_ms: u64, port: &str) -> Self {
        let every = (event_ms / tick_ms.max(1)).max(1);
        Self {
            every,
            quiet_ticks: phase_of(port, every),
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

    /// The ticks at which `pacing` sends, over `ticks` ticks of traffic with trouble at `trouble`.
    fn sent_ticks(mut pacing: StatsPacing, ticks: u64, trouble: u64) -> Vec<u64> {
        let mut stats = LinkStats::new("p");
        let mut sent = Vec::new();
        for tick in 1..=ticks {
            stats.frames += 3;
            stats.bytes += 75;
            if tick == trouble {
                stats.sequence_gaps += 1;
            }
            if pacing.is_due(&stats) {
                sent.push(tick);
            }
        }
        sent
    }

    #[test]
    fn traffic_alone_is_sent_every_nth_tick_and_trouble_at_once() {
        let port = "/dev/ttyUSB0";
        let first = 5 - phase_of(port, 5);
        let sent = sent_ticks(StatsPacing::new(1_000, 5_000, port), 30, 17);
        // Traffic alone: the port's first event within the interval, then every fifth tick;
        // the gap at tick 17 goes at once and the count starts again from it.
        let mut expected: Vec<u64> = (0..)
            .map(|k| first + 5 * k)
            .take_while(|t| *t < 17)
            .collect();
        expected.extend([17, 22, 27]);
        assert_eq!(sent, expected);
    }

    #[test]
    fn ports_that_start_together_spread_their_events_over_the_interval() {
        let firsts: Vec<u64> = (0..100)
            .map(|i| {
                let port = format!("/dev/serial/by-id/usb-goban-table-{i}-board");
                sent_ticks(StatsPacing::new(1_000, 5_000, &port), 5, 0)[0]
            })
            .collect();
        for tick in 1..=5 {
            let share = firsts.iter().filter(|t| **t == tick).count();
            assert!(
                (5..=40).contains(&share),
                "{share} of 100 ports at tick {tick}"
            );
        }
    }

    #[test]
    fn a_tick_as_long_as_the_interval_sends_every_time() {
        let mut pacing = StatsPacing::new(1_000, 500, "p");
        let stats = LinkStats::new("p");
        assert!((0..3).all(|_| pacing.is_due(&stats)));
    }
}
