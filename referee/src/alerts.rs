//! Raising alerts, applying sanctions (automatically or by ruling) and the arbiter's rulings; "one act, one alert".

use goban_rules::{Color, GameResult, Move, Ruleset, WinBy};

use crate::Timestamp;
use crate::error::RefereeError;
use crate::event::EventKind;
use crate::go;
use crate::infraction::{
    Infraction, InfractionId, InfractionKind, InfractionStatus, sanction_text,
};
use crate::input::RulingAction;
use crate::referee::Referee;
use crate::state::Phase;

/// Kinds whose automatic sanction is only a warning or a loss, which a dismissal can undo.
fn undoable(kind: InfractionKind) -> bool {
    !matches!(
        kind,
        InfractionKind::ForbiddenPoint
            | InfractionKind::KoViolation
            | InfractionKind::DoubleMove
            | InfractionKind::WrongColour
    )
}

impl Referee {
    /// Raises an alert; applies its sanction at once when the tournament set the kind automatic.
    pub(crate) fn raise(
        &mut self,
        kind: InfractionKind,
        player: impl Into<Option<Color>>,
        move_number: u32,
        points: Vec<usize>,
        evidence: Vec<(Timestamp, String)>,
    ) {
        let auto = self.config.auto_sanction.contains(&kind);
        self.raise_as(kind, player.into(), move_number, points, evidence, auto);
    }

    /// Raises an alert, sanctioning it at once when `auto`.
    pub(crate) fn raise_as(
        &mut self,
        kind: InfractionKind,
        player: Option<Color>,
        move_number: u32,
        points: Vec<usize>,
        evidence: Vec<(Timestamp, String)>,
        auto: bool,
    ) {
        let size = self.size;
        let now = self.now;
        // The readings and presses that led to it, with the alert's own findings (bounded),
        // each with the board as read then and the points it is about.
        let evidence = self
            .timeline
            .evidence(evidence, self.sight.physical(), &points);
        let Some(m) = self.game.as_mut() else { return };
        let ruleset = m.ruleset;
        let index = m.raise_alert(|id| Infraction {
            id,
            kind,
            article: kind.article(ruleset).to_owned(),
            player,
            move_number,
            points: points.iter().map(|&p| go::name(p, size)).collect(),
            status: InfractionStatus::Open,
            at: now.to_rfc3339(),
            sanction: sanction_text(kind, ruleset, move_number),
            sanction_applied: false,
            evidence: crate::timeline::evidence_lines(evidence, size),
            note: String::new(),
            ruled_by: None,
            taken_by: None,
            taken_at: None,
        });
        let infraction = m.audit.infractions()[index].clone();
        self.emit(EventKind::InfractionRaised { infraction });
        if auto {
            self.apply_sanction(index);
            self.emit_infraction_changed(index);
        }
    }

    pub(crate) fn emit_infraction_changed(&mut self, index: usize) {
        if let Some(infraction) = self
            .game
            .as_ref()
            .and_then(|m| m.audit.infraction(index))
            .cloned()
        {
            self.emit(EventKind::InfractionChanged { infraction });
        }
    }

    /// An arbiter's ruling on an alert; the sensors cannot overturn it (referee-notes.md, property 6).
    ///
    /// `confirm` and `sanction` apply the sanction the article gives; `dismiss` closes the
    /// alert and undoes an automatic sanction's warning or loss; an alert takes one ruling:
    /// a second one is refused with the first one's outcome (docs/referee.md "Rulings").
    pub(crate) fn handle_ruling(
        &mut self,
        id: &InfractionId,
        action: RulingAction,
        note: String,
        by: &str,
    ) -> Result<(), RefereeError> {
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let index = m.audit.index_of(id)?;
        let alert = &m.audit.infractions()[index];
        if let Some(earlier) = &alert.ruled_by {
            return Err(RefereeError::AlreadyRuled {
                id: id.0.clone(),
                status: alert.status,
                by: earlier.clone(),
            });
        }
        let kind = alert.kind;
        if action == RulingAction::Convert && kind != InfractionKind::TimeForfeit {
            return Err(RefereeError::BadRuling("convert".into()));
        }
        if action == RulingAction::Dismiss && alert.sanction_applied && !undoable(kind) {
            return Err(RefereeError::BadRuling(format!(
                "dismiss: the automatic sanction of {kind} changed the game record; \
                 correct it with /moves/{{n}}/void or /restore, then confirm"
            )));
        }
        match action {
            RulingAction::Confirm | RulingAction::Sanction => {
                if !m.audit.infractions()[index].sanction_applied {
                    self.apply_sanction(index);
                }
            }
            RulingAction::Dismiss => self.undo_sanction(index),
            RulingAction::Convert => self.convert_time_forfeit(index)?,
        }
        if let Some(alert) = self
            .game
            .as_mut()
            .and_then(|m| m.audit.infraction_mut(index))
        {
            alert.note = note;
            alert.ruled_by = Some(by.to_owned());
            match action {
                RulingAction::Confirm => alert.status = InfractionStatus::Confirmed,
                RulingAction::Dismiss => alert.status = InfractionStatus::Dismissed,
                _ => {}
            }
        }
        self.emit_infraction_changed(index);
        self.refresh_guidance();
        self.emit(EventKind::StateChanged);
        Ok(())
    }

    /// Dismissal of an applied sanction: its warning is withdrawn and a loss it caused lifted.
    fn undo_sanction(&mut self, index: usize) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        let Some(alert) = m.audit.infraction_mut(index) else {
            return;
        };
        if !alert.sanction_applied {
            return;
        }
        alert.sanction_applied = false;
        let (kind, Some(player)) = (alert.kind, alert.player) else {
            return;
        };
        if kind.sanction_warns(m.ruleset) {
            m.audit.handle_withdrawn_warning(player);
        }
        let by_this = matches!(
            m.result(),
            Some(GameResult::Win { winner, by: WinBy::Forfeit | WinBy::Time }) if winner == player.opponent()
        );
        if by_this && m.phase == Phase::Finished {
            m.clear_result();
            m.phase = Phase::Playing;
            m.clock.resume(now);
            self.emit(EventKind::Phase {
                phase: Phase::Playing,
            });
            self.emit_clock();
        }
    }
    /// Applies the sanction of the ruleset (digest table).
    pub(crate) fn apply_sanction(&mut self, index: usize) {
        let Some(m) = self.game.as_mut() else { return };
        let Some(alert) = m.audit.infraction_mut(index) else {
            return;
        };
        alert.status = InfractionStatus::Sanctioned;
        alert.sanction_applied = true;
        let (kind, number) = (alert.kind, alert.move_number);
        // No one to sanction when no player can be known (a knocked board).
        let Some(player) = alert.player else { return };
        let ruleset = m.ruleset;
        match kind {
            InfractionKind::ForbiddenPoint | InfractionKind::KoViolation => {
                self.void_as_pass(player)
            }
            InfractionKind::DoubleMove if ruleset == Ruleset::Jk => {
                self.lose(player, WinBy::Forfeit)
            }
            InfractionKind::DoubleMove => self.void_double_move(player, number),
            InfractionKind::WrongColour if number <= 10 => {
                // CN2002 17.1: up to move 10 the colours are corrected by swapping the players.
                m.swap_players();
            }
            InfractionKind::TimeForfeit => self.lose(player, WinBy::Time),
            InfractionKind::LateStart => self.lose_late(player),
            _ => {}
        }
        if kind.sanction_warns(ruleset) {
            self.warn(player);
        }
    }

    /// A forbidden or ko stone counts as a pass (CN2002 19, 18.3); the press that follows completes it.
    fn void_as_pass(&mut self, player: Color) {
        let now = self.now;
        let Some(m) = self.game.as_mut() else { return };
        if m.void_pending != Some(player) || m.game.to_move() != player {
            return;
        }
        m.void_pending = None;
        self.record_move(player, Move::Pass, now, true);
    }

    /// CN2002 17.2: the second move is void; the stone goes off the board.
    fn void_double_move(&mut self, player: Color, number: u32) {
        let Some(m) = self.game.as_mut() else { return };
        let last = m
            .game
            .moves()
            .last()
            .map(|l| (l.color, l.mv, l.out_of_turn));
        if m.move_count() != number {
            return;
        }
        if let Some((c, Move::Play(p), true)) = last.filter(|l| l.0 == player) {
            m.game.undo();
            m.moves.pop();
            m.provisional = false;
            m.known.insert(p.index(), go::reading_of(c));
            self.emit(EventKind::Correction {
                number,
                was: go::name(p.index(), self.size),
                now: "none".into(),
                reason: "double move voided (CN2002 17.2)".into(),
                time_left_ms: None,
                periods_left: None,
            });
        }
    }

    /// One warning (CN2002 24); a second one loses under cn2002 (24.2).
    fn warn(&mut self, player: Color) {
        let Some(m) = self.game.as_mut() else { return };
        let warnings = m.audit.handle_warning(player);
        if m.ruleset == Ruleset::Cn2002 && warnings >= 2 {
            self.lose(player, WinBy::Forfeit);
        }
    }

    /// `player` loses the game.
    pub(crate) fn lose(&mut self, player: Color, by: WinBy) {
        self.finish_by(GameResult::Win {
            winner: player.opponent(),
            by,
        });
    }

    /// CN2002 22.5: the flag fall becomes a pass and the same byo-yomi continues.
    fn convert_time_forfeit(&mut self, index: usize) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let player = m.audit.infractions()[index]
            .player
            .ok_or(RefereeError::WrongPhase("the alert names no player"))?;
        m.clock.convert_forfeit(now, player)?;
        if let Some(alert) = m.audit.infraction_mut(index) {
            alert.status = InfractionStatus::Converted;
        }
        m.press_turn = player.opponent();
        let claim = crate::match_state::Claim {
            color: player,
            at: now,
            switched: true,
            time_left: None,
            periods_left: None,
        };
        if m.result().is_some() {
            // The forfeit had ended the game: play resumes.
            m.clear_result();
            m.phase = crate::state::Phase::Playing;
        }
        self.record_pass(player, claim, false);
        self.emit_clock();
        Ok(())
    }
}
