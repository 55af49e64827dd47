//! A board's alarm: wakes its task at a referee deadline (a settle time, a clock reading, a
//! byo-yomi call), at its instant and never before it, not anywhere in the millisecond around it.
//!
//! Tokio's timer works in whole milliseconds, and its worker sleeps a whole number of them
//! from wherever in a millisecond it went to sleep: in a 512-board hall a deadline's alarm,
//! set a millisecond early to make up for the rounding, rang anywhere from 0.6 ms before it
//! to 1 ms after, by an offset each run drew at start (docs/performance.md, "The alarm that
//! rang anywhere in its millisecond"). On Linux each board therefore has a `timerfd`, re-armed
//! when its next deadline changes and read through Tokio's reactor, whose readiness wakes a
//! worker at once. Elsewhere, and on a clock Tokio paused (tests), Tokio's timer is used.

#[cfg(test)]
use tokio::time::Instant;

use super::clock::HostClock;

/// One board's alarm, for one deadline at a time.
pub(crate) struct Alarm {
    clock: HostClock,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    precise: Option<precise::TimerFd>,
}

impl Alarm {
    /// A precise alarm when `clock` follows the system's time and the system has timer file
    /// descriptors; otherwise Tokio's timer, rung a millisecond early (see [`HostClock::alarm_for`]).
    pub(crate) fn new(clock: HostClock) -> Self {
        Self {
            clock,
            #[cfg(any(target_os = "linux", target_os = "android"))]
            precise: clock
                .follows_system()
                .then(precise::TimerFd::open)
                .and_then(|opened| {
                    opened
                        .inspect_err(|err| {
                            tracing::warn!(cause = %err, "no timerfd: alarms ring on Tokio's millisecond timer");
                        })
                        .ok()
                }),
        }
    }

    /// Whether this alarm rings by a timer file descriptor.
    #[cfg(test)]
    pub(crate) fn is_precise(&self) -> bool {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        return self.precise.is_some();
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        return false;
    }

    /// Resolves once the board's time has reached `due_ms`; never when there is none.
    /// Cancel-safe: dropped and called again for the same deadline, it keeps its arming.
    pub(crate) async fn ring_at(&mut self, due_ms: Option<u64>) {
        let Some(due_ms) = due_ms else {
            return std::future::pending().await;
        };
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if let Some(timer) = self.precise.as_mut() {
            let at = self.clock.instant_of(due_ms);
            match timer.ring_at(at).await {
                Ok(()) => return,
                Err(err) => {
                    tracing::warn!(cause = %err, "timerfd failed: alarms ring on Tokio's millisecond timer");
                    self.precise = None;
                }
            }
        }
        tokio::time::sleep_until(self.clock.alarm_for(due_ms)).await;
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod precise {
    use std::io;
    use std::os::fd::{AsFd, AsRawFd, RawFd};

    use nix::sys::time::TimeSpec;
    use nix::sys::timerfd::{ClockId, Expiration, TimerFlags, TimerSetTimeFlags};
    use tokio::io::Interest;
    use tokio::io::unix::AsyncFd;
    use tokio::time::Instant;

    /// nix's `TimerFd`, as Tokio's reactor takes it (by raw descriptor).
    struct Timer(nix::sys::timerfd::TimerFd);

    impl AsRawFd for Timer {
        fn as_raw_fd(&self) -> RawFd {
            self.0.as_fd().as_raw_fd()
        }
    }

    /// A monotonic `timerfd` registered with Tokio's reactor, armed for one instant at a time.
    pub(super) struct TimerFd {
        fd: AsyncFd<Timer>,
        /// The instant it is armed for, until it has rung.
        armed: Option<Instant>,
    }

    impl TimerFd {
        pub(super) fn open() -> io::Result<Self> {
            let timer = nix::sys::timerfd::TimerFd::new(
                ClockId::CLOCK_MONOTONIC,
                TimerFlags::TFD_NONBLOCK | TimerFlags::TFD_CLOEXEC,
            )?;
            // Deprecated for types whose descriptor can be closed or replaced behind the
            // registration (tokio-rs/tokio#8587); a `TimerFd` owns its descriptor and is moved
            // into the `AsyncFd`, so this use is sound, and `register_with_interest` would need
            // `unsafe`, denied in this workspace (as for the simulator's pty,
            // hardware/src/sim/pty.rs).
            #[allow(deprecated)]
            let fd = AsyncFd::with_interest(Timer(timer), Interest::READABLE)?;
            Ok(Self { fd, armed: None })
        }

        /// Resolves at `at` (at once if it is past).
        pub(super) async fn ring_at(&mut self, at: Instant) -> io::Result<()> {
            if self.armed != Some(at) {
                let left = at.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    self.armed = None;
                    return Ok(());
                }
                // Re-arming also clears an expiry of the instant it was armed for before.
                self.fd.get_ref().0.set(
                    Expiration::OneShot(TimeSpec::from_duration(left)),
                    TimerSetTimeFlags::empty(),
                )?;
                self.armed = Some(at);
            }
            loop {
                let mut ready = self.fd.readable().await?;
                // The count of expiries; `EAGAIN` (would block) while it has not rung.
                let read = ready.try_io(|timer| {
                    nix::unistd::read(&timer.get_ref().0, &mut [0u8; 8]).map_err(io::Error::from)
                });
                match read {
                    Ok(Ok(_)) => {
                        self.armed = None;
                        return Ok(());
                    }
                    Ok(Err(err)) => return Err(err),
                    // Readiness left over from an earlier arming: wait again.
                    Err(_would_block) => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// How late each of `n` alarms 3 ms ahead rang after its deadline; panics if one rang
    /// before it.
    async fn lateness_of(alarm: &mut Alarm, clock: HostClock, n: usize) -> Vec<Duration> {
        let mut late = Vec::with_capacity(n);
        for _ in 0..n {
            let due = clock.now_ms() + 3;
            alarm.ring_at(Some(due)).await;
            let (rang, at) = (Instant::now(), clock.instant_of(due));
            assert!(rang >= at, "rang {:?} before its deadline", at - rang);
            late.push(rang - at);
        }
        late
    }

    #[tokio::test]
    async fn a_precise_alarm_never_rings_before_its_deadline() {
        let clock = HostClock::system();
        let mut alarm = Alarm::new(clock);
        assert!(alarm.is_precise(), "a system clock on Linux gets a timerfd");
        // Tokio's timer, rung a millisecond early to make up for its rounding, rings before
        // the deadline in most of 40 tries; how late a timerfd rings depends on the machine's
        // load and is measured below, not asserted.
        lateness_of(&mut alarm, clock, 40).await;
    }

    /// How soon after its deadline a timerfd alarm rings (docs/performance.md): a measurement,
    /// never run by CI, whose figures depend on the machine and its load.
    #[tokio::test]
    #[ignore = "a measurement: run with --ignored --nocapture on an idle machine"]
    async fn lateness_of_a_precise_alarm() {
        let clock = HostClock::system();
        let mut alarm = Alarm::new(clock);
        let mut late = lateness_of(&mut alarm, clock, 400).await;
        late.sort();
        let within_150_us = late
            .iter()
            .filter(|l| **l < Duration::from_micros(150))
            .count();
        println!(
            "{} alarms 3 ms ahead: {within_150_us} within 150 us of their deadline; late by \
             {:?} (median), {:?} (90%), {:?} (most)",
            late.len(),
            late[late.len() / 2],
            late[late.len() * 9 / 10],
            late[late.len() - 1],
        );
    }

    #[tokio::test]
    async fn a_deadline_moved_earlier_rings_at_the_new_one_and_the_old_one_never() {
        let clock = HostClock::system();
        let mut alarm = Alarm::new(clock);
        let far = clock.now_ms() + 60_000;
        // Armed for a minute, then dropped before it rings (the board's select! moves on).
        let waited = tokio::time::timeout(Duration::from_millis(5), alarm.ring_at(Some(far))).await;
        assert!(waited.is_err(), "a minute's alarm rang within 5 ms");
        let near = clock.now_ms() + 2;
        alarm.ring_at(Some(near)).await;
        assert!(clock.now_ms() >= near);
        // Back to the far deadline: it must not ring at once on the near one's expiry.
        let again = tokio::time::timeout(Duration::from_millis(5), alarm.ring_at(Some(far))).await;
        assert!(again.is_err(), "the far alarm rang on a stale expiry");
    }

    #[tokio::test]
    async fn a_deadline_already_past_rings_at_once_and_none_never() {
        let clock = HostClock::system();
        let mut alarm = Alarm::new(clock);
        let past = clock.now_ms().saturating_sub(5);
        // At once: on its first poll, however long the machine takes to get to it.
        futures::FutureExt::now_or_never(alarm.ring_at(Some(past)))
            .expect("a past deadline rings at once");
        let never = tokio::time::timeout(Duration::from_millis(20), alarm.ring_at(None)).await;
        assert!(never.is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn a_paused_clock_gets_tokio_timer_and_its_virtual_time() {
        let clock = HostClock::anchored(1_000);
        let mut alarm = Alarm::new(clock);
        assert!(!alarm.is_precise());
        alarm.ring_at(Some(1_300)).await;
        assert_eq!(
            clock.now_ms(),
            1_299,
            "Tokio's alarm rings a millisecond early"
        );
    }
}
