//! The devices machine: the links, frame counters, unreadable points and device alerts of one board (api.md `device`).

use crate::device_alert::{DeviceAlert, DeviceAlertKind};
use crate::input::Device;
use crate::state::{DeviceState, Interpretation, Link};

/// At most this many device alerts are kept in the state (the oldest resolved go first).
const DEVICE_ALERT_LIMIT: usize = 32;

/// The devices' health as the state publishes it, and the numbering of device alerts.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Devices {
    device: DeviceState,
    /// Device alerts raised so far (for their ids).
    device_alerts_raised: u32,
}

impl Devices {
    /// The devices' health as published.
    pub(crate) fn state(&self) -> &DeviceState {
        &self.device
    }

    /// The link of `device`.
    pub(crate) fn link(&self, device: Device) -> Link {
        match device {
            Device::Board => self.device.board,
            Device::Clock => self.device.clock,
        }
    }

    /// `device` connected or went away; whether that changed its link.
    pub(crate) fn handle_link(&mut self, device: Device, link: Link) -> bool {
        let slot = match device {
            Device::Board => &mut self.device.board,
            Device::Clock => &mut self.device.clock,
        };
        let changed = *slot != link;
        *slot = link;
        changed
    }

    /// Frames were rejected.
    pub(crate) fn handle_rejected(&mut self, frames: u64) {
        self.device.rejected_frames = self.device.rejected_frames.saturating_add(frames);
    }

    /// A sequence gap was seen.
    pub(crate) fn handle_gap(&mut self) {
        self.device.gaps += 1;
    }

    /// The points that read `?` now; whether they changed.
    pub(crate) fn handle_unknown_points(&mut self, points: Vec<String>) -> bool {
        let changed = points != self.device.unknown_points;
        self.device.unknown_points = points;
        changed
    }

    /// Points read `?` or chatter: the board is unclean.
    pub(crate) fn unclean(&self) -> bool {
        !self.device.unknown_points.is_empty() || !self.device.chattering_points.is_empty()
    }

    /// The points whose sensor chatters now.
    pub(crate) fn chattering_points(&self) -> &[String] {
        &self.device.chattering_points
    }

    /// The chattering points are `points` from `now` (RFC 3339): the alerts of points that
    /// read steadily again are resolved.
    pub(crate) fn handle_chattering(&mut self, points: Vec<String>, now: &str) {
        for a in &mut self.device.alerts {
            let ended = a.kind == DeviceAlertKind::ChatteringSensor
                && a.resolved_at.is_none()
                && a.point.as_ref().is_some_and(|p| !points.contains(p));
            if ended {
                a.resolved_at = Some(now.to_owned());
            }
        }
        self.device.chattering_points = points;
    }

    /// Presses held because the board could not see.
    pub(crate) fn handle_unexplained_presses(&mut self, held: u32) {
        self.device.unexplained_presses = held;
    }

    /// The board port's measured lag.
    pub(crate) fn handle_port_lag(&mut self, lag_ms: u64) {
        self.device.port_lag_ms = lag_ms;
    }

    /// What the referee does with readings now.
    pub(crate) fn handle_interpretation(&mut self, interpretation: Interpretation) {
        self.device.interpretation = interpretation;
    }

    /// Whether an alert of `kind` is open.
    pub(crate) fn has_open_alert(&self, kind: DeviceAlertKind) -> bool {
        self.device
            .alerts
            .iter()
            .any(|a| a.kind == kind && a.resolved_at.is_none())
    }

    /// Raises the alert `alert` makes of the next id of `board` ("<board>-d<n>"); returns the id.
    pub(crate) fn raise(
        &mut self,
        board: &str,
        alert: impl FnOnce(String) -> DeviceAlert,
    ) -> String {
        self.device_alerts_raised += 1;
        let id = format!("{board}-d{}", self.device_alerts_raised);
        if self.device.alerts.len() >= DEVICE_ALERT_LIMIT {
            let oldest = self
                .device
                .alerts
                .iter()
                .position(|a| a.resolved_at.is_some())
                .unwrap_or(0);
            self.device.alerts.remove(oldest);
        }
        self.device.alerts.push(alert(id.clone()));
        id
    }

    /// The open alert `id`, to update.
    pub(crate) fn alert_mut(&mut self, id: &str) -> Option<&mut DeviceAlert> {
        self.device.alerts.iter_mut().find(|a| a.id == id)
    }
}
