//! What a device link reports (events, disconnect reasons), its settings, and the state its task and its sessions share.

use crate::handshake::{DeviceInfo, HandshakeTiming};
use crate::reconnect::ReconnectPolicy;
use crate::stamp::WallClock;
use crate::stats::{LinkStats, StatsPacing};
use crate::watchdog::DEFAULT_SILENCE;
use goban_protocol::{Decoder, DeviceKind, Frame, SeqEvent};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// What a device link tells its owner, in order, on one mpsc channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// A handshake succeeded (or another device on a shared port said HELLO): these devices are in use.
    Connected {
        /// Port label.
        port: String,
        /// The devices identified so far on this port.
        devices: Vec<DeviceInfo>,
    },
    /// A valid device frame, with the host's receive time in ms since the Unix epoch.
    /// Board frames are only forwarded once a SNAP has made the board trusted.
    Frame {
        /// The frame.
        frame: Frame,
        /// Host receive time, ms since the Unix epoch (the host orders events by this): when
        /// the link's reading task read the frame's last byte, however long the frame then
        /// waited to be decoded or handed over, so host load never delays a stamp.
        received_ms: u64,
        /// When it happened on the host's time line (ms since the Unix epoch): for a device
        /// that announced v1.1 `SYNC` (alone on its port), its `ms` mapped through the echoes
        /// of the host's `$SYNC` (at most `received_ms`); otherwise `received_ms`. Order the
        /// board's and the clock's frames by this.
        at_ms: u64,
    },
    /// A clock PRESS read before the handshake ended: it waited in the port's buffer while
    /// the link (or the host) was away, and came in one read with the rest of that backlog,
    /// so its receive time says nothing of when it happened (issue 39.7). The board's frames
    /// of such a backlog are dropped: the board is read afresh from the SNAP asked for at
    /// connect.
    Backlog {
        /// The PRESS frame.
        frame: Frame,
        /// Host receive time, ms since the Unix epoch: when the backlog was read.
        received_ms: u64,
    },
    /// The connection was lost; the link is trying to reconnect.
    Disconnected {
        /// Port label.
        port: String,
        /// Why.
        reason: DisconnectReason,
    },
    /// Opening the port failed, or nothing answered `$HELLO?`; sent once per outage, retries
    /// continue with backoff.
    Unavailable {
        /// Port label.
        port: String,
        /// The error, in words.
        error: String,
    },
    /// A gap or backward jump in a sequence counter. For the board, a `$SNAP?` was sent and
    /// board frames are withheld until the SNAP; for the clock, a press may be lost (device alert).
    SequenceGap {
        /// Which counter.
        kind: DeviceKind,
        /// What the tracker saw.
        event: SeqEvent,
    },
    /// The device on the port is not the configured one (or speaks another version): a device alert.
    WrongDevice {
        /// Port label.
        port: String,
        /// The configured device kinds.
        expected: Vec<DeviceKind>,
        /// What answered, in words.
        found: String,
    },
    /// Periodic counters (also on every connect and disconnect); boxed to keep events small.
    Stats(Box<LinkStats>),
}

/// Why a connection ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DisconnectReason {
    /// No frame for the watchdog period (BEAT is due every second).
    Silent {
        /// Milliseconds of silence that triggered it.
        silent_ms: u64,
    },
    /// The device side closed the port (end of file, hang-up).
    Closed,
    /// A read or write error.
    Io {
        /// The error, in words.
        error: String,
    },
    /// A device of the wrong kind announced itself mid-session.
    WrongDevice,
}

/// Settings of one device link; serde with documented defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinkConfig {
    /// The device kinds expected on this port: `[board]`, `[clock]` or both on a shared port.
    pub expect: Vec<DeviceKind>,
    /// Handshake timing.
    pub handshake: HandshakeTiming,
    /// Milliseconds without any frame before the device counts as gone. Default 3000.
    pub watchdog_ms: u64,
    /// Reconnect backoff.
    pub reconnect: ReconnectPolicy,
    /// Milliseconds between the link's ticks: counters refreshed in [`LinkHandle::stats`],
    /// `$SNAP?` retries while waiting for a SNAP. Default 1000.
    pub stats_interval_ms: u64,
    /// Milliseconds between `Stats` events when only traffic counters (frames, bytes) moved; a
    /// tick that finds rejected frames, noise, gaps, withheld frames or dropped commands grown
    /// sends one at once, and so does every connection change. Default 5000.
    pub stats_event_interval_ms: u64,
    /// Host commands that can wait for the port before new ones are dropped. Default 64.
    pub command_queue: usize,
    /// Whether `BEAT` frames are passed on as [`LinkEvent::Frame`]. Default `true`. They
    /// always feed the link's watchdog and counters; an owner that has no use for them (the
    /// daemon: a beat changes no game state) turns this off, and is not woken twice a second
    /// per device for nothing.
    pub forward_beats: bool,
}

impl Default for LinkConfig {
    fn default() -> Self {
        Self {
            expect: vec![DeviceKind::Board],
            handshake: HandshakeTiming::default(),
            watchdog_ms: u64::try_from(DEFAULT_SILENCE.as_millis()).unwrap_or(3_000),
            reconnect: ReconnectPolicy::default(),
            stats_interval_ms: 1_000,
            stats_event_interval_ms: 5_000,
            command_queue: 64,
            forward_beats: true,
        }
    }
}

impl LinkConfig {
    /// A default config expecting these devices.
    pub fn expecting(expect: &[DeviceKind]) -> Self {
        Self {
            expect: expect.to_vec(),
            ..Self::default()
        }
    }
}

/// Everything one link task owns.
pub(crate) struct LinkState {
    pub(crate) port: String,
    pub(crate) config: LinkConfig,
    pub(crate) events: mpsc::Sender<LinkEvent>,
    pub(crate) commands: mpsc::Receiver<Frame>,
    /// `false` once every [`LinkHandle`] is dropped: the command queue is then closed for good.
    pub(crate) commands_open: bool,
    pub(crate) stats: watch::Sender<LinkStats>,
    /// Which periodic ticks send a `Stats` event.
    pub(crate) stats_pacing: StatsPacing,
    pub(crate) decoder: Decoder,
    pub(crate) clock: Arc<dyn WallClock>,
    pub(crate) cancel: CancellationToken,
    /// The last wrong device reported, so a retrying handshake raises one alert, not one per try.
    pub(crate) last_wrong: Option<String>,
    /// Whether this outage was already reported with `Unavailable`.
    pub(crate) reported_outage: bool,
}

impl LinkState {
    /// Sends an event; `false` when the owner is gone (the link then stops).
    pub(crate) async fn emit(&self, event: LinkEvent) -> bool {
        self.events.send(event).await.is_ok()
    }

    /// Publishes the counters to the watch and, without waiting, as an event.
    pub(crate) fn publish_stats(&mut self) {
        self.refresh_stats();
        self.stats_pacing.sent(&self.stats.borrow());
        self.send_stats_event();
    }

    /// A periodic tick: the watch always; the event when [`StatsPacing`] says it is due.
    pub(crate) fn tick_stats(&mut self) {
        self.refresh_stats();
        if self.stats_pacing.is_due(&self.stats.borrow()) {
            self.send_stats_event();
        }
    }

    /// The watch takes the decoder's counters (it is the authority on bytes, frames, rejections).
    fn refresh_stats(&self) {
        let decoder = self.decoder.stats();
        self.stats.send_modify(|s| s.absorb_decoder(decoder));
    }

    fn send_stats_event(&self) {
        // A full event queue skips one Stats event; the watch always has the latest.
        let _ = self
            .events
            .try_send(LinkEvent::Stats(Box::new(self.stats.borrow().clone())));
    }

    pub(crate) fn count(&self, f: impl FnOnce(&mut LinkStats)) {
        self.stats.send_modify(f);
    }
}
