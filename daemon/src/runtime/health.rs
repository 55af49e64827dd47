//! Device health of one board as published on `<prefix>/boards/<board>/device`: link status, alerts and error counters.

use std::collections::BTreeMap;
use std::sync::Arc;

use goban_hardware::{LinkEvent, LinkStats};
use goban_protocol::DeviceKind;
use serde::Serialize;

/// Stats whose trouble counters grew are republished at most this often; a connection
/// change at once.
const STATS_EVERY_MS: u64 = 10_000;

/// Stats whose only change is traffic (frames, bytes, commands sent) are republished at
/// most this often: at 10 s, the live devices of a 512-board hall sent about 100 retained
/// `device` messages a second that said nothing but "still talking". `/health` and
/// `/metrics` carry the live counts.
const TRAFFIC_EVERY_MS: u64 = 60_000;

struct PortHealth {
    kinds: Vec<DeviceKind>,
    status: &'static str,
    stats: Option<LinkStats>,
    alert: Option<String>,
}

/// One port in a device message.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PortReport {
    port: String,
    status: &'static str,
    alert: Option<String>,
    stats: Option<LinkStats>,
}

/// The `device` message (api.md MQTT `device`) without its `v` and `seq`: the ledger numbers
/// it ([`crate::message::Numbered`]).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct DeviceReport {
    /// Board id.
    pub(crate) board: String,
    event: &'static str,
    source: &'static str,
    daemon: &'static str,
    device: BTreeMap<&'static str, &'static str>,
    ports: Vec<PortReport>,
}

/// What the daemon knows about a board's devices.
pub(crate) struct Health {
    board: Arc<str>,
    ports: BTreeMap<String, PortHealth>,
    last_stats_ms: u64,
    /// How long the counters changed since the last device message may wait to be published.
    unpublished: Option<u64>,
}

impl Health {
    /// Every port of the board with the kinds it serves; all start `connecting`.
    pub(crate) fn new(
        board: Arc<str>,
        ports: impl Iterator<Item = (String, Vec<DeviceKind>)>,
    ) -> Self {
        let ports = ports
            .map(|(port, kinds)| {
                (
                    port,
                    PortHealth {
                        kinds,
                        status: "connecting",
                        stats: None,
                        alert: None,
                    },
                )
            })
            .collect();
        Self {
            board,
            ports,
            last_stats_ms: 0,
            unpublished: None,
        }
    }

    /// Update from a link event at `now_ms`; `Some(report)` when a device message is due.
    pub(crate) fn handle(&mut self, event: &LinkEvent, now_ms: u64) -> Option<DeviceReport> {
        let (port, status, alert) = match event {
            LinkEvent::Connected { port, .. } => (port, "connected", None),
            LinkEvent::Disconnected { port, reason } => (
                port,
                "disconnected",
                Some(format!("disconnected: {reason:?}")),
            ),
            LinkEvent::Unavailable { port, error } => (port, "unavailable", Some(error.clone())),
            LinkEvent::WrongDevice { port, found, .. } => {
                (port, "wrong_device", Some(format!("wrong device: {found}")))
            }
            LinkEvent::Stats(stats) => return self.handle_stats(stats, now_ms),
            _ => return None,
        };
        let entry = self.ports.get_mut(port)?;
        let before = std::mem::replace(&mut entry.status, status);
        entry.alert = alert;
        // A device saying HELLO again on a connected port (its boot greeting after the
        // handshake's, or a reboot) is not news for the log; the device message still goes out.
        match (before == status, status) {
            (true, "connected") => tracing::debug!(port = %port, "device said HELLO again"),
            (false, "connected") => tracing::info!(port = %port, "device connected"),
            _ => tracing::warn!(port = %port, status, "device link"),
        }
        self.unpublished = None;
        Some(self.message("running"))
    }

    /// Frames the link of `stats` rejected since its last stats (the decoder's total grew):
    /// the referee counts them too, so `device.rejected_frames` matches `/health`.
    pub(crate) fn rejected_since_last(&self, stats: &LinkStats) -> u64 {
        let before = self
            .ports
            .get(&stats.port)
            .and_then(|entry| entry.stats.as_ref())
            .map_or(0, |s| s.decoder.rejections.total());
        // A new link (a replug) starts its counts again from zero.
        stats.decoder.rejections.total().saturating_sub(before)
    }

    fn handle_stats(&mut self, stats: &LinkStats, now_ms: u64) -> Option<DeviceReport> {
        let entry = self.ports.get_mut(&stats.port)?;
        crate::telemetry::link_stats(&self.board, entry.stats.as_ref(), stats);
        let wait = match &entry.stats {
            Some(before) if before == stats => return None,
            Some(before) if before.trouble() == stats.trouble() => TRAFFIC_EVERY_MS,
            _ => STATS_EVERY_MS,
        };
        entry.stats = Some(stats.clone());
        // The news not yet published waits as long as its most urgent part allows.
        let wait = self.unpublished.map_or(wait, |earlier| earlier.min(wait));
        if now_ms.saturating_sub(self.last_stats_ms) < wait {
            self.unpublished = Some(wait);
            return None;
        }
        self.last_stats_ms = now_ms;
        self.unpublished = None;
        Some(self.message("running"))
    }

    /// The device message as of now (`daemon`: `running` or `stopped`).
    pub(crate) fn message(&self, daemon: &'static str) -> DeviceReport {
        let mut device = BTreeMap::new();
        for entry in self.ports.values() {
            for kind in &entry.kinds {
                let name = if *kind == DeviceKind::Board {
                    "board"
                } else {
                    "clock"
                };
                let status = if daemon == "stopped" {
                    "disconnected"
                } else {
                    entry.status
                };
                device.insert(name, status);
            }
        }
        let ports = self
            .ports
            .iter()
            .map(|(port, entry)| PortReport {
                port: port.clone(),
                status: entry.status,
                alert: entry.alert.clone(),
                stats: entry.stats.clone(),
            })
            .collect();
        DeviceReport {
            board: self.board.to_string(),
            event: "device",
            source: "link",
            daemon,
            device,
            ports,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_health() -> Health {
        Health::new(
            "t1".into(),
            [("p".to_owned(), vec![DeviceKind::Board])].into_iter(),
        )
    }

    fn stats(frames: u64, gaps: u64) -> LinkEvent {
        let mut stats = LinkStats::new("p");
        stats.connected = true;
        stats.frames = frames;
        stats.sequence_gaps = gaps;
        LinkEvent::Stats(Box::new(stats))
    }

    #[test]
    fn traffic_alone_is_republished_once_a_minute_and_trouble_within_ten_seconds() {
        let mut health = build_health();
        assert!(
            health.handle(&stats(10, 0), 10_000).is_some(),
            "first stats"
        );
        // Traffic only: not before a minute has passed.
        assert!(health.handle(&stats(20, 0), 25_000).is_none());
        assert!(health.handle(&stats(30, 0), 69_000).is_none());
        assert!(health.handle(&stats(40, 0), 70_000).is_some());
        // A gap: within ten seconds, even when only traffic follows it.
        assert!(health.handle(&stats(50, 1), 75_000).is_none());
        assert!(health.handle(&stats(60, 1), 79_000).is_none());
        let report = health
            .handle(&stats(70, 1), 80_000)
            .expect("the gap is news");
        let ports = serde_json::to_value(&report).expect("json")["ports"].clone();
        assert_eq!(ports[0]["stats"]["sequence_gaps"], 1);
        // Nothing changed: nothing to say.
        assert!(health.handle(&stats(70, 1), 200_000).is_none());
    }
}
