//! The match's interruptions: a pause or a sealed adjournment (CN2002 14), and the clock's absence with the backlog of presses it may bring back (issue 39.7).

use goban_rules::{Color, Move};

use super::{ClockAway, Match};
use crate::Timestamp;
use crate::error::RefereeError;
use crate::state::Phase;

impl Match {
    /// Stops the clocks at `now` (CN2002 14); the phase to return to is kept.
    pub(crate) fn handle_pause(&mut self, now: Timestamp) -> Result<(), RefereeError> {
        if self.phase != Phase::Playing {
            return Err(RefereeError::WrongPhase("pause needs a game in play"));
        }
        self.clock.pause(now);
        self.resume_phase = self.phase;
        self.phase = Phase::Paused;
        Ok(())
    }

    /// Restarts the clock at `now` and unseals; returns the phase play is back in.
    pub(crate) fn handle_resume(&mut self, now: Timestamp) -> Result<Phase, RefereeError> {
        if self.phase != Phase::Paused {
            return Err(RefereeError::WrongPhase("resume needs a paused game"));
        }
        self.clock.resume(now);
        self.phase = self.resume_phase;
        self.sealed = false;
        Ok(self.phase)
    }

    /// The paused game is sealed (adjourned): the next move waits in an envelope.
    pub(crate) fn seal(&mut self) {
        self.sealed = true;
    }

    /// Whether the game is sealed.
    pub(crate) fn is_sealed(&self) -> bool {
        self.sealed
    }

    /// Whether a press counts: the game is in play and not sealed.
    pub(crate) fn takes_presses(&self) -> bool {
        self.phase == Phase::Playing && !self.sealed
    }

    /// The clock went away mid-game: presses queued on its line may come back as a backlog.
    pub(crate) fn handle_clock_away(&mut self) {
        if self.clock_away.is_none() {
            self.clock_away = Some(ClockAway {
                from_move: self.move_count(),
                matched: 0,
            });
        }
    }

    /// Whether the board read a stone of `side` while the clock was away that no press of the
    /// clock's backlog matched: `side`'s press went with the cable, and the physical clock,
    /// which that press switched, runs for the other side.
    pub(crate) fn press_lost_while_away(&self, side: Color) -> bool {
        let Some(away) = self.clock_away else {
            return false;
        };
        let since = self.move_count().saturating_sub(away.from_move);
        if since <= away.matched {
            return false;
        }
        let moves = self.game.moves();
        let from = moves.len().saturating_sub(since as usize);
        moves[from..]
            .iter()
            .any(|m| m.color == side && m.mv != Move::Pass)
    }

    /// A press read live from the connected clock: its backlog, if any, is over.
    pub(crate) fn handle_clock_back(&mut self) {
        self.clock_away = None;
    }

    /// A press of the clock's backlog; true when the board, `seeing` all along, read a move
    /// for it while the clock was away (the press is matched to that move).
    pub(crate) fn handle_backlog_press(&mut self, seeing: bool) -> bool {
        let moves = self.move_count();
        let Some(away) = self.clock_away.as_mut() else {
            return false;
        };
        let read_meanwhile = moves.saturating_sub(away.from_move) > away.matched;
        if seeing && read_meanwhile {
            away.matched += 1;
        }
        seeing && read_meanwhile
    }
}
