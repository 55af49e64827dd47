//! The liveness watchdog: a device that sends no frame for 3 s is disconnected (BEAT is due every second).

use std::time::Duration;
use tokio::time::Instant;

/// Default silence after which a device is declared gone: three missed BEATs
/// (wire protocol v1: "heartbeat, at least once a second").
pub const DEFAULT_SILENCE: Duration = Duration::from_secs(3);

/// Tracks the last sign of life and the deadline it implies.
#[derive(Debug, Clone, Copy)]
pub struct Watchdog {
    silence: Duration,
    last_seen: Instant,
}

impl Watchdog {
    /// A watchdog fed now.
    pub fn new(silence: Duration, now: Instant) -> Self {
        Self {
            silence,
            last_seen: now,
        }
    }

    /// Records a sign of life (any good frame).
    pub fn feed(&mut self, now: Instant) {
        self.last_seen = now;
    }

    /// When the device counts as gone if nothing else arrives.
    pub fn deadline(&self) -> Instant {
        self.last_seen + self.silence
    }

    /// Whether the device has been silent too long at `now`.
    pub fn is_expired(&self, now: Instant) -> bool {
        now >= self.deadline()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expires_after_three_seconds_of_silence_only() {
        let t0 = Instant::now();
        let mut dog = Watchdog::new(DEFAULT_SILENCE, t0);
        assert!(!dog.is_expired(t0 + Duration::from_millis(2_999)));
        dog.feed(t0 + Duration::from_millis(2_000));
        assert!(!dog.is_expired(t0 + Duration::from_millis(4_999)));
        assert!(dog.is_expired(t0 + Duration::from_millis(5_000)));
    }
}
