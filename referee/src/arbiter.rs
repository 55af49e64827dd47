//! Arbiter commands: start, rulings, clock control, seal, dead stones, results, voiding and restoring moves.

use goban_rules::{Move, Point};

use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::input::ArbiterCommand;
use crate::machines::audit::Take;
use crate::referee::Referee;
use crate::state::Phase;

impl Referee {
    /// Dispatches an arbiter command; refused commands change nothing.
    pub(crate) fn handle_arbiter(
        &mut self,
        command: ArbiterCommand,
        by: &str,
    ) -> Result<(), RefereeError> {
        match command {
            ArbiterCommand::StartGame(setup) => self.start_game(setup),
            ArbiterCommand::Ruling { id, action, note } => {
                self.handle_ruling(&id, action, note, by)
            }
            ArbiterCommand::Acknowledge {
                id,
                withdraw,
                take_over,
            } => {
                let now = self.now.to_rfc3339();
                let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
                let take = Take {
                    by,
                    withdraw,
                    take_over,
                };
                let index = m.audit.handle_acknowledge(&id, take, now)?;
                self.emit_infraction_changed(index);
                Ok(())
            }
            ArbiterCommand::Pause => self.pause(),
            ArbiterCommand::Resume => self.resume(),
            ArbiterCommand::AdjustClock {
                color,
                delta_ms,
                by,
            } => {
                let now = self.now;
                let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
                m.clock.adjust(now, color, delta_ms, by)?;
                self.emit_clock();
                self.emit(EventKind::StateChanged);
                Ok(())
            }
            ArbiterCommand::LateStart { color, absent_ms } => {
                self.handle_late_start(color, absent_ms, by)
            }
            ArbiterCommand::Seal => {
                self.pause()?;
                if let Some(m) = self.game.as_mut() {
                    m.seal();
                }
                Ok(())
            }
            ArbiterCommand::Unseal => {
                let m = self.game.as_ref().ok_or(RefereeError::NoGame)?;
                if !m.is_sealed() {
                    return Err(RefereeError::WrongPhase("unseal needs a sealed game"));
                }
                self.resume()
            }
            ArbiterCommand::MarkDead { points, dead } => {
                let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
                m.handle_mark_dead(&points, dead, self.size)?;
                self.update_counting();
                self.emit(EventKind::StateChanged);
                Ok(())
            }
            ArbiterCommand::MarkSeki { points, ruling } => {
                let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
                m.handle_mark_seki(&points, ruling, self.size, self.sight.physical())?;
                self.update_counting();
                self.emit(EventKind::StateChanged);
                Ok(())
            }
            ArbiterCommand::ConfirmResult => {
                let m = self.game.as_ref().ok_or(RefereeError::NoGame)?;
                let result = m.counted_result()?;
                self.finish_by(result);
                Ok(())
            }
            ArbiterCommand::ResumePlay { first } => self.resume_play(first),
            ArbiterCommand::SetResult { result, force } => {
                let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
                // The arbiter states the margin in the ruleset's unit (stones under CN2002).
                let parsed = result.in_unit(m.score_unit());
                if !force && matches!(m.phase, Phase::Playing | Phase::Paused) {
                    return Err(RefereeError::WrongPhase(
                        "the game is still in play; ending it with a result needs \"force\": true",
                    ));
                }
                // An arbiter may correct a result (CN2002 22.8-22.9): replace it.
                m.clear_result();
                self.finish_by(parsed);
                Ok(())
            }
            ArbiterCommand::VoidMove { number } => self.void_move(number),
            ArbiterCommand::RestoreMove { number } => self.restore_move(number),
            ArbiterCommand::OrderMoves { first, points } => self.order_block(first, &points),
        }
    }

    /// Voids a move: it counts as a pass; the sensors cannot bring it back. Earlier moves go through a replay.
    fn void_move(&mut self, number: u32) -> Result<(), RefereeError> {
        let now = self.now;
        let size = self.size;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        if number < m.move_count() {
            return self.void_earlier_move(number);
        }
        if m.move_count() != number || m.phase != Phase::Playing {
            return Err(RefereeError::BadMove(number));
        }
        let old = m.game.undo().ok_or(RefereeError::BadMove(number))?;
        m.moves.pop();
        if let Move::Play(p) = old.mv {
            m.known.insert(p.index(), go::reading_of(old.color));
        }
        m.handle_void(number, (old.color, old.mv));
        self.record_move(old.color, Move::Pass, now, false);
        self.emit(EventKind::Correction {
            number,
            was: go::move_name(old.mv, size),
            now: "pass".into(),
            reason: "voided by the arbiter".into(),
            time_left_ms: None,
            periods_left: None,
        });
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// Restores a voided move; earlier moves go through a replay.
    fn restore_move(&mut self, number: u32) -> Result<(), RefereeError> {
        let now = self.now;
        let size = self.size;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let (color, mv) = m.voided_move(number).ok_or(RefereeError::BadMove(number))?;
        if number < m.move_count() {
            return self.restore_earlier_move(number);
        }
        if m.move_count() != number {
            return Err(RefereeError::BadMove(number));
        }
        let pass = m.game.undo().ok_or(RefereeError::BadMove(number))?;
        let record = m.moves.pop();
        if m.game.check_as(color, mv).is_err() {
            // Put the pass back exactly as it was: a refused command changes nothing.
            let _ = m.game.play_as(pass.color, pass.mv);
            m.moves.extend(record);
            return Err(RefereeError::BadMove(number));
        }
        m.handle_restore(number);
        if let Move::Play(Point(p)) = mv {
            m.known.remove(&usize::from(p));
        }
        self.record_move(color, mv, now, false);
        self.emit(EventKind::Correction {
            number,
            was: "pass".into(),
            now: go::move_name(mv, size),
            reason: "restored by the arbiter".into(),
            time_left_ms: None,
            periods_left: None,
        });
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
        Ok(())
    }
}
