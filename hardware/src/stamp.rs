//! Host receive-time stamping behind a small trait, so tests can run on tokio's paused clock.

use std::time::{SystemTime, UNIX_EPOCH};
use tokio::time::Instant;

/// Source of the host's receive time, in milliseconds since the Unix epoch.
pub trait WallClock: Send + Sync + 'static {
    /// Now, as milliseconds since 1970-01-01T00:00:00Z.
    fn now_ms(&self) -> u64;
}

/// The real wall clock: the only place the link reads `SystemTime`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemWallClock;

impl WallClock for SystemWallClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

/// A wall clock that follows tokio's clock from a fixed origin: under `tokio::time::pause()`
/// it advances only with virtual time, so stamps in tests are exact.
#[derive(Debug, Clone, Copy)]
pub struct TokioWallClock {
    origin_ms: u64,
    start: Instant,
}

impl TokioWallClock {
    /// Starts at `origin_ms` now (by tokio's clock).
    pub fn starting_at(origin_ms: u64) -> Self {
        Self {
            origin_ms,
            start: Instant::now(),
        }
    }
}

impl WallClock for TokioWallClock {
    fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.origin_ms.saturating_add(elapsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn tokio_wall_clock_follows_virtual_time() {
        let clock = TokioWallClock::starting_at(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        tokio::time::sleep(Duration::from_millis(2_500)).await;
        assert_eq!(clock.now_ms(), 3_500);
    }

    #[test]
    fn system_wall_clock_is_after_2020() {
        assert!(SystemWallClock.now_ms() > 1_577_836_800_000);
    }
}
