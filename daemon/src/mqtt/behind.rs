//! A publisher behind the hub's bus: what it missed, what it has read back, and when it may read
//! the journal again after a read failed.

use std::time::Duration;

use goban_hardware::Backoff;
use tokio::time::Instant;

/// Refills in a row with a failed journal read before what the failing boards missed is given
/// up (counted as dropped): a busy or briefly unreadable journal is read again, a lost one is not
/// waited on for ever (the bus is not read meanwhile).
const READ_ATTEMPTS: u32 = 5;
/// The wait after the first failed read, doubled after each further one (0.1 to 1.6 s).
const FIRST_RETRY: Duration = Duration::from_millis(100);

/// A publisher behind the bus, refilling from the journal.
pub(crate) struct Behind {
    pub(crate) since: std::time::Instant,
    /// What the bus said was missed, in all.
    pub(crate) missed: u64,
    /// Read back from the journal so far.
    pub(crate) refilled: u64,
    /// Refills in a row whose journal read failed.
    failures: u32,
    /// The waits between them.
    backoff: Backoff,
    /// After a failed read: not before then.
    retry_at: Option<Instant>,
}

/// What a refill with a failed journal read leads to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum AfterFailure {
    /// Read again after this wait.
    RetryIn(Duration),
    /// The attempts are used up: what was missed is given up.
    GiveUp,
}

impl Behind {
    /// Fell behind by `missed` messages, now.
    pub(crate) fn new(missed: u64) -> Self {
        Self {
            since: std::time::Instant::now(),
            missed,
            refilled: 0,
            failures: 0,
            backoff: read_backoff(),
            retry_at: None,
        }
    }

    /// When the next refill may read: at once (`None`), or after a failed read's wait.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.retry_at
    }

    /// A refill read every gap it tried: the next one goes at once.
    pub(crate) fn read_ok(&mut self) {
        self.failures = 0;
        self.backoff.reset();
        self.retry_at = None;
    }

    /// A refill's journal read failed (at `now`): wait and read again, or give up.
    pub(crate) fn read_failed(&mut self, now: Instant) -> AfterFailure {
        self.failures += 1;
        if self.failures >= READ_ATTEMPTS {
            return AfterFailure::GiveUp;
        }
        let wait = self.backoff.next_delay();
        self.retry_at = Some(now + wait);
        AfterFailure::RetryIn(wait)
    }
}

/// The waits between failed reads: doubling from [`FIRST_RETRY`], with no cap short of the
/// last wait before [`READ_ATTEMPTS`] gives up.
fn read_backoff() -> Backoff {
    Backoff::doubling(FIRST_RETRY, FIRST_RETRY * 2_u32.pow(READ_ATTEMPTS - 2))
}

/// Resolves at `at`, or at once when there is none.
pub(crate) async fn until(at: Option<Instant>) {
    if let Some(at) = at {
        tokio::time::sleep_until(at).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_reads_wait_longer_each_time_then_give_up() {
        let now = Instant::now();
        let mut behind = Behind::new(10);
        let waits: Vec<AfterFailure> = (0..READ_ATTEMPTS)
            .map(|_| behind.read_failed(now))
            .collect();
        assert_eq!(
            waits,
            vec![
                AfterFailure::RetryIn(Duration::from_millis(100)),
                AfterFailure::RetryIn(Duration::from_millis(200)),
                AfterFailure::RetryIn(Duration::from_millis(400)),
                AfterFailure::RetryIn(Duration::from_millis(800)),
                AfterFailure::GiveUp,
            ]
        );
    }

    #[test]
    fn a_good_read_starts_the_count_again() {
        let now = Instant::now();
        let mut behind = Behind::new(10);
        behind.read_failed(now);
        behind.read_failed(now);
        assert_eq!(behind.due(), Some(now + Duration::from_millis(200)));
        behind.read_ok();
        assert_eq!(behind.due(), None);
        assert_eq!(
            behind.read_failed(now),
            AfterFailure::RetryIn(Duration::from_millis(100))
        );
    }
}
