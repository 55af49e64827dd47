//! Late arrival at the start of a game (CN2002 22.1-22.4): absent time deducted twice, a forfeit beyond 15 or 60 minutes.

use serde::{Deserialize, Serialize};

use super::machine::{AdjustmentReason, Clock, RunSegment, Turn};
use super::venue::Venue;
use super::{ClockError, Color, SideReading};
use crate::Timestamp;

/// The outcome of a late start, for the `late_start` alert.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LateStart {
    /// Who was late.
    pub side: Color,
    /// How long they were absent.
    pub absent_ms: u64,
    /// The venue's limit.
    pub limit_ms: u64,
    /// Absent beyond the limit: the game is lost (the referee decides the result).
    pub forfeit: bool,
    /// Of the absence, what the side's own running clock already charged.
    pub already_charged_ms: u64,
    /// What was taken on top, so the absence costs twice over (0 on a forfeit,
    /// and under 22.4 when there is no or very short main time: the clock simply ran).
    pub deducted_ms: u64,
    /// The article applied.
    pub article: &'static str,
    /// The side's clock afterwards.
    pub after: SideReading,
}

impl Clock {
    /// `side` arrived `absent_ms` after the clock started (CN2002 22.1-22.4).
    ///
    /// Within the venue's limit the absence is deducted twice over: the part
    /// the side's own clock already ran counts once, the rest is taken from
    /// its time and recorded as an adjustment citing the article. Beyond the
    /// limit nothing is deducted and `forfeit` is set. Under 22.4 (no main
    /// time, or main time no longer than the limit) the clock ran during the
    /// absence, nothing more is taken and there is no limit: the flag decides.
    /// Lateness after an adjournment is not this: the clock simply runs,
    /// with no double deduction and no limit (22.1), so call `resume`.
    pub fn late_start(
        &mut self,
        now: Timestamp,
        side: Color,
        absent_ms: u64,
    ) -> Result<LateStart, ClockError> {
        let started_at = self.started_at.ok_or(ClockError::NotStarted)?;
        if self.late_recorded[side.index()] {
            return Err(ClockError::LateStartTwice(side));
        }
        self.catch_up(now, false);
        let absence_end = started_at.plus_ms(absent_ms).min(now);
        let already_charged_ms = self.running_time_within(side, started_at, absence_end, now);
        let limit_ms = self.venue.limit_ms();
        // 22.4: no main time, or main time no longer than the late limit itself (a rapid
        // game, where a double deduction would take it all): the absent player is counted
        // out in byo-yomi by the running clock; seated before the count ends, they play on.
        let count_out = self.tc.main().as_ms() <= limit_ms;
        let forfeit = !count_out && absent_ms > limit_ms;
        let extra = if forfeit || count_out {
            0
        } else {
            absent_ms
                .saturating_mul(2)
                .saturating_sub(already_charged_ms)
        };
        let article = if count_out {
            "CN2002 22.4"
        } else {
            self.venue.article()
        };
        let after = match extra {
            0 => self.reading(now).side(side).to_owned(),
            ms => {
                let delta = i64::try_from(ms).unwrap_or(i64::MAX).saturating_neg();
                self.change_time(
                    now,
                    side,
                    delta,
                    article.to_owned(),
                    AdjustmentReason::LateStart,
                )?
            }
        };
        self.late_recorded[side.index()] = true;
        Ok(LateStart {
            side,
            absent_ms,
            limit_ms,
            forfeit,
            already_charged_ms,
            deducted_ms: extra,
            article,
            after,
        })
    }

    /// Keeps a finished stretch of running if it began in the game's first
    /// hour, the longest absence that can still be deducted (CN2002 22.1).
    pub(crate) fn close_stretch(&mut self, turn: &Turn, until: Timestamp) {
        let Some(started_at) = self.started_at else {
            return;
        };
        if turn.run_from < started_at.plus_ms(Venue::Separate.limit_ms()) && until > turn.run_from {
            self.run_log.push(RunSegment {
                side: turn.side,
                from: turn.run_from,
                to: until,
            });
        }
    }

    /// How long `side`'s clock ran between `from` and `to`, including the stretch still running at `now`.
    fn running_time_within(
        &self,
        side: Color,
        from: Timestamp,
        to: Timestamp,
        now: Timestamp,
    ) -> u64 {
        let open = self
            .turn
            .filter(|t| t.side == side && self.running_turn().is_ok())
            .map(|t| RunSegment {
                side,
                from: t.run_from,
                to: now,
            });
        self.run_log
            .iter()
            .copied()
            .chain(open)
            .filter(|s| s.side == side)
            .map(|s| s.to.min(to).ms_since(s.from.max(from)))
            .sum()
    }
}
