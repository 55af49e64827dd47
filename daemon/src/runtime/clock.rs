//! The runtime's only clock: host milliseconds since the Unix epoch, advanced by Tokio's clock so tests can pause time.

use std::time::Duration;

use tokio::time::Instant;

/// Wall-clock milliseconds anchored once, then advanced by Tokio's monotonic clock.
///
/// Under `tokio::time::pause` the runtime's time only moves when the test
/// advances it, so a whole board runs in-process and deterministically.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HostClock {
    base_ms: u64,
    base: Instant,
}

impl HostClock {
    /// Anchored at the system time now.
    pub(crate) fn system() -> Self {
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Self::anchored(u64::try_from(since.as_millis()).unwrap_or(u64::MAX))
    }

    /// Anchored at `base_ms` now (tests).
    pub(crate) fn anchored(base_ms: u64) -> Self {
        Self {
            base_ms,
            base: Instant::now(),
        }
    }

    /// Milliseconds since the Unix epoch.
    pub(crate) fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.base_ms.saturating_add(elapsed)
    }

    /// The Tokio instant of `at_ms` (now if it is past).
    pub(crate) fn instant_of(&self, at_ms: u64) -> Instant {
        let offset = at_ms.saturating_sub(self.base_ms);
        self.base + Duration::from_millis(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn paused_time_moves_only_when_advanced() {
        let clock = HostClock::anchored(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        tokio::time::advance(Duration::from_millis(250)).await;
        assert_eq!(clock.now_ms(), 1_250);
        assert_eq!(
            clock.instant_of(2_000) - clock.instant_of(1_000),
            Duration::from_secs(1)
        );
    }
}
