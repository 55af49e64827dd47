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

/// The delay sequence of one outage: initial, doubled each failure, capped; reset on success.
#[derive(Debug, Clone)]
pub struct Backoff {
    policy: ReconnectPolicy,
    next_ms: u64,
}

impl Backoff {
    /// A fresh backoff at the policy's initial delay.
    pub fn new(policy: ReconnectPolicy) -> Self {
        Self {
            next_ms: policy.initial_ms.min(policy.max_ms),
            policy,
        }
    }

    /// The delay to wait now; the following one doubles, up to the cap.
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next_ms;
        self.next_ms = self
            .next_ms
            .saturating_mul(2)
            .clamp(1, self.policy.max_ms.max(1));
        Duration::from_millis(delay)
    }

    /// Back to the initial delay, after a successful connection.
    pub fn reset(&mut self) {
        self.next_ms = self.policy.initial_ms.min(self.policy.max_ms);
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
}
