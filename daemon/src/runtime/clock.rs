//! The runtime's only clock: host milliseconds since the Unix epoch, advanced by Tokio's clock so tests can pause time.

use std::time::Duration;

use tokio::time::Instant;

/// How long before a deadline its alarm is set (see [`HostClock::alarm_for`]).
const ALARM_LEAD: Duration = Duration::from_millis(1);

/// Wall-clock milliseconds anchored once, then advanced by Tokio's monotonic clock.
///
/// Under `tokio::time::pause` the runtime's time only moves when the test
/// advances it, so a whole board runs in-process and deterministically.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HostClock {
    base_ms: u64,
    base: Instant,
    /// Anchored at the system's time (not a test's chosen time, which Tokio may have paused).
    system: bool,
}

impl HostClock {
    /// Anchored at the system time now, to the microsecond: `instant_of` a frame's timestamp
    /// is that millisecond's start, not up to a millisecond after it.
    pub(crate) fn system() -> Self {
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let into_ms = Duration::from_nanos(u64::from(since.subsec_nanos() % 1_000_000));
        let now = Instant::now();
        Self {
            base_ms: u64::try_from(since.as_millis()).unwrap_or(u64::MAX),
            base: now.checked_sub(into_ms).unwrap_or(now),
            system: true,
        }
    }

    /// Anchored at `base_ms` now (tests).
    #[cfg(test)]
    pub(crate) fn anchored(base_ms: u64) -> Self {
        Self {
            base_ms,
            base: Instant::now(),
            system: false,
        }
    }

    /// Whether this clock follows the system's time, so a timer of the system can ring for it.
    pub(crate) fn follows_system(&self) -> bool {
        self.system
    }

    /// Milliseconds since the Unix epoch.
    pub(crate) fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.base_ms.saturating_add(elapsed)
    }

    /// When Tokio's timer should wake for a deadline at `at_ms` (a board's alarm uses it where
    /// it has no timer descriptor, `runtime/alarm.rs`): one millisecond before its instant.
    /// Tokio's timer rounds a sleep up to its next millisecond tick and the poller's timeout up
    /// to a whole millisecond again, so an alarm set at the instant itself rings 0-2 ms late,
    /// one set a millisecond early rings within a millisecond of it. The caller then hands the
    /// referee the deadline's time, which it has reached to the millisecond.
    pub(crate) fn alarm_for(&self, at_ms: u64) -> Instant {
        let at = self.instant_of(at_ms);
        at.checked_sub(ALARM_LEAD).unwrap_or(at)
    }

    /// The Tokio instant of `at_ms` (now if it is past).
    pub(crate) fn instant_of(&self, at_ms: u64) -> Instant {
        let offset = at_ms.saturating_sub(self.base_ms);
        self.base + Duration::from_millis(offset)
    }
}

/// Device links stamp their frames with the board's own clock, so a frame's time and the
/// deadlines the referee derives from it are on one timeline, even if the system's time is
/// set (a Raspberry Pi without a real-time clock that reaches its time server after start).
impl goban_hardware::WallClock for HostClock {
    fn now_ms(&self) -> u64 {
        Self::now_ms(self)
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

    #[tokio::test(start_paused = true)]
    async fn an_alarm_rings_a_millisecond_before_its_deadline() {
        let clock = HostClock::anchored(1_000);
        assert_eq!(clock.instant_of(1_300) - clock.alarm_for(1_300), ALARM_LEAD);
        tokio::time::sleep_until(clock.alarm_for(1_300)).await;
        assert_eq!(clock.now_ms(), 1_299);
    }

    #[tokio::test(start_paused = true)]
    async fn a_link_stamps_frames_with_the_boards_time() {
        let clock = HostClock::anchored(1_000);
        let stamps: std::sync::Arc<dyn goban_hardware::WallClock> = std::sync::Arc::new(clock);
        tokio::time::advance(Duration::from_millis(300)).await;
        assert_eq!(stamps.now_ms(), 1_300);
        assert_eq!(stamps.now_ms(), clock.now_ms());
    }

    #[test]
    fn the_system_clock_is_anchored_at_the_start_of_its_millisecond() {
        let clock = HostClock::system();
        // Anchored up to a millisecond late, it would read a millisecond behind the system
        // time about half the time; anchored right, only when a millisecond ends between the
        // two reads (well under a microsecond apart).
        let behind = (0..500)
            .filter(|i| {
                std::thread::sleep(Duration::from_micros(37 + (i * 13) % 400));
                let system = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .expect("after 1970");
                let ours = clock.now_ms();
                ours < u64::try_from(system.as_millis()).expect("ms")
            })
            .count();
        assert!(
            behind < 50,
            "behind the system time in {behind} of 500 reads"
        );
    }
}
