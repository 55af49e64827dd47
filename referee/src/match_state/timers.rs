//! The match's own deadlines: the clock's published reading (its tick), the grace before an unexplained removal is alerted, and flag falls already alerted on.

use goban_rules::Color;

use super::Match;
use crate::Timestamp;
use crate::state::Phase;

impl Match {
    /// A `clock` reading went out at `now`: the tick counts from here.
    pub(crate) fn handle_clock_published(&mut self, now: Timestamp) {
        self.clock_published_at = now;
    }

    /// When the next `clock` reading is due, every `tick_ms` while the clock runs in play
    /// (`0`: no tick).
    pub(crate) fn tick_timeout(&self, tick_ms: u64) -> Option<Timestamp> {
        let ticking = tick_ms > 0 && self.phase == Phase::Playing && self.clock.is_running();
        ticking.then(|| self.clock_published_at.plus_ms(tick_ms))
    }

    /// An unexplained removal was seen at `now`; the grace runs from the first one seen.
    pub(crate) fn handle_suspect(&mut self, now: Timestamp) {
        self.suspect_since.get_or_insert(now);
    }

    /// The grace starts again at `now` (a liberty still unreadable may hold the capture).
    pub(crate) fn restart_suspect(&mut self, now: Timestamp) {
        self.suspect_since = Some(now);
    }

    /// The removal was explained, alerted on or dropped: no grace runs.
    pub(crate) fn clear_suspect(&mut self) {
        self.suspect_since = None;
    }

    /// When the grace of `grace_ms` for an unexplained removal ends, if one runs.
    pub(crate) fn grace_timeout(&self, grace_ms: u64) -> Option<Timestamp> {
        self.suspect_since.map(|t| t.plus_ms(grace_ms))
    }

    /// `who`'s flag fell at `at`; true the first time this fall is told (one fall, one alert).
    pub(crate) fn handle_flag_fall(&mut self, who: Color, at: Timestamp) -> bool {
        self.forfeits.insert((who, at))
    }
}
