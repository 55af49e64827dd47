//! Capped exponential backoff between attempts to (re)open a missing or failing port.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Reconnect timing. The cap bounds how long a replugged device waits before it is in use:
/// with the default 500 ms cap plus a handshake, a device is back within 1 s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReconnectPolicy {
    /// First delay after a failure, in milliseconds. Default 50.
    pub initial_ms: u64,
    /// Largest delay, in milliseconds. Default 500.
    pub max_ms: u64,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        Self {
            initial_ms: 50,
            max_ms: 500,
        }
    }
}

/// The delay sequence of one outage: a first delay, doubled after each failure up to a cap;
/// back to the first on success. The one backoff of the workspace: the serial links use it
/// through a [`ReconnectPolicy`], the daemon's MQTT connections and journal re-reads directly.
#[derive(Debug, Clone)]
pub struct Backoff {
    first: Duration,
    cap: Duration,
    next: Duration,
}

impl Backoff {
    /// A fresh backoff at the policy's initial delay.
    pub fn new(policy: ReconnectPolicy) -> Self {
        Self::doubling(
            Duration::from_millis(policy.initial_ms),
            Duration::from_millis(policy.max_ms),
        )
    }

    /// Waits `first`, then twice as long after each failure, never longer than `cap` (nor
    /// shorter than a millisecond once doubled: a zero first delay does not spin for ever).
    pub fn doubling(first: Duration, cap: Duration) -> Self {
        let first = first.min(cap);
        Self {
            first,
            cap,
            next: first,
        }
    }

    /// The delay to wait now; the following one doubles, up to the cap.
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = self.next.saturating_mul(2).clamp(
            Duration::from_millis(1),
            self.cap.max(Duration::from_millis(1)),
        );
        delay
    }

    /// Back to the first delay, after a success.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap_and_resets() {
        let mut backoff = Backoff::new(ReconnectPolicy::default());
        let delays: Vec<u64> = (0..6)
            .map(|_| backoff.next_delay().as_millis() as u64)
            .collect();
        assert_eq!(delays, [50, 100, 200, 400, 500, 500]);
        backoff.reset();
        assert_eq!(backoff.next_delay(), Duration::from_millis(50));
    }

    #[test]
    fn cap_below_initial_wins() {
        let mut backoff = Backoff::new(ReconnectPolicy {
            initial_ms: 900,
            max_ms: 300,
        });
        assert_eq!(backoff.next_delay(), Duration::from_millis(300));
        assert_eq!(backoff.next_delay(), Duration::from_millis(300));
    }

    #[test]
    fn a_zero_first_delay_grows_from_a_millisecond() {
        let mut backoff = Backoff::doubling(Duration::ZERO, Duration::from_millis(3));
        let delays: Vec<Duration> = (0..4).map(|_| backoff.next_delay()).collect();
        let ms = Duration::from_millis;
        assert_eq!(delays, [Duration::ZERO, ms(1), ms(2), ms(3)]);
        backoff.reset();
        assert_eq!(backoff.next_delay(), Duration::ZERO);
    }
}
