//! A player late at the start of a game (CN2002 22.1-22.4): the clock's deduction, the alert, the loss beyond the limit.

use goban_rules::{Color, GameResult, WinBy};

use crate::Timestamp;
use crate::error::RefereeError;
use crate::infraction::{InfractionKind, InfractionStatus};
use crate::referee::Referee;

impl Referee {
    /// CN2002 22.1-22.4, declared by the arbiter `by`.
    ///
    /// Refused once `color` has moved (a player who has moved was not absent at the start),
    /// unless the game was adjourned: then lateness is not this article's business, the
    /// clock simply ran (22.1) and the declaration only records it. Within the limit the
    /// absence is deducted twice over and the alert is closed at once, ruled by `by`:
    /// there is nothing left to rule. Beyond it the alert advises the loss (22.1-22.2),
    /// applied at once when the tournament sanctions `late_start` automatically.
    pub(crate) fn handle_late_start(
        &mut self,
        color: Color,
        absent_ms: u64,
        by: &str,
    ) -> Result<(), RefereeError> {
        let now = self.now;
        let m = self.game.as_ref().ok_or(RefereeError::NoGame)?;
        let adjourned = m.audit.entries().iter().any(|e| e.action == "seal");
        if adjourned {
            return Ok(());
        }
        if m.moves.iter().any(|r| r.color == color) {
            return Err(RefereeError::WrongPhase(
                "a late start is declared before the late player's first move (CN2002 22.1)",
            ));
        }
        let m = self.game.as_mut().ok_or(RefereeError::NoGame)?;
        let late = m.clock.late_start(now, color, absent_ms)?;
        let what = if late.forfeit {
            format!(
                "{color} absent {} ms, beyond the {} ms limit: the game is lost ({})",
                late.absent_ms, late.limit_ms, late.article
            )
        } else {
            format!(
                "{color} absent {} ms: {} ms deducted on top, {} ms in all ({})",
                late.absent_ms,
                late.deducted_ms,
                late.deducted_ms + late.already_charged_ms,
                late.article
            )
        };
        let evidence = vec![
            (
                Timestamp(now.0.saturating_sub(absent_ms)),
                "clock started".to_owned(),
            ),
            (now, what),
        ];
        let auto = self
            .config
            .auto_sanction
            .contains(&InfractionKind::LateStart);
        self.raise_as(
            InfractionKind::LateStart,
            Some(color),
            0,
            Vec::new(),
            evidence,
            late.forfeit && auto,
        );
        if !late.forfeit {
            self.close_late_alert(late.article, by);
        }
        self.emit_clock();
        Ok(())
    }

    /// The alert just raised records a deduction already made: sanctioned by `by`, no ruling left.
    fn close_late_alert(&mut self, article: &str, by: &str) {
        let Some(m) = self.game.as_mut() else { return };
        let Some(index) = m.audit.infractions().len().checked_sub(1) else {
            return;
        };
        let Some(alert) = m.audit.infraction_mut(index) else {
            return;
        };
        alert.status = InfractionStatus::Sanctioned;
        alert.sanction_applied = true;
        alert.ruled_by = Some(by.to_owned());
        alert.sanction = if article == "CN2002 22.4" {
            "no deduction: the absent player's clock ran, counted out in byo-yomi (CN2002 22.4)"
        } else {
            "absent time deducted twice over (CN2002 22.1-22.2)"
        }
        .to_owned();
        self.emit_infraction_changed(index);
    }

    /// The late player loses (22.1-22.2); when the opponent already lost so, both lose (22.3).
    pub(crate) fn lose_late(&mut self, player: Color) {
        let Some(m) = self.game.as_mut() else { return };
        let opponent_lost = GameResult::Win {
            winner: player,
            by: WinBy::Forfeit,
        };
        if m.result() == Some(opponent_lost) {
            // Both lose: no winner; the tournament scores it a loss for each (CN2002 22.3).
            m.clear_result();
            self.finish_by(GameResult::NoResult);
        } else {
            self.lose(player, WinBy::Forfeit);
        }
    }
}
