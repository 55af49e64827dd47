//! The referee's side of the game clock: wraps `clock::Clock` (absent under `none`) and turns its events into referee events.

use goban_rules::Color;

use crate::Timestamp;
use crate::clock::{
    CallCode, Clock, ClockError, ClockEvent, ClockReading, LateStart, Show, TimeControl, Venue,
};
use crate::error::RefereeError;

/// The game's clock, or none when the time control is `none`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Timekeeper {
    clock: Option<Clock>,
}

/// What a press completing a move did to the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Switched {
    /// No clock runs in this game (`none`).
    NoClock,
    /// The move was charged: the mover's time and periods left AT the press
    /// (before a period reset, an increment or a new block), for `BL`/`WL`.
    Charged {
        /// Display ms left at the press.
        left_ms: u64,
        /// Periods (or Canadian block moves) left at the press.
        periods: u32,
    },
    /// The mover's flag had fallen before the press (CN2002 12.4, 22.5): nothing was charged.
    FlagFallen {
        /// Whose flag fell.
        side: Color,
        /// When it fell.
        at: Timestamp,
    },
    /// The clock was paused, not started or ran for the other side: nothing was charged.
    Refused,
}

impl Timekeeper {
    /// A clock for `tc` at `venue` (CN2002 22.1-22.2 late limits); `None` or `none` means no clock.
    pub(crate) fn new(tc: Option<TimeControl>, venue: Venue) -> Self {
        let clock = tc
            .filter(|tc| *tc != TimeControl::None)
            .map(|tc| Clock::new(tc).with_venue(venue));
        Self { clock }
    }

    /// The game's time control; `None` without a clock.
    pub(crate) fn time_control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(|c| *c.time_control())
    }

    /// The spoken form of a clock event (`None` for a flag fall or without a clock).
    pub(crate) fn call_code(&self, event: &ClockEvent) -> Option<CallCode> {
        self.clock
            .as_ref()
            .and_then(|c| CallCode::of(event, c.time_control()))
    }

    /// Starts the first mover's clock.
    pub(crate) fn start(&mut self, now: Timestamp, first: Color) {
        if let Some(c) = &mut self.clock {
            // A fresh clock always starts; a second start is refused and ignored.
            let _ = c.start(now, first);
        }
    }

    /// A press completing `mover`'s move.
    pub(crate) fn switch(&mut self, now: Timestamp, mover: Color) -> Switched {
        let Some(c) = self.clock.as_mut() else {
            return Switched::NoClock;
        };
        match c.complete_move(now, mover) {
            Ok(t) => Switched::Charged {
                left_ms: t.left.display_ms(),
                periods: t.left.display_count(),
            },
            Err(ClockError::FlagFallen { side, at_ms }) => Switched::FlagFallen {
                side,
                at: Timestamp(at_ms),
            },
            Err(_) => Switched::Refused,
        }
    }

    /// Whether a clock is running now (not paused, not flagged, not absent).
    pub(crate) fn is_running(&self) -> bool {
        self.clock.as_ref().is_some_and(Clock::is_running)
    }

    /// The next clock deadline.
    pub(crate) fn poll_timeout(&self) -> Option<Timestamp> {
        self.clock.as_ref()?.poll_timeout()
    }

    /// The clock events due by `now`.
    pub(crate) fn handle_timeout(&mut self, now: Timestamp) -> Vec<ClockEvent> {
        self.clock
            .as_mut()
            .map(|c| c.handle_timeout(now))
            .unwrap_or_default()
    }

    /// The api.md clock object.
    pub(crate) fn reading(&self, now: Timestamp) -> Option<ClockReading> {
        self.clock.as_ref().map(|c| c.reading(now))
    }

    /// The `$SHOW` fields.
    pub(crate) fn show(&self, now: Timestamp) -> Option<Show> {
        self.clock.as_ref().map(|c| c.show(now))
    }

    /// Stops both clocks (CN2002 14).
    pub(crate) fn pause(&mut self, now: Timestamp) {
        if let Some(c) = &mut self.clock {
            // Pausing a stopped clock is harmless.
            let _ = c.pause(now);
        }
    }

    /// Restarts the side to move.
    pub(crate) fn resume(&mut self, now: Timestamp) {
        if let Some(c) = &mut self.clock {
            // Resuming a running clock is harmless.
            let _ = c.resume(now);
        }
    }

    /// An arbiter's correction (CN2002 22.8-22.9).
    pub(crate) fn adjust(
        &mut self,
        now: Timestamp,
        color: Color,
        delta_ms: i64,
        by: String,
    ) -> Result<(), RefereeError> {
        let c = self
            .clock
            .as_mut()
            .ok_or(RefereeError::WrongPhase("no clock runs"))?;
        c.adjust(now, color, delta_ms, by)?;
        Ok(())
    }

    /// A late start (CN2002 22.1-22.4), judged against the venue's limit.
    pub(crate) fn late_start(
        &mut self,
        now: Timestamp,
        color: Color,
        absent_ms: u64,
    ) -> Result<LateStart, RefereeError> {
        let c = self
            .clock
            .as_mut()
            .ok_or(RefereeError::WrongPhase("no clock runs"))?;
        Ok(c.late_start(now, color, absent_ms)?)
    }

    /// CN2002 22.5: a flag fall converted into a pass.
    pub(crate) fn convert_forfeit(
        &mut self,
        now: Timestamp,
        color: Color,
    ) -> Result<(), RefereeError> {
        let c = self
            .clock
            .as_mut()
            .ok_or(RefereeError::WrongPhase("no clock runs"))?;
        c.convert_forfeit_to_pass(now, color)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_keeper(tc: &str, venue: Venue) -> Timekeeper {
        let mut k = Timekeeper::new(Some(tc.parse().unwrap()), venue);
        k.start(Timestamp(0), Color::Black);
        k
    }

    #[test]
    fn the_press_records_the_time_left_at_the_press_not_after_the_increment() {
        let mut k = build_keeper("fischer:main=1m,increment=10s", Venue::SameSite);
        let got = k.switch(Timestamp(5_000), Color::Black);
        assert_eq!(
            got,
            Switched::Charged {
                left_ms: 55_000,
                periods: 0
            }
        );
        // The increment is on the clock afterwards, not in the record.
        let reading = k.reading(Timestamp(5_000)).unwrap();
        assert_eq!(reading.black.display_ms(), 65_000);
    }

    #[test]
    fn a_press_after_the_flag_fell_reports_the_flag_fall() {
        let mut k = build_keeper("absolute:main=1m", Venue::SameSite);
        // No timeout was handled: the press itself finds the flag down (CN2002 12.4).
        let got = k.switch(Timestamp(61_000), Color::Black);
        assert_eq!(
            got,
            Switched::FlagFallen {
                side: Color::Black,
                at: Timestamp(60_000)
            }
        );
        assert!(!k.is_running());
    }

    #[test]
    fn the_venue_sets_the_late_limit() {
        // 20 minutes late: a forfeit at a same-site venue (CN2002 22.2), not at a separate one (22.1).
        let mut same = build_keeper("absolute:main=2h", Venue::SameSite);
        let mut apart = build_keeper("absolute:main=2h", Venue::Separate);
        let now = Timestamp(1_200_000);
        assert!(
            same.late_start(now, Color::Black, 1_200_000)
                .unwrap()
                .forfeit
        );
        assert!(
            !apart
                .late_start(now, Color::Black, 1_200_000)
                .unwrap()
                .forfeit
        );
    }

    #[test]
    fn no_clock_under_none() {
        let mut k = Timekeeper::new(Some(TimeControl::None), Venue::SameSite);
        k.start(Timestamp(0), Color::Black);
        assert_eq!(k.switch(Timestamp(1), Color::Black), Switched::NoClock);
        assert!(!k.is_running());
    }
}
