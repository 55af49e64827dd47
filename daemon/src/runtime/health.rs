//! Device health of one board as published on `<prefix>/boards/<board>/device`: link status, alerts and error counters.

use std::collections::BTreeMap;

use goban_hardware::{LinkEvent, LinkStats};
use goban_protocol::DeviceKind;
use serde_json::{Value, json};

/// Stats are republished at most this often unless a connection changes.
const STATS_EVERY_MS: u64 = 10_000;

struct PortHealth {
    kinds: Vec<DeviceKind>,
    status: &'static str,
    stats: Option<LinkStats>,
    alert: Option<String>,
}

/// What the daemon knows about a board's devices.
pub struct Health {
    board: String,
    ports: BTreeMap<String, PortHealth>,
    last_stats_ms: u64,
}

impl Health {
    /// Every port of the board with the kinds it serves; all start `connecting`.
    pub fn new(board: &str, ports: impl Iterator<Item = (String, Vec<DeviceKind>)>) -> Self {
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
            board: board.to_owned(),
            ports,
            last_stats_ms: 0,
        }
    }

    /// Update from a link event; `Some(payload)` when a device message is due.
    pub fn handle(&mut self, event: &LinkEvent) -> Option<Value> {
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
            LinkEvent::Stats(stats) => return self.handle_stats(stats),
            _ => return None,
        };
        let entry = self.ports.get_mut(port)?;
        entry.status = status;
        entry.alert = alert;
        if status != "connected" {
            tracing::warn!(port = %port, status, "device link");
        } else {
            tracing::info!(port = %port, "device connected");
        }
        Some(self.message("running"))
    }

    fn handle_stats(&mut self, stats: &LinkStats) -> Option<Value> {
        let now = super::supervisor::now_ms();
        let entry = self.ports.get_mut(&stats.port)?;
        let changed = entry.stats.as_ref() != Some(stats);
        entry.stats = Some(stats.clone());
        if changed && now.saturating_sub(self.last_stats_ms) >= STATS_EVERY_MS {
            self.last_stats_ms = now;
            return Some(self.message("running"));
        }
        None
    }

    /// The device payload (`v` and `seq` are added when it is numbered).
    pub fn message(&self, daemon: &str) -> Value {
        let mut devices = serde_json::Map::new();
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
                devices.insert(name.into(), status.into());
            }
        }
        let ports: Vec<Value> = self
            .ports
            .iter()
            .map(|(port, entry)| {
                json!({"port": port, "status": entry.status, "alert": entry.alert,
                       "stats": entry.stats.as_ref().and_then(|s| serde_json::to_value(s).ok())})
            })
            .collect();
        json!({"event": "device", "source": "link", "board": self.board, "daemon": daemon,
               "device": devices, "ports": ports})
    }
}
