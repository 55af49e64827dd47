//! The arbiter's hand on the clock: pause and resume (CN2002 14), corrections (22.8-22.9) and the 22.5 flag-fall conversion.

use super::machine::{Adjustment, AdjustmentReason, Clock, Phase, Turn};
use super::reading::SideReading;
use super::systems;
use super::{ClockError, ClockEvent, Color};
use crate::Timestamp;

impl Clock {
    /// Stops both clocks; paused time does not count (CN2002 14).
    pub fn pause(&mut self, now: Timestamp) -> Result<(), ClockError> {
        self.running_turn()?;
        self.catch_up(now, false);
        let mut turn = self.running_turn()?;
        turn.elapsed_before = self.elapsed(&turn, now);
        self.close_stretch(&turn, now);
        self.turn = Some(turn);
        self.phase = Phase::Paused;
        Ok(())
    }

    /// Restarts the clock of the side to move.
    pub fn resume(&mut self, now: Timestamp) -> Result<(), ClockError> {
        let (Phase::Paused, Some(mut turn)) = (self.phase, self.turn) else {
            return Err(ClockError::NotPaused);
        };
        turn.run_from = now;
        turn.floor = turn.floor.max(now);
        self.turn = Some(turn);
        self.phase = Phase::Running;
        Ok(())
    }

    /// Adds `delta_ms` to `side`'s time (negative: takes it away), recorded
    /// with `by` (CN2002 22.8-22.9). Time is added to main time; time taken
    /// goes from main time first, then as the system allows (whole byo-yomi
    /// periods, Canadian block time). Taking all of the running side's time
    /// is a flag fall now; taking all of the other side's leaves it at zero,
    /// and its flag falls the instant its clock starts. Giving time back
    /// after a flag fall leaves the clocks paused for the arbiter to resume.
    /// Returns the side's clock.
    pub fn adjust(
        &mut self,
        now: Timestamp,
        side: Color,
        delta_ms: i64,
        by: String,
    ) -> Result<SideReading, ClockError> {
        self.change_time(now, side, delta_ms, by, AdjustmentReason::Correction)
    }

    /// CN2002 22.5: on the player's request the arbiter turns a flag fall in
    /// the last period into a pass; the same byo-yomi continues (the player
    /// keeps the last period) and the opponent's clock starts.
    pub fn convert_forfeit_to_pass(
        &mut self,
        now: Timestamp,
        side: Color,
    ) -> Result<(), ClockError> {
        match self.phase {
            Phase::Flagged { side: fallen, .. } if fallen == side => {}
            _ => return Err(ClockError::NoFlagFall(side)),
        }
        let restored = systems::continue_after_flag(&self.tc, &self.sides[side.index()])?;
        self.sides[side.index()] = restored;
        self.turn = Some(Turn::begin(side.opponent(), now));
        self.phase = Phase::Running;
        Ok(())
    }

    /// Applies and records a change of `side`'s time.
    pub(crate) fn change_time(
        &mut self,
        now: Timestamp,
        side: Color,
        delta_ms: i64,
        by: String,
        reason: AdjustmentReason,
    ) -> Result<SideReading, ClockError> {
        let on_turn = self.turn.is_some_and(|t| t.side == side);
        let mut state = self.sides[side.index()];
        if on_turn {
            self.catch_up(now, false);
            state = self.rebased_state(side, now);
        }
        let was_flagged = state.flagged;
        if delta_ms >= 0 {
            state.main_ms = state.main_ms.saturating_add(delta_ms.unsigned_abs());
            state.flagged = false;
        } else {
            systems::deduct(&self.tc, &mut state, delta_ms.unsigned_abs());
        }
        if state.flagged && !was_flagged && !on_turn {
            // Like a clock set to 0:00: the flag falls the instant this side's clock starts.
            state.flagged = false;
        }
        if on_turn {
            self.rebase(now, side);
        }
        self.sides[side.index()] = state;
        self.settle_flag(now, side, was_flagged, state.flagged);
        let after = SideReading::from_state(&state, self.ledger[side.index()].used_ms);
        self.adjustments.push(Adjustment {
            at: now,
            side,
            delta_ms,
            by,
            reason,
            after,
        });
        Ok(after)
    }

    /// The on-turn side's time at `now`, as a state to restart the turn from.
    fn rebased_state(&self, side: Color, now: Timestamp) -> systems::SideTime {
        self.live_state(side, now).0
    }

    /// Restarts the on-turn side's turn at `now`, charging what it ran so far.
    fn rebase(&mut self, now: Timestamp, side: Color) {
        let Some(turn) = self.turn else { return };
        if matches!(self.phase, Phase::Running | Phase::Paused) {
            let e = self.elapsed(&turn, now);
            let ledger = &mut self.ledger[side.index()];
            ledger.used_ms = ledger.used_ms.saturating_add(e);
            if self.phase == Phase::Running {
                self.close_stretch(&turn, now);
            }
        }
        self.turn = Some(Turn::begin(side, now));
    }

    /// A correction flagged the side on turn, or revived a fallen flag.
    fn settle_flag(&mut self, now: Timestamp, side: Color, was_flagged: bool, is_flagged: bool) {
        if is_flagged && !was_flagged {
            let article = systems::flag_article(&self.tc).to_owned();
            self.pending.push(ClockEvent::FlagFall {
                side,
                at: now,
                article,
            });
            self.phase = Phase::Flagged { side, at: now };
        } else if was_flagged && !is_flagged && matches!(self.phase, Phase::Flagged { .. }) {
            self.phase = Phase::Paused;
        }
    }
}
